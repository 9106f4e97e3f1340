/**
 * Transports for a generated server: stdio, and Streamable HTTP bound to loopback by default with
 * DNS-rebinding protection (requests whose Host or Origin is not this server are refused).
 * Both treat their input as hostile: a line or body that is not JSON gets -32700, one that is not
 * a JSON-RPC message gets -32600, one over the size limit gets an error instead of memory, and the
 * server keeps serving.
 */
import { randomUUID } from "node:crypto";
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { Readable, Writable } from "node:stream";
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { isInitializeRequest, JSONRPCMessageSchema, SdkHttpTransportClass, type EventStore, type JsonRpcMessage, type SdkHttpTransport, type SdkServer, type SdkTransport } from "./sdk.js";

export type { EventStore };

/** Default cap on one message (a stdio line or an HTTP body). */
export const DEFAULT_MAX_MESSAGE_BYTES = 4 * 1024 * 1024;

export interface StdioOptions {
  /** Largest accepted line in bytes (default 4 MiB); a longer one is answered -32600 and dropped. */
  maxMessageBytes?: number;
}

/** Serves one server over this process's stdin/stdout until stdin closes. */
export async function serveStdioWith(server: Server, options: StdioOptions = {}): Promise<void> {
  await (server as unknown as SdkServer).connect(new LineTransport(process.stdin, process.stdout, options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES));
}

/**
 * Newline-delimited JSON-RPC over a pair of streams (MCP's stdio framing), answering what the
 * SDK's stdio transport only reports to onerror: invalid JSON (-32700), messages that are not
 * JSON-RPC (-32600, with their id when they have one), and lines over the size limit.
 */
export class LineTransport implements SdkTransport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JsonRpcMessage) => void;
  private chunks: Buffer[] = [];
  private size = 0;
  /** True while skipping the rest of a line that went over the limit. */
  private discarding = false;

  constructor(
    private readonly input: Readable,
    private readonly output: Writable,
    private readonly maxBytes: number,
  ) {}

  async start(): Promise<void> {
    this.input.on("data", this.onData);
    this.input.on("error", this.onStreamError);
    this.input.on("end", this.onEnd);
  }

  private readonly onStreamError = (error: Error) => this.onerror?.(error);
  private readonly onEnd = () => this.onclose?.();

  private readonly onData = (chunk: Buffer) => {
    let start = 0;
    for (let nl = chunk.indexOf(10); nl !== -1; nl = chunk.indexOf(10, start)) {
      this.take(chunk.subarray(start, nl));
      if (!this.discarding) this.line(Buffer.concat(this.chunks).toString("utf8").replace(/\r$/, ""));
      this.chunks = [];
      this.size = 0;
      this.discarding = false;
      start = nl + 1;
    }
    this.take(chunk.subarray(start));
  };

  private take(part: Buffer): void {
    if (this.discarding || part.length === 0) return;
    this.size += part.length;
    if (this.size > this.maxBytes) {
      this.discarding = true;
      this.chunks = [];
      this.reply(null, -32600, `Invalid Request: message larger than ${this.maxBytes} bytes`);
      return;
    }
    this.chunks.push(part);
  }

  private line(text: string): void {
    if (text.trim() === "") return;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      return this.reply(null, -32700, "Parse error: the line is not JSON");
    }
    const parsed = JSONRPCMessageSchema.safeParse(value);
    if (!parsed.success) {
      const id = typeof value === "object" && value !== null && "id" in value ? (value as { id: unknown }).id : null;
      return this.reply(typeof id === "string" || typeof id === "number" ? id : null, -32600, "Invalid Request: not a JSON-RPC 2.0 message");
    }
    try {
      this.onmessage?.(parsed.data as JsonRpcMessage);
    } catch (error) {
      this.onerror?.(error as Error);
    }
  }

  private reply(id: string | number | null, code: number, message: string): void {
    this.output.write(`${JSON.stringify({ jsonrpc: "2.0", id, error: { code, message } })}\n`);
  }

  send(message: JsonRpcMessage): Promise<void> {
    return new Promise((resolve) => {
      if (this.output.write(`${JSON.stringify(message)}\n`)) resolve();
      else this.output.once("drain", resolve);
    });
  }

  async close(): Promise<void> {
    this.input.off("data", this.onData);
    this.input.off("error", this.onStreamError);
    this.input.off("end", this.onEnd);
    this.onclose?.();
  }
}

export interface HttpOptions {
  /** Port to listen on (default 3000; 0 picks a free one). */
  port?: number;
  /** Interface to bind (default 127.0.0.1). */
  host?: string;
  /** Path of the MCP endpoint (default /mcp). */
  path?: string;
  /** No sessions: every request gets a fresh server (default false: sessions with Mcp-Session-Id). */
  stateless?: boolean;
  /** Host header values accepted besides this server's own address (e.g. a public name). */
  allowedHosts?: string[];
  /** Origin header values accepted besides http(s)://localhost|127.0.0.1|[::1] on this port. */
  allowedOrigins?: string[];
  /**
   * Resumability (SEP-1699): keep sent events so a client that lost its SSE stream can replay
   * them with Last-Event-ID. `true` keeps them in memory; or pass an EventStore of your own.
   */
  eventStore?: boolean | EventStore;
  /** Milliseconds a client should wait before reconnecting a closed SSE stream (the `retry` field). */
  retryInterval?: number;
  /** Largest accepted request body in bytes (default 4 MiB); a larger one gets 413. */
  maxMessageBytes?: number;
}

export interface HttpHandle {
  /** The endpoint, e.g. http://127.0.0.1:3000/mcp. */
  url: string;
  close(): Promise<void>;
}

