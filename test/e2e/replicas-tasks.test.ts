/**
 * Issue 20's proof for tasks: a real redis-server, three replica processes of the generated
 * conformance server sharing it (REDIS_URL, a 1 s task lease, one MCP_REQUEST_STATE_SECRET),
 * and every request through the proxy of test/helpers/replicas.ts, whose log says which replica
 * served it. The replicas run on three runtimes: Node (serveHttp), Deno and Bun (the generated
 * createFetchHandler), so each reads and answers the tasks the others run.
 *
 * 1. 2026-07-28: a task created through one replica is polled through the two others, answered
 *    (tasks/update) through a replica that does not run it, completes, and reads the same
 *    everywhere.
 * 2. A task cancelled through a replica that does not run it: the handler's signal aborts in the
 *    process that runs it (its stderr says so), the task never completes, every replica reads
 *    `cancelled`.
 * 3. The replica running a task is killed (SIGKILL): once the lease lapses the others read the
 *    task `failed` with -32603; Redis holds a whole record (terminal status, its error, no result,
 *    no lease); the killed replica, started again, reads every finished task as before.
 * 4. A 2025-era session through the sticky proxy: a task-augmented tools/call, tasks/get and
 *    tasks/result complete, and the SDK v2 Client receives notifications/tasks/status.
 */
import { randomBytes } from "node:crypto";
import { fileURLToPath } from "node:url";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { createClient } from "redis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { post } from "../helpers/http.js";
import { startRedis, type RedisServer } from "../helpers/redis.js";
import { startReplicas, type ReplicaSet } from "../helpers/replicas.js";
import { rpcAnswer } from "../helpers/sse.js";
import { untilValue } from "../helpers/wait.js";
import { envelope } from "../helpers/wire.js";

const SERVER = fileURLToPath(new URL("../servers/replica-tasks-http.ts", import.meta.url));
const PREFIX = "e2e-replicas:";
/** Short, so that a killed runner's task fails soon; not so short that a runner starved of CPU for a moment (tsx, a busy machine) misses a renewal. */
const LEASE_MS = 1_000;
const STOPPED = "the server process running this task stopped";
const EXTENSION = "io.modelcontextprotocol/tasks";
const COUNT = 3;
const RUNTIMES = ["node", "deno", "bun"] as const;

interface RpcAnswer {
  result?: Record<string, any>;
  error?: { code: number; message: string; data?: unknown };
}

/** An answer, and the replica that served the request (from the proxy's log). */
interface Served extends RpcAnswer {
  replica: number;
}

let redis: RedisServer;
let set: ReplicaSet;
let db: ReturnType<typeof createClient>;
let id = 0;
/** Every request the test sent through the proxy: its method and the replica that served it. */
const trail: { method: string; replica: number }[] = [];

/** One 2026-07-28 request through the proxy (the client declares elicitation and the tasks extension). */
async function modern(method: string, params: Record<string, unknown>, name?: string): Promise<Served> {
  const at = set.proxy.log.length;
  const body = JSON.stringify({
    jsonrpc: "2.0",
    id: ++id,
    method,
    params: { ...params, _meta: envelope({ elicitation: {}, extensions: { [EXTENSION]: {} } }) },
  });
  const res = await post(set.proxy.url, body, {
    "mcp-protocol-version": "2026-07-28",
    "mcp-method": method,
    ...(name === undefined ? {} : { "mcp-name": name }),
  });
  const routed = set.proxy.log[at];
  if (!routed || res.status !== 200) throw new Error(`${method}: HTTP ${res.status} from replica ${routed?.replica}: ${res.body}`);
  trail.push({ method, replica: routed.replica });
  return { ...rpcAnswer<RpcAnswer>(res.body), replica: routed.replica };
}

/** The replica the round-robin proxy picks next: the first running one after the last it used. */
function nextReplica(): number {
  const last = set.proxy.log.at(-1)?.replica ?? -1;
  for (let k = 1; k <= COUNT; k++) {
    const i = (last + k) % COUNT;
    if (set.replicas[i]!.running) return i;
  }
  throw new Error("no replica is running");
}

