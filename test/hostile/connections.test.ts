/**
 * What an HTTP client may hold of a generated server, and for how long: connections (idle sockets
 * past maxConnections), the time to send a request (a body trickled a byte at a time), idle
 * keep-alive connections, answers nobody reads, and standing streams (2025 GET streams, 2026-07-28
 * listens) past maxStandingStreams. Each attack is driven over real sockets with small limits.
 */
import { connect, type Socket } from "node:net";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { ServerDefinition } from "../../packages/runtime/src/shared/definition.js";
import { serveHttpWith, type HttpOptions } from "../helpers/runtime.js";
import { createManifestServerFactory } from "../helpers/runtime.js";
import { open, post, type OpenResponse } from "../helpers/http.js";
import { untilValue } from "../helpers/wait.js";
import { envelope } from "../helpers/wire.js";

const definition: ServerDefinition = {
  serverInfo: { name: "connections", version: "1" },
  // listChanged: a 2026-07-28 listen for it stays open.
  capabilities: { tools: { listChanged: true } },
  tools: [{ name: "big", inputSchema: { type: "object", properties: { bytes: { type: "integer" } }, required: ["bytes"] } }],
  resources: [],
  resourceTemplates: [],
  prompts: [],
};
const handlers = { tools: { big: (args: { bytes: number }) => "x".repeat(args.bytes) } };

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (closers.length) await closers.pop()!();
});

async function serve(options: HttpOptions): Promise<string> {
  const handle = await serveHttpWith(createManifestServerFactory(definition, handlers as never, { onError: () => {} }), definition, { port: 0, ...options });
  closers.push(handle.close);
  return handle.url;
}

const INIT = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } },
});

/** A raw TCP connection to the server: what it received, and a promise that settles when it closes. */
interface Raw {
  socket: Socket;
  received(): string;
  closed: Promise<void>;
  isClosed(): boolean;
}

/** `localAddress`: the address the connection comes from (any of 127.0.0.0/8 on loopback). */
function raw(url: string, read = true, localAddress?: string): Promise<Raw> {
  const target = new URL(url);
  return new Promise((resolve) => {
    const socket = connect({ port: Number(target.port), host: target.hostname, ...(localAddress === undefined ? {} : { localAddress }) });
    let text = "";
    let over = false;
    const closed = new Promise<void>((done) => socket.on("close", () => ((over = true), done())));
    socket.on("error", () => {});
    if (read) socket.on("data", (d) => (text += d));
    socket.on("connect", () => resolve({ socket, received: () => text, closed, isClosed: () => over }));
  });
}

/**
 * A request under way until requestTimeoutMs: a POST whose body never comes. `Expect:
 * 100-continue` makes the server say when it has the headers (node answers 100 Continue as it
 * hands the request on), so a test knows the connection is busy.
 */
async function slowPost(url: string, localAddress?: string): Promise<Raw> {
  const target = new URL(url);
  const r = await raw(url, true, localAddress);
  r.socket.write(
    `POST ${target.pathname} HTTP/1.1\r\nHost: ${target.host}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nExpect: 100-continue\r\nContent-Length: 1000\r\n\r\n`,
  );
  await untilValue(
    async () => r.received(),
    (text) => text.startsWith("HTTP/1.1 100 Continue\r\n"),
    "the server to take the request's headers",
  );
  return r;
}

