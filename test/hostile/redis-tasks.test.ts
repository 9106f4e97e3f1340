/**
 * Attacks on the Redis task store, through the runtime's server on a real redis-server (issue
 * 27, items 2, 7, 8 and 10):
 *
 * - many tasks with 1 MiB results: Redis keeps at most maxStoredResultBytes of them, counted
 *   inside Redis for all replicas together, and a result over maxTaskResultBytes fails its task;
 * - a 2025-era `task.ttl` of 1.5 (PEXPIRE refuses it) and a Redis error: no half-written task,
 *   and never Redis's own text in an answer;
 * - tasks/list and tasks/get polled over tasks with 1 MiB results: Redis sends no result;
 * - a Redis that stops answering (SIGSTOP): requests answer -32603 within the command timeout,
 *   the server goes on serving, and recovers on SIGCONT;
 * - a replica whose clock runs 2 hours ahead: maxTasks still holds (Redis's clock decides).
 */
import { randomUUID } from "node:crypto";
import { createClient } from "redis";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import type { ServerDefinition } from "@mcpgen/runtime/shared";
import { createManifestServerFactory, type ServerOptions, type ToolContext } from "../helpers/runtime.js";
import { redisTaskStore, type RedisTaskStoreOptions } from "@mcpgen/runtime/server/redis";
import { CREATE, TRANSITION } from "../../packages/runtime/src/server/redis/redisRecords.js";
import type { TaskRecord, TaskStore } from "@mcpgen/runtime/server/tasks";
import { sleep, until, untilValue } from "../helpers/wait.js";
import { rawSession } from "../helpers/wire.js";
import { startRedis, type RedisServer } from "../helpers/redis.js";

const MiB = 1024 * 1024;
const definition: ServerDefinition = {
  serverInfo: { name: "redis-floods", version: "1" },
  capabilities: { tools: {} },
  tools: [
    {
      name: "job",
      inputSchema: { type: "object", properties: { bytes: { type: "integer" }, hang: { type: "boolean" } } },
      execution: { taskSupport: "optional" },
    },
  ],
  taskSupport: { job: "optional" },
  resources: [],
  resourceTemplates: [],
  prompts: [],
};
const handlers = {
  tools: {
    job: async (args: { bytes?: number; hang?: boolean }, ctx: ToolContext) => {
      if (args.hang) await new Promise((resolve) => ctx.signal.addEventListener("abort", resolve, { once: true }));
      return "x".repeat(args.bytes ?? 1);
    },
  },
};

let redis: RedisServer;
let admin: ReturnType<typeof createClient>;
beforeAll(async () => {
  redis = await startRedis();
  admin = createClient({ url: redis.url });
  await admin.connect();
});
afterAll(async () => {
  await admin?.close();
  await redis?.stop();
});
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (closers.length) await closers.pop()!();
});

let prefixes = 0;
/** A fresh prefix: each test has its own keys on the shared redis-server. */
const newPrefix = () => `hostile${++prefixes}:`;

/** One replica: a Redis store under `prefix` and a 2025-era session on a server using it. */
async function replica(prefix: string, options: Omit<RedisTaskStoreOptions, "url" | "prefix"> = {}, server: ServerOptions = {}) {
  const store = redisTaskStore({ url: redis.url, prefix, ...options });
  const factory = createManifestServerFactory(definition, handlers as never, { onError: () => {}, taskStore: store, ...server });
  const session = await rawSession(factory, { era: "legacy" });
  closers.push(async () => {
    await session.close();
    await store.close();
  });
  return { store, session };
}

type Session = Awaited<ReturnType<typeof replica>>["session"];

/** A task-augmented call; its task id. */
async function startJob(session: Session, args: Record<string, unknown>, task: Record<string, unknown> = {}): Promise<string> {
  const answer = await session.request("tools/call", { name: "job", arguments: args, task });
  if (!answer.result) throw new Error(`tools/call failed: ${JSON.stringify(answer.error)}`);
  return (answer.result.task as { taskId: string }).taskId;
}

