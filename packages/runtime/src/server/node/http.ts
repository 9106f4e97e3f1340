/**
 * Streamable HTTP for a generated server on node:http: the endpoint of server/http (both eras,
 * Host and Origin checks, sessions, the authorization gate; the same code every platform runs),
 * with what only a Node server faces itself: its connections (how many, from one address, the
 * time to send a request, idle keep-alive ones), answers written with backpressure (a client that
 * stops reading is cut off), and its listening address.
 */
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { AnyLists, ServerFactory, FactoryHooks } from "../server.js";
import type { ServerDefinition } from "../../shared/definition.js";
import { openEndpoint, type AuthOptions, type CorsOptions, type EndpointOptions, type EventStore, type ServingParts } from "../http/endpoint.js";
import { readBody, reply, send, toWebRequest } from "./httpIo.js";
import { httpLimits, nodeServerOptions, type HttpLimitOptions } from "./httpLimits.js";
import { ConnectionGuard } from "./connectionGuard.js";

export type { EventStore, AuthOptions, HttpLimitOptions, CorsOptions, ServingParts };

/** Options of `serveHttp`: the endpoint's (EndpointOptions, as every platform's), node:http's connection limits (HttpLimitOptions), and where to listen. */
export interface HttpOptions extends EndpointOptions, HttpLimitOptions {
  /** Port to listen on (default 3000; 0 picks a free one). */
  port?: number;
  /** Interface to bind (default 127.0.0.1). */
  host?: string;
}

export interface HttpHandle<L extends AnyLists = AnyLists> {
  /** The endpoint, e.g. http://127.0.0.1:3000/mcp. */
  url: string;
  /** Switches the server's lists at run time (docs/guides/lists.md); announced to every replica's clients with Redis. */
  readonly lists: L;
  /**
   * Tells the clients subscribed to `uri` that it changed, from code outside a request (a file
   * watcher): 2025-era sessions that subscribed to it, 2026-07-28 listen streams naming it (with
   * Redis, on every replica). Handlers have `ctx.notifyResourceUpdated`.
   */
  notifyResourceUpdated(uri: string): Promise<void>;
  close(): Promise<void>;
}

/**
 * Why a loopback `resource` does not name the server as it listens (another port or path), or
 * undefined. Clients send tokens for the resource they are told, and SDK clients refuse metadata
 * naming another URL than the one they connect to, so a mismatch there fails every call. A public
 * resource (a proxy in front, or MCP_AUTH_RESOURCE) names another origin by design: not said.
 */
function resourceMismatch(resource: string, served: string): string | undefined {
  const wanted = new URL(resource);
  const actual = new URL(served);
  const loopback = (host: string) => host === "localhost" || host === "[::1]" || /^127\./.test(host);
  if (!loopback(wanted.hostname)) return undefined;
  const port = (u: URL) => u.port || (u.protocol === "https:" ? "443" : "80");
  // Bound to every interface, it answers at the resource's host too.
  const anyHost = actual.hostname === "0.0.0.0" || actual.hostname === "[::]";
  const sameHost = anyHost || wanted.hostname === actual.hostname;
  if (sameHost && wanted.protocol === actual.protocol && port(wanted) === port(actual) && wanted.pathname === actual.pathname) return undefined;
  return `auth.resource is ${resource}, but this server answers at ${served}: tokens are issued for the resource and clients connect to the URL, so calls fail. Serve it there, or set MCP_AUTH_RESOURCE=${served}`;
}

/** Serves a factory's servers over Streamable HTTP on node:http, to both eras. */
export async function serveHttpWith<L extends AnyLists>(
  factory: ServerFactory & FactoryHooks & { readonly lists: L },
  definition: ServerDefinition,
  options: HttpOptions = {},
  parts: ServingParts = {},
): Promise<HttpHandle<L>> {
  const host = options.host ?? "127.0.0.1";
  const limits = httpLimits(options);
  let port = options.port ?? 3000;
  const { port: _port, host: _host, ...endpointOptions } = options;
  const endpoint = openEndpoint(
    factory,
    definition,
    { ...endpointOptions, maxStandingStreams: limits.maxStandingStreams, standingStreamIdleTimeoutMs: limits.standingStreamIdleTimeoutMs },
    parts,
    { env: process.env, address: () => ({ host, port }) },
  );
  const opened = await endpoint.ready();

  const http = createHttpServer(nodeServerOptions(limits), (req, res) => {
    handle(req, res).catch((error: unknown) => {
      console.error("[mcpgen] HTTP request failed:", error);
      if (!res.headersSent) reply(res, 500, -32603, "Internal error");
      else res.destroy();
    });
  });
  // maxConnections, maxConnectionsPerAddress and firstByteTimeoutMs: idle connections make room for new ones.
  const connections = new ConnectionGuard(limits);
  connections.attach(http);

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    // Origin-form only (`POST /mcp`): an absolute-form target (`POST http://other/mcp`) is a proxy's.
    if (!req.url?.startsWith("/")) return reply(res, 400, -32600, `Bad Request: the request target must be a path such as ${options.path ?? "/mcp"}`);
    // Aborted when the client goes away: on 2026-07-28 that cancels the request.
    const aborter = new AbortController();
    res.on("close", () => {
      if (!res.writableFinished) aborter.abort();
    });
    // The body is read by readBody below, only once the endpoint wants it (after the token check).
    const response = await endpoint.handle(toWebRequest(req, aborter.signal), (maxBytes) => readBody(req, maxBytes));
    // null: the client left, or node answered 408 (requestTimeoutMs) and closed the connection.
    if (response === null) return;
    await send(res, response, aborter, { stallMs: limits.stalledResponseTimeoutMs });
  }

  try {
    await new Promise<void>((resolve, reject) => {
      http.once("error", reject);
      http.listen(port, host, () => resolve());
    });
  } catch (error) {
    await endpoint.close();
    throw error;
  }
  port = (http.address() as AddressInfo).port;
  const shown = host.includes(":") ? `[${host}]` : host;
  const served = `http://${shown}:${port}${options.path ?? "/mcp"}`;
  if (opened.resource !== undefined) {
    const mismatch = resourceMismatch(opened.resource, served);
    if (mismatch) console.error(`[mcpgen] ${definition.serverInfo.name}: ${mismatch}`);
  }
  return {
    url: served,
    lists: factory.lists,
    notifyResourceUpdated: (uri) => endpoint.notifyResourceUpdated(uri),
    close: async () => {
      await endpoint.close();
      http.closeAllConnections();
      connections.close();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