/** A request through the proxy that lands on `replica`: cheap server/discover requests advance the round-robin first. */
async function via(replica: number, method: string, params: Record<string, unknown>, name?: string): Promise<Served> {
  if (!set.replicas[replica]!.running) throw new Error(`replica ${replica} is not running`);
  while (nextReplica() !== replica) await modern("server/discover", {});
  const served = await modern(method, params, name);
  expect(served.replica).toBe(replica);
  return served;
}

const taskGet = (taskId: string) => modern("tasks/get", { taskId }, taskId);
const others = (replica: number) => Array.from({ length: COUNT }, (_, i) => i).filter((i) => i !== replica);

/** Starts a 2026-07-28 task through the proxy: its id and the replica running its handler. */
async function startTask(name: string, args: Record<string, unknown>): Promise<{ taskId: string; runner: number }> {
  const created = await modern("tools/call", { name, arguments: args }, name);
  expect(created.result).toMatchObject({ resultType: "task", status: "working" });
  return { taskId: String(created.result!.taskId), runner: created.replica };
}

/** What tasks/get answered for each finished task, to compare after the restart. */
const finished = new Map<string, Record<string, unknown>>();

beforeAll(async () => {
  redis = await startRedis();
  db = createClient({ url: redis.url });
  await db.connect();
  set = await startReplicas({
    count: COUNT,
    server: SERVER,
    runtime: (i) => RUNTIMES[i]!,
    legacyRouting: "sticky",
    env: {
      REDIS_URL: redis.url,
      MCP_TASKS_REDIS_PREFIX: PREFIX,
      MCP_TASKS_LEASE_MS: String(LEASE_MS),
      MCP_REQUEST_STATE_SECRET: randomBytes(32).toString("base64url"),
    },
  });
}, 90_000);

afterAll(async () => {
  await set?.close();
  if (db?.isOpen) await db.close();
  await redis?.stop();
}, 30_000);

