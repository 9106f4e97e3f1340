/**
 * `mcpgen check` on traffic nobody on the project wrote: the official SDK's Clients (1.x and v2),
 * the Vercel AI SDK's MCP client and the MCP Inspector CLI talk to the reference servers from npm
 * (server-everything, -memory, -filesystem) and to tmcp (a server written apart from the official
 * SDK) through `mcpgen trace`, over stdio and Streamable HTTP (concurrent sessions), each session
 * doing what a client does (list, call, read, get a prompt, with progress where a tool reports
 * it; a task that asks for input). A checker that cries wolf on clean traffic gets turned off:
 * every trace checks clean, but for one true finding in server-everything's own HTTP code, named
 * where it is met. In the `network` project: the servers and clients come from the npm registry.
 */
import { execFile, spawn, type ChildProcess } from "node:child_process";
import { copyFileSync, mkdirSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { Client as ClientV2, StreamableHTTPClientTransport as HttpV2 } from "@modelcontextprotocol/client";
import { StdioClientTransport as StdioV2 } from "@modelcontextprotocol/client/stdio";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport as StdioV1 } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport as HttpV1 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { beforeAll, describe, expect, it } from "vitest";
import { CallToolResultSchema, ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { loadDefinitions } from "../../src/commands/check/manifests.js";
import { checkLog } from "../../src/commands/check/run.js";
import { traceHttp } from "../../src/commands/trace/http.js";
import { openTrace } from "../../src/commands/trace/writer.js";
import { INSPECTOR_CLI, installInspector } from "../helpers/inspector.js";
import { binCommand, corpusPackages, referenceServers, workFolder } from "../helpers/published.js";
import { tempProject } from "../helpers/tmp.js";
import { mcpgenAsync } from "../helpers/cli.js";
import { BIN, readTrace } from "../helpers/trace.js";
import { freePort } from "../helpers/ports.js";

const work = workFolder("mcpgen-check-corpus-");
const FIXTURES = fileURLToPath(new URL("../fixtures/corpus/", import.meta.url));
let servers: string;
/** The installed @ai-sdk/mcp and tmcp, with the corpus scripts copied in (published.ts). */
let corpus: string;
const shared = path.join(work, "shared");
let node22: string;

/** Each server: its command, and the calls a session makes of it (tool, arguments). */
const SERVERS: Record<string, { command: () => string[]; env?: Record<string, string>; calls: [string, Record<string, unknown>][] }> = {
  everything: {
    command: () => binCommand(servers, "@modelcontextprotocol/server-everything"),
    calls: [
      ["echo", { message: "hello" }],
      ["get-sum", { a: 2, b: 3 }],
      ["trigger-long-running-operation", { duration: 1, steps: 2 }],
      ["get-structured-content", { location: "Chicago" }],
    ],
  },
  memory: {
    command: () => binCommand(servers, "@modelcontextprotocol/server-memory"),
    env: { MEMORY_FILE_PATH: path.join(work, "memory.jsonl") },
    calls: [
      ["create_entities", { entities: [{ name: "Ada", entityType: "person", observations: ["likes green"] }] }],
      ["read_graph", {}],
      ["search_nodes", { query: "Ada" }],
    ],
  },
  // An MCP server written apart from the official SDK.
  tmcp: {
    command: () => [process.execPath, path.join(corpus, "tmcp-server.mjs")],
    calls: [
      ["add", { a: 2, b: 3 }],
      ["weather", { city: "Lyon" }],
      ["fail", {}],
    ],
  },
  filesystem: {
    command: () => [...binCommand(servers, "@modelcontextprotocol/server-filesystem"), shared],
    calls: [
      ["list_allowed_directories", {}],
      ["read_text_file", { path: path.join(shared, "hello.txt") }],
      ["list_directory", { path: shared }],
    ],
  },
};

beforeAll(() => {
  mkdirSync(shared);
  writeFileSync(path.join(shared, "hello.txt"), "hello from a real server\n");
  servers = referenceServers();
  node22 = installInspector();
  corpus = corpusPackages();
  for (const script of ["tmcp-server.mjs", "ai-sdk-session.mjs"]) copyFileSync(path.join(FIXTURES, script), path.join(corpus, script));
}, 360_000);

/** `mcpgen trace -o FILE -- <server>`: what a client starts in place of the server. */
function traced(server: string, file: string): { command: string; args: string[]; env: Record<string, string> } {
  const [command, ...args] = SERVERS[server]!.command();
  return {
    command: process.execPath,
    args: [BIN, "trace", "-o", file, "--", command!, ...args],
    env: { ...(process.env as Record<string, string>), ...SERVERS[server]!.env },
  };
}

/** server-everything over Streamable HTTP on `port`, once it listens. */
async function startEverythingHttp(port: number): Promise<ChildProcess> {
  const [command, ...args] = binCommand(servers, "@modelcontextprotocol/server-everything");
  const upstream = spawn(command!, [...args, "streamableHttp"], { env: { ...process.env, PORT: String(port) }, stdio: ["ignore", "ignore", "pipe"] });
  await new Promise<void>((resolve, reject) => {
    let said = "";
    upstream.stderr!.on("data", (chunk: Buffer) => {
      said += chunk.toString();
      if (said.includes("listening on port")) resolve();
    });
    upstream.once("exit", (code) => reject(new Error(`server-everything exited with ${code}: ${said}`)));
  });
  return upstream;
}

/** What the findings say, for a failure that reads; and that the trace holds a session's worth of messages. */
async function findings(file: string, atLeast = 5): Promise<string[]> {
  const { findings: list, messages } = await checkLog(file);
  expect(messages, `${file}: messages checked`).toBeGreaterThanOrEqual(atLeast);
  return list.map((f) => `${path.basename(file)}:${f.line} ${f.rule}: ${f.message}`);
}

/** A session as the SDK's examples run one: list everything, call, read, get a prompt. */
async function session(client: ClientV1 | ClientV2, server: string): Promise<void> {
  const capabilities = client.getServerCapabilities() ?? {};
  const { tools } = await client.listTools();
  expect(tools.length).toBeGreaterThan(0);
  for (const [name, args] of SERVERS[server]!.calls) {
    const known = tools.some((t) => t.name === name);
    expect(known, `${server} has no tool ${name}: ${tools.map((t) => t.name).join(", ")}`).toBe(true);
    await client.callTool({ name, arguments: args }, undefined, { onprogress: () => {}, timeout: 30_000 });
  }
  if (capabilities.resources) {
    const { resources } = await client.listResources();
    await client.listResourceTemplates();
    if (resources[0]) await client.readResource({ uri: resources[0].uri });
  }
  if (capabilities.prompts) {
    const { prompts } = await client.listPrompts();
    const simple = prompts.find((p) => !(p.arguments ?? []).some((a) => a.required));
    if (simple) await client.getPrompt({ name: simple.name });
  }
}

describe("check on real traffic finds nothing", () => {
  for (const server of Object.keys(SERVERS)) {
    it(`SDK 1.x Client and ${server} over stdio`, async () => {
      const file = path.join(tempProject(), `sdk1-${server}.jsonl`);
      const client = new ClientV1({ name: "corpus-sdk1", version: "1.0.0" });
      await client.connect(new StdioV1({ ...traced(server, file), stderr: "ignore" }));
      await session(client, server);
      await client.close();
      // initialize and its answer, tools/list and its answer, then each call and its answer at least.
      expect(await findings(file, 4 + 2 * SERVERS[server]!.calls.length)).toEqual([]);
    }, 120_000);

    it(`SDK v2 Client and ${server} over stdio`, async () => {
      const file = path.join(tempProject(), `sdk2-${server}.jsonl`);
      const client = new ClientV2({ name: "corpus-sdk2", version: "1.0.0" });
      await client.connect(new StdioV2({ ...traced(server, file), stderr: "ignore" }));
      await session(client, server);
      await client.close();
      expect(await findings(file, 4 + 2 * SERVERS[server]!.calls.length)).toEqual([]);
    }, 120_000);
  }

  it("SDK 1.x Client and server-everything: a task that asks for input, judged also against the pulled manifest", async () => {
    const dir = tempProject();
    const file = path.join(dir, "sdk1-task.jsonl");
    // Declaring elicitation and tasks, the client is shown tools a client declaring nothing (pull) is not.
    const client = new ClientV1(
      { name: "corpus-sdk1-tasks", version: "1.0.0" },
      { capabilities: { elicitation: { form: {} }, tasks: { requests: { elicitation: { create: {} } } } } },
    );
    const asked: string[] = [];
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      asked.push(request.params.message);
      const required = "requestedSchema" in request.params ? (request.params.requestedSchema.required ?? []) : [];
      return { action: "accept", content: Object.fromEntries(required.map((key) => [key, key === "interpretation" ? "programming" : "Ada"])) };
    });
    await client.connect(new StdioV1({ ...traced("everything", file), stderr: "ignore" }));
    // Straight to the call, as a client that knows the server does: no tools/list in the log.
    const stream = client.experimental.tasks.callToolStream(
      { name: "simulate-research-query", arguments: { topic: "python", ambiguous: true } },
      CallToolResultSchema,
      // The client asks for a task itself: it has not listed the tools, so it cannot know the tool needs one.
      { timeout: 30_000, task: { ttl: 60_000 } },
    );
    const kinds: string[] = [];
    let report = "";
    for await (const message of stream) {
      kinds.push(message.type);
      if (message.type === "result") report = JSON.stringify(message.result);
      if (message.type === "error") throw message.error;
    }
    // A tool only a client declaring elicitation is shown.
    const asking = await client.callTool({ name: "trigger-elicitation-request", arguments: {} });
    await client.close();
    expect(kinds[0]).toBe("taskCreated");
    expect(kinds.at(-1)).toBe("result");
    expect(report).toContain("programming");
    expect(JSON.stringify(asking.content)).toContain("Ada");
    expect(asked).toHaveLength(2);
    const trace = readTrace(file);
    expect(trace.messages.map((m) => (m.message as { method?: string }).method).filter(Boolean)).toEqual(
      expect.arrayContaining(["tools/call", "tasks/get", "tasks/result", "elicitation/create"]),
    );
    expect(await findings(file)).toEqual([]);

    // The manifest pull writes lists only the tools shown to a client declaring nothing: not this one.
    const manifest = path.join(dir, "everything.yaml");
    const [command, ...args] = SERVERS.everything!.command();
    const pulled = await mcpgenAsync(["pull", "-o", manifest, "--", command!, ...args], dir);
    expect(pulled.code, pulled.stderr).toBe(0);
    const loaded = await loadDefinitions([manifest], dir);
    expect(loaded.definitions[0]!.tools.map((t) => t.name)).not.toContain("trigger-elicitation-request");
    expect(loaded.pulledWith).toEqual({});
    const judged = await checkLog(file, { definitions: loaded.definitions, ...(loaded.pulledWith ? { pulledWith: loaded.pulledWith } : {}) });
    expect(judged.findings.map((f) => `${f.line} ${f.rule}: ${f.message}`)).toEqual([]);
    // Read as a manifest written by hand (the server's whole truth), the same log has an unknown tool.
    const asWritten = await checkLog(file, { definitions: loaded.definitions });
    expect(asWritten.findings.map((f) => f.rule)).toEqual(["unknown-tool", "unknown-name-answer"]);
  }, 120_000);

  it("three concurrent sessions of SDK 1.x and v2 Clients with server-everything over Streamable HTTP", async () => {
    const port = await freePort();
    const upstream = await startEverythingHttp(port);
    try {
      const file = path.join(tempProject(), "http.jsonl");
      const trace = openTrace(file, { transport: "http", upstream: `http://127.0.0.1:${port}/mcp` });
      const proxy = await traceHttp({ upstream: new URL(`http://127.0.0.1:${port}/mcp`), host: "127.0.0.1", port: 0, trace });
      // Ids start at 0 in every session: only pairing per session tells their answers apart.
      const clients = [
        new ClientV1({ name: "corpus-sdk1", version: "1.0.0" }),
        new ClientV2({ name: "corpus-sdk2", version: "1.0.0" }),
        new ClientV2({ name: "corpus-sdk2b", version: "1.0.0" }),
      ];
      await Promise.all(
        clients.map(async (client) => {
          if (client instanceof ClientV1) await client.connect(new HttpV1(new URL(proxy.url)));
          else await client.connect(new HttpV2(new URL(proxy.url)));
          await session(client, "everything");
          await client.close();
        }),
      );
      await proxy.close();
      await trace.close();
      expect(await findings(file, 60)).toEqual([]);
    } finally {
      upstream.kill();
    }
  }, 120_000);

  /** The Vercel AI SDK's MCP client (Node 22) doing a session: tools for a model, each called, resources, prompts. */
  function aiSdkSession(
    target: string[],
    calls: [string, Record<string, unknown>][],
    env?: Record<string, string>,
  ): Promise<{ tools: string[]; called: [string, boolean][] }> {
    return new Promise((resolve, reject) => {
      const child = execFile(
        node22,
        [path.join(corpus, "ai-sdk-session.mjs"), ...target],
        { timeout: 60_000, env: { ...process.env, ...env } },
        (error, stdout, stderr) =>
          error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(JSON.parse(stdout) as { tools: string[]; called: [string, boolean][] }),
      );
      child.stdin!.end(JSON.stringify({ calls }));
    });
  }

  for (const server of ["everything", "tmcp"]) {
    it(`the Vercel AI SDK's MCP client and ${server} over stdio`, async () => {
      const file = path.join(tempProject(), `ai-sdk-${server}.jsonl`);
      const { command, args, env } = traced(server, file);
      const done = await aiSdkSession(["stdio", command, ...args], SERVERS[server]!.calls, env);
      expect(done.called.map(([name]) => name)).toEqual(SERVERS[server]!.calls.map(([name]) => name));
      expect(await findings(file, 4 + 2 * SERVERS[server]!.calls.length)).toEqual([]);
    }, 120_000);
  }

  it("the Vercel AI SDK's MCP client and server-everything over Streamable HTTP", async () => {
    const port = await freePort();
    const upstream = await startEverythingHttp(port);
    try {
      const file = path.join(tempProject(), "ai-sdk-http.jsonl");
      const trace = openTrace(file, { transport: "http", upstream: `http://127.0.0.1:${port}/mcp` });
      const proxy = await traceHttp({ upstream: new URL(`http://127.0.0.1:${port}/mcp`), host: "127.0.0.1", port: 0, trace });
      const done = await aiSdkSession(["http", proxy.url], SERVERS.everything!.calls);
      expect(done.called).toHaveLength(SERVERS.everything!.calls.length);
      await proxy.close();
      await trace.close();
      // One true finding, not of the client's: the AI SDK client opens its GET stream before it has
      // a session, and server-everything's own HTTP code (transports/streamableHttp.js, not the
      // SDK's) refuses it with a JSON-RPC error that has no id at all (`id: req?.body?.id`).
      const found = await findings(file, 4 + 2 * SERVERS.everything!.calls.length);
      expect(found).toEqual([expect.stringMatching(/^ai-sdk-http\.jsonl:\d+ response-shape: server response without an id: JSON-RPC requires one/)]);
      const { lines } = readTrace(file);
      const line = Number(/:(\d+) /.exec(found[0]!)![1]);
      expect(lines[line - 2]).toMatchObject({
        from: "server",
        message: { jsonrpc: "2.0", error: { code: -32000, message: "Bad Request: No valid session ID provided" } },
        http: { method: "GET", status: 400 },
      });
    } finally {
      upstream.kill();
    }
  }, 120_000);

  it("the MCP Inspector CLI and server-everything over stdio", async () => {
    const dir = tempProject();
    const home = tempProject();
    const run = (method: string[], file: string) =>
      new Promise<number>((resolve) => {
        const { command, args } = traced("everything", file);
        execFile(node22, [INSPECTOR_CLI, "--cli", command, ...args, ...method], { timeout: 60_000, env: { ...process.env, HOME: home } }, (error) =>
          resolve(typeof error?.code === "number" ? error.code : error ? -1 : 0),
        );
      });
    const sessions: [string, string[]][] = [
      ["tools-list", ["--method", "tools/list"]],
      ["tools-call", ["--method", "tools/call", "--tool-name", "echo", "--tool-arg", "message=hi"]],
      ["resources-list", ["--method", "resources/list"]],
      ["prompts-list", ["--method", "prompts/list"]],
    ];
    for (const [name, method] of sessions) {
      const file = path.join(dir, `inspector-${name}.jsonl`);
      expect(await run(method, file), name).toBe(0);
      expect(await findings(file)).toEqual([]);
    }
  }, 240_000);
});