/** Polls tasks/get until the task has ended; its status. */
async function ended(session: Session, taskId: string): Promise<string> {
  const status = await untilValue(
    async () => (await session.request("tasks/get", { taskId })).result?.status as string | undefined,
    (s) => s === "completed" || s === "failed" || s === "cancelled",
    `task ${taskId} to end`,
    { every: 10 },
  );
  return status!;
}

/** Every key under `prefix`. */
async function keysOf(prefix: string): Promise<string[]> {
  return (await admin.keys(`${prefix}*`)).sort();
}

/** A counter of Redis's INFO (e.g. used_memory, total_net_output_bytes). */
async function info(section: string, field: string): Promise<number> {
  const text = await admin.info(section);
  const match = new RegExp(`^${field}:(\\d+)`, "m").exec(text);
  if (!match) throw new Error(`no ${field} in INFO ${section}`);
  return Number(match[1]);
}

describe("Redis keeps results bounded in bytes", () => {
  it("keeps at most maxStoredResultBytes of results for all replicas together, evicting the finished tasks that expire first", async () => {
    const prefix = newPrefix();
    const limits = { maxStoredResultBytes: 8 * MiB };
    const [a, b] = [await replica(prefix, limits), await replica(prefix, limits)];
    const before = await info("memory", "used_memory");
    const ids: string[] = [];
    // 40 results of 1 MiB, alternately on two replicas: 40 MiB kept without the bound.
    for (let i = 0; i < 40; i++) {
      const { session } = i % 2 === 0 ? a : b;
      const taskId = await startJob(session, { bytes: MiB });
      expect(await ended(session, taskId)).toBe("completed");
      ids.push(taskId);
    }
    const counted = Number(await admin.get(`${prefix}bytes`));
    expect(counted).toBeLessThanOrEqual(8 * MiB);
    expect(counted).toBeGreaterThan(7 * MiB);
    // The count is what the hashes hold: every kept task's outcome, summed.
    const kept = await admin.zRange(`${prefix}finished`, 0, -1);
    let held = 0;
    for (const id of kept) held += Number(await admin.hStrLen(`${prefix}task:${id}`, "outcome"));
    expect(held).toBe(counted);
    expect(kept.length).toBeLessThanOrEqual(8);
    expect(await admin.zCard(`${prefix}all`)).toBe(kept.length);
    // Redis's own memory grew by about the 8 MiB kept, not by 40 MiB.
    expect((await info("memory", "used_memory")) - before).toBeLessThan(16 * MiB);
    // The first tasks are gone; the last one's result is whole.
    expect((await a.session.request("tasks/get", { taskId: ids[0] })).error).toMatchObject({ code: -32602 });
    const last = await b.session.request("tasks/result", { taskId: ids[39] });
    expect((last.result!.content as { text: string }[])[0]!.text).toHaveLength(MiB);
  }, 60_000);

  it("fails a task whose result is over maxTaskResultBytes instead of keeping it", async () => {
    const prefix = newPrefix();
    const { session } = await replica(prefix, { maxTaskResultBytes: 256 * 1024 });
    const taskId = await startJob(session, { bytes: MiB });
    expect(await ended(session, taskId)).toBe("failed");
    const message = expect.stringMatching(/^The task's result was too large to keep: 10486\d\d bytes, more than the server's maxTaskResultBytes \(262144\)$/);
    expect((await session.request("tasks/get", { taskId })).result).toMatchObject({ status: "failed", statusMessage: message });
    expect((await session.request("tasks/result", { taskId })).error).toEqual({ code: -32603, message });
    expect(Number(await admin.hStrLen(`${prefix}task:${taskId}`, "outcome"))).toBeLessThan(300);
    expect(Number(await admin.get(`${prefix}bytes`))).toBeLessThan(300);
  });

  it("stops counting the results of tasks past their ttl", async () => {
    const prefix = newPrefix();
    const { session } = await replica(prefix);
    for (let i = 0; i < 3; i++) await ended(session, await startJob(session, { bytes: 100_000 }, { ttl: 200 }));
    expect(Number(await admin.get(`${prefix}bytes`))).toBeGreaterThan(300_000);
    // Past their ttl of 200 ms: a fixed pause, as nothing but the next result trims them.
    await sleep(300);
    // The next result ending trims the expired ones from the count.
    const taskId = await startJob(session, { bytes: 1000 });
    await ended(session, taskId);
    expect(await admin.zRange(`${prefix}finished`, 0, -1)).toEqual([taskId]);
    expect(Number(await admin.get(`${prefix}bytes`))).toBe(Number(await admin.hStrLen(`${prefix}task:${taskId}`, "outcome")));
    expect(await admin.hLen(`${prefix}sizes`)).toBe(1);
  });
});