describe("HTTP connections", () => {
  it("connections that send nothing, however many and however often reopened, never keep a client from being served", async () => {
    const url = await serve({ maxConnections: 20, maxConnectionsPerAddress: 20, firstByteTimeoutMs: 60_000 });
    // The attack of the issue: sockets that connect and send nothing, as many as the server takes.
    const idle: Raw[] = [];
    for (let i = 0; i < 20; i++) idle.push(await raw(url));
    // A client still gets in (node's own cap dropped it, and kept the idle ones for headersTimeoutMs, 20 s).
    expect((await post(url, INIT)).status).toBe(200);
    // The oldest silent connection made room, closed with no answer; the others are still held.
    await idle[0]!.closed;
    expect(idle[0]!.received()).toBe("");
    expect(idle.slice(2).filter((r) => r.isClosed())).toEqual([]);
    // The attacker reopens them as fast as they close: 200 more, clients served between them.
    const more: Raw[] = [];
    for (let round = 0; round < 5; round++) {
      for (let i = 0; i < 40; i++) more.push(await raw(url));
      expect((await post(url, INIT)).status).toBe(200);
    }
    // Never more than maxConnections held: every silent one past it was closed for a newer one.
    await untilValue(
      async () => [...idle, ...more].filter((r) => !r.isClosed()).length,
      (open) => open <= 20,
      "the server to close the silent connections past maxConnections",
    );
  });

  it("past maxConnections with every connection busy, a new one is closed as soon as accepted", async () => {
    const url = await serve({ maxConnections: 4, maxConnectionsPerAddress: 4, maxStandingStreams: 2 });
    // Four requests under way: bodies announced and never sent.
    const busy: Raw[] = [];
    for (let i = 0; i < 4; i++) busy.push(await slowPost(url));
    const late = await raw(url);
    await late.closed;
    expect(late.received()).toBe("");
    expect(busy.filter((r) => r.isClosed())).toEqual([]);
    for (const r of busy) r.socket.destroy();
    await untilValue(
      () =>
        post(url, INIT).then(
          (r) => r.status,
          () => 0,
        ),
      (status) => status === 200,
      "a client to be served once the busy connections are gone",
    );
  });

  it("a connection that sends nothing is closed at firstByteTimeoutMs, with no answer; one that began its headers gets 408 at headersTimeoutMs", async () => {
    const url = await serve({ firstByteTimeoutMs: 300, headersTimeoutMs: 1500, requestTimeoutMs: 2000 });
    const silent = await raw(url);
    const started = await raw(url);
    started.socket.write(`POST ${new URL(url).pathname} HTTP/1.1\r\n`);
    await silent.closed;
    expect(silent.received()).toBe("");
    expect(started.isClosed()).toBe(false);
    await started.closed;
    expect(started.received()).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
    expect((await post(url, INIT)).status).toBe(200);
  });

  it("one address holds at most maxConnectionsPerAddress; a new one from it takes the place of its own idle one, and others are served", async () => {
    const url = await serve({ maxConnections: 10, maxConnectionsPerAddress: 4, firstByteTimeoutMs: 60_000 });
    const attacker = "127.0.0.2";
    // Four silent connections from the attacker's address, then a fifth: the attacker's oldest goes.
    const silent: Raw[] = [];
    for (let i = 0; i < 5; i++) silent.push(await raw(url, true, attacker));
    await silent[0]!.closed;
    expect(silent.slice(1).filter((r) => r.isClosed())).toEqual([]);
    // Requests under way from the attacker's address (bodies announced, never sent) replace its idle ones, then no more are taken.
    const busy: Raw[] = [];
    for (let i = 0; i < 4; i++) busy.push(await slowPost(url, attacker));
    const refused: Raw[] = [];
    for (let i = 0; i < 6; i++) refused.push(await raw(url, true, attacker));
    await Promise.all(refused.map((r) => r.closed));
    expect(refused.map((r) => r.received())).toEqual(Array(6).fill(""));
    expect(busy.filter((r) => r.isClosed())).toEqual([]);
    // Another address is served: the attacker holds 4 of the 10 places, not all of them.
    for (let i = 0; i < 3; i++) expect((await post(url, INIT)).status).toBe(200);
    for (const r of busy) r.socket.destroy();
  });

  it("a body trickled a byte at a time is cut at requestTimeoutMs with 408; nothing is logged and the server keeps serving", async () => {
    const url = await serve({ headersTimeoutMs: 300, requestTimeoutMs: 800 });
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      const slow = await raw(url);
      const target = new URL(url);
      slow.socket.write(
        `POST ${target.pathname} HTTP/1.1\r\nHost: ${target.host}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: ${INIT.length}\r\n\r\n`,
      );
      // One byte every 100 ms: the whole body would take about 15 s.
      let sent = 0;
      const trickle = setInterval(() => !slow.isClosed() && slow.socket.write(INIT[sent++]!), 100);
      await slow.closed;
      clearInterval(trickle);
      expect(sent).toBeLessThan(INIT.length);
      expect(slow.received()).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
      expect((await post(url, INIT)).status).toBe(200);
      expect(errors).not.toHaveBeenCalled();
    } finally {
      errors.mockRestore();
    }
  });

  it("a keep-alive connection idle past keepAliveTimeoutMs is closed; the next request opens a new one", async () => {
    const url = await serve({ keepAliveTimeoutMs: 2000 });
    const kept = await raw(url);
    kept.socket.write(`GET /elsewhere HTTP/1.1\r\nHost: ${new URL(url).host}\r\n\r\n`);
    await kept.closed;
    expect(kept.received()).toMatch(/^HTTP\/1\.1 404 Not Found\r\n/);
    // Node's default is 5 s: the header it sends shows the option took.
    expect(kept.received()).toContain("Keep-Alive: timeout=2\r\n");
    expect((await post(url, INIT)).status).toBe(200);
  });

  it("an answer its client does not read is cut after stalledResponseTimeoutMs, and its session is free again", async () => {
    const url = await serve({ maxSessions: 1, stalledResponseTimeoutMs: 500 });
    const session = (await post(url, INIT)).headers["mcp-session-id"] as string;
    const reader = await raw(url, false);
    const target = new URL(url);
    // 32 MiB: more than the kernel's socket buffers take on loopback, so the server's writes stall.
    const call = JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "big", arguments: { bytes: 32 * 1024 * 1024 } } });
    reader.socket.write(
      `POST ${target.pathname} HTTP/1.1\r\nHost: ${target.host}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n` +
        `Mcp-Session-Id: ${session}\r\nMcp-Protocol-Version: 2025-11-25\r\nContent-Length: ${call.length}\r\n\r\n${call}`,
    );
    // The answer's first bytes arrive (the call is in flight); then the client stops reading.
    await new Promise((resolve) => reader.socket.once("readable", resolve));
    // While the answer is stuck, the session has a request in flight: the one place is busy.
    let refused = 0;
    const status = await untilValue(
      async () => {
        const attempt = await post(url, INIT);
        if (attempt.status === 503) refused++;
        return attempt.status;
      },
      (s) => s !== 503,
      "initialize to stop being refused (the stalled answer cut, its session's place free)",
      { timeout: 20_000, every: 100 },
    );
    expect(status).toBe(200);
    expect(refused).toBeGreaterThan(0);
    // The server closed the connection it could not write to.
    reader.socket.resume();
    await reader.closed;
  });
});

