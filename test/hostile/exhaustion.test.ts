/**
 * Floods that must not exhaust a generated server: tasks (running ones capped, finished ones
 * evicted by count and keeping only their result), 2025-era HTTP sessions (capped, the idle
 * longest closed first, idle ones expired), and a task-augmented call the server refuses (it ends
 * at once, never a task stuck in `working`).
 */
import { runInNewContext } from "node:vm";
import { setFlagsFromString } from "node:v8";
import { request, type ClientRequest } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import type { ServerDefinition } from "../../packages/runtime/src/shared/definition.js";
import { serveHttpWith } from "../helpers/runtime.js";
import { serveStdioWith } from "../helpers/runtime.js";
import { PassThrough } from "node:stream";
import { createManifestServerFactory, type ServerOptions, type ToolContext } from "../helpers/runtime.js";
import { open, post, type OpenResponse } from "../helpers/http.js";
import { sleep, until, untilValue } from "../helpers/wait.js";
import { envelope, rawSession } from "../helpers/wire.js";

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;
/**
 * The heap after full collections, in bytes. Collections alternate with pauses: fetch's Request
 * objects (Streamable HTTP goes through them) are freed by finalizers that run after a collection,
 * so one collection alone leaves megabytes that the next would free.
 */
async function heap(): Promise<number> {
  for (let i = 0; i < 4; i++) {
    gc();
    await sleep(20);
  }
  return process.memoryUsage().heapUsed;
}

const EXTENSION = "io.modelcontextprotocol/tasks";
const definition: ServerDefinition = {
  serverInfo: { name: "floods", version: "1" },
  capabilities: { tools: {} },
  tools: [
    {
      name: "job",
      inputSchema: { type: "object", properties: { n: { type: "integer" }, hang: { type: "boolean" } }, required: ["n"] },
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
    job: async (args: { n: number; hang?: boolean }, ctx: ToolContext) => {
      await ctx.startTask();
      if (args.hang) await new Promise((resolve) => ctx.signal.addEventListener("abort", resolve, { once: true }));
      return `done ${args.n}`;
    },
  },
};
const factory = (options: ServerOptions) => createManifestServerFactory(definition, handlers as never, { onError: () => {}, ...options });

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (closers.length) await closers.pop()!();
});

