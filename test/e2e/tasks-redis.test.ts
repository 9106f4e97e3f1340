/**
 * 2026-07-28 tasks over Streamable HTTP on two replicas of the conformance server sharing one
 * real redis-server: a task started on one replica is read, answered (tasks/update) and
 * cancelled through the other, and a replica closed mid-task leaves the task failed.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { redisTaskStore, serveHttp } from "../../generated/mcp-conformance-test-server/serve.js";
import { handlers } from "../../conformance/handlers.js";
import { postModern } from "../helpers/wire.js";
import { startRedis, type RedisServer } from "../helpers/redis.js";
import { sleep, untilValue } from "../helpers/wait.js";

let redis: RedisServer;
beforeAll(async () => {
  redis = await startRedis();
});
afterAll(async () => {
  await redis?.stop();
});
let closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers) await close().catch(() => {});
  closers = [];
});

const EXTENSION = "io.modelcontextprotocol/tasks";

/** One 2026-07-28 request to a replica (the client declares elicitation and the tasks extension). */
function modern(url: string, method: string, params: Record<string, unknown>, name?: string) {
  return postModern(url, method, params, { ...(name === undefined ? {} : { name }), capabilities: { elicitation: {}, extensions: { [EXTENSION]: {} } } });
}

/** Five seconds for each thing awaited here, the budget these polls have always had. */
const WAIT = { timeout: 5_000 };

async function replica(prefix: string, leaseMs?: number) {
  const store = redisTaskStore({ url: redis.url, prefix, ...(leaseMs === undefined ? {} : { leaseMs }) });
  const handle = await serveHttp(handlers, { port: 0, taskStore: store });
  // A store passed in the options is the caller's to close, after the server.
  closers.push(handle.close, () => store.close());
  return handle;
}

describe("2026-07-28 tasks on two replicas sharing Redis", () => {
  it("starts a task on A, shows its question on B, takes the answer on B, and A's handler completes it", async () => {
    const [a, b] = [await replica("r1:"), await replica("r1:")];
    const created = await modern(a.url, "tools/call", { name: "confirm_delete", arguments: { filename: "x.txt" } }, "confirm_delete");
    const taskId = String(created.result!.taskId);
    const asked = await untilValue(
      () => modern(b.url, "tasks/get", { taskId }, taskId),
      (r) => r.result?.status === "input_required",
      "the task's question on replica B",
      WAIT,
    );
    const keys = Object.keys(asked.result!.inputRequests);
    expect(keys).toHaveLength(1);
    expect(asked.result!.inputRequests[keys[0]!]).toMatchObject({ method: "elicitation/create", params: { message: "Delete x.txt?" } });
    expect(
      (await modern(b.url, "tasks/update", { taskId, inputResponses: { [keys[0]!]: { action: "accept", content: { confirm: true } } } }, taskId)).result,
    ).toMatchObject({ resultType: "complete" });
    const done = await untilValue(
      () => modern(a.url, "tasks/get", { taskId }, taskId),
      (r) => r.result?.status === "completed",
      "the answered task to complete on replica A",
      WAIT,
    );
    expect(done.result!.result).toMatchObject({ content: [{ type: "text", text: "Deleted x.txt" }] });
    expect((await modern(b.url, "tasks/get", { taskId }, taskId)).result).toMatchObject({
      status: "completed",
      result: { content: [{ type: "text", text: "Deleted x.txt" }] },
    });
  });

  it("cancels on B a task running on A", async () => {
    const [a, b] = [await replica("r2:"), await replica("r2:")];
    const taskId = String((await modern(a.url, "tools/call", { name: "slow_compute", arguments: { seconds: 60 } }, "slow_compute")).result!.taskId);
    expect((await modern(b.url, "tasks/cancel", { taskId }, taskId)).result).toMatchObject({ resultType: "complete" });
    expect((await modern(a.url, "tasks/get", { taskId }, taskId)).result).toMatchObject({ status: "cancelled" });
  });

  it("a replica stopped mid-task leaves the task failed with -32603 once its lease lapses", async () => {
    const [a, b] = [await replica("r3:", 300), await replica("r3:", 300)];
    const taskId = String((await modern(a.url, "tools/call", { name: "slow_compute", arguments: { seconds: 60 } }, "slow_compute")).result!.taskId);
    // Longer than a lease: A renews it, so the task must still be working.
    await sleep(500);
    expect((await modern(b.url, "tasks/get", { taskId }, taskId)).result).toMatchObject({ status: "working" });
    await a.close();
    const failed = await untilValue(
      () => modern(b.url, "tasks/get", { taskId }, taskId),
      (r) => r.result?.status === "failed",
      "the stopped replica's task to fail once its lease lapses",
      WAIT,
    );
    expect(failed.result).toMatchObject({
      status: "failed",
      statusMessage: "the server process running this task stopped",
      error: { code: -32603, message: "the server process running this task stopped" },
    });
  });
});