/** Opens a standing stream: a 2025 session's GET stream, or a 2026-07-28 subscriptions/listen. */
function stream(url: string, kind: { session: string } | "listen"): Promise<OpenResponse> {
  if (kind !== "listen") return open(url, "GET", { accept: "text/event-stream", "mcp-session-id": kind.session, "mcp-protocol-version": "2025-11-25" });
  const listen = JSON.stringify({
    jsonrpc: "2.0",
    id: 9,
    method: "subscriptions/listen",
    params: { notifications: { toolsListChanged: true }, _meta: envelope() },
  });
  const headers = {
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    "mcp-protocol-version": "2026-07-28",
    "mcp-method": "subscriptions/listen",
  };
  return open(url, "POST", headers, listen);
}

describe("standing streams", () => {
  it("past maxStandingStreams, GET streams and listens are refused with 503 and -32005; requests are still served", async () => {
    const url = await serve({ maxConnections: 8, maxStandingStreams: 3 });
    const sessions: string[] = [];
    for (let i = 0; i < 3; i++) sessions.push((await post(url, INIT)).headers["mcp-session-id"] as string);
    const held = [await stream(url, { session: sessions[0]! }), await stream(url, { session: sessions[1]! }), await stream(url, "listen")];
    expect(held.map((s) => s.status)).toEqual([200, 200, 200]);
    const refusedGet = await stream(url, { session: sessions[2]! });
    const refusedListen = await stream(url, "listen");
    // The listen's error carries its id, so the client matches it to its request; a GET has none.
    for (const [refused, id] of [
      [refusedGet, null],
      [refusedListen, 9],
    ] as const) {
      expect(refused.status).toBe(503);
      await refused.ended;
      expect(JSON.parse(refused.text())).toEqual({
        jsonrpc: "2.0",
        id,
        error: { code: -32005, message: "Service Unavailable: 3 streams are open (the server's maxStandingStreams); retry later", data: { limit: 3 } },
      });
    }
    // Requests find connections: the streams may hold at most 3 of the 8.
    const ping = await post(url, JSON.stringify({ jsonrpc: "2.0", id: 2, method: "ping" }), {
      "mcp-session-id": sessions[2]!,
      "mcp-protocol-version": "2025-11-25",
    });
    expect(ping.status).toBe(200);
    held[0]!.close();
    // Refused (503, the stream ended) until the server has seen the close.
    const after = await untilValue(
      () => stream(url, "listen"),
      (s) => s.status !== 503,
      "a listen to be accepted once a held stream is closed",
    );
    expect(after.status).toBe(200);
    for (const s of [...held, after]) s.close();
  });

  it("refuses limits that contradict each other when the server is made", async () => {
    await expect(serve({ headersTimeoutMs: 5000, requestTimeoutMs: 1000 })).rejects.toThrow(
      "headersTimeoutMs (5000) must not be more than requestTimeoutMs (1000): the headers are part of the request",
    );
    await expect(serve({ maxConnections: 10, maxStandingStreams: 10 })).rejects.toThrow(
      "maxStandingStreams (10) must be less than maxConnections (10): requests need connections while the streams hold theirs",
    );
    await expect(serve({ maxConnections: 0 })).rejects.toThrow("maxConnections must be a positive whole number, not 0");
  });
});
