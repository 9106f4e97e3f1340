/**
 * Tasks in both protocol eras, on the conformance server's task tools: MCP 2025-11-25
 * task-augmented calls (tasks/get, tasks/result, tasks/list, tasks/cancel) and the 2026-07-28
 * `io.modelcontextprotocol/tasks` extension (CreateTaskResult, tasks/get with the result inline,
 * tasks/update, tasks/cancel), called to completion and cancelled, in memory and over HTTP.
 */
import { spawn } from "node:child_process";
import { request as httpRequest } from "node:http";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { createServerFactory } from "../../generated/mcp-conformance-test-server/index.js";
import { serveHttp } from "../../generated/mcp-conformance-test-server/serve.js";
import { handlers } from "../../conformance/handlers.js";
import { rpcAnswer } from "../helpers/sse.js";
import { sleep, untilValue } from "../helpers/wait.js";
import { envelope, rawSession, type RawResponse } from "../helpers/wire.js";

let closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers) await close();
  closers = [];
});

const EXTENSION = "io.modelcontextprotocol/tasks";
const RELATED = "io.modelcontextprotocol/related-task";
/** Five seconds for each thing awaited here, the budget these polls have always had. */
const WAIT = { timeout: 5_000 };

describe("tasks, 2025-11-25 (task-augmented tools/call)", () => {
  async function session(capabilities: Record<string, unknown> = { elicitation: {} }) {
    const s = await rawSession(createServerFactory(handlers), { era: "legacy", capabilities });
    closers.push(s.close);
    return s;
  }

  it("declares the tasks capability and serves execution.taskSupport in tools/list", async () => {
    const s = await session();
    expect((s.init!.result!.capabilities as Record<string, unknown>).tasks).toEqual({ list: {}, cancel: {}, requests: { tools: { call: {} } } });
    const tools = (await s.request("tools/list")).result!.tools as { name: string; execution?: object }[];
    expect(tools.find((t) => t.name === "slow_compute")!.execution).toEqual({ taskSupport: "optional" });
  });

  it("answers {task} at once, then tasks/get, tasks/list and tasks/result (which waits for the end)", async () => {
    const s = await session();
    const created = await s.request("tools/call", { name: "slow_compute", arguments: { seconds: 0.2, label: "a" }, task: { ttl: 60000 } });
    const task = created.result!.task as Record<string, unknown>;
    expect(task).toEqual({
      taskId: expect.any(String),
      status: "working",
      createdAt: expect.any(String),
      lastUpdatedAt: expect.any(String),
      ttl: 60000,
      pollInterval: 500,
    });
    expect((await s.request("tasks/get", { taskId: task.taskId })).result).toMatchObject({ taskId: task.taskId, status: "working" });
    expect(((await s.request("tasks/list")).result!.tasks as { taskId: string }[]).map((t) => t.taskId)).toContain(task.taskId);
    const result = await s.request("tasks/result", { taskId: task.taskId });
    expect(result.result).toEqual({ content: [{ type: "text", text: "Computed a after 0.2s" }], _meta: { [RELATED]: { taskId: task.taskId } } });
    expect((await s.request("tasks/get", { taskId: task.taskId })).result).toMatchObject({ status: "completed" });
  });

  it("cancels a running task (its handler's signal aborts); a second cancel is -32602", async () => {
    const s = await session();
    const created = await s.request("tools/call", { name: "slow_compute", arguments: { seconds: 60 }, task: {} });
    const taskId = (created.result!.task as { taskId: string }).taskId;
    expect((await s.request("tasks/cancel", { taskId })).result).toMatchObject({ taskId, status: "cancelled" });
    expect((await s.request("tasks/get", { taskId })).result).toMatchObject({ status: "cancelled" });
    expect((await s.request("tasks/cancel", { taskId })).error).toEqual({
      code: -32602,
      message: "Cannot cancel task: already in terminal status 'cancelled'",
    });
    expect((await s.request("tasks/get", { taskId: "nope" })).error).toMatchObject({ code: -32602 });
  });

  it("fails a task whose tool answers isError (2025-11-25), or throws a JSON-RPC error (tasks/result repeats it)", async () => {
    const s = await session();
    const failing = await s.request("tools/call", { name: "failing_job", arguments: {}, task: {} });
    const a = (failing.result!.task as { taskId: string }).taskId;
    expect((await s.request("tasks/result", { taskId: a })).result).toMatchObject({
      isError: true,
      content: [{ type: "text", text: "The job failed (a tool error)" }],
    });
    expect((await s.request("tasks/get", { taskId: a })).result).toMatchObject({ status: "failed" });
    const crashing = await s.request("tools/call", { name: "protocol_error_job", arguments: {}, task: {} });
    const b = (crashing.result!.task as { taskId: string }).taskId;
    expect((await s.request("tasks/result", { taskId: b })).error).toEqual({ code: -32603, message: "Internal error: the job crashed" });
  });

  it("refuses the call a tool's taskSupport rules out with -32601", async () => {
    const s = await session();
    expect((await s.request("tools/call", { name: "failing_job", arguments: {} })).error).toEqual({
      code: -32601,
      message: "Tool failing_job requires task-augmented execution: call it with params.task",
    });
    expect((await s.request("tools/call", { name: "greet", arguments: {}, task: {} })).error).toMatchObject({ code: -32601 });
  });

  it("asks for input during a task with a request tagged with the task, the task input_required meanwhile", async () => {
    const s = await session();
    const created = await s.request("tools/call", { name: "confirm_delete", arguments: { filename: "a.txt" }, task: {} });
    const taskId = (created.result!.task as { taskId: string }).taskId;
    const question = await untilValue(() => s.received.find((m) => m.method === "elicitation/create"), Boolean, "the task's elicitation/create request", WAIT);
    expect(question!.params._meta).toEqual({ [RELATED]: { taskId } });
    expect((await s.request("tasks/get", { taskId })).result).toMatchObject({ status: "input_required" });
    await s.send({ jsonrpc: "2.0", id: question!.id, result: { action: "accept", content: { confirm: true } } });
    expect((await s.request("tasks/result", { taskId })).result).toMatchObject({ content: [{ type: "text", text: "Deleted a.txt" }] });
  });
});

