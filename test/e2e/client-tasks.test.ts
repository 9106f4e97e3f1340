/**
 * Tasks through the generated client, on the project's own generated servers: `tasks.start`
 * (a handle with taskId and status), `get`, `result` typed as the tool's output, `cancel`,
 * `run` and `resume`, and the plain method of a required-task tool, with the SDK v2 Client in both
 * protocol eras and the SDK 1.x Client (2025 era), in memory and over Streamable HTTP.
 */
import { afterEach, describe, expect, it } from "vitest";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import {
  createClient,
  createServerFactory,
  TaskEndedError,
  TaskInputRequiredError,
  ToolCallError,
  type ToolTaskState,
} from "../../generated/mcp-conformance-test-server/index.js";
import { serveHttp } from "../../generated/mcp-conformance-test-server/serve.js";
import { createClient as notesClient, createServerFactory as notesServer } from "../../generated/notes-server/index.js";
import { handlers } from "../../conformance/handlers.js";
import { notesHandlers } from "../servers/notes.js";
import { connectInMemory, type ConnectOptions, type Era } from "../helpers/connect.js";
import { sleep, until } from "../helpers/wait.js";

const EXTENSION = "io.modelcontextprotocol/tasks";
let closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers) await close();
  closers = [];
});

const RUNS: [string, "v2" | "v1", Era][] = [
  ["SDK v2 Client, 2025-11-25", "v2", "legacy"],
  ["SDK v2 Client, 2026-07-28", "v2", "modern"],
  ["SDK 1.x Client, 2025-11-25", "v1", "legacy"],
];
const text = (result: { content: { type: string }[] }) => result.content.map((b) => (b as { text?: string }).text ?? "").join("");

describe.each(RUNS)("tasks through the generated client (%s)", (_name, line, era) => {
  async function connect(options: Omit<ConnectOptions, "era" | "line"> = {}, pollMs = 50) {
    const c = await connectInMemory(createServerFactory(handlers, { taskPollIntervalMs: pollMs }), { era, line, ...options });
    closers.push(c.close);
    return createClient(c.sdk);
  }

  it("starts a task: a handle with its id and status; get, then result typed as the tool's output", async () => {
    const client = await connect();
    const task = await client.tasks.start("slow_compute", { seconds: 0.2, label: "a" });
    expect(task.taskId).toEqual(expect.any(String));
    expect(task.status).toBe("working");
    expect(task.tool).toBe("slow_compute");
    expect(await task.get()).toMatchObject({ taskId: task.taskId, status: "working", pollIntervalMs: 50, ttlMs: expect.any(Number) });
    const seen: ToolTaskState["status"][] = [];
    const result = await task.result({ onStatus: (s) => seen.push(s.status) });
    expect(text(result)).toBe("Computed a after 0.2s");
    expect(seen.at(-1)).toBe("completed");
    expect(task.status).toBe("completed");
    expect(await client.tasks.get(task.taskId!)).toMatchObject({ status: "completed" });
  });

  it("the plain method of a required-task tool starts the task and waits: an isError result rejects with ToolCallError", async () => {
    const client = await connect();
    const error = await client.failingJob().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ToolCallError);
    expect(error).toMatchObject({ tool: "failing_job", message: "The job failed (a tool error)", result: { isError: true } });
  });

  it("a task that fails with a JSON-RPC error rejects with TaskEndedError (its code and message)", async () => {
    const client = await connect();
    const error = await client.tasks.run("protocol_error_job").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TaskEndedError);
    expect(error).toMatchObject({ status: "failed", code: -32603, message: expect.stringContaining("Internal error: the job crashed") });
  });

  it("cancels a task; its result then rejects with TaskEndedError (cancelled)", async () => {
    const client = await connect();
    const task = await client.tasks.start("slow_compute", { seconds: 60 });
    await task.cancel();
    expect(await task.get()).toMatchObject({ status: "cancelled" });
    await expect(task.result()).rejects.toMatchObject({ name: "TaskEndedError", status: "cancelled", taskId: task.taskId });
  });

  it("run: aborting the signal stops the wait and cancels the task", async () => {
    const client = await connect();
    const controller = new AbortController();
    let taskId: string | undefined;
    const running = client.tasks.run("slow_compute", { seconds: 60 }, { signal: controller.signal, onStatus: (s) => (taskId = s.taskId) });
    await until(() => taskId !== undefined, "the task's first status", { timeout: 5_000 });
    controller.abort(new Error("enough"));
    await expect(running).rejects.toThrow("enough");
    expect(taskId).toEqual(expect.any(String));
    expect(await client.tasks.get(taskId!)).toMatchObject({ status: "cancelled" });
  });

  it("resumes a task from its id (another handle) and reads its result", async () => {
    const client = await connect();
    const started = await client.tasks.start("slow_compute", { seconds: 0.1, label: "later" });
    const again = client.tasks.resume("slow_compute", started.taskId!);
    expect(text(await again.result())).toBe("Computed later after 0.1s");
  });

  it("waits at the server's pollInterval between polls", async () => {
    // Ten minutes between polls: in 1.5 s the client looks once (at creation), never again.
    const client = await connect({}, 600_000);
    const task = await client.tasks.start("slow_compute", { seconds: 0 });
    const controller = new AbortController();
    const seen: string[] = [];
    const waiting = task.result({ signal: controller.signal, onStatus: (s) => seen.push(s.status) });
    // Long enough for a second look, had the client not waited: it must not come.
    await sleep(1500);
    controller.abort(new Error("stop"));
    await expect(waiting).rejects.toThrow("stop");
    expect(seen).toEqual(["working"]);
  });

  it("the plain method of an optional-task tool answers as before", async () => {
    const client = await connect();
    expect(text(await client.slowCompute({ seconds: 0, label: "now" }))).toBe("Computed now after 0s");
    expect(text(await client.greet({ name: "Ada" }))).toBe("Hello, Ada!");
  });

  it("result() is the tool's typed output: a task of a tool with outputSchema resolves to its checked structuredContent", async () => {
    const c = await connectInMemory(notesServer(notesHandlers(), { taskPollIntervalMs: 20 }), { era, line });
    closers.push(c.close);
    const notes = notesClient(c.sdk);
    const task = await notes.tasks.start("search_notes", { query: "milk" });
    // 2025-11-25 always makes a task; a 2026-07-28 server does when its handler calls startTask.
    expect(task.taskId).toEqual(expect.any(String));
    const found = await task.result();
    expect(found).toEqual({ notes: [{ id: "n1", title: "Groceries", body: "milk, eggs", tags: ["home"] }], total: 1 });
    expect(found.total).toBe(1);
    expect(await notes.searchNotes({ query: "eggs" })).toMatchObject({ total: 1 });
  });
});

