/**
 * The task store contract, run against the stores: memory (two engines on one store object
 * play two replicas), Redis (two stores with one prefix on a real redis-server, as two
 * replicas have) and the Durable Object store (one store object, as the one object serving a
 * Worker's requests holds it, on a storage kept in a Map: test/e2e/durable-objects.test.ts runs it
 * on workerd). Each "replica" is the runtime's per-process Tasks over its own store link.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { createClient } from "redis";
import { STOPPED, Tasks, type LiveTask } from "../../packages/runtime/src/server/tasks/tasks.js";
import type { TaskCaller } from "../../packages/runtime/src/server/engine/owner.js";
import { memoryTaskStore, type TaskRecord, type TaskStore, type TaskStoreLimits } from "@mcpgen/runtime/server/tasks";
import { redisTaskStore } from "@mcpgen/runtime/server/redis";
import { durableTaskStore } from "@mcpgen/runtime/server/durable";
import { mapStorage, type MapStorage } from "../helpers/mapStorage.js";
import { redisPath, startRedis, type RedisServer } from "../helpers/redis.js";
import { sleep, until, untilValue } from "../helpers/wait.js";

let redis: RedisServer;
beforeAll(async () => {
  redis = await startRedis();
});
afterAll(async () => {
  await redis?.stop();
});

let closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.reverse()) await close();
  closers = [];
});

/** Five seconds for each thing awaited here, the budget these polls have always had. */
const WAIT = { timeout: 5_000 };

/** Callers: the era and owner a request speaks for (the tasks below are created by them). */
const legacy = (owner: string): TaskCaller => ({ era: "legacy", owner });
const modern = (owner: string): TaskCaller => ({ era: "modern", owner });
const FORM = { mode: "form", message: "Name?", requestedSchema: { type: "object", properties: { name: { type: "string" } } } };
let prefixes = 0;

/** Two replicas on one store (memory and durable: one object; Redis: two stores, one prefix). */
async function replicas(
  kind: "memory" | "redis" | "durable",
  options: { leaseMs?: number; taskTtlMs?: number } & TaskStoreLimits = {},
): Promise<[Tasks, Tasks, () => TaskStore]> {
  const errors: unknown[] = [];
  const report = (error: unknown) => errors.push(error);
  closers.push(async () => expect(errors).toEqual([]));
  let make: () => TaskStore;
  const { taskTtlMs: _, ...storeOptions } = options;
  if (kind === "memory" || kind === "durable") {
    const shared = kind === "memory" ? memoryTaskStore(storeOptions) : durableTaskStore(mapStorage(), storeOptions);
    closers.push(() => shared.close());
    make = () => shared;
  } else {
    const prefix = `test${++prefixes}:`;
    make = () => redisTaskStore({ url: redis.url, prefix, ...storeOptions });
  }
  const one = async () => {
    const store = make();
    const tasks = new Tasks({ taskStore: store, ...(options.taskTtlMs === undefined ? {} : { taskTtlMs: options.taskTtlMs }) }, report);
    await tasks.open();
    closers.push(async () => {
      await tasks.close();
      if (kind === "redis") await store.close();
    });
    return tasks;
  };
  return [await one(), await one(), make];
}