describe("tasks, 2026-07-28 (the io.modelcontextprotocol/tasks extension)", () => {
  async function session(capabilities: Record<string, unknown> = { elicitation: {}, extensions: { [EXTENSION]: {} } }) {
    const s = await rawSession(createServerFactory(handlers), { era: "modern", capabilities });
    closers.push(s.close);
    return s;
  }
  const terminal = (s: Awaited<ReturnType<typeof session>>, taskId: unknown) =>
    untilValue(
      () => s.request("tasks/get", { taskId }),
      (r) => ["completed", "failed", "cancelled"].includes(String(r.result?.status)),
      `task ${String(taskId)} to end`,
      WAIT,
    );

  it("advertises the extension (not the 2025 tasks capability) and hides execution", async () => {
    const s = await session();
    const discover = await s.request("server/discover");
    expect((discover.result!.capabilities as Record<string, unknown>).extensions).toEqual({ [EXTENSION]: {} });
    expect(discover.result!.capabilities).not.toHaveProperty("tasks");
    const tools = (await s.request("tools/list")).result!.tools as object[];
    expect(tools.every((t) => !("execution" in t))).toBe(true);
  });

  it("answers a flat CreateTaskResult when the handler starts the task, then tasks/get inlines the result", async () => {
    const s = await session();
    const created = await s.request("tools/call", { name: "slow_compute", arguments: { seconds: 0.1, label: "b" } });
    expect(created.result).toEqual({
      resultType: "task",
      taskId: expect.any(String),
      status: "working",
      createdAt: expect.any(String),
      lastUpdatedAt: expect.any(String),
      ttlMs: 3600000,
      pollIntervalMs: 500,
      _meta: { "io.modelcontextprotocol/serverInfo": { name: "mcp-conformance-test-server", version: "1.0.0" } },
    });
    const done = await terminal(s, created.result!.taskId);
    expect(done.result).toMatchObject({ resultType: "complete", status: "completed", result: { content: [{ type: "text", text: "Computed b after 0.1s" }] } });
    // An isError result completes the task in this era.
    const failing = await s.request("tools/call", { name: "failing_job", arguments: {} });
    expect((await terminal(s, failing.result!.taskId)).result).toMatchObject({ status: "completed", result: { isError: true } });
    const crashing = await s.request("tools/call", { name: "protocol_error_job", arguments: {} });
    const failed = await terminal(s, crashing.result!.taskId);
    expect(failed.result).toMatchObject({ status: "failed", error: { code: -32603, message: "Internal error: the job crashed" } });
    expect(failed.result).not.toHaveProperty("result");
  });

  it("cancels with an acknowledgement; the task is cancelled and its handler stops", async () => {
    const s = await session();
    const created = await s.request("tools/call", { name: "slow_compute", arguments: { seconds: 60 } });
    const ack = await s.request("tasks/cancel", { taskId: created.result!.taskId });
    expect(ack.result).toEqual({ resultType: "complete", _meta: expect.any(Object) });
    expect((await s.request("tasks/get", { taskId: created.result!.taskId })).result).toMatchObject({ status: "cancelled" });
    // Cancelling a task that ended is the same acknowledgement.
    expect((await s.request("tasks/cancel", { taskId: created.result!.taskId })).result).toMatchObject({ resultType: "complete" });
  });

  it("parks a task on its questions (tasks/get shows them) until tasks/update answers them, one at a time if need be", async () => {
    const s = await session();
    const created = await s.request("tools/call", { name: "multi_input", arguments: {} });
    const taskId = created.result!.taskId;
    const parked = await untilValue(
      () => s.request("tasks/get", { taskId }),
      (r) => r.result?.status === "input_required",
      "the task to park on its questions",
      WAIT,
    );
    const keys = Object.keys(parked.result!.inputRequests as object);
    expect(keys).toEqual(["elicitation-1", "elicitation-2"]);
    expect((await s.request("tasks/update", { taskId, inputResponses: { [keys[0]!]: { action: "accept", content: { name: "one" } } } })).result).toMatchObject({
      resultType: "complete",
    });
    const half = await s.request("tasks/get", { taskId });
    expect(half.result).toMatchObject({ status: "input_required" });
    expect(Object.keys(half.result!.inputRequests as object)).toEqual([keys[1]]);
    await s.request("tasks/update", { taskId, inputResponses: { [keys[1]!]: { action: "accept", content: { name: "two" } } } });
    expect((await terminal(s, taskId)).result).toMatchObject({
      status: "completed",
      result: { content: [{ type: "text", text: 'Answers: {"name":"one"}, {"name":"two"}' }] },
    });
  });

  it("gathers input with input_required before a task starts (MRTR, then the task)", async () => {
    const s = await session();
    const first = await s.request("tools/call", { name: "test_tool_with_task", arguments: {} });
    expect(first.result).toMatchObject({ resultType: "input_required", inputRequests: { user_name: { method: "elicitation/create" } } });
    const second = await s.request("tools/call", {
      name: "test_tool_with_task",
      arguments: {},
      requestState: first.result!.requestState,
      inputResponses: { user_name: { action: "accept", content: { name: "Alice" } } },
    });
    expect(second.result).toMatchObject({ resultType: "task", status: "working" });
    expect(second.result).not.toHaveProperty("requestState");
    expect((await terminal(s, second.result!.taskId)).result).toMatchObject({ result: { content: [{ type: "text", text: "Hello, Alice! (from a task)" }] } });
  });

  it("without the extension: a required-task tool is -32021, an optional one runs at once, tasks/* are -32021", async () => {
    const s = await session({});
    expect((await s.request("tools/call", { name: "failing_job", arguments: {} })).error).toMatchObject({
      code: -32021,
      data: { requiredCapabilities: { extensions: { [EXTENSION]: {} } } },
    });
    expect((await s.request("tools/call", { name: "slow_compute", arguments: { seconds: 0 } })).result).toMatchObject({
      resultType: "complete",
      content: [{ type: "text", text: "Computed result after 0s" }],
    });
    expect((await s.request("tasks/get", { taskId: "x" })).error).toMatchObject({ code: -32021 });
    // tasks/result and tasks/list do not exist in the extension.
    const t = await session();
    expect((await t.request("tasks/result", { taskId: "x" })).error).toEqual({ code: -32601, message: "Method not found" });
    expect((await t.request("tasks/list")).error).toEqual({ code: -32601, message: "Method not found" });
    expect((await t.request("tasks/get", { taskId: "x" })).error).toMatchObject({ code: -32602 });
  });
});

