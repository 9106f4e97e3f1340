/**
 * Tasks on the in-memory store against tasks on Redis, in one process (one run; bench/run.ts runs
 * several and takes medians): starts a redis-server on a free loopback port (no persistence),
 * serves the generated conformance server twice over Streamable HTTP with serveHttp (taskStore
 * memoryTaskStore(), and redisTaskStore on that Redis), and measures over real HTTP, in the
 * 2026-07-28 era and the 2025-11-25 era:
 *
 * - `create`: tools/call of slow_compute (seconds: 0) answered with a CreateTaskResult (the task
 *   then completes in the background: its result is written to the store too);
 * - `get`: tasks/get of tasks that exist (64 completed tasks, in turn);
 *
 * each as requests per second with `concurrency` requests in flight (argv[5], default 16) during
 * argv[3] ms (default 1000), and latency p50/p99 one request at a time during argv[4] ms (default
 * 500). The two stores are measured back to back, in an order that alternates with argv[2] (the
 * run's number). Client and servers share this process. Prints one BENCH line; stops the servers
 * and redis-server at the end.
 */
import { handlers } from "../conformance/handlers.js";
import { memoryTaskStore, redisTaskStore, serveHttp, type HttpHandle } from "../generated/mcp-conformance-test-server/serve.js";
import { startRedis } from "../test/helpers/redis.js";
import { client, type Answer, type Call } from "./rpc.js";

const round = Number(process.argv[2] ?? 0);
const throughputMs = Number(process.argv[3] ?? 1000);
const latencyMs = Number(process.argv[4] ?? 500);
const concurrency = Number(process.argv[5] ?? 16);
const WARM_MS = 200;
const SLICES = 4;
const POOL = 64;
const out: Record<string, number> = {};

type Era = "modern" | "legacy";
type Op = "create" | "get";
/** One request of a figure; throws on an answer that is not the expected success. */
type Send = (i: number) => Promise<void>;

/** Requests answered with `inFlight` in flight during `ms`: [answered, seconds]. */
async function burst(send: Send, inFlight: number, ms: number): Promise<[number, number]> {
  let done = 0;
  const start = performance.now();
  const end = start + ms;
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (performance.now() < end) await send(done++);
    }),
  );
  return [done, (performance.now() - start) / 1000];
}

/** Each request's time, one at a time during `ms`. */
async function oneByOne(send: Send, ms: number, into: number[]): Promise<void> {
  const end = performance.now() + ms;
  while (performance.now() < end) {
    const t = performance.now();
    await send(into.length);
    into.push(performance.now() - t);
  }
}

const percentile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;

/**
 * One figure for every store, measured in SLICES slices that alternate between the stores (so
 * that the machine's noise falls on both alike): requests per second with `concurrency` in
 * flight, then latency one request at a time.
 */
async function figure(by: Record<string, Send>, stores: readonly string[], key: string): Promise<void> {
  for (const store of stores) await burst(by[store]!, concurrency, WARM_MS);
  const counted: Record<string, [number, number]> = {};
  const times: Record<string, number[]> = {};
  for (let slice = 0; slice < SLICES; slice++) {
    for (const store of slice % 2 ? [...stores].reverse() : stores) {
      const [n, s] = await burst(by[store]!, concurrency, throughputMs / SLICES);
      const sum = (counted[store] ??= [0, 0]);
      sum[0] += n;
      sum[1] += s;
    }
  }
  for (let slice = 0; slice < SLICES; slice++) {
    for (const store of slice % 2 ? [...stores].reverse() : stores) await oneByOne(by[store]!, latencyMs / SLICES, (times[store] ??= []));
  }
  for (const store of stores) {
    const sorted = times[store]!.sort((a, b) => a - b);
    out[`${key}.${store}.perSec`] = counted[store]![0] / counted[store]![1];
    out[`${key}.${store}.p50Ms`] = percentile(sorted, 0.5);
    out[`${key}.${store}.p99Ms`] = percentile(sorted, 0.99);
    out[`${key}.${store}.latencySamples`] = sorted.length;
  }
}

function taskId(era: Era, a: Answer): string {
  const id = era === "modern" ? (a.result?.resultType === "task" ? a.result.taskId : undefined) : a.result?.task?.taskId;
  if (typeof id !== "string") throw new Error(`expected a CreateTaskResult, got ${JSON.stringify(a).slice(0, 300)}`);
  return id;
}

const create = (era: Era, call: Call) => async () =>
  taskId(era, await call("tools/call", { name: "slow_compute", arguments: { seconds: 0 }, ...(era === "legacy" ? { task: {} } : {}) }, "slow_compute"));

async function status(call: Call, id: string): Promise<string> {
  const a = await call("tasks/get", { taskId: id }, id);
  const s = a.result?.status;
  if (typeof s !== "string") throw new Error(`tasks/get ${id} answered ${JSON.stringify(a).slice(0, 300)}`);
  return s;
}

/** The requests of each figure, on one server: create, and get over a pool of completed tasks (returned too). */
async function sends(era: Era, call: Call): Promise<Record<Op, Send> & { pool: string[] }> {
  const make = create(era, call);
  const pool: string[] = [];
  for (let i = 0; i < POOL; i++) pool.push(await make());
  for (const id of pool) while ((await status(call, id)) !== "completed") await new Promise((r) => setTimeout(r, 5));
  return {
    pool,
    create: async () => void (await make()),
    get: async (i) => {
      if ((await status(call, pool[i % POOL]!)) !== "completed") throw new Error("a completed task changed status");
    },
  };
}

const redis = await startRedis();
// Stores given in the options belong to the caller: handle.close() leaves them open.
const redisStore = redisTaskStore({ url: redis.url, prefix: "bench:" });
const memoryStore = memoryTaskStore();
const servers: Record<string, HttpHandle> = {};
const clients: ReturnType<typeof client>[] = [];
try {
  servers.memory = await serveHttp(handlers, { port: 0, taskStore: memoryStore, onError: () => {} });
  servers.redis = await serveHttp(handlers, { port: 0, taskStore: redisStore, onError: () => {} });
  const stores = round % 2 === 0 ? ["memory", "redis"] : ["redis", "memory"];
  for (const era of ["modern", "legacy"] as const) {
    const byStore: Record<string, Record<Op, Send> & { pool: string[] }> = {};
    for (const store of stores) {
      const c = client(servers[store]!.url, concurrency);
      clients.push(c);
      byStore[store] = await sends(era, era === "modern" ? c.modern : await c.legacy());
    }
    // Each server keeps its tasks in its own store (a figure of the wrong store would measure nothing).
    for (const [store, kept] of [
      ["memory", memoryStore],
      ["redis", redisStore],
    ] as const) {
      const own = await kept.get(byStore[store]!.pool[0]!);
      const other = await kept.get(byStore[store === "memory" ? "redis" : "memory"]!.pool[0]!);
      if (own?.task.status !== "completed" || other !== undefined) throw new Error(`the ${store} store does not hold the ${store} server's tasks alone`);
    }
    for (const op of ["create", "get"] as const) await figure({ memory: byStore.memory![op], redis: byStore.redis![op] }, stores, `${era}.${op}`);
  }
} finally {
  for (const c of clients) c.close();
  for (const s of Object.values(servers)) await s.close();
  await memoryStore.close();
  await redisStore.close();
  await redis.stop();
}
out.concurrency = concurrency;
process.stderr.write(`BENCH ${JSON.stringify(out)}\n`);
