/**
 * The Redis ListStateStore and event bus (packages/runtime/src/server/redis/) on a real
 * redis-server, two "replicas" in one process, each with a Redis connection of its own: what one
 * switches the other reads; opposite switches of one entry made at once end the same on both (and
 * in Redis); a store opened later starts from the switches made; messages that are not the store's
 * are ignored; the relay carries resource updates to the other replica's bus and keeps list changes
 * local.
 */
import { createClient } from "redis";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import type { ListKind } from "../../packages/runtime/src/server/engine/lists.js";
import type { ServerEvent } from "../../packages/runtime/src/server/engine/sdk.js";
import { InMemoryServerEventBus } from "@modelcontextprotocol/server";
import { RedisEventRelay } from "../../packages/runtime/src/server/redis/redisBus.js";
import { RedisLink } from "../../packages/runtime/src/server/redis/redisLink.js";
import { RedisListStateStore } from "../../packages/runtime/src/server/redis/redisLists.js";
import { redisPath, startRedis, type RedisServer } from "../helpers/redis.js";
import { sleep, until, untilValue } from "../helpers/wait.js";

const INITIAL = { tools: ["admin"], resources: [], resourceTemplates: [], prompts: [] } satisfies Record<ListKind, string[]>;
/** The most a change may take to travel through Redis on a loaded machine; a poll returns as soon as it has. */
const WAIT = { timeout: 10_000 };

let redis: RedisServer;
let prefixes = 0;
let closers: (() => Promise<void> | void)[] = [];
beforeAll(async () => {
  redis = await startRedis();
}, 30_000);
afterAll(async () => {
  await redis?.stop();
});
afterEach(async () => {
  for (const close of closers.reverse()) await close();
  closers = [];
});

function link(url = redis.url, commandTimeoutMs = 2_000): RedisLink {
  const made = new RedisLink({ url, commandTimeoutMs, why: "the test", who: "The test" });
  closers.push(() => made.close());
  return made;
}

/** The entries the test's manifest declares. */
const DECLARED = new Set(["tools:admin", "tools:search", "prompts:p", "prompts:hello"]);
const declared = (kind: ListKind, name: string) => DECLARED.has(`${kind}:${name}`);

async function store(prefix: string, through: RedisLink = link()): Promise<RedisListStateStore> {
  const made = new RedisListStateStore(through, prefix, INITIAL, declared);
  await made.open();
  closers.push(() => made.close());
  return made;
}

const disabledTools = (s: RedisListStateStore) => [...s.disabled("tools")].sort();

describe("the Redis list store", () => {
  it("a switch on one replica reaches the other, whose listeners hear of it; a store opened later starts from it", async () => {
    const prefix = `ls${++prefixes}:`;
    const [a, b] = [await store(prefix), await store(prefix)];
    const heard: ListKind[][] = [];
    b.subscribe((kinds) => heard.push([...kinds]));
    a.apply([
      { kind: "tools", name: "search", enabled: false },
      { kind: "tools", name: "admin", enabled: true },
    ]);
    // This replica reads its own switch at once.
    expect(disabledTools(a)).toEqual(["search"]);
    await until(() => disabledTools(b).join() === "search", "the switch to reach the other replica", WAIT);
    expect(heard).toEqual([["tools"]]);
    const late = await store(prefix);
    expect(disabledTools(late)).toEqual(["search"]);
  });

  it("opposite switches of one entry made at once on two replicas end the same on both, and as Redis holds them", async () => {
    const prefix = `ls${++prefixes}:`;
    const [a, b] = [await store(prefix), await store(prefix)];
    for (let round = 0; round < 20; round++) {
      a.apply([{ kind: "prompts", name: "p", enabled: round % 2 === 0 }]);
      b.apply([{ kind: "prompts", name: "p", enabled: round % 2 === 1 }]);
    }
    const admin = createClient({ url: redis.url });
    await admin.connect();
    closers.push(() => admin.close());
    // The 40 switches have all run once the change count is 40; then both replicas end as the hash holds the entry.
    const final = async () => {
      const [seq, held] = await Promise.all([admin.get(`${prefix}lists:seq`), admin.hGet(`${prefix}lists`, "prompts:p")]);
      return { seq, held, a: a.disabled("prompts").has("p"), b: b.disabled("prompts").has("p") };
    };
    const agreed = (s: Awaited<ReturnType<typeof final>>) => s.seq === "40" && s.held !== null && s.a === s.b && s.a === (s.held === "0");
    await untilValue(final, agreed, "all 40 switches to run, and both replicas to agree with the entry Redis holds", WAIT);
    // A while longer: neither replica flips again, and Redis holds the same.
    await sleep(100);
    expect(agreed(await final())).toBe(true);
  });

  it("ignores messages on its channel that are not its own format, and keeps serving", async () => {
    const prefix = `ls${++prefixes}:`;
    const a = await store(prefix);
    const admin = createClient({ url: redis.url });
    await admin.connect();
    closers.push(() => admin.close());
    for (const message of ["", "x", "99999 not json", '99999 [{"kind":"nope","name":"a","enabled":false}]', '99999 {"kind":"tools"}', "-1 []"])
      await admin.publish(`${prefix}lists`, message);
    // A while for them to arrive: none may change anything.
    await sleep(50);
    expect(disabledTools(a)).toEqual(["admin"]);
    // A forged number ahead of Redis's count holds no change back: the channel's order is the order.
    const b = await store(prefix);
    b.apply([{ kind: "tools", name: "search", enabled: false }]);
    await until(() => disabledTools(a).join() === "admin,search", "the new store's switch to reach the first", WAIT);
    expect(disabledTools(b)).toEqual(["admin", "search"]);
  });
});