describe("tasks over Streamable HTTP, both eras on one server", () => {
  function post(url: string, body: object, headers: Record<string, string>): Promise<RawResponse> {
    return new Promise((resolve, reject) => {
      const req = httpRequest(
        url,
        { method: "POST", headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers } },
        (res) => {
          let text = "";
          res.on("data", (d) => (text += d));
          res.on("end", () => resolve(rpcAnswer<RawResponse>(text)));
        },
      );
      req.on("error", reject);
      req.end(JSON.stringify(body));
    });
  }

  it("runs a task to completion and cancels another, for a 2026-07-28 client and a 2025-era SDK Client", async () => {
    const handle = await serveHttp(handlers, { port: 0 });
    closers.push(handle.close);
    // 2026-07-28, raw (SDK 2.4's Client does not read CreateTaskResult yet).
    const caps = { extensions: { [EXTENSION]: {} } };
    let id = 0;
    const modern = (method: string, params: Record<string, unknown>, name?: string) =>
      post(
        handle.url,
        { jsonrpc: "2.0", id: ++id, method, params: { ...params, _meta: envelope(caps) } },
        { "mcp-protocol-version": "2026-07-28", "mcp-method": method, ...(name ? { "mcp-name": name } : {}) },
      );
    const created = await modern("tools/call", { name: "slow_compute", arguments: { seconds: 0.1 } }, "slow_compute");
    const taskId = String(created.result!.taskId);
    const done = await untilValue(
      () => modern("tasks/get", { taskId }, taskId),
      (r) => r.result?.status === "completed",
      "the 2026-07-28 task to complete",
      WAIT,
    );
    expect(done.result).toMatchObject({ result: { content: [{ type: "text", text: "Computed result after 0.1s" }] } });
    const long = await modern("tools/call", { name: "slow_compute", arguments: { seconds: 60 } }, "slow_compute");
    const longId = String(long.result!.taskId);
    await modern("tasks/cancel", { taskId: longId }, longId);
    expect((await modern("tasks/get", { taskId: longId }, longId)).result).toMatchObject({ status: "cancelled" });

    // 2025 era, through the SDK v2 Client's raw request with a pass-through result schema.
    const sdk = new Client({ name: "tasks", version: "1" });
    await sdk.connect(new StreamableHTTPClientTransport(new URL(handle.url)));
    const any = { "~standard": { version: 1, vendor: "test", validate: (value: unknown) => ({ value }) } } as never;
    const task = (
      (await sdk.request({ method: "tools/call", params: { name: "slow_compute", arguments: { seconds: 0.1 }, task: { ttl: 30000 } } }, any)) as unknown as {
        task: { taskId: string };
      }
    ).task;
    const result = (await sdk.request({ method: "tasks/result", params: { taskId: task.taskId } }, any)) as { content: unknown[] };
    expect(result.content).toEqual([{ type: "text", text: "Computed result after 0.1s" }]);
    const other = (
      (await sdk.request({ method: "tools/call", params: { name: "slow_compute", arguments: { seconds: 60 }, task: {} } }, any)) as unknown as {
        task: { taskId: string };
      }
    ).task;
    expect(await sdk.request({ method: "tasks/cancel", params: { taskId: other.taskId } }, any)).toMatchObject({ status: "cancelled" });
    await sdk.close();
  });
});

