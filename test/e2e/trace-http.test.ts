/**
 * `mcpgen trace --http`: the official SDK v2 Client through the recording proxy in front of the
 * generated gift server, in both protocol eras (a 2025-11-25 session with its GET event stream, a
 * 2026-07-28 exchange without a session): the same answers as without the proxy; the trace holds
 * every message in order with its exchange, and the event-carried ones with `http.sse`. And what
 * the trace redacts: the server's command and URL credentials, Authorization and other credential
 * headers, while the upstream still gets them as sent.
 */
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import { gzipSync } from "node:zlib";
import * as path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { serveHttp } from "../../examples/gift-server/generated/gift-server/serve.js";
import { giftHandlers } from "../servers/gift.js";
import { tempProject } from "../helpers/tmp.js";
import { readTrace, startHttpTrace } from "../helpers/trace.js";
import { mcpgenAsync } from "../helpers/cli.js";
import type { TraceMessage } from "../../src/commands/trace/record.js";

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

type Mode = "legacy" | "auto";

async function session(url: string, mode: Mode): Promise<{ answers: unknown[]; sessionId: string | undefined }> {
  const sdk = new Client({ name: "trace-http", version: "1" }, { versionNegotiation: { mode } });
  const transport = new StreamableHTTPClientTransport(new URL(url));
  await sdk.connect(transport);
  expect(sdk.getProtocolEra()).toBe(mode === "auto" ? "modern" : "legacy");
  const answers = [
    await sdk.listTools(),
    await sdk.callTool({ name: "suggest_gifts", arguments: { occasion: "birthday", budget: 20 } }),
    await sdk.callTool({ name: "nope", arguments: {} }).catch((e: { code?: number; message?: string }) => ({ code: e.code, message: e.message })),
  ];
  const sessionId = transport.sessionId;
  await sdk.close();
  return { answers, sessionId };
}

const method = (m: TraceMessage) => (m.message as { method?: string }).method;
const id = (m: TraceMessage) => (m.message as { id?: unknown }).id;

describe.each(["legacy", "auto"] as const)("mcpgen trace --http (%s client)", (mode: Mode) => {
  it("answers as the server does, and records each message with its exchange", async () => {
    const server = await serveHttp(giftHandlers, { port: 0 });
    cleanups.push(server.close);
    const file = path.join(tempProject(), "http.jsonl");
    const proxy = await startHttpTrace(server.url, file);
    cleanups.push(proxy.stop);
    expect(new URL(proxy.url).pathname).toBe("/mcp");

    const direct = await session(server.url, mode);
    const traced = await session(proxy.url, mode);
    expect(traced.answers).toEqual(direct.answers);
    await proxy.stop();

    const trace = readTrace(file);
    expect(trace.start).toMatchObject({ transport: "http", upstream: server.url });
    const client = trace.messages.filter((m) => m.from === "client");
    const server_ = trace.messages.filter((m) => m.from === "server");
    expect(client.map(method)).toEqual(
      mode === "legacy"
        ? ["initialize", "notifications/initialized", "tools/list", "tools/call", "tools/call"]
        : ["server/discover", "tools/list", "tools/call", "tools/call"],
    );
    // Each request's answer is recorded after it, on the same exchange.
    for (const request of client.filter((m) => id(m) !== undefined)) {
      const answer = server_.find((m) => id(m) === id(request))!;
      expect(answer.http).toMatchObject({ exchange: request.http!.exchange, method: "POST", path: "/mcp", status: 200 });
      expect(trace.lines.indexOf(answer)).toBeGreaterThan(trace.lines.indexOf(request));
    }
    for (const m of trace.messages) {
      expect(m.http?.exchange).toBeGreaterThan(0);
      // Event-carried messages say so; JSON bodies do not.
      expect(m.http!.sse !== undefined).toBe(m.from === "server" && m.http!.headers["content-type"] === "text/event-stream");
    }
    const exchanges = trace.lines.flatMap((l) => (l.http ? [l.http.exchange] : []));
    expect(new Set(exchanges).size).toBe(Math.max(...exchanges));
    if (mode === "legacy") {
      // The 2025 session: its id never in the log, a pseudonym instead; the GET event stream recorded.
      expect(trace.text).not.toContain(traced.sessionId!);
      expect(client[1]!.http!.headers).toMatchObject({ "mcp-session-id": "[redacted session 1]", "mcp-protocol-version": "2025-11-25" });
      expect(trace.notes.some((n) => n.note === "GET request" && n.http?.headers["accept"] === "text/event-stream")).toBe(true);
      expect(server_.some((m) => m.http!.sse !== undefined)).toBe(true);
      expect(trace.notes.some((n) => n.note === "HTTP 202 without a body" && n.http?.status === 202)).toBe(true);
    } else {
      expect(client.find((m) => method(m) === "tools/call")!.http!.headers).toMatchObject({
        "mcp-protocol-version": "2026-07-28",
        "mcp-method": "tools/call",
        "mcp-name": "suggest_gifts",
      });
      for (const m of trace.messages) expect(m.http!.headers["mcp-session-id"]).toBeUndefined();
    }
  }, 60_000);
});