describe("tasks", () => {
  it("2026-07-28: running tasks are capped (-32005), finished ones evicted oldest first", async () => {
    const s = await rawSession(factory({ maxTasks: 40, maxRunningTasks: 5 }), { era: "modern", capabilities: { extensions: { [EXTENSION]: {} } } });
    closers.push(s.close);
    const running: string[] = [];
    for (let i = 0; i < 5; i++) running.push((await s.request("tools/call", { name: "job", arguments: { n: i, hang: true } })).result!.taskId as string);
    const refused = await s.request("tools/call", { name: "job", arguments: { n: 5, hang: true } });
    expect(refused.error).toEqual({
      code: -32005,
      message: "Too many tasks: 5 are running (the server's maxRunningTasks); retry when one has ended",
      data: { limit: 5 },
    });
    await s.request("tasks/cancel", { taskId: running[0] });
    expect((await s.request("tools/call", { name: "job", arguments: { n: 6, hang: true } })).result).toMatchObject({ resultType: "task", status: "working" });
    // Room for the quick ones below (each runs until its handler returns).
    for (const taskId of running.slice(1, 3)) await s.request("tasks/cancel", { taskId });

    const quick: string[] = [];
    for (let i = 0; i < 100; i++) quick.push((await s.request("tools/call", { name: "job", arguments: { n: i } })).result!.taskId as string);
    // Each call is answered once its task is made; its handler returns after.
    await until(async () => (await s.request("tasks/get", { taskId: quick[99] })).result?.status === "completed", "the last quick task to complete");
    // 40 kept: the 5 running, the 35 that ended last; the cancelled one and the first quick ones are gone.
    expect((await s.request("tasks/get", { taskId: quick[0] })).error).toMatchObject({
      code: -32602,
      message: `Failed to retrieve task: Task not found (${quick[0]})`,
    });
    expect((await s.request("tasks/get", { taskId: running[0] })).error).toMatchObject({ code: -32602 });
    expect((await s.request("tasks/get", { taskId: quick[99] })).result).toMatchObject({
      status: "completed",
      result: { content: [{ type: "text", text: "done 99" }] },
    });
    expect((await s.request("tasks/get", { taskId: running[4] })).result).toMatchObject({ status: "working" });
  });

  it("2025 era: the same caps on task-augmented calls", async () => {
    const s = await rawSession(factory({ maxTasks: 10, maxRunningTasks: 2 }), { era: "legacy" });
    closers.push(s.close);
    for (let i = 0; i < 2; i++)
      expect((await s.request("tools/call", { name: "job", arguments: { n: i, hang: true }, task: {} })).result!.task).toMatchObject({ status: "working" });
    expect((await s.request("tools/call", { name: "job", arguments: { n: 2, hang: true }, task: {} })).error).toMatchObject({ code: -32005 });
    const ids: string[] = [];
    for (let i = 0; i < 2; i++)
      await s.request("tasks/cancel", {
        taskId: ((await s.request("tasks/list")).result!.tasks as { taskId: string; status: string }[]).find((t) => t.status === "working")!.taskId,
      });
    for (let i = 0; i < 20; i++)
      ids.push(((await s.request("tools/call", { name: "job", arguments: { n: i }, task: {} })).result!.task as { taskId: string }).taskId);
    await until(async () => (await s.request("tasks/get", { taskId: ids[19] })).result?.status === "completed", "the last task to complete");
    expect((await s.request("tasks/list")).result!.tasks).toHaveLength(10);
    expect((await s.request("tasks/result", { taskId: ids[19] })).result).toMatchObject({ content: [{ type: "text", text: "done 19" }] });
  });

  it("a refused task-augmented call (invalid arguments, no handler) ends at once: tasks/result answers, nothing stays working", async () => {
    const s = await rawSession(factory({}), { era: "legacy" });
    closers.push(s.close);
    const created = await s.request("tools/call", { name: "job", arguments: { n: "not a number" }, task: {} });
    const taskId = (created.result!.task as { taskId: string }).taskId;
    expect(created.result!.task).toMatchObject({ status: "failed" });
    const result = await s.request("tasks/result", { taskId });
    expect(result.result).toMatchObject({ isError: true, content: [{ type: "text", text: "Invalid arguments for tool job: Property 'n' must be integer" }] });
    expect(((await s.request("tasks/list")).result!.tasks as { status: string }[]).map((t) => t.status)).toEqual(["failed"]);
    // With invalidArguments: "protocol-error", the call is -32602 and no task is made at all.
    const strict = await rawSession(factory({ invalidArguments: "protocol-error" }), { era: "legacy" });
    closers.push(strict.close);
    expect((await strict.request("tools/call", { name: "job", arguments: {}, task: {} })).error).toMatchObject({ code: -32602 });
    expect((await strict.request("tasks/list")).result!.tasks).toEqual([]);
  });

  it("2026-07-28 over HTTP: a finished task keeps only its result, and the kept tasks stay capped", async () => {
    const serve = async (maxTasks: number) => {
      const handle = await serveHttpWith(factory({ maxTasks }), definition, { port: 0 });
      closers.push(handle.close);
      const call = async (n: number) => {
        const body = JSON.stringify({
          jsonrpc: "2.0",
          id: n,
          method: "tools/call",
          params: { name: "job", arguments: { n }, _meta: envelope({ extensions: { [EXTENSION]: {} } }) },
        });
        return JSON.parse((await post(handle.url, body, { "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/call", "mcp-name": "job" })).body).result
          .taskId as string;
      };
      return { url: handle.url, call };
    };
    const capped = await serve(1000);
    // The first requests of a process grow the heap whatever they do (compiled code, caches).
    const first = await capped.call(0);
    for (let n = 1; n < 1500; n++) await capped.call(n);
    const warm = await heap();
    for (let n = 1500; n < 4500; n++) await capped.call(n);
    // 3,000 tasks past the cap of 1,000: kept, they would hold about 3 MB (135 MB when each kept its request).
    expect((await heap()) - warm).toBeLessThan(1_500_000);
    const evicted = await post(
      capped.url,
      JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tasks/get", params: { taskId: first, _meta: envelope({ extensions: { [EXTENSION]: {} } }) } }),
      { "mcp-protocol-version": "2026-07-28", "mcp-method": "tasks/get", "mcp-name": first },
    );
    expect(JSON.parse(evicted.body).error).toMatchObject({ code: -32602 });

    // What one finished task keeps: its record and result (about 1 KB), not its request (about 45 KB before).
    const kept = await serve(100_000);
    const before = await heap();
    for (let n = 0; n < 1000; n++) await kept.call(n);
    expect(((await heap()) - before) / 1000).toBeLessThan(6_000);
  }, 90_000);
});