describe("tasks over stdio, in a process of its own", () => {
  /** A raw line peer on a child process: one protocol era per connection, as stdio has it. */
  function child() {
    const proc = spawn(process.execPath, ["--import", "tsx", fileURLToPath(new URL("../servers/conformance-stdio.ts", import.meta.url))], {
      stdio: ["pipe", "pipe", "inherit"],
    });
    closers.push(async () => void proc.kill());
    let buffer = "";
    const waiting = new Map<number, (m: RawResponse) => void>();
    proc.stdout.on("data", (d) => {
      buffer += d;
      for (let nl = buffer.indexOf("\n"); nl !== -1; nl = buffer.indexOf("\n")) {
        const m = JSON.parse(buffer.slice(0, nl)) as RawResponse;
        buffer = buffer.slice(nl + 1);
        waiting.get(m.id as number)?.(m);
      }
    });
    let id = 0;
    return (method: string, params: Record<string, unknown> = {}) =>
      new Promise<RawResponse>((resolve) => {
        waiting.set(++id, resolve);
        proc.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id, method, params })}\n`);
      });
  }

  it("completes and cancels tasks for a 2026-07-28 connection and for a 2025-era one", async () => {
    const modern = child();
    const meta = { _meta: envelope({ extensions: { [EXTENSION]: {} } }) };
    const created = await modern("tools/call", { name: "slow_compute", arguments: { seconds: 0.1 }, ...meta });
    const taskId = created.result!.taskId;
    expect(
      (
        await untilValue(
          () => modern("tasks/get", { taskId, ...meta }),
          (r) => r.result?.status === "completed",
          "the 2026-07-28 task to complete",
          WAIT,
        )
      ).result,
    ).toMatchObject({ result: { content: [{ type: "text", text: "Computed result after 0.1s" }] } });
    const long = await modern("tools/call", { name: "slow_compute", arguments: { seconds: 60 }, ...meta });
    await modern("tasks/cancel", { taskId: long.result!.taskId, ...meta });
    expect((await modern("tasks/get", { taskId: long.result!.taskId, ...meta })).result).toMatchObject({ status: "cancelled" });

    const legacy = child();
    await legacy("initialize", { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } });
    const task = (await legacy("tools/call", { name: "slow_compute", arguments: { seconds: 0.1 }, task: {} })).result!.task as { taskId: string };
    expect((await legacy("tasks/result", { taskId: task.taskId })).result).toMatchObject({ content: [{ type: "text", text: "Computed result after 0.1s" }] });
    const other = (await legacy("tools/call", { name: "slow_compute", arguments: { seconds: 60 }, task: {} })).result!.task as { taskId: string };
    expect((await legacy("tasks/cancel", { taskId: other.taskId })).result).toMatchObject({ status: "cancelled" });
  });
});

describe("progress from a task (2025-11-25: the progressToken lives as long as the task)", () => {
  it("sends the handler's progress notifications after the CreateTaskResult, with the call's token", async () => {
    const { createManifestServerFactory } = await import("../helpers/runtime.js");
    const definition = {
      serverInfo: { name: "p", version: "1" },
      capabilities: { tools: {} },
      tools: [{ name: "job", inputSchema: { type: "object" }, execution: { taskSupport: "optional" } }],
      taskSupport: { job: "optional" } as const,
      resources: [],
      resourceTemplates: [],
      prompts: [],
    };
    const factory = createManifestServerFactory(definition, {
      tools: {
        job: async (_args: unknown, ctx: { progress(p: number, t?: number): Promise<void> }) => {
          for (const step of [1, 2, 3]) {
            await sleep(10);
            await ctx.progress(step, 3);
          }
          return "done";
        },
      },
    });
    const s = await rawSession(factory, { era: "legacy" });
    closers.push(s.close);
    const created = await s.request("tools/call", { name: "job", arguments: {}, task: {}, _meta: { progressToken: "t-1" } });
    const taskId = (created.result!.task as { taskId: string }).taskId;
    expect((await s.request("tasks/result", { taskId })).result).toMatchObject({ content: [{ type: "text", text: "done" }] });
    expect(s.notifications.filter((n) => n.method === "notifications/progress").map((n) => n.params)).toEqual([
      { progressToken: "t-1", progress: 1, total: 3 },
      { progressToken: "t-1", progress: 2, total: 3 },
      { progressToken: "t-1", progress: 3, total: 3 },
    ]);
  });
});

describe("a task handler that throws", () => {
  it("ends as the call would have answered: a plain error is an isError result (2026-07-28: completed; 2025: failed)", async () => {
    const { createManifestServerFactory } = await import("../helpers/runtime.js");
    const definition = {
      serverInfo: { name: "t", version: "1" },
      capabilities: { tools: {} },
      tools: [{ name: "boom", inputSchema: { type: "object" }, execution: { taskSupport: "optional" } }],
      taskSupport: { boom: "optional" } as const,
      resources: [],
      resourceTemplates: [],
      prompts: [],
    };
    const factory = createManifestServerFactory(
      definition,
      {
        tools: {
          boom: async (_args: unknown, ctx: { startTask(): Promise<void> }) => {
            await ctx.startTask();
            throw new Error("disk full");
          },
        },
      },
      { onError: () => {} },
    );
    const modern = await rawSession(factory, { era: "modern", capabilities: { extensions: { [EXTENSION]: {} } } });
    closers.push(modern.close);
    const created = await modern.request("tools/call", { name: "boom", arguments: {} });
    const done = await untilValue(
      () => modern.request("tasks/get", { taskId: created.result!.taskId }),
      (r) => r.result?.status !== "working",
      "the task whose handler threw to end",
      WAIT,
    );
    expect(done.result).toMatchObject({ status: "completed", result: { isError: true, content: [{ type: "text", text: "Tool boom failed: disk full" }] } });

    const legacy = await rawSession(factory, { era: "legacy" });
    closers.push(legacy.close);
    const task = (await legacy.request("tools/call", { name: "boom", arguments: {}, task: {} })).result!.task as { taskId: string };
    expect((await legacy.request("tasks/result", { taskId: task.taskId })).result).toMatchObject({ isError: true });
    expect((await legacy.request("tasks/get", { taskId: task.taskId })).result).toMatchObject({ status: "failed" });
  });
});