/** An upstream that records what it got and answers each POST with a JSON result (and a cookie). */
async function echoUpstream(): Promise<{ url: string; seen: { url: string; headers: http.IncomingHttpHeaders }[]; close(): Promise<void> }> {
  const seen: { url: string; headers: http.IncomingHttpHeaders }[] = [];
  const server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (d: Buffer) => (body += d.toString()));
    req.on("end", () => {
      seen.push({ url: req.url ?? "", headers: req.headers });
      const message = JSON.parse(body) as { id: number };
      res.writeHead(200, { "content-type": "application/json", "set-cookie": "sid=COOKIESECRET42; HttpOnly" });
      res.end(JSON.stringify({ jsonrpc: "2.0", id: message.id, result: { ok: true } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/mcp`,
    seen,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe("what mcpgen trace redacts", () => {
  it("HTTP: the query, Authorization and credential headers are not in the log; the upstream gets them as sent", async () => {
    const upstream = await echoUpstream();
    cleanups.push(upstream.close);
    const file = path.join(tempProject(), "secret.jsonl");
    const proxy = await startHttpTrace(`${upstream.url}?token=QUERYSECRET77`, file);
    cleanups.push(proxy.stop);
    // The proxy prints its URL with the query redacted: the client sends the real one.
    expect(proxy.url).toBe(`${new URL(proxy.url).origin}/v1/mcp?token=...`);
    const response = await fetch(`${new URL(proxy.url).origin}/v1/mcp?token=QUERYSECRET77`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        authorization: "Bearer BEARERSECRET99",
        "x-api-key": "APIKEYSECRET55",
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 7, method: "tools/list" }),
    });
    expect(await response.json()).toEqual({ jsonrpc: "2.0", id: 7, result: { ok: true } });
    expect(response.headers.get("set-cookie")).toBe("sid=COOKIESECRET42; HttpOnly");
    await proxy.stop();
    expect(upstream.seen).toHaveLength(1);
    expect(upstream.seen[0]).toMatchObject({
      url: "/v1/mcp?token=QUERYSECRET77",
      headers: { authorization: "Bearer BEARERSECRET99", "x-api-key": "APIKEYSECRET55", host: new URL(upstream.url).host },
    });
    const trace = readTrace(file);
    for (const secret of ["QUERYSECRET77", "BEARERSECRET99", "APIKEYSECRET55", "COOKIESECRET42"]) expect(trace.text).not.toContain(secret);
    expect(trace.start.upstream).toBe(upstream.url.replace("/v1/mcp", "/v1/mcp?token=..."));
    const [request, answer] = trace.messages;
    expect(request!.http).toMatchObject({ path: "/v1/mcp?token=...", headers: { authorization: "[redacted]", "x-api-key": "[redacted]" } });
    expect(answer!.http!.headers).toMatchObject({ "set-cookie": "[redacted]" });
  }, 30_000);

  it("stdio: the command's credentials are not in the log; the server gets them as typed", async () => {
    const dir = tempProject();
    const file = path.join(dir, "cmd.jsonl");
    // A server that says whether it got the key as typed.
    const script = "process.stdout.write(JSON.stringify({ got: process.argv.includes('sk-live0123456789abcdef') }) + '\\n')";
    const echo = [process.execPath, "-e", script, "--", "--api-key", "sk-live0123456789abcdef"];
    const r = await mcpgenAsync(["trace", "-o", file, "--", ...echo], dir);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ got: true });
    const trace = readTrace(file);
    expect(trace.text).not.toContain("sk-live0123456789abcdef");
    expect(trace.start.command!.slice(-2)).toEqual(["--api-key", "..."]);
  });
});

/** An upstream with the bodies a recorder must not trip on: gzip, an HTML 405, an event stream. */
async function quirkyUpstream(): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      if (req.url === "/gz") {
        res.writeHead(200, { "content-type": "application/json", "content-encoding": "gzip" });
        res.end(gzipSync(JSON.stringify({ jsonrpc: "2.0", id: 1, result: { zipped: true } })));
      } else if (req.url === "/sse") {
        res.writeHead(200, { "content-type": "text/event-stream" });
        res.write(": keep-alive\n\nid: e1\nevent: message\ndata: ");
        // The event's data arrives in two chunks, apart.
        setTimeout(() => res.end(`${SSE_NOTE}\n\nid: e2\ndata: not json\n\ndata: ${SSE_REPLY}\n\n`), 50);
      } else {
        res.writeHead(405, { "content-type": "text/html" });
        res.end("<h1>Method Not Allowed</h1>");
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
const SSE_NOTE = JSON.stringify({ jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: "hi" } });
const SSE_REPLY = JSON.stringify({ jsonrpc: "2.0", id: 2, result: {} });

describe("mcpgen trace --http, bodies of every kind", () => {
  it("records gzip JSON, event streams with ids and names, and answers without a message; the client gets them unchanged", async () => {
    const upstream = await quirkyUpstream();
    cleanups.push(upstream.close);
    const file = path.join(tempProject(), "quirks.jsonl");
    const proxy = await startHttpTrace(upstream.url, file);
    cleanups.push(proxy.stop);
    const origin = new URL(proxy.url).origin;
    const post = (where: string) => fetch(`${origin}${where}`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });

    expect(await (await post("/gz")).json()).toEqual({ jsonrpc: "2.0", id: 1, result: { zipped: true } });
    const sse = await post("/sse");
    expect(await sse.text()).toBe(`: keep-alive\n\nid: e1\nevent: message\ndata: ${SSE_NOTE}\n\nid: e2\ndata: not json\n\ndata: ${SSE_REPLY}\n\n`);
    const refused = await fetch(`${origin}/mcp`);
    expect([refused.status, await refused.text()]).toEqual([405, "<h1>Method Not Allowed</h1>"]);
    await proxy.stop();

    const trace = readTrace(file);
    const fromServer = trace.lines.filter((l) => l.from === "server");
    expect(fromServer.map((l) => ("message" in l ? l.message : { note: l.note, text: l.text, sse: l.http?.sse, status: l.http?.status }))).toEqual([
      { jsonrpc: "2.0", id: 1, result: { zipped: true } },
      JSON.parse(SSE_NOTE),
      { note: "an event whose data is not JSON", text: "not json", sse: { id: "e2" }, status: 200 },
      JSON.parse(SSE_REPLY),
      { note: "the event stream ended (2 messages)", text: undefined, sse: undefined, status: 200 },
      { note: "HTTP 405 without a message (text/html)", text: "<h1>Method Not Allowed</h1>", sse: undefined, status: 405 },
    ]);
    expect(fromServer.flatMap((l) => ("message" in l ? [l.http!.sse] : []))).toEqual([undefined, { id: "e1", event: "message" }, {}]);
  }, 30_000);

  it("answers 502 when the upstream cannot be reached, and notes why", async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const file = path.join(tempProject(), "down.jsonl");
    const proxy = await startHttpTrace(`http://127.0.0.1:${port}/mcp`, file);
    cleanups.push(proxy.stop);
    const response = await fetch(proxy.url, { method: "POST", body: "{}" });
    expect(response.status).toBe(502);
    await proxy.stop();
    expect(readTrace(file).notes.find((n) => n.http?.status === 502)?.note).toBe("the upstream did not answer: ECONNREFUSED");
  });
});

describe("mcpgen trace --http and DNS rebinding", () => {
  /** A raw POST of tools/call secret to `url` with this Host (and Origin): status and body. */
  const post = (url: string, host: string, origin?: string) =>
    new Promise<{ status: number; body: string }>((resolve, reject) => {
      const request = http.request(
        url,
        {
          method: "POST",
          headers: {
            host,
            ...(origin ? { origin } : {}),
            "content-type": "application/json",
            accept: "application/json, text/event-stream",
            "mcp-protocol-version": "2025-11-25",
          },
        },
        (res) => {
          let body = "";
          res.on("data", (chunk: Buffer) => (body += chunk.toString()));
          res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
        },
      );
      request.on("error", reject);
      request.end(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "secret", arguments: {} } }));
    });

  it("refuses a foreign Host or Origin before it reaches a server that refuses them itself (SDK 1.x)", async () => {
    // An SDK 1.x server as its docs build one: createMcpExpressApp checks Host on loopback.
    const { createMcpExpressApp } = await import("@modelcontextprotocol/sdk/server/express.js");
    const { McpServer } = await import("@modelcontextprotocol/sdk/server/mcp.js");
    const { StreamableHTTPServerTransport } = await import("@modelcontextprotocol/sdk/server/streamableHttp.js");
    const app = createMcpExpressApp();
    app.post("/mcp", async (req: http.IncomingMessage & { body?: unknown }, res: http.ServerResponse) => {
      const server = new McpServer({ name: "secret-keeper", version: "1.0.0" });
      server.registerTool("secret", { description: "Tells the secret" }, async () => ({ content: [{ type: "text", text: "s3cret" }] }));
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
      await server.connect(transport);
      await transport.handleRequest(req, res, req.body);
    });
    const upstream = app.listen(0, "127.0.0.1");
    await new Promise<void>((resolve) => upstream.once("listening", resolve));
    cleanups.push(() => new Promise((resolve) => upstream.close(resolve)));
    const upstreamPort = (upstream.address() as AddressInfo).port;
    const upstreamUrl = `http://127.0.0.1:${upstreamPort}/mcp`;
    // The server alone: a page of evil.example resolved to 127.0.0.1 is refused.
    expect((await post(upstreamUrl, `evil.example:${upstreamPort}`)).status).toBe(403);
    expect((await post(upstreamUrl, `127.0.0.1:${upstreamPort}`)).body).toContain("s3cret");

    const file = path.join(tempProject(), "rebinding.jsonl");
    const proxy = await startHttpTrace(upstreamUrl, file, ["--allow-host", "mcp.test"]);
    cleanups.push(proxy.stop);
    const port = new URL(proxy.url).port;
    // Through the proxy it is refused too (the proxy rewrites Host for the upstream, so it checks it).
    for (const [host, origin] of [
      [`evil.example:${port}`, undefined],
      [`127.0.0.1:${port}`, "http://evil.example"],
      // What a sandboxed frame of any site sends.
      [`127.0.0.1:${port}`, "null"],
      [`127.0.0.1:1`, undefined],
    ] as const) {
      const refused = await post(proxy.url, host, origin);
      expect([host, origin, refused.status]).toEqual([host, origin, 403]);
      expect(refused.body).not.toContain("s3cret");
    }
    // The proxy's own names, a page on this machine, and a name given with --allow-host go through.
    for (const [host, origin] of [
      [`127.0.0.1:${port}`, undefined],
      [`localhost:${port}`, "http://localhost:6274"],
      [`mcp.test:${port}`, "https://mcp.test"],
    ] as const) {
      const through = await post(proxy.url, host, origin);
      expect([host, through.status]).toEqual([host, 200]);
      expect(through.body).toContain("s3cret");
    }
    await proxy.stop();
    const trace = readTrace(file);
    expect(trace.notes.filter((n) => n.note.startsWith("refused: ")).map((n) => n.http?.status)).toEqual([403, 403, 403, 403]);
    // Only the three that went through reached the upstream, and are recorded as messages.
    expect(trace.messages.filter((m) => m.from === "client")).toHaveLength(3);
  }, 30_000);
});