describe("Redis scripts write nothing a failing step would orphan, and Redis's text never reaches a client", () => {
  it("a 2025-era task.ttl of 1.5 makes a task of 2 ms kept whole; a ttl that is not a number is -32602 and writes nothing", async () => {
    const prefix = newPrefix();
    const { session } = await replica(prefix);
    const answer = await session.request("tools/call", { name: "job", arguments: { hang: true }, task: { ttl: 1500.5 } });
    const task = answer.result!.task as { taskId: string; ttl: number };
    expect(task.ttl).toBe(1501);
    const ttl = await admin.pTTL(`${prefix}task:${task.taskId}`);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(1501);
    expect(await admin.zScore(`${prefix}all`, task.taskId)).not.toBeNull();

    const tiny = await session.request("tools/call", { name: "job", arguments: {}, task: { ttl: 1.5 } });
    const tinyTask = tiny.result!.task as { taskId: string; ttl: number };
    expect(tinyTask.ttl).toBe(2);
    expect(tiny.error).toBeUndefined();

    // Once the 2 ms task's hash is gone, its handler ending writes nothing (the transition finds no task): nothing else changes below.
    await until(async () => (await admin.exists(`${prefix}task:${tinyTask.taskId}`)) === 0, "the 2 ms task's hash to expire");
    const keys = await keysOf(prefix);
    for (const ttl of ["1.5", { ms: 5 }, true]) {
      expect((await session.request("tools/call", { name: "job", arguments: {}, task: { ttl } })).error).toEqual({
        code: -32602,
        message: "Invalid params: task.ttl must be a number of milliseconds",
      });
    }
    expect(await keysOf(prefix)).toEqual(keys);
    // Every task hash left has an expiry and is in the maxTasks index.
    for (const key of (await keysOf(`${prefix}task:`)).filter((k) => k.startsWith(`${prefix}task:`))) {
      expect(await admin.pTTL(key)).toBeGreaterThan(0);
      expect(await admin.zScore(`${prefix}all`, key.slice(`${prefix}task:`.length))).not.toBeNull();
    }
  });

  it.each([
    ["create, a ttl of 1.5", CREATE, ["1.5", "0", "10", "id-1", "o", "id", "id-1", "status", "working"]],
    ["create, a ttl of -1", CREATE, ["-1", "0", "10", "id-1", "o", "id", "id-1", "status", "working"]],
    ["create, an odd field list", CREATE, ["1000", "0", "10", "id-1", "o", "id", "id-1", "status"]],
    ["create, no maxTasks", CREATE, ["1000", "0", "x", "id-1", "o", "id", "id-1", "status", "working"]],
    ["transition, a count past the arguments", TRANSITION, ["id-1", "0", "5", "100", "status", "completed"]],
    ["transition, an unknown status", TRANSITION, ["id-1", "0", "1", "100", "status", "done"]],
    ["transition, an outcome for a task still running", TRANSITION, ["id-1", "0", "2", "100", "status", "working", "outcome", "{}"]],
    ["transition, no byte budget", TRANSITION, ["id-1", "0", "1", "1.5", "status", "completed"]],
  ])("the %s script refuses bad arguments before it writes anything", async (_, script, args) => {
    const prefix = newPrefix();
    // A task for the transition to find (it must not change).
    await admin.hSet(`${prefix}task:id-1`, { id: "id-1", owner: "o", status: "working" });
    const before = await keysOf(prefix);
    await expect(admin.sendCommand(["EVAL", script, "0", prefix, ...args])).rejects.toThrow(/ERR mcpgen (create|transition): invalid/);
    expect(await keysOf(prefix)).toEqual(before);
    expect(await admin.hGetAll(`${prefix}task:id-1`)).toEqual({ id: "id-1", owner: "o", status: "working" });
  });

  it("a Redis error answers a generic -32603 (its text and the script's digest go to stderr), and the server goes on", async () => {
    const prefix = newPrefix();
    const { session } = await replica(prefix);
    const taskId = await startJob(session, { bytes: 10 });
    await ended(session, taskId);
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      // Keys of the wrong type: every script reaching them fails with Redis's WRONGTYPE error.
      await admin.set(`${prefix}all`, "not a sorted set");
      await admin.rename(`${prefix}task:${taskId}`, `${prefix}saved`);
      await admin.set(`${prefix}task:${taskId}`, "not a hash");
      const refused = [await session.request("tools/call", { name: "job", arguments: {}, task: {} }), await session.request("tasks/get", { taskId })];
      for (const answer of refused) {
        expect(answer.error).toEqual({ code: -32603, message: "Internal error: the task store failed; retry later" });
        expect(JSON.stringify(answer)).not.toMatch(/WRONGTYPE|script|[0-9a-f]{40}/);
      }
      // Reported once for the outage, with Redis's words.
      expect(logged).toHaveBeenCalledTimes(1);
      expect(String(logged.mock.calls[0]![0])).toMatch(
        /^\[mcpgen\] Redis: WRONGTYPE Operation against a key holding the wrong kind of value script: [0-9a-f]{40}/,
      );
      // The server still answers what does not need Redis.
      expect((await session.request("ping")).result).toEqual({});
    } finally {
      await admin.del(`${prefix}all`);
      await admin.rename(`${prefix}saved`, `${prefix}task:${taskId}`);
    }
    expect((await session.request("tasks/get", { taskId })).result).toMatchObject({ status: "completed" });
    expect(String(logged.mock.calls[1]![0])).toMatch(/^\[mcpgen\] Redis: answering again \(2 commands failed meanwhile\)$/);
    logged.mockRestore();
  });
});