describe("tasks on three replica processes sharing Redis, behind a round-robin proxy", () => {
  it("2026-07-28: created on one replica, polled on the two others, answered on another than its runner, read the same everywhere", async () => {
    const from = trail.length;
    const { taskId, runner } = await startTask("confirm_delete", { filename: "report.txt" });
    // Polled through the two other replicas in turn until the runner's handler has asked its question.
    let turn = 0;
    const asked = await untilValue(
      () => via(others(runner)[turn++ % 2]!, "tasks/get", { taskId }, taskId),
      (r) => r.result?.status === "input_required",
      "the runner's handler to ask its question",
    );
    // Each of them shows it.
    const seen = await Promise.all(others(runner).map(async (i) => (await via(i, "tasks/get", { taskId }, taskId)).result!.inputRequests));
    expect(seen).toEqual([asked.result!.inputRequests, asked.result!.inputRequests]);
    const keys = Object.keys(asked.result!.inputRequests);
    expect(keys).toHaveLength(1);
    expect(asked.result!.inputRequests[keys[0]!]).toMatchObject({ method: "elicitation/create", params: { message: "Delete report.txt?" } });
    const rounds = trail.slice(from);
    expect(rounds[0]).toEqual({ method: "tools/call", replica: runner });
    expect(new Set(rounds.filter((r) => r.method === "tasks/get").map((r) => r.replica))).toEqual(new Set(others(runner)));

    const answerer = others(runner)[0]!;
    const updated = await via(answerer, "tasks/update", { taskId, inputResponses: { [keys[0]!]: { action: "accept", content: { confirm: true } } } }, taskId);
    expect(updated.result).toMatchObject({ resultType: "complete" });
    expect(updated.replica).not.toBe(runner);

    const done = await untilValue(
      () => taskGet(taskId),
      (r) => r.result?.status === "completed",
      "the answered task to complete",
    );
    expect(done.result!.result).toMatchObject({ content: [{ type: "text", text: "Deleted report.txt" }] });
    const everywhere = [];
    for (const i of [0, 1, 2]) everywhere.push((await via(i, "tasks/get", { taskId }, taskId)).result);
    expect(everywhere).toEqual([done.result, done.result, done.result]);
    finished.set(taskId, done.result!);
  });

  it("a task cancelled through a replica that does not run it: the handler aborts on its runner and every replica reads cancelled", async () => {
    const label = `cancel-${randomBytes(4).toString("hex")}`;
    const seconds = 1;
    const startedAt = Date.now();
    const { taskId, runner } = await startTask("slow_compute", { seconds, label });
    const canceller = others(runner)[1]!;
    expect((await via(others(runner)[0]!, "tasks/get", { taskId }, taskId)).result).toMatchObject({ status: "working" });
    expect((await via(canceller, "tasks/cancel", { taskId }, taskId)).result).toMatchObject({ resultType: "complete" });

    // The cancel reached the process running the handler (pub/sub), and only that one ran it.
    await untilValue(
      () => set.replicas[runner]!.stderr,
      (text) => text.includes(`slow_compute ${label} aborted`),
      "the runner to log its handler's abort",
      { timeout: 5_000 },
    );
    for (const i of others(runner)) expect(set.replicas[i]!.stderr).not.toContain(label);

    // Polled past the handler's duration, it stays cancelled: the handler never returned.
    const polls = await untilValue(
      () => taskGet(taskId),
      () => Date.now() - startedAt > seconds * 1000 + 4 * LEASE_MS,
      "the handler's duration and four leases to pass",
      { timeout: 10_000, every: 100 },
    );
    expect(polls.result).toMatchObject({ status: "cancelled" });
    expect(set.replicas[runner]!.stderr).not.toContain(`slow_compute ${label} returned`);
    const everywhere = [];
    for (const i of [0, 1, 2]) everywhere.push((await via(i, "tasks/get", { taskId }, taskId)).result);
    expect(everywhere.map((r) => r!.status)).toEqual(["cancelled", "cancelled", "cancelled"]);
    expect(everywhere[1]).toEqual(everywhere[0]);
    expect(everywhere[2]).toEqual(everywhere[0]);
    expect(everywhere[0]).not.toHaveProperty("result");
    finished.set(taskId, everywhere[0]!);
  });

  it("a replica killed mid-task: the others read the task failed with -32603 once the lease lapses; Redis holds it whole; the replica restarted reads every finished task", async () => {
    const { taskId, runner } = await startTask("slow_compute", { seconds: 30, label: "killed" });
    const taskKey = `${PREFIX}task:${taskId}`;
    const leaseKey = `${PREFIX}lease:${taskId}`;
    // Running: a lease renewed by the runner, and the task working on every other replica.
    for (const i of others(runner)) expect((await via(i, "tasks/get", { taskId }, taskId)).result).toMatchObject({ status: "working" });
    expect(await db.exists(leaseKey)).toBe(1);

    await set.replicas[runner]!.kill();
    const failed = await untilValue(
      () => taskGet(taskId),
      (r) => r.result?.status !== "working",
      "the killed runner's task to end once its lease lapses",
      { timeout: 5_000 },
    );
    expect(failed.replica).not.toBe(runner);
    expect(failed.result).toMatchObject({ taskId, status: "failed", statusMessage: STOPPED, error: { code: -32603, message: STOPPED } });
    expect(failed.result).not.toHaveProperty("result");
    for (const i of others(runner)) expect((await via(i, "tasks/get", { taskId }, taskId)).result).toEqual(failed.result);

    // In Redis: the record whole and terminal, its error and no result, no lease, still expiring with its ttl.
    const record = await db.hGetAll(taskKey);
    expect(Object.keys(record).sort()).toEqual(["createdAt", "era", "expiresAt", "id", "lastUpdatedAt", "outcome", "status", "statusMessage", "ttlMs"]);
    expect(record).toMatchObject({ id: taskId, era: "modern", status: "failed", statusMessage: STOPPED });
    expect(JSON.parse(record.outcome!)).toEqual({ error: { code: -32603, message: STOPPED } });
    expect(await db.exists(leaseKey)).toBe(0);
    expect(await db.pTTL(taskKey)).toBeGreaterThan(0);
    // A 2026-07-28 task without `auth` has no owner (its id is the capability), so no owner index either.
    expect(await db.keys(`${PREFIX}owner:*`)).toEqual([]);
    // Nothing half-written anywhere: every task ended, so no lease is left, and every record has a status and an outcome or none.
    expect(await db.keys(`${PREFIX}lease:*`)).toEqual([]);
    const tasks = await db.keys(`${PREFIX}task:*`);
    expect(tasks).toHaveLength(3);
    for (const key of tasks) {
      const whole = await db.hGetAll(key);
      expect(["completed", "failed", "cancelled"]).toContain(whole.status);
      expect(whole).not.toHaveProperty("inputRequests");
    }
    finished.set(taskId, failed.result!);

    // Started again on the same port, the replica reads every finished task as the others did.
    await set.replicas[runner]!.start();
    for (const [finishedId, seen] of finished) expect((await via(runner, "tasks/get", { taskId: finishedId }, finishedId)).result).toEqual(seen);
    expect([...finished.values()].map((t) => t.status)).toEqual(["completed", "cancelled", "failed"]);
  });

  it("a 2025-era session through the sticky proxy: task-augmented tools/call, tasks/get, tasks/result and notifications/tasks/status", async () => {
    type Status = { taskId: string; status: string };
    const statuses: Status[] = [];
    const sdk = new Client({ name: "replicas-tasks", version: "1" }, { versionNegotiation: { mode: "legacy" } });
    // The 2025-11-25 method is not in SDK 2.4's typed notification map: the schema form takes it as sent.
    const params = { "~standard": { version: 1 as const, vendor: "test", validate: (value: unknown) => ({ value }) } };
    sdk.setNotificationHandler("notifications/tasks/status", { params }, (p) => void statuses.push(p as Status));
    const transport = new StreamableHTTPClientTransport(new URL(set.proxy.url));
    await sdk.connect(transport);
    try {
      expect(sdk.getProtocolEra()).toBe("legacy");
      const sessionId = transport.sessionId!;
      const minter = set.proxy.sessions.get(sessionId);
      expect(minter).toBeDefined();
      const ANY = { "~standard": { version: 1, vendor: "test", validate: (value: unknown) => ({ value }) } } as never;

      const created = (await sdk.request(
        { method: "tools/call", params: { name: "slow_compute", arguments: { seconds: 0.3, label: "legacy" }, task: { ttl: 60_000 } } },
        ANY,
      )) as unknown as { task: { taskId: string; status: string } };
      const taskId = created.task.taskId;
      expect(created.task.status).toBe("working");
      expect(await sdk.request({ method: "tasks/get", params: { taskId } }, ANY)).toMatchObject({ taskId, status: "working" });
      const result = await sdk.request({ method: "tasks/result", params: { taskId } }, ANY);
      expect(result).toMatchObject({
        content: [{ type: "text", text: "Computed legacy after 0.3s" }],
        _meta: { "io.modelcontextprotocol/related-task": { taskId } },
      });
      await untilValue(
        () => statuses.filter((s) => s.taskId === taskId).map((s) => s.status),
        (seen) => seen.includes("completed"),
        "the session's completed notification",
        { timeout: 5_000 },
      );
      expect(statuses.filter((s) => s.taskId === taskId)).toEqual([expect.objectContaining({ taskId, status: "completed" })]);
      expect(await sdk.request({ method: "tasks/get", params: { taskId } }, ANY)).toMatchObject({ taskId, status: "completed" });

      // Every request of the session reached the replica that minted it; the task is in Redis.
      const inSession = set.proxy.log.filter((r) => r.sessionId === sessionId);
      expect(inSession.length).toBeGreaterThanOrEqual(4);
      expect(inSession.every((r) => r.replica === minter && r.status < 400)).toBe(true);
      expect(await db.hGetAll(`${PREFIX}task:${taskId}`)).toMatchObject({ era: "legacy", status: "completed" });
    } finally {
      await sdk.close();
    }
  });
});