const INIT = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } },
});

/** Starts a 2025-era session: its id. */
async function initialize(url: string): Promise<string> {
  const r = await post(url, INIT);
  expect(r.status).toBe(200);
  return r.headers["mcp-session-id"] as string;
}

const ping = (url: string, session: string) =>
  post(url, JSON.stringify({ jsonrpc: "2.0", id: 2, method: "ping" }), { "mcp-session-id": session, "mcp-protocol-version": "2025-11-25" });

describe("2025-era HTTP sessions", () => {
  it("are capped: a new session closes the one idle the longest, and the heap stays bounded", async () => {
    const handle = await serveHttpWith(factory({}), definition, { port: 0, maxSessions: 50 });
    closers.push(handle.close);
    const first = await initialize(handle.url);
    // Warm: the first requests of a process grow the heap whatever they do.
    for (let i = 0; i < 1299; i++) await initialize(handle.url);
    expect((await ping(handle.url, first)).status).toBe(404);
    const before = await heap();
    for (let i = 0; i < 1000; i++) await initialize(handle.url);
    // About 14 KB each when kept: 1,000 more sessions would be 14 MB.
    expect((await heap()) - before).toBeLessThan(2_000_000);
  }, 90_000);

  it("a session used recently is kept; one idle past sessionIdleTimeoutMs is closed (404)", async () => {
    const handle = await serveHttpWith(factory({}), definition, { port: 0, maxSessions: 3, sessionIdleTimeoutMs: 1000 });
    closers.push(handle.close);
    const kept = await initialize(handle.url);
    await initialize(handle.url);
    await initialize(handle.url);
    expect((await ping(handle.url, kept)).status).toBe(200);
    // `kept` was used last but one: the next session closes the least recently used other one.
    await initialize(handle.url);
    expect((await ping(handle.url, kept)).status).toBe(200);
    // Left idle past sessionIdleTimeoutMs (1 s): a fixed pause, as polling it with pings would keep it in use.
    await sleep(2600);
    expect((await ping(handle.url, kept)).status).toBe(404);
  });

  it("when every session has a request in flight, initialize is refused with 503 and -32005", async () => {
    const handle = await serveHttpWith(factory({}), definition, { port: 0, maxSessions: 2 });
    closers.push(handle.close);
    const calls: ClientRequest[] = [];
    for (let i = 0; i < 2; i++) calls.push(await hangingCall(handle.url, await initialize(handle.url)));
    const refused = await post(handle.url, INIT);
    expect(refused.status).toBe(503);
    expect(refused.headers["retry-after"]).toBe("5");
    expect(JSON.parse(refused.body).error).toEqual({
      code: -32005,
      message: "Service Unavailable: 2 sessions are busy (the server's maxSessions); retry later",
    });
    for (const c of calls) c.destroy();
    // Refused until the server has seen a call's client go away.
    const status = await untilValue(
      async () => (await post(handle.url, INIT)).status,
      (s) => s !== 503,
      "initialize to be served once the calls are gone",
    );
    expect(status).toBe(200);
  });

  it("maxSessions sessions each holding an unread GET stream do not lock out a new client: the least recently used goes", async () => {
    const handle = await serveHttpWith(factory({}), definition, { port: 0, maxSessions: 3 });
    closers.push(handle.close);
    const held: { session: string; stream: OpenResponse }[] = [];
    for (let i = 0; i < 3; i++) {
      const session = await initialize(handle.url);
      held.push({ session, stream: await openStream(handle.url, session) });
    }
    // The attack of the issue: before, every new 2025-era client got 503 for as long as the streams stayed open.
    const fresh = await post(handle.url, INIT);
    expect(fresh.status).toBe(200);
    // The first session was used least recently: it is closed, its stream ended, the others kept.
    await held[0]!.stream.ended;
    expect((await ping(handle.url, held[0]!.session)).status).toBe(404);
    expect((await ping(handle.url, held[2]!.session)).status).toBe(200);
    // Pinged just now, the third is kept; the second goes next.
    await initialize(handle.url);
    await held[1]!.stream.ended;
    expect((await ping(handle.url, held[1]!.session)).status).toBe(404);
    expect((await ping(handle.url, held[2]!.session)).status).toBe(200);
    expect((await ping(handle.url, fresh.headers["mcp-session-id"] as string)).status).toBe(200);
    held[2]!.stream.close();
  });

  it("a GET stream with nothing sent is ended after standingStreamIdleTimeoutMs; one with messages going out is kept", async () => {
    const handle = await serveHttpWith(factory({}), definition, { port: 0, standingStreamIdleTimeoutMs: 600 });
    closers.push(handle.close);
    const quiet = await initialize(handle.url);
    const busy = await initialize(handle.url);
    const quietStream = await openStream(handle.url, quiet);
    const busyStream = await openStream(handle.url, busy);
    let quietEnded = false;
    void quietStream.ended.then(() => (quietEnded = true));
    // Each task-augmented call sends its task's status on the session's GET stream: one every 100 ms
    // keeps the busy stream well inside its idle limit while the quiet one reaches it.
    const statuses: number[] = [];
    await until(
      async () => {
        const n = statuses.length;
        const call = await post(
          handle.url,
          JSON.stringify({ jsonrpc: "2.0", id: 10 + n, method: "tools/call", params: { name: "job", arguments: { n }, task: {} } }),
          { "mcp-session-id": busy, "mcp-protocol-version": "2025-11-25" },
        );
        statuses.push(call.status);
        return quietEnded;
      },
      "the quiet GET stream to be ended (nothing sent on it for standingStreamIdleTimeoutMs)",
      { timeout: 20_000, every: 100 },
    );
    expect(statuses.filter((status) => status !== 200)).toEqual([]);
    expect(busyStream.text()).toContain("notifications/tasks/status");
    expect(busyStream.done()).toBe(false);
    expect(quietStream.text()).not.toContain("event: message");
    // Ending the stream does not end the session: its client opens a new stream and goes on.
    expect((await ping(handle.url, quiet)).status).toBe(200);
    const again = await openStream(handle.url, quiet);
    expect(again.done()).toBe(false);
    // Once nothing more goes out on it, the busy one ends too.
    await busyStream.ended;
    again.close();
  });
});