describe("the Redis list store after an outage", () => {
  it("a replica cut off from Redis writes its switch when Redis is back, and reads the switches it missed; its listeners hear of them", async () => {
    const prefix = `ls${++prefixes}:`;
    const path = await redisPath(redis);
    closers.push(() => path.close());
    const a = await store(prefix, link(path.url, 300));
    const b = await store(prefix);
    const heard: ListKind[][] = [];
    a.subscribe((kinds) => heard.push([...kinds]));
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    closers.push(() => logged.mockRestore());

    // A's network to Redis fails; B's does not.
    path.cut();
    a.apply([{ kind: "tools", name: "search", enabled: false }]);
    // This replica serves its own switch at once; Redis does not take it (no answer within 300 ms).
    expect(disabledTools(a)).toEqual(["admin", "search"]);
    await until(() => logged.mock.calls.some(([line]) => String(line).startsWith("[mcpgen] Redis:")), "the failed switch to be reported", WAIT);
    // Meanwhile B switches an entry: A's subscriber is gone, the message is lost to it.
    b.apply([{ kind: "prompts", name: "hello", enabled: false }]);
    await sleep(100);
    expect(disabledTools(b)).toEqual(["admin"]);
    expect([...a.disabled("prompts")]).toEqual([]);

    // Redis is reachable again: both replicas end with both switches, and A's clients hear of B's.
    path.mend();
    await until(() => disabledTools(b).join() === "admin,search", "A's switch to reach B once Redis is back", WAIT);
    await until(() => a.disabled("prompts").has("hello"), "A to read the switch it missed", WAIT);
    expect(heard).toEqual([["tools"], ["prompts"]]);
    const admin = createClient({ url: redis.url });
    await admin.connect();
    closers.push(() => admin.close());
    expect(await admin.hGetAll(`${prefix}lists`)).toEqual({ "tools:search": "0", "prompts:hello": "0" });
  });
});

describe("the Redis list store and names nobody declared", () => {
  it("ignores a well-formed change naming an entry the manifest does not declare, published or already in Redis", async () => {
    const prefix = `ls${++prefixes}:`;
    const a = await store(prefix);
    const admin = createClient({ url: redis.url });
    await admin.connect();
    closers.push(() => admin.close());
    // A forged PUBLISH: 1,000 names nobody declared, and one that is declared.
    const forged = Array.from({ length: 1000 }, (_, i) => ({ kind: "tools", name: `ghost-${i}`, enabled: false }));
    await admin.publish(`${prefix}lists`, `99999 ${JSON.stringify([...forged, { kind: "tools", name: "search", enabled: false }])}`);
    await until(() => disabledTools(a).includes("search"), "the declared switch to arrive", WAIT);
    expect(disabledTools(a)).toEqual(["admin", "search"]);
    // Written straight into Redis's hash (the PUBLISH above wrote none): a store opened later reads only what is declared.
    await admin.hSet(`${prefix}lists`, { "tools:ghost": "0", "prompts:hello": "0" });
    const b = await store(prefix);
    expect([...b.disabled("tools")]).toEqual(["admin"]);
    expect([...b.disabled("prompts")]).toEqual(["hello"]);
  });
});

describe("the Redis event relay", () => {
  it("carries resource updates to the other replica's bus once, never back, and keeps list changes local", async () => {
    const prefix = `bus${++prefixes}:`;
    const [busA, busB] = [new InMemoryServerEventBus(), new InMemoryServerEventBus()];
    const [a, b] = [new RedisEventRelay(link(), prefix, busA), new RedisEventRelay(link(), prefix, busB)];
    await a.open();
    await b.open();
    closers.push(
      () => a.close(),
      () => b.close(),
    );
    const onA: ServerEvent[] = [];
    const onB: ServerEvent[] = [];
    busA.subscribe((e) => void onA.push(e));
    busB.subscribe((e) => void onB.push(e));
    busA.publish({ kind: "resource_updated", uri: "file:///x" });
    busA.publish({ kind: "tools_list_changed" });
    await until(() => onB.length === 1, "the resource update on the other replica's bus", WAIT);
    // A while longer: it comes once, nothing comes back to A, and the list change stays local.
    await sleep(100);
    expect(onA).toEqual([{ kind: "resource_updated", uri: "file:///x" }, { kind: "tools_list_changed" }]);
    expect(onB).toEqual([{ kind: "resource_updated", uri: "file:///x" }]);
  });
});