describe.each([
  ["2025-11-25", "legacy"],
  ["2026-07-28", "modern"],
] as const)("questions during a task (SDK v2 Client, %s)", (_name, era) => {
  it("the SDK Client's elicitation handler answers a task's question; the result comes after", async () => {
    const c = await connectInMemory(createServerFactory(handlers, { taskPollIntervalMs: 20 }), {
      era,
      capabilities: { elicitation: {} },
      setup: (sdk) => sdk.setRequestHandler("elicitation/create", async () => ({ action: "accept", content: { confirm: true } })),
    });
    closers.push(c.close);
    const client = createClient(c.sdk);
    const task = await client.tasks.start("confirm_delete", { filename: "a.txt" });
    if (era === "legacy") {
      expect(text(await task.result())).toBe("Deleted a.txt");
      return;
    }
    // 2026-07-28: the question waits in tasks/get; onInputRequests answers it (tasks/update).
    const asked: string[] = [];
    const result = await task.result({
      onInputRequests: (requests) => {
        asked.push(...Object.keys(requests));
        return Object.fromEntries(Object.keys(requests).map((key) => [key, { action: "accept", content: { confirm: true } }]));
      },
    });
    expect(asked).toHaveLength(1);
    expect(text(result)).toBe("Deleted a.txt");
  });
});

describe("questions during a 2026-07-28 task, answered by hand", () => {
  it("without onInputRequests, a 2026-07-28 task waiting for answers rejects with TaskInputRequiredError; update() answers", async () => {
    const c = await connectInMemory(createServerFactory(handlers, { taskPollIntervalMs: 20 }), { era: "modern", capabilities: { elicitation: {} } });
    closers.push(c.close);
    const client = createClient(c.sdk);
    const task = await client.tasks.start("multi_input");
    const error = (await task.result().catch((e: unknown) => e)) as TaskInputRequiredError;
    expect(error).toBeInstanceOf(TaskInputRequiredError);
    const keys = Object.keys(error.task.inputRequests ?? {});
    expect(keys).toHaveLength(2);
    await task.update(Object.fromEntries(keys.map((key, i) => [key, { action: "accept", content: { name: `n${i}` } }])));
    expect(text(await task.result())).toBe('Answers: {"name":"n0"}, {"name":"n1"}');
  });
});

describe("a 2026-07-28 Client that declares the tasks extension itself", () => {
  it("gets the output of a plain call the server turned into a task (the task is awaited)", async () => {
    const c = await connectInMemory(createServerFactory(handlers, { taskPollIntervalMs: 20 }), {
      era: "modern",
      capabilities: { extensions: { [EXTENSION]: {} } },
    });
    closers.push(c.close);
    const client = createClient(c.sdk);
    expect(text(await client.slowCompute({ seconds: 0.05, label: "declared" }))).toBe("Computed declared after 0.05s");
    // The SDK's own callTool cannot read that answer (which is why the typed client reshapes it).
    await expect(c.sdk.callTool({ name: "slow_compute", arguments: { seconds: 0 } })).rejects.toThrow(/Unsupported result type 'task'/);
  });
});

describe("tasks over Streamable HTTP", () => {
  it.each(["legacy", "auto"] as const)("SDK v2 Client (versionNegotiation %s): start, result, cancel", async (mode) => {
    const handle = await serveHttp(handlers, { port: 0, taskPollIntervalMs: 20 });
    closers.push(handle.close);
    const sdk = new Client({ name: "tasks-http", version: "1" }, mode === "auto" ? { versionNegotiation: { mode: "auto" } } : {});
    await sdk.connect(new StreamableHTTPClientTransport(new URL(handle.url)));
    closers.push(() => sdk.close());
    expect(sdk.getProtocolEra()).toBe(mode === "auto" ? "modern" : "legacy");
    const client = createClient(sdk);
    const task = await client.tasks.start("slow_compute", { seconds: 0.1 });
    expect(text(await task.result())).toBe("Computed result after 0.1s");
    const long = await client.tasks.start("slow_compute", { seconds: 60 });
    await long.cancel();
    expect(await long.get()).toMatchObject({ status: "cancelled" });
    await expect(client.failingJob()).rejects.toBeInstanceOf(ToolCallError);
  });
});