/** An in-memory EventStore: events in order per stream, replayed after a Last-Event-ID. */
export function memoryEventStore(): EventStore {
  const events: { id: string; streamId: string; message: unknown }[] = [];
  let counter = 0;
  return {
    async storeEvent(streamId, message) {
      const id = `${streamId}_${(++counter).toString().padStart(12, "0")}`;
      events.push({ id, streamId, message });
      return id;
    },
    async replayEventsAfter(lastEventId, { send }) {
      const last = events.find((e) => e.id === lastEventId);
      if (!last) throw new Error(`unknown event id ${lastEventId}`);
      for (const e of events) if (e.streamId === last.streamId && e.id > lastEventId) await send(e.id, e.message as JsonRpcMessage);
      return last.streamId;
    },
  };
}

const LOOPBACK = new Set(["127.0.0.1", "localhost", "::1", "[::1]"]);

/** Serves fresh servers from `make` over Streamable HTTP. */
export async function serveHttpWith(make: () => Server, options: HttpOptions = {}): Promise<HttpHandle> {
  const host = options.host ?? "127.0.0.1";
  const endpoint = options.path ?? "/mcp";
  const maxBytes = options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
  const sessions = new Map<string, SdkHttpTransport>();
  let port = options.port ?? 3000;

  const http = createHttpServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      console.error("[mcpgen] HTTP request failed:", error);
      if (!res.headersSent) reply(res, 500, -32603, "Internal error");
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", "http://placeholder");
    if (url.pathname !== endpoint) return reply(res, 404, -32601, `Not found: the MCP endpoint is ${endpoint}`);
    if (!hostAllowed(req.headers.host)) return reply(res, 403, -32600, "Forbidden: Host not allowed");
    const origin = req.headers.origin;
    if (origin !== undefined && !originAllowed(origin)) return reply(res, 403, -32600, "Forbidden: Origin not allowed");

    // POST bodies are read here, under the size limit, and handed to the SDK already parsed.
    let body: unknown;
    if (req.method === "POST") {
      if (!/^application\/json\b/i.test(req.headers["content-type"] ?? "")) return reply(res, 415, -32000, "Unsupported Media Type: Content-Type must be application/json");
      const read = await readBody(req, maxBytes);
      if (read === "too-large") return reply(res, 413, -32600, `Invalid Request: body larger than ${maxBytes} bytes`);
      try {
        body = JSON.parse(read);
      } catch {
        return reply(res, 400, -32700, "Parse error: the body is not JSON");
      }
    }

    if (options.stateless) {
      const server = make() as unknown as SdkServer;
      // No sessionIdGenerator: the SDK's stateless mode.
      const transport = new SdkHttpTransportClass({});
      res.on("close", () => {
        void transport.close();
        void server.close();
      });
      await server.connect(transport);
      return transport.handleRequest(req, res, body);
    }

    const sessionId = req.headers["mcp-session-id"];
    if (typeof sessionId === "string") {
      const transport = sessions.get(sessionId);
      if (!transport) return reply(res, 404, -32001, "Session not found");
      return transport.handleRequest(req, res, body);
    }
    if (req.method !== "POST") return reply(res, 400, -32000, "Bad Request: no Mcp-Session-Id header");
    if (!isInitializeRequest(body)) return reply(res, 400, -32000, "Bad Request: a session starts with an initialize request");
    const server = make() as unknown as SdkServer;
    const eventStore = options.eventStore === true ? memoryEventStore() : options.eventStore || undefined;
    const transport: SdkHttpTransport = new SdkHttpTransportClass({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id: string) => void sessions.set(id, transport),
      ...(eventStore ? { eventStore } : {}),
      ...(options.retryInterval === undefined ? {} : { retryInterval: options.retryInterval }),
    });
    transport.onclose = () => {
      if (transport.sessionId) sessions.delete(transport.sessionId);
    };
    await server.connect(transport);
    return transport.handleRequest(req, res, body);
  }

  function hostAllowed(value: string | undefined): boolean {
    if (value === undefined) return false;
    const own = [`${host}:${port}`, ...(LOOPBACK.has(host) || host === "0.0.0.0" ? [`localhost:${port}`, `127.0.0.1:${port}`, `[::1]:${port}`] : [])];
    return own.includes(value.toLowerCase()) || (options.allowedHosts ?? []).includes(value.toLowerCase());
  }

  function originAllowed(value: string): boolean {
    if ((options.allowedOrigins ?? []).includes(value)) return true;
    try {
      const o = new URL(value);
      return (o.protocol === "http:" || o.protocol === "https:") && LOOPBACK.has(o.hostname) && Number(o.port || (o.protocol === "https:" ? 443 : 80)) === port;
    } catch {
      return false;
    }
  }

  await new Promise<void>((resolve, reject) => {
    http.once("error", reject);
    http.listen(port, host, () => resolve());
  });
  port = (http.address() as AddressInfo).port;
  const shown = host.includes(":") ? `[${host}]` : host;
  return {
    url: `http://${shown}:${port}${endpoint}`,
    close: async () => {
      await Promise.all([...sessions.values()].map((t) => t.close()));
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

function reply(res: ServerResponse, status: number, code: number, message: string): void {
  res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify({ jsonrpc: "2.0", id: null, error: { code, message } }));
}

/** The body as text, or "too-large" past `maxBytes` (the rest is read and dropped, not kept). */
function readBody(req: IncomingMessage, maxBytes: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers["content-length"]);
    let tooLarge = Number.isFinite(declared) && declared > maxBytes;
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      if (tooLarge) return;
      size += chunk.length;
      if (size > maxBytes) {
        tooLarge = true;
        chunks.length = 0;
      } else chunks.push(chunk);
    });
    req.on("end", () => resolve(tooLarge ? "too-large" : Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}
