/**
 * createFetchHandlerWith: the endpoint as `(request: Request) => Promise<Response>`, called in
 * this process with no socket in between. The SDK v2 Client speaks to it through its `fetch`
 * option in both eras; raw requests show the Host and Origin checks where the handler does not
 * know its address, the answers to bad requests, and that nothing opens before the first request.
 */
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createFetchHandlerWith, type FetchHandler, type FetchHandlerOptions } from "../../../src/server/http/index.js";
import type { SharedStatePart } from "../../../src/server/engine/parts.js";
import type { ServerDefinition } from "../../../src/shared/definition.js";
import { createManifestServerFactory } from "../../../../../test/helpers/runtime.js";

const DEFINITION: ServerDefinition = {
  serverInfo: { name: "greeter", version: "1.0.0" },
  capabilities: { tools: {} },
  tools: [
    {
      name: "greet",
      inputSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"], additionalProperties: false },
    },
  ],
  resources: [],
  resourceTemplates: [],
  prompts: [],
};

const handlers = { tools: { greet: async ({ name }: { name: string }) => `Hello, ${name}!` } };

const opened: FetchHandler[] = [];
afterEach(async () => {
  for (const handler of opened.splice(0)) await handler.close();
});

function handlerOf(options: FetchHandlerOptions = {}, parts = {}): FetchHandler {
  const handler = createFetchHandlerWith(createManifestServerFactory(DEFINITION, handlers), DEFINITION, options, parts);
  opened.push(handler);
  return handler;
}

const INIT = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } },
});

function post(url: string, body: string, headers: Record<string, string> = {}): Request {
  return new Request(url, {
    method: "POST",
    body,
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
  });
}

describe("createFetchHandlerWith", () => {
  for (const mode of ["legacy", "auto"] as const) {
    it(`serves the SDK v2 Client with no socket between them (${mode === "auto" ? "2026-07-28" : "2025-11-25, with a session"})`, async () => {
      const handler = handlerOf();
      const sdk = new Client({ name: "in-process", version: "1" }, { versionNegotiation: { mode } });
      const transport = new StreamableHTTPClientTransport(new URL("http://localhost:8787/mcp"), {
        fetch: (input, init) => handler(new Request(input, init)),
      });
      await sdk.connect(transport);
      expect(sdk.getProtocolEra()).toBe(mode === "auto" ? "modern" : "legacy");
      expect(transport.sessionId !== undefined).toBe(mode === "legacy");
      expect((await sdk.listTools()).tools.map((t) => t.name)).toEqual(["greet"]);
      expect(await sdk.callTool({ name: "greet", arguments: { name: "Ada" } })).toMatchObject({ content: [{ type: "text", text: "Hello, Ada!" }] });
      const invalid = await sdk.callTool({ name: "greet", arguments: {} });
      expect(invalid.isError).toBe(true);
      await sdk.close();
    });
  }

  it("is its own `fetch`, so `export default handler` serves on Deno, Bun and Workers", () => {
    const handler = handlerOf();
    expect(handler.fetch).toBe(handler);
  });

  it("takes loopback names on any port as its own, refuses other hosts, and takes those listed (or any)", async () => {
    const status = async (handler: FetchHandler, url: string, headers: Record<string, string> = {}) => (await handler(post(url, INIT, headers))).status;
    const local = handlerOf();
    expect(await status(local, "http://localhost:8787/mcp")).toBe(200);
    expect(await status(local, "http://127.0.0.1:3000/mcp")).toBe(200);
    expect(await status(local, "http://[::1]:9/mcp")).toBe(200);
    const refused = await local(post("http://evil.example:8787/mcp", INIT));
    expect(refused.status).toBe(403);
    expect(await refused.json()).toEqual({ jsonrpc: "2.0", id: null, error: { code: -32600, message: "Forbidden: Host not allowed" } });
    const listed = handlerOf({ allowedHosts: ["mcp.example.com"] });
    expect(await status(listed, "https://mcp.example.com/mcp")).toBe(200);
    expect(await status(listed, "https://other.example.com/mcp")).toBe(403);
    expect(await status(handlerOf({ allowedHosts: "any" }), "https://greeter.workers.example/mcp")).toBe(200);
  });

  it("takes the server's own pages as origins (a loopback page on its port, a page of its public name), and refuses others", async () => {
    const status = async (handler: FetchHandler, url: string, origin: string) => (await handler(post(url, INIT, { origin }))).status;
    const local = handlerOf();
    expect(await status(local, "http://localhost:8787/mcp", "http://127.0.0.1:8787")).toBe(200);
    expect(await status(local, "http://localhost:8787/mcp", "http://localhost:5173")).toBe(403);
    expect(await status(local, "http://localhost:8787/mcp", "https://evil.example")).toBe(403);
    const listed = handlerOf({ allowedHosts: ["mcp.example.com"], allowedOrigins: ["https://app.example.com"] });
    expect(await status(listed, "https://mcp.example.com/mcp", "https://mcp.example.com")).toBe(200);
    expect(await status(listed, "https://mcp.example.com/mcp", "https://app.example.com")).toBe(200);
    expect(await status(listed, "https://mcp.example.com/mcp", "https://evil.example")).toBe(403);
  });

  it("answers bad requests with a JSON-RPC error and the right status, and keeps serving", async () => {
    const handler = handlerOf({ maxMessageBytes: 1000 });
    const url = "http://localhost:8787/mcp";
    const answer = async (request: Request) => {
      const response = await handler(request);
      return [response.status, response.status === 405 ? response.headers.get("allow") : ((await response.json()) as { error: { code: number } }).error.code];
    };
    expect(await answer(post(url, "{not json"))).toEqual([400, -32700]);
    expect(await answer(post(url, INIT, { "content-type": "text/plain" }))).toEqual([415, -32000]);
    expect(await answer(post(url, JSON.stringify({ pad: "x".repeat(2000) })))).toEqual([413, -32600]);
    expect(await answer(post(url, INIT, { "mcp-session-id": "nope" }))).toEqual([404, -32001]);
    expect(await answer(post("http://localhost:8787/other", INIT))).toEqual([404, -32601]);
    expect(await answer(new Request(url, { method: "PUT" }))).toEqual([405, "POST, GET, DELETE"]);
    expect((await handler(post(url, INIT))).status).toBe(200);
  });

  it("opens nothing until the first request (or ready()), passes it the environment given, and tries again after a failure", async () => {
    const seen: Record<string, string | undefined>[] = [];
    let fail = true;
    const redis: SharedStatePart = {
      open: async (_parts, env) => {
        seen.push(env);
        if (fail) throw new Error("redis is down");
        return undefined;
      },
    };
    const handler = handlerOf({ env: { REDIS_URL: "redis://example:6379" } }, { redis });
    expect(seen).toEqual([]);
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    const first = await handler(post("http://localhost:8787/mcp", INIT));
    expect(first.status).toBe(500);
    expect(logged.mock.calls.map((c) => String(c[1]))).toEqual(["Error: redis is down"]);
    logged.mockRestore();
    fail = false;
    expect((await handler(post("http://localhost:8787/mcp", INIT))).status).toBe(200);
    await handler.ready();
    expect(seen).toEqual([{ REDIS_URL: "redis://example:6379" }, { REDIS_URL: "redis://example:6379" }]);
  });
});