describe("tasks/list and tasks/get read no results from Redis", () => {
  it("5 tasks/list and 5 tasks/get over 30 tasks with 1 MiB results move kilobytes, not 150 MiB; pages come from Redis", async () => {
    const prefix = newPrefix();
    // One session's 30 MiB of results, kept whole: its share is raised past them.
    const { session } = await replica(prefix, { maxStoredResultBytesPerOwner: 64 * MiB }, { pageSize: 10 });
    const ids: string[] = [];
    for (let i = 0; i < 30; i++) ids.push(await startJob(session, { bytes: MiB }));
    for (const id of ids) expect(await ended(session, id)).toBe("completed");

    const sent = await info("stats", "total_net_output_bytes");
    const listed: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = (await session.request("tasks/list", cursor === undefined ? {} : { cursor })).result!;
      listed.push(...(page.tasks as { taskId: string; status: string }[]).map((t) => t.taskId));
      cursor = page.nextCursor as string | undefined;
      pages++;
    } while (cursor !== undefined);
    for (let i = 0; i < 2; i++) await session.request("tasks/list");
    for (let i = 0; i < 5; i++) expect((await session.request("tasks/get", { taskId: ids[i]! })).result).toMatchObject({ status: "completed" });
    // 3 pages + 2 first pages + 5 tasks/get: summaries of about 300 bytes each (150 MiB before).
    expect((await info("stats", "total_net_output_bytes")) - sent).toBeLessThan(64 * 1024);
    expect(pages).toBe(3);
    expect(listed).toEqual(ids);

    expect((await session.request("tasks/list", { cursor: "tasks.zz-top" })).error).toEqual({
      code: -32602,
      message: "Invalid cursor: pass the nextCursor of the previous page, or none for the first page",
    });
  }, 60_000);
});

