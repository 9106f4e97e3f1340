/** The in-memory event store of 2025-era sessions: bounded in events and bytes per session, and in bytes for all sessions. */
import { describe, expect, it } from "vitest";
import { EventBudget, memoryEventStore } from "../../../src/server/http/sessions.js";

const message = (id: number, size: number) => ({ jsonrpc: "2.0" as const, id, result: { text: "x".repeat(size) } });
const jsonBytes = (id: number, size: number) => JSON.stringify(message(id, size)).length;

async function replayed(store: ReturnType<typeof memoryEventStore>, after: string): Promise<number[]> {
  const ids: number[] = [];
  await store.replayEventsAfter(after, { send: async (_id, m) => void ids.push((m as { id: number }).id) });
  return ids;
}

describe("memoryEventStore", () => {
  it("replays a stream's events after an id, from their JSON", async () => {
    const store = memoryEventStore();
    const first = await store.storeEvent("s", message(1, 10));
    await store.storeEvent("other", message(2, 10));
    await store.storeEvent("s", message(3, 10));
    expect(await replayed(store, first)).toEqual([3]);
  });

  it("keeps at most maxBytes of one session, the oldest going first; an event over the whole share is not kept", async () => {
    const size = jsonBytes(0, 1000);
    const store = memoryEventStore(1000, size * 3);
    const ids = [];
    for (let i = 0; i < 10; i++) ids.push(await store.storeEvent("s", message(i, 1000)));
    await expect(replayed(store, ids[5]!)).rejects.toThrow(/unknown event id/);
    expect(await replayed(store, ids[7]!)).toEqual([8, 9]);
    const big = await store.storeEvent("s", message(99, size * 4));
    await expect(replayed(store, big)).rejects.toThrow(/unknown event id/);
  });

  it("keeps all sessions within one budget, the oldest event of any session going first; a closed session gives its bytes back", async () => {
    const size = jsonBytes(0, 1000);
    const budget = new EventBudget(size * 4);
    const [a, b] = [memoryEventStore(1000, 1 << 20, budget), memoryEventStore(1000, 1 << 20, budget)];
    const aIds = [await a.storeEvent("s", message(1, 1000)), await a.storeEvent("s", message(2, 1000))];
    await b.storeEvent("s", message(3, 1000));
    await b.storeEvent("s", message(4, 1000));
    expect(budget.bytes).toBe(size * 4);
    // A fifth event: a's oldest goes.
    await b.storeEvent("s", message(5, 1000));
    expect(budget.bytes).toBe(size * 4);
    await expect(replayed(a, aIds[0]!)).rejects.toThrow(/unknown event id/);
    expect(await replayed(a, aIds[1]!)).toEqual([]);
    b.dispose();
    expect(budget.bytes).toBe(size);
  });
});

describe("EventBudget", () => {
  it("does not keep the events of closed sessions queued: its queue stays in proportion to what is kept", async () => {
    const budget = new EventBudget(1 << 30);
    // One long-lived session whose first event stays, then 20,000 short sessions of one event each.
    const long = memoryEventStore(1000, 1 << 20, budget);
    await long.storeEvent("s", message(0, 10));
    for (let i = 1; i <= 20_000; i++) {
      const short = memoryEventStore(1000, 1 << 20, budget);
      await short.storeEvent("s", message(i, 10));
      short.dispose();
    }
    expect(budget.bytes).toBe(jsonBytes(0, 10));
    expect(budget.queued).toBeLessThan(2_100);
  });
});
