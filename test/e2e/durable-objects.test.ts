/**
 * Tasks on Cloudflare Workers, kept by a Durable Object: the conformance server as init's
 * `--target workers` project serves a server with task tools (conformance/worker.ts: the Worker
 * sends every request to one object, whose `createFetchHandler` keeps tasks in the object's
 * storage), on workerd through miniflare. Restarting the Worker drops every isolate and object,
 * as an eviction or a deploy does: a finished task is read back from storage, a running one fails
 * with the reason, and nothing is lost silently. `npm run conformance -- --runtime workerd` runs
 * the official suites against the same Worker.
 */
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { installMiniflare } from "../helpers/runtimes.js";
import { untilValue } from "../helpers/wait.js";
import { postModern } from "../helpers/wire.js";
import { bundleWorker, startWorker, type RunningWorker } from "../helpers/workerd.js";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const TASKS = { extensions: { "io.modelcontextprotocol/tasks": {} } };
const STOPPED = "the server process running this task stopped";

let worker: RunningWorker;
beforeAll(async () => {
  const script = await bundleWorker(path.join(ROOT, "conformance", "worker.ts"));
  worker = await startWorker(installMiniflare(), script, { durableObjects: { CONFORMANCE: "ConformanceServer" } });
}, 120_000);
afterAll(async () => {
  await worker?.dispose();
});

const call = (method: string, params: Record<string, unknown>, name?: string) =>
  postModern(worker.url, method, params, { capabilities: TASKS, ...(name === undefined ? {} : { name }) });
const taskGet = (taskId: string) => call("tasks/get", { taskId }, taskId);

describe("tasks in a Durable Object on workerd", () => {
  it("a 2026-07-28 task outlives the Worker's restart: a finished one keeps its result, a running one fails and says why", async () => {
    const quick = await call("tools/call", { name: "slow_compute", arguments: { seconds: 0.1, label: "q" } }, "slow_compute");
    const quickId = String(quick.result!.taskId);
    const done = await untilValue(
      () => taskGet(quickId),
      (r) => r.result?.status === "completed",
      "the quick task to complete",
      { timeout: 10_000 },
    );
    expect(done.result).toMatchObject({ result: { content: [{ type: "text", text: "Computed q after 0.1s" }] } });
    const long = await call("tools/call", { name: "slow_compute", arguments: { seconds: 600 } }, "slow_compute");
    const longId = String(long.result!.taskId);
    expect((await taskGet(longId)).result).toMatchObject({ status: "working" });

    await worker.restart();

    expect((await taskGet(quickId)).result).toMatchObject({ status: "completed", result: { content: [{ type: "text", text: "Computed q after 0.1s" }] } });
    expect((await taskGet(longId)).result).toMatchObject({ status: "failed", statusMessage: STOPPED, error: { code: -32603, message: STOPPED } });
    // Tasks go on after it.
    const after = await call("tools/call", { name: "slow_compute", arguments: { seconds: 0.1, label: "a" } }, "slow_compute");
    const finished = await untilValue(
      () => taskGet(String(after.result!.taskId)),
      (r) => r.result?.status === "completed",
      "the task after the restart to complete",
      { timeout: 10_000 },
    );
    expect(finished.result).toMatchObject({ result: { content: [{ type: "text", text: "Computed a after 0.1s" }] } });
  });

  it("a 2025-era session's task-augmented call is answered through tasks/result, and tasks/cancel stops another", async () => {
    const sdk = new Client({ name: "durable", version: "1" });
    await sdk.connect(new StreamableHTTPClientTransport(new URL(worker.url)));
    try {
      const any = { "~standard": { version: 1, vendor: "test", validate: (value: unknown) => ({ value }) } } as never;
      const created = (await sdk.request(
        { method: "tools/call", params: { name: "slow_compute", arguments: { seconds: 0.1 }, task: {} } },
        any,
      )) as unknown as {
        task: { taskId: string };
      };
      expect(await sdk.request({ method: "tasks/result", params: { taskId: created.task.taskId } }, any)).toMatchObject({
        content: [{ type: "text", text: "Computed result after 0.1s" }],
      });
      const other = (await sdk.request({ method: "tools/call", params: { name: "slow_compute", arguments: { seconds: 600 }, task: {} } }, any)) as unknown as {
        task: { taskId: string };
      };
      expect(await sdk.request({ method: "tasks/cancel", params: { taskId: other.task.taskId } }, any)).toMatchObject({ status: "cancelled" });
    } finally {
      await sdk.close();
    }
  });
});