describe("a Redis that stops answering", () => {
  it("answers task requests -32603 within commandTimeoutMs while Redis is stopped (SIGSTOP), serves the rest, and recovers on SIGCONT", async () => {
    const prefix = newPrefix();
    const { session } = await replica(prefix, { commandTimeoutMs: 300 });
    const running = await startJob(session, { hang: true });
    const other = redisTaskStore({ url: redis.url, prefix, commandTimeoutMs: 300 });
    await other.open();
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    redis.process.kill("SIGSTOP");
    try {
      const timedOut = { code: -32603, message: "Internal error: the task store did not answer in time; retry later" };
      expect((await session.request("tasks/get", { taskId: running })).error).toEqual(timedOut);
      expect((await session.request("tools/call", { name: "job", arguments: {}, task: {} })).error).toEqual(timedOut);
      expect((await session.request("tasks/list")).error).toEqual(timedOut);
      expect((await session.request("tools/list")).result!.tools).toHaveLength(1);
      // Once per store and outage.
      expect(logged.mock.calls.map((c) => String(c[0])).filter((m) => m.includes("no answer"))).toEqual([
        "[mcpgen] Redis: no answer from Redis within 300 ms (commandTimeoutMs) (the next failures are counted, not logged, until Redis answers again)",
      ]);
      // A store closing meanwhile does not wait for answers that will not come.
      await expect(other.get(running)).rejects.toMatchObject({ code: -32603 });
      await other.close();
    } finally {
      redis.process.kill("SIGCONT");
    }
    expect((await session.request("tasks/get", { taskId: running })).result).toMatchObject({ status: "working" });
    // The creation that timed out ran once Redis came back, and its task, which no client knows of, was forgotten.
    expect(await admin.zRange(`${prefix}all`, 0, -1)).toEqual([running]);
    expect((await keysOf(`${prefix}task:`)).length).toBe(1);
    expect((await session.request("tasks/cancel", { taskId: running })).result).toMatchObject({ status: "cancelled" });
    const after = await startJob(session, { bytes: 5 });
    expect(await ended(session, after)).toBe("completed");
    logged.mockRestore();
  });
});

describe("a replica whose clock runs 2 hours ahead", () => {
  const HOUR = 3600_000;
  /** A new running task as Tasks makes it, from this process's clock. */
  const record = (owner = "o"): TaskRecord => {
    const now = new Date();
    return {
      id: randomUUID(),
      era: "legacy",
      owner,
      status: "working",
      createdAt: now.toISOString(),
      lastUpdatedAt: now.toISOString(),
      ttlMs: HOUR,
      expiresAt: now.getTime() + HOUR,
    };
  };
  async function store(prefix: string): Promise<TaskStore> {
    const made = redisTaskStore({ url: redis.url, prefix, maxTasks: 3 });
    await made.open();
    closers.push(() => made.close());
    return made;
  }

  it("cannot trim the others' tasks: maxTasks holds, expiries and tasks/list follow Redis's clock", async () => {
    const prefix = newPrefix();
    const [honest, ahead] = [await store(prefix), await store(prefix)];
    const mine = [record(), record(), record()];
    for (const task of mine) await honest.create(task);
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 2 * HOUR });
    try {
      // All three kept tasks run: the replica ahead is refused, as any replica would be.
      await expect(ahead.create(record())).rejects.toMatchObject({ code: -32005 });
      expect((await ahead.list("o", 100)).tasks.map((t) => t.task.id).sort()).toEqual(mine.map((t) => t.id).sort());
      // One ends: the next task evicts it, and only it.
      await honest.transition(mine[0]!.id, { status: "completed", outcome: { result: { content: [] } } }, new Date().toISOString());
      const late = record();
      await ahead.create(late);
      expect(await admin.zRange(`${prefix}all`, 0, -1)).toEqual(expect.arrayContaining([mine[1]!.id, mine[2]!.id, late.id]));
      expect(await admin.zCard(`${prefix}all`)).toBe(3);
      // Its expiry is Redis's time plus the ttl, not its own clock's.
      const expiresAt = Number(await admin.hGet(`${prefix}task:${late.id}`, "expiresAt"));
      expect(Math.abs(expiresAt - (late.expiresAt - 2 * HOUR))).toBeLessThan(60_000);
      expect(await admin.pTTL(`${prefix}task:${late.id}`)).toBeLessThanOrEqual(HOUR);
    } finally {
      vi.useRealTimers();
    }
    await expect(honest.create(record())).rejects.toMatchObject({ code: -32005 });
  });
});