describe("mcpgen trace --http and an authorization server on the same origin", () => {
  it("redacts OAuth credentials in bodies off the MCP endpoint, in JSON and forms; the client gets them whole; MCP messages are kept as sent", async () => {
    const secrets = ["the-access-token", "the-refresh-token", "the-id-token", "the-client-secret", "the-code", "the-verifier", "the-registration-token"];
    const upstream = http.createServer((req, res) => {
      let body = "";
      req.on("data", (chunk: Buffer) => (body += chunk.toString()));
      req.on("end", () => {
        const json = (value: unknown) => res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(value));
        if (req.url === "/token")
          return json({
            access_token: "the-access-token",
            refresh_token: "the-refresh-token",
            id_token: "the-id-token",
            token_type: "Bearer",
            expires_in: 3600,
          });
        if (req.url === "/register")
          return json({
            client_id: "c1",
            client_secret: "the-client-secret",
            registration_access_token: "the-registration-token",
            redirect_uris: ["http://x/cb"],
          });
        // The MCP endpoint echoes the call: a tool argument named password is the message's own content.
        json({ jsonrpc: "2.0", id: 1, result: { content: [{ type: "text", text: body }] } });
      });
    });
    await new Promise<void>((resolve) => upstream.listen(0, "127.0.0.1", resolve));
    cleanups.push(() => new Promise((resolve) => upstream.close(resolve)));
    const file = path.join(tempProject(), "oauth.jsonl");
    const proxy = await startHttpTrace(`http://127.0.0.1:${(upstream.address() as AddressInfo).port}/mcp`, file);
    cleanups.push(proxy.stop);
    const origin = new URL(proxy.url).origin;
    const form = new URLSearchParams({
      grant_type: "authorization_code",
      code: "the-code",
      code_verifier: "the-verifier",
      client_id: "c1",
      redirect_uri: "http://x/cb",
    });
    const token = await fetch(`${origin}/token`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: form.toString() });
    expect(await token.json()).toMatchObject({ access_token: "the-access-token", refresh_token: "the-refresh-token" });
    const registered = await fetch(`${origin}/register`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ redirect_uris: ["http://x/cb"] }),
    });
    expect(await registered.json()).toMatchObject({ client_secret: "the-client-secret" });
    const call = { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "login", arguments: { password: "hunter2" } } };
    await (
      await fetch(proxy.url, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
        body: JSON.stringify(call),
      })
    ).text();
    await proxy.stop();

    const trace = readTrace(file);
    for (const secret of secrets) expect(trace.text).not.toContain(secret);
    // What is not a credential stays, so the exchange still reads.
    expect(trace.messages.find((m) => m.http?.path === "/token" && m.from === "server")?.message).toMatchObject({
      access_token: "[redacted]",
      token_type: "Bearer",
      expires_in: 3600,
    });
    expect(trace.notes.find((n) => n.http?.path === "/token" && n.from === "client")?.text).toBe(
      "grant_type=authorization_code&code=%5Bredacted%5D&code_verifier=%5Bredacted%5D&client_id=c1&redirect_uri=http%3A%2F%2Fx%2Fcb",
    );
    // The MCP endpoint's messages are kept as sent, the tool's arguments included (documented).
    expect(trace.messages.find((m) => m.http?.path === "/mcp" && m.from === "client")?.message).toEqual(call);
  }, 30_000);
});