describe("stdio", () => {
  it("a line that never ends is not kept: past maxMessageBytes it is dropped as it comes, and the next line is served", async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    const lines: string[] = [];
    let pending = "";
    output.on("data", (d: Buffer) => {
      const parts = (pending + d.toString()).split("\n");
      pending = parts.pop()!;
      lines.push(...parts);
    });
    const handle = await serveStdioWith(factory({}) as never, { input, output, maxMessageBytes: 1024 * 1024 });
    closers.push(handle.close);
    const chunk = "x".repeat(64 * 1024);
    for (let i = 0; i < 16; i++) input.write(chunk);
    const before = await heap();
    // 64 MiB without a newline: kept, it would be 64 MiB of heap (128 as a string).
    for (let i = 0; i < 1024; i++) input.write(chunk);
    await new Promise((r) => setImmediate(r));
    expect((await heap()) - before).toBeLessThan(4_000_000);
    input.write(
      '\n{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}\n',
    );
    await until(() => lines.length >= 2, "two answers: the dropped line's error, then initialize's", { every: 10 });
    expect(lines.map((l) => JSON.parse(l) as { id: unknown; error?: { code: number }; result?: unknown })).toMatchObject([
      { id: null, error: { code: -32600 } },
      { id: 1, result: { protocolVersion: "2025-11-25" } },
    ]);
  });
});

/** Opens a session's GET stream (the server sends nothing on it unless told). */
async function openStream(url: string, session: string): Promise<OpenResponse> {
  const stream = await open(url, "GET", { accept: "text/event-stream", "mcp-session-id": session, "mcp-protocol-version": "2025-11-25" });
  expect(stream.status).toBe(200);
  return stream;
}

/** A tools/call that runs until its client goes away (destroy the request): its session is busy meanwhile. */
function hangingCall(url: string, session: string): Promise<ClientRequest> {
  return new Promise((resolve, reject) => {
    const target = new URL(url);
    const req = request(
      {
        host: target.hostname,
        port: target.port,
        path: target.pathname,
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          "mcp-session-id": session,
          "mcp-protocol-version": "2025-11-25",
        },
      },
      (res) => {
        expect(res.statusCode).toBe(200);
        resolve(req);
      },
    );
    req.on("error", reject);
    req.end(JSON.stringify({ jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "job", arguments: { n: 0, hang: true } } }));
  });
}