describe.each(["memory", "redis", "durable"] as const)("task store contract: %s", (kind) => {
  it("creates a task one replica runs and every replica reads and lists (by owner only)", async () => {
    const [a, b] = await replicas(kind);
    const live = await a.create("legacy", "owner-1", {});
    expect(await b.get(live.id, legacy("owner-1"))).toMatchObject({ id: live.id, era: "legacy", owner: "owner-1", status: "working" });
    expect((await b.list("owner-1", undefined, 100)).tasks.map((t) => t.id)).toEqual([live.id]);
    expect(await b.list("owner-2", undefined, 100)).toEqual({ tasks: [] });
    await expect(b.get("no-such-task", legacy("owner-1"))).rejects.toMatchObject({ code: -32602 });
    await a.finish(live, { result: { content: [{ type: "text", text: "done" }] } });
    expect(await b.get(live.id, legacy("owner-1"))).toMatchObject({ status: "completed", outcome: { result: { content: [{ type: "text", text: "done" }] } } });
  });

  it("ends a task once: a finish after a cancel changes nothing, and racing replicas leave one outcome", async () => {
    const [a, b] = await replicas(kind);
    const first = await a.create("legacy", "o", {});
    expect(await b.cancel(first.id, "stop")).toMatchObject({ status: "cancelled", statusMessage: "stop" });
    expect(await a.finish(first, { result: { content: [] } })).toBeUndefined();
    expect(await a.get(first.id, legacy("o"))).toMatchObject({ status: "cancelled", statusMessage: "stop" });
    expect((await a.get(first.id, legacy("o"))).outcome).toBeUndefined();

    for (let i = 0; i < 10; i++) {
      const live = await a.create("modern", "o", {});
      const [finished, cancelled] = await Promise.all([a.finish(live, { result: { content: [{ type: "text", text: "won" }] } }), b.cancel(live.id)]);
      // Exactly one of them wrote, and what every replica reads is what it wrote, whole.
      expect([finished, cancelled].filter((w) => w !== undefined)).toHaveLength(1);
      const read = await b.get(live.id, modern("o"));
      expect(read).toEqual(finished ?? cancelled);
      expect(read.status === "completed" ? read.outcome : { none: true }).toEqual(
        read.status === "completed" ? { result: { content: [{ type: "text", text: "won" }] } } : { none: true },
      );
    }
  });

  it("forgets a task when its ttl passes, and cancels it where it runs", async () => {
    const [a, b] = await replicas(kind);
    const live = await a.create("legacy", "o", {}, 300);
    expect((await b.get(live.id, legacy("o"))).ttlMs).toBe(300);
    // Past the ttl of 300 ms: the task must be gone by now.
    await sleep(450);
    await expect(b.get(live.id, legacy("o"))).rejects.toMatchObject({ code: -32602 });
    expect(await b.list("o", undefined, 100)).toEqual({ tasks: [] });
    // The runner's ttl check (once a second) aborts the handler.
    await until(() => live.controller.signal.aborted, "the runner's ttl check to abort the handler", { timeout: 3_000 });
  });

  it("tasks/cancel on one replica aborts the handler on the one running it, and tells the owner's connection", async () => {
    const [a, b] = await replicas(kind);
    const sent: Record<string, unknown>[] = [];
    const live = await a.create("legacy", "session-1", {}, undefined, async (params) => void sent.push(params));
    expect(await b.cancel(live.id)).toMatchObject({ status: "cancelled" });
    await until(() => live.controller.signal.aborted, "the cancel to abort the handler on its runner", WAIT);
    expect(String(live.controller.signal.reason)).toContain("Cancelled by the client");
    await until(() => sent.length > 0, "the status notification to the owner's connection", WAIT);
    expect(sent).toEqual([
      {
        taskId: live.id,
        status: "cancelled",
        statusMessage: "Cancelled by the client",
        createdAt: expect.any(String),
        lastUpdatedAt: expect.any(String),
        ttl: 3600000,
        pollInterval: 500,
      },
    ]);
  });

  it("tasks/update on one replica answers the question waiting on the one running it; tasks/get anywhere shows the questions", async () => {
    const [a, b] = await replicas(kind);
    const live: LiveTask = await a.create("modern", "o", { elicitation: {} });
    const answer = a.channel(live).ask({ method: "elicitation/create", params: FORM }, "who");
    const asked = await untilValue(
      () => b.get(live.id, modern("o")),
      (t) => t.status === "input_required",
      "the question on the other replica",
      WAIT,
    );
    expect(b.modernView(asked, true).inputRequests).toEqual({ who: { method: "elicitation/create", params: FORM } });
    // An invalid answer is ignored; the valid one reaches the handler.
    await b.update(asked, { who: { action: "maybe" } });
    await b.update(asked, { who: { action: "accept", content: { name: "Ada" } } });
    expect(await answer).toEqual({ action: "accept", content: { name: "Ada" } });
    const after = await untilValue(
      () => b.get(live.id, modern("o")),
      (t) => t.status === "working",
      "the answered task to work again",
      WAIT,
    );
    expect(after.inputRequests).toBeUndefined();
  });

  it("tasks/result waiting on one replica wakes when the task ends on another", async () => {
    const [a, b] = await replicas(kind);
    const live = await a.create("legacy", "o", {});
    const waiting = b.ended(live.id, legacy("o"), new AbortController().signal);
    // Nothing outside shows when B has started to wait: a pause, so that the task ends while it waits (ending first would pass too, through another path).
    await sleep(50);
    await a.finish(live, { error: { code: -32603, message: "boom" } });
    expect(await waiting).toMatchObject({ status: "failed", outcome: { error: { code: -32603, message: "boom" } } });
  });

  it("keeps at most maxStoredResultBytes of results: a new one evicts the finished tasks first in line, never a running one", async () => {
    const [a, b] = await replicas(kind, { maxStoredResultBytes: 3000, maxTaskResultBytes: 2000 });
    // 946 bytes of JSON each: three fit in 3,000 bytes, four do not.
    const result = { result: { content: [{ type: "text", text: "x".repeat(900) }] } };
    const running = await a.create("legacy", "o", {});
    const done: LiveTask[] = [];
    for (let i = 0; i < 4; i++) {
      const live = await (i % 2 === 0 ? a : b).create("legacy", "o", {});
      await (i % 2 === 0 ? a : b).finish(live, result);
      done.push(live);
    }
    await expect(b.get(done[0]!.id, legacy("o"))).rejects.toMatchObject({ code: -32602 });
    for (const live of done.slice(1)) expect(await b.get(live.id, legacy("o"))).toMatchObject({ status: "completed", outcome: result });
    expect(await b.get(running.id, legacy("o"))).toMatchObject({ status: "working" });
  });

  it("one owner's results never push out another's: past its share, its own finished tasks go", async () => {
    const [a, b] = await replicas(kind, { maxStoredResultBytes: 10_000, maxStoredResultBytesPerOwner: 3000, maxTaskResultBytes: 2000 });
    // 946 bytes of JSON each: three fit in one owner's 3,000 bytes, ten in the whole.
    const result = { result: { content: [{ type: "text", text: "x".repeat(900) }] } };
    const victim = await a.create("legacy", "victim", {});
    await a.finish(victim, result);
    const flood: LiveTask[] = [];
    for (let i = 0; i < 12; i++) {
      const live = await (i % 2 === 0 ? a : b).create("legacy", "flooder", {});
      await (i % 2 === 0 ? a : b).finish(live, result);
      flood.push(live);
    }
    expect(await b.get(victim.id, legacy("victim"))).toMatchObject({ status: "completed", outcome: result });
    for (const live of flood.slice(0, 9)) await expect(b.get(live.id, legacy("flooder"))).rejects.toMatchObject({ code: -32602 });
    for (const live of flood.slice(9)) expect(await a.get(live.id, legacy("flooder"))).toMatchObject({ status: "completed", outcome: result });
  });

  it("past maxTasksPerOwner an owner's own finished task goes, and when all its tasks run it is refused with -32005; others go on", async () => {
    const [a, b] = await replicas(kind, { maxTasks: 100, maxTasksPerOwner: 3 });
    const done = await a.create("legacy", "busy", {});
    await a.finish(done, { result: { content: [] } });
    const running = [await a.create("legacy", "busy", {}), await b.create("legacy", "busy", {})];
    // A third running task: the finished one makes room.
    running.push(await b.create("legacy", "busy", {}));
    await expect(a.get(done.id, legacy("busy"))).rejects.toMatchObject({ code: -32602 });
    await expect(a.create("legacy", "busy", {})).rejects.toMatchObject({
      code: -32005,
      message: "Too many tasks of yours: the 3 tasks kept for you are all running (the server's maxTasksPerOwner); retry when one has ended",
      data: { limit: 3 },
    });
    // Another owner, and callers nothing identifies, are not held back.
    expect((await b.create("legacy", "someone else", {})).id).toMatch(/^[\w-]{22}$/);
    for (let i = 0; i < 5; i++) await a.create("modern", undefined, {});
    for (const live of running) expect(await b.get(live.id, legacy("busy"))).toMatchObject({ status: "working" });
  });

  it("when room is needed overall, the requester's own finished tasks go first, then those of nobody in particular, then anyone's", async () => {
    const [a, b] = await replicas(kind, { maxTasks: 4, maxTasksPerOwner: 4 });
    const finish = async (owner: string | undefined) => {
      const live = await a.create(owner === undefined ? "modern" : "legacy", owner, {});
      await a.finish(live, { result: { content: [] } });
      return live;
    };
    // Ended in this order: B's, nobody's, A's; then A runs one. All four places are taken.
    const ofB = await finish("B");
    const ofNobody = await finish(undefined);
    const ofA = await finish("A");
    await b.create("legacy", "A", {});
    const gone = async (live: LiveTask, caller: TaskCaller) =>
      await a.get(live.id, caller).then(
        () => false,
        () => true,
      );
    const nobody: TaskCaller = { era: "modern", owner: undefined };
    // A asks for room: its own finished task goes, though B's ended first.
    await b.create("legacy", "A", {});
    expect([await gone(ofB, legacy("B")), await gone(ofNobody, nobody), await gone(ofA, legacy("A"))]).toEqual([false, false, true]);
    // A has no finished task left: nobody's goes before B's.
    await b.create("legacy", "A", {});
    expect([await gone(ofB, legacy("B")), await gone(ofNobody, nobody)]).toEqual([false, true]);
    // Then anyone's.
    await b.create("legacy", "A", {});
    expect(await gone(ofB, legacy("B"))).toBe(true);
    // Four running tasks: a fifth is refused.
    await expect(a.create("legacy", "C", {})).rejects.toMatchObject({
      code: -32005,
      message: expect.stringMatching(/the 4 tasks kept are all running \(the server's maxTasks\)/),
    });
  });

  it("fails a task whose result is over maxTaskResultBytes, keeping the error instead", async () => {
    const [a, b] = await replicas(kind, { maxTaskResultBytes: 2000 });
    const live = await a.create("modern", "o", {});
    // 1,000 characters of 2 bytes each in UTF-8: bytes are counted, not characters.
    const written = await a.finish(live, { result: { content: [{ type: "text", text: "é".repeat(1000) }] } });
    const message = "The task's result was too large to keep: 2050 bytes, more than the server's maxTaskResultBytes (2000)";
    expect(written).toMatchObject({ status: "failed", statusMessage: message, outcome: { error: { code: -32603, message } } });
    expect(await b.get(live.id, { era: "modern", owner: "o" })).toMatchObject({
      status: "failed",
      statusMessage: message,
      outcome: { error: { code: -32603, message } },
    });
  });

  it("lists an owner's tasks a page at a time, in the order of creation, with cursors any replica takes", async () => {
    const [a, b] = await replicas(kind);
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      ids.push((await (i % 2 === 0 ? a : b).create("legacy", "pager", {})).id);
      await a.create("legacy", "someone else", {});
    }
    const first = await a.list("pager", undefined, 2);
    const second = await b.list("pager", first.nextCursor, 2);
    const third = await a.list("pager", second.nextCursor, 2);
    expect([first, second, third].map((page) => page.tasks.map((t) => t.id))).toEqual([ids.slice(0, 2), ids.slice(2, 4), ids.slice(4)]);
    expect(third.nextCursor).toBeUndefined();
    expect((await b.list("pager", undefined, 5)).nextCursor).toBeUndefined();
    for (const cursor of ["tasks.-1", "tools.2", 7, "tasks.zzzzzzzzzzzzz"]) {
      await expect(a.list("pager", cursor, 2)).rejects.toMatchObject({ code: -32602, message: expect.stringMatching(/^Invalid cursor/) });
    }
  });
});

// A Durable Object store has no leases: its one process is the object (durable-task-store.test.ts restarts it).
describe.each(["memory", "redis"] as const)("task store leases: %s", (kind) => {
  it("a task whose process stops (its lease lapses) is failed by the next reader with -32603", async () => {
    const [a, b] = await replicas(kind, { leaseMs: 150 });
    const live = await a.create("legacy", "o", {});
    const other = await b.create("legacy", "o", {});
    await sleep(400);
    // Leases renewed: nothing lapsed while both run (the pause is over two leases long).
    expect((await b.get(live.id, legacy("o"))).status).toBe("working");
    const waiting = b.ended(live.id, legacy("o"), new AbortController().signal);
    // A stops renewing (as a killed process does): its tasks stay "working" until a reader looks.
    await a.close();
    const failed = await waiting;
    expect(failed).toMatchObject({ status: "failed", statusMessage: STOPPED, outcome: { error: { code: -32603, message: STOPPED } } });
    expect(b.legacyView(await b.get(live.id, legacy("o")))).toMatchObject({ status: "failed", statusMessage: STOPPED });
    // B's own task keeps its lease.
    expect((await b.get(other.id, legacy("o"))).status).toBe("working");
  });
});

describe("Durable Object store", () => {
  /** An engine on a store read from `storage`, as the object gets one each time it starts. */
  async function start(storage: MapStorage, limits: TaskStoreLimits = {}, taskTtlMs?: number): Promise<Tasks> {
    const tasks = new Tasks({ taskStore: durableTaskStore(storage, limits), ...(taskTtlMs === undefined ? {} : { taskTtlMs }) }, (error) => {
      throw error;
    });
    await tasks.open();
    closers.push(() => tasks.close());
    return tasks;
  }
  const keysOf = (storage: MapStorage, id: string) => [...storage.map.keys()].filter((key) => key.includes(id));

  it("a task outlives the object: its result is read back whole after a restart, a running one fails as its process stopped", async () => {
    const storage = mapStorage();
    const first = await start(storage);
    // 100,000 characters of 2 bytes in UTF-8 and an emoji across a chunk's end: four chunks.
    const text = `${"é".repeat(32_767)}😀${"é".repeat(67_232)}`;
    const done = await first.create("modern", "o", {});
    await first.finish(done, { result: { content: [{ type: "text", text }] } });
    const running = await first.create("legacy", "o", {});
    const after = await first.create("legacy", "o", {});
    await first.finish(after, { error: { code: -32603, message: "boom" } });
    expect(keysOf(storage, done.id)).toHaveLength(5);
    // The isolate goes (no close: an evicted object is not told); a new one reads the storage.
    const second = await start(storage);
    expect(await second.get(done.id, modern("o"))).toMatchObject({ status: "completed", outcome: { result: { content: [{ type: "text", text }] } } });
    expect(await second.get(running.id, legacy("o"))).toMatchObject({
      status: "failed",
      statusMessage: STOPPED,
      outcome: { error: { code: -32603, message: STOPPED } },
    });
    expect(await second.get(after.id, legacy("o"))).toMatchObject({ status: "failed", outcome: { error: { message: "boom" } } });
    // The failure is kept, and the order of creation goes on: a new task lists after the old ones.
    const third = await start(storage);
    expect(await third.get(running.id, legacy("o"))).toMatchObject({ status: "failed", statusMessage: STOPPED });
    const next = await third.create("legacy", "o", {});
    const pages = [await third.list("o", undefined, 2)];
    pages.push(await third.list("o", pages[0]!.nextCursor, 2));
    expect(pages.flatMap((page) => page.tasks.map((t) => t.id))).toEqual([done.id, running.id, after.id, next.id]);
  });

  it("removes every key of a task it forgets: evicted by the limits, or past its ttl, also while the object was gone", async () => {
    const storage = mapStorage();
    const limits = { maxTasks: 2 };
    const first = await start(storage, limits, 300);
    const big = await first.create("legacy", "o", {});
    await first.finish(big, { result: { content: [{ type: "text", text: "x".repeat(70_000) }] } });
    const small = await first.create("legacy", "o", {});
    await first.finish(small, { result: { content: [] } });
    expect(keysOf(storage, big.id)).toHaveLength(4);
    // A third task evicts the first to end, with its chunks.
    const third = await first.create("legacy", "o", {});
    expect(keysOf(storage, big.id)).toEqual([]);
    await first.finish(third, { result: { content: [] } });
    // Expired while no object ran: dropped when the next one starts.
    await sleep(400);
    await start(storage, limits, 300);
    expect([...storage.map.keys()]).toEqual([]);
  });

  it("reads back only the records when it starts (results when asked for), and a record with large questions in chunks", async () => {
    const storage = mapStorage();
    const first = await start(storage);
    const done = await first.create("legacy", "o", {});
    await first.finish(done, { result: { content: [{ type: "text", text: "r".repeat(200_000) }] } });
    // A task's questions can be as large as a handler makes them: its record goes in chunks.
    const store = durableTaskStore(storage);
    await store.open();
    const now = Date.now();
    const record: TaskRecord = { id: "asking", era: "modern", status: "working", createdAt: "t", lastUpdatedAt: "t", ttlMs: 60_000, expiresAt: now + 60_000 };
    await store.create(record);
    const questions = { q: { method: "elicitation/create" as const, params: { message: "?".repeat(100_000) } } };
    await store.transition("asking", { status: "input_required", inputRequests: questions }, "t2");
    expect([...storage.map.keys()].filter((key) => key.startsWith("mcpgen/record/asking/"))).toHaveLength(4);
    // What a start reads: the records, not the 200,000 characters of the result.
    let read = 0;
    const counted: MapStorage = {
      ...storage,
      list: async (options) => {
        const found = await storage.list(options);
        for (const value of found.values()) read += JSON.stringify(value).length;
        return found;
      },
    };
    const again = durableTaskStore(counted);
    await again.open();
    expect(read).toBeLessThan(2_000);
    expect((await again.get("asking"))?.task.inputRequests).toEqual(questions);
    expect((await again.get(done.id))?.task.outcome).toEqual({ result: { content: [{ type: "text", text: "r".repeat(200_000) }] } });
    // Back to work: the record is small again, and its chunks go.
    await again.transition("asking", { status: "working" }, "t3");
    await again.close();
    expect([...storage.map.keys()].filter((key) => key.startsWith("mcpgen/record/"))).toEqual([]);
    await store.close();
  });

  it("an open that failed (the storage did not answer) is tried again, and reads the tasks once", async () => {
    const storage = mapStorage();
    const first = await start(storage);
    const done = await first.create("legacy", "o", {});
    await first.finish(done, { result: { content: [] } });
    let fail = true;
    const flaky: MapStorage = {
      ...storage,
      list: async (options) => {
        if (fail) throw new Error("storage unavailable");
        return storage.list(options);
      },
    };
    const store = durableTaskStore(flaky, { maxTasks: 1 });
    await expect(store.open()).rejects.toThrow("storage unavailable");
    fail = false;
    await store.open();
    await store.open();
    expect((await store.get(done.id))?.task.status).toBe("completed");
    // Counted once: with maxTasks 1, a second reading would have made the finished task look like two.
    const { outcome: _outcome, ...record } = (await store.get(done.id))!.task;
    const next = { ...record, id: "next", status: "working" as const };
    await store.create(next);
    expect(await store.get(done.id)).toBeUndefined();
    await store.close();
  });

  it("a restart keeps the limits' order: with a smaller maxTasks, the tasks that ended first go, running ones stay", async () => {
    const storage = mapStorage();
    const first = await start(storage);
    const ended: LiveTask[] = [];
    for (let i = 0; i < 3; i++) {
      const live = await first.create("legacy", "o", {});
      await first.finish(live, { result: { content: [] } });
      ended.push(live);
    }
    const running = await first.create("legacy", "o", {});
    const second = await start(storage, { maxTasks: 3 });
    await expect(second.get(ended[0]!.id, legacy("o"))).rejects.toMatchObject({ code: -32602 });
    for (const live of ended.slice(1)) expect(await second.get(live.id, legacy("o"))).toMatchObject({ status: "completed" });
    expect(await second.get(running.id, legacy("o"))).toMatchObject({ status: "failed" });
    // Eviction goes on in the order they ended.
    await second.create("legacy", "p", {});
    await expect(second.get(ended[1]!.id, legacy("o"))).rejects.toMatchObject({ code: -32602 });
    expect(await second.get(ended[2]!.id, legacy("o"))).toMatchObject({ status: "completed" });
  });
});

describe("Redis store", () => {
  it("keeps a task as one hash with the task's ttl, a lease while it runs, and an owner index, under its prefix", async () => {
    const [a] = await replicas("redis");
    const live = await a.create("legacy", "owner-x", {}, 60_000);
    const client = createClient({ url: redis.url });
    await client.connect();
    closers.push(() => client.close());
    const keys = (await client.keys(`test${prefixes}:*`)).sort();
    expect(keys).toEqual([
      `test${prefixes}:all`,
      `test${prefixes}:lease:${live.id}`,
      `test${prefixes}:owner:owner-x`,
      `test${prefixes}:owners`,
      `test${prefixes}:task:${live.id}`,
    ]);
    const ttl = await client.pTTL(`test${prefixes}:task:${live.id}`);
    expect(ttl).toBeGreaterThan(59_000);
    expect(ttl).toBeLessThanOrEqual(60_000);
    await a.finish(live, { result: { content: [] } });
    expect(await client.exists(`test${prefixes}:lease:${live.id}`)).toBe(0);
    expect(await client.hGet(`test${prefixes}:task:${live.id}`, "status")).toBe("completed");
  });

  it("keeps at most maxTasks tasks: a new one evicts the finished task that expires first, and is refused with -32005 when all run", async () => {
    const prefix = `cap${++prefixes}:`;
    const store = redisTaskStore({ url: redis.url, prefix, maxTasks: 3 });
    const tasks = new Tasks({ taskStore: store }, (error) => expect.fail(String(error)));
    await tasks.open();
    closers.push(async () => {
      await tasks.close();
      await store.close();
    });
    // A second replica's store, on the same Redis and prefix: the bound is for all replicas together.
    const other = redisTaskStore({ url: redis.url, prefix, maxTasks: 3 });
    const elsewhere = new Tasks({ taskStore: other }, (error) => expect.fail(String(error)));
    await elsewhere.open();
    closers.push(async () => {
      await elsewhere.close();
      await other.close();
    });
    const first = await tasks.create("legacy", "o", {}, 60_000);
    const second = await elsewhere.create("legacy", "o", {}, 60_000);
    const third = await tasks.create("legacy", "o", {}, 60_000);
    await expect(elsewhere.create("legacy", "o", {}, 60_000)).rejects.toMatchObject({
      code: -32005,
      message: expect.stringMatching(/3 tasks kept are all running/),
    });
    await tasks.finish(first, { result: { content: [] } });
    await tasks.finish(third, { result: { content: [] } });
    const fourth = await elsewhere.create("legacy", "o", {}, 60_000);
    // The finished task that expires first went; the other finished one and the running ones stay.
    await expect(tasks.get(first.id, legacy("o"))).rejects.toMatchObject({ code: -32602 });
    expect(await tasks.get(third.id, legacy("o"))).toMatchObject({ status: "completed" });
    expect(await tasks.get(second.id, legacy("o"))).toMatchObject({ status: "working" });
    expect(await tasks.get(fourth.id, legacy("o"))).toMatchObject({ status: "working" });
    const client = createClient({ url: redis.url });
    await client.connect();
    closers.push(() => client.close());
    expect(await client.zCard(`${prefix}all`)).toBe(3);
    expect(await client.zRange(`${prefix}finished`, 0, -1)).toEqual([third.id]);
  });

  it("a status event says what changed, never the record: a 1 MiB result does not travel to every replica", async () => {
    const [a, b] = await replicas("redis");
    const client = createClient({ url: redis.url });
    await client.connect();
    closers.push(() => client.close());
    const sub = client.duplicate();
    await sub.connect();
    closers.push(() => sub.close());
    const messages: string[] = [];
    await sub.subscribe(`test${prefixes}:events`, (message) => void messages.push(message));
    const changes: { id: string; record?: unknown }[] = [];
    const stopWatching = b.watch({ changed: (change) => void changes.push(change), resync: () => {} });
    closers.push(async () => stopWatching());

    const live = await a.create("legacy", "o", {});
    const result = { result: { content: [{ type: "text", text: "x".repeat(1024 * 1024) }] } };
    await a.finish(live, result);
    await until(() => changes.some((c) => c.id === live.id), "B to hear that the task ended", WAIT);
    await until(() => messages.length === 1, "the event to be published", WAIT);
    // What went through Redis: the task's id, era, owner and status, a few hundred bytes.
    expect(JSON.parse(messages[0]!).event).toEqual({ kind: "status", taskId: live.id, era: "legacy", owner: "o", status: "completed" });
    expect(messages[0]!.length).toBeLessThan(512);
    expect(changes.find((c) => c.id === live.id)).toEqual({ id: live.id, era: "legacy" });
    // B reads the record when it needs it.
    expect(await b.get(live.id, legacy("o"))).toMatchObject({ status: "completed", outcome: result });
  });

  it("drops events it does not know on the channel: another version's whole records, a forged resync", async () => {
    const [, b] = await replicas("redis");
    let resyncs = 0;
    const changes: unknown[] = [];
    const stopWatching = b.watch({ changed: (change) => void changes.push(change), resync: () => void resyncs++ });
    closers.push(async () => stopWatching());
    const client = createClient({ url: redis.url });
    await client.connect();
    closers.push(() => client.close());
    const channel = `test${prefixes}:events`;
    for (const event of [
      { kind: "resync" },
      { kind: "status", task: { id: "x", era: "legacy", status: "completed" } },
      { kind: "status", taskId: "x", era: "legacy", status: "done" },
      { kind: "cancel", taskId: 7, message: "m" },
      "not an object",
    ])
      await client.publish(channel, JSON.stringify({ origin: "elsewhere", event }));
    // Then one this version publishes: it arrives after the others, which changed nothing.
    await client.publish(channel, JSON.stringify({ origin: "elsewhere", event: { kind: "status", taskId: "y", era: "modern", status: "working" } }));
    await until(() => changes.length > 0, "the well-formed event to arrive", WAIT);
    expect(changes).toEqual([{ id: "y", era: "modern" }]);
    expect(resyncs).toBe(0);
  });

  it("when its connection to Redis comes back, a replica's followers read their tasks again (events of the outage may be lost)", async () => {
    const prefix = `path${++prefixes}:`;
    const path = await redisPath(redis);
    closers.push(() => path.close());
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    closers.push(async () => void logged.mockRestore());
    const cutOff = redisTaskStore({ url: path.url, prefix, commandTimeoutMs: 300 });
    const direct = redisTaskStore({ url: redis.url, prefix });
    const [a, b] = [
      new Tasks({ taskStore: cutOff }, (error) => expect.fail(String(error))),
      new Tasks({ taskStore: direct }, (error) => expect.fail(String(error))),
    ];
    for (const [tasks, store] of [
      [a, cutOff],
      [b, direct],
    ] as const) {
      await tasks.open();
      closers.push(async () => {
        await tasks.close();
        await store.close();
      });
    }
    let resyncs = 0;
    const heard: string[] = [];
    const stopWatching = a.watch({ changed: ({ id }) => void heard.push(id), resync: () => void resyncs++ });
    closers.push(async () => stopWatching());
    const live = await b.create("legacy", "o", {});
    const runningOnA = await a.create("legacy", "o", {});

    // A's network to Redis fails while a task ends on B and A's task is cancelled there: the events are lost to A.
    path.cut();
    await b.finish(live, { result: { content: [] } });
    await b.cancel(runningOnA.id);
    await sleep(100);
    expect(heard).not.toContain(live.id);
    expect(resyncs).toBe(0);
    path.mend();
    expect(runningOnA.controller.signal.aborted).toBe(false);
    await until(() => resyncs > 0, "A to read its followed tasks again once Redis is back", WAIT);
    expect(await a.get(live.id, legacy("o"))).toMatchObject({ status: "completed" });
    // The handler of the task cancelled meanwhile stops on A too.
    await until(() => runningOnA.controller.signal.aborted, "A's handler of the cancelled task to stop", WAIT);
    expect(String(runningOnA.controller.signal.reason)).toContain("The task was cancelled");
  });

  it("forgets expired tasks at most 1,000 a script, so no script holds Redis long; counts leave the rest out meanwhile", async () => {
    const prefix = `trim${++prefixes}:`;
    const store = redisTaskStore({ url: redis.url, prefix, maxTasks: 1501 });
    closers.push(() => store.close());
    const record = (id: string, ttlMs: number): TaskRecord => {
      const now = new Date().toISOString();
      return { id, era: "modern", status: "completed", createdAt: now, lastUpdatedAt: now, ttlMs, expiresAt: Date.now() + ttlMs };
    };
    // 3 s: long enough that none expires while the others are made (each creation trims too).
    await Promise.all(Array.from({ length: 1500 }, (_, i) => store.create(record(`short${i}`, 3000))));
    expect(await store.get("short0")).toBeDefined();
    const client = createClient({ url: redis.url });
    await client.connect();
    closers.push(() => client.close());
    await until(async () => (await client.exists(`${prefix}task:short1499`)) === 0, "the short tasks to expire", WAIT);
    await store.create(record("a", 60_000));
    expect(await client.zCard(`${prefix}all`)).toBe(501);
    // The 500 expired ones left are not counted: a full store of 1,501 still takes two more without evicting "a".
    await store.create(record("b", 60_000));
    expect(await client.zCard(`${prefix}all`)).toBe(2);
    expect(await store.get("a")).toBeDefined();
  });

  it("fails to open with a clear message when Redis is unreachable", async () => {
    const store = redisTaskStore({ url: "redis://127.0.0.1:1", prefix: "x:" });
    await expect(store.open()).rejects.toThrow(/The task store cannot reach Redis at redis:\/\/127\.0\.0\.1:1.*redisTaskStore was given a URL/);
  });
});
