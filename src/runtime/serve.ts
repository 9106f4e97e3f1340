/**
 * Transports for a generated server: stdio, and Streamable HTTP bound to loopback by default with
 * DNS-rebinding protection (requests whose Host or Origin is not this server are refused).
 */
import { randomUUID } from "node:crypto";
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { StreamableHTTPServerTransport, type EventStore } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { isInitializeRequest } from "@modelcontextprotocol/sdk/types.js";

/** Serves one server over this process's stdin/stdout until stdin closes. */
export async function serveStdioWith(server: Server): Promise<void> {
  await server.connect(new StdioServerTransport());
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
      for (const e of events) if (e.streamId === last.streamId && e.id > lastEventId) await send(e.id, e.message as never);
      return last.streamId;
    },
  };
}

export interface HttpHandle {
  /** The endpoint, e.g. http://127.0.0.1:3000/mcp. */
  url: string;
  close(): Promise<void>;
}

const LOOPBACK = new Set(["127.0.0.1", "localhost", "::1", "[::1]"]);

/** Serves fresh servers from `make` over Streamable HTTP. */
export async function serveHttpWith(make: () => Server, options: HttpOptions = {}): Promise<HttpHandle> {
  const host = options.host ?? "127.0.0.1";
  const endpoint = options.path ?? "/mcp";
  const sessions = new Map<string, StreamableHTTPServerTransport>();
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

    if (options.stateless) {
      const server = make();
      // No sessionIdGenerator: the SDK's stateless mode.
      const transport = new StreamableHTTPServerTransport({});
      res.on("close", () => {
        void transport.close();
        void server.close();
      });
      await server.connect(transport);
      return transport.handleRequest(req, res);
    }

    const sessionId = req.headers["mcp-session-id"];
    if (typeof sessionId === "string") {
      const transport = sessions.get(sessionId);
      if (!transport) return reply(res, 404, -32001, "Session not found");
      return transport.handleRequest(req, res);
    }
    if (req.method !== "POST") return reply(res, 400, -32000, "Bad Request: no Mcp-Session-Id header");
    const body = await readJson(req);
    if (body === undefined) return reply(res, 400, -32700, "Parse error: the body is not JSON");
    if (!isInitializeRequest(body)) return reply(res, 400, -32000, "Bad Request: a session starts with an initialize request");
    const server = make();
    const eventStore = options.eventStore === true ? memoryEventStore() : options.eventStore || undefined;
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => void sessions.set(id, transport),
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
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

function reply(res: ServerResponse, status: number, code: number, message: string): void {
  res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify({ jsonrpc: "2.0", id: null, error: { code, message } }));
}

/** The request body as JSON, or undefined when it is not JSON (limit 4 MiB). */
async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > 4 * 1024 * 1024) return undefined;
    chunks.push(chunk as Buffer);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString("utf8"));
  } catch {
    return undefined;
  }
}
