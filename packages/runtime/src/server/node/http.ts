/**
 * Streamable HTTP for a generated server, in both protocol eras on one endpoint, bound to
 * loopback by default with DNS-rebinding protection (requests whose Host or Origin is not this
 * server are refused).
 *
 * - 2026-07-28 requests (they carry the per-request envelope) go to the SDK's createMcpHandler:
 *   a fresh Server per request, no sessions, `subscriptions/listen`, the standard header checks.
 *   mcpgen checks the `Mcp-Param-*` headers of tools with `x-mcp-header` arguments itself.
 * - 2025-era clients get sessions (`Mcp-Session-Id`) on the SDK's Streamable HTTP transport, or
 *   the SDK's stateless serving with `stateless: true`.
 *
 * Bodies are read here under a size limit and handed to the SDK parsed; a body that is not JSON
 * gets 400 with -32700, and the server keeps serving. What clients may hold is bounded
 * (httpLimits.ts): connections, the time to send a request, idle keep-alive connections, unread
 * answers, and the standing streams (a 2025 session's GET stream, a 2026-07-28 listen).
 *
 * A definition with `auth` adds the gate of the auth part (`authGate`, server/auth/gate.ts, which
 * the generated serve.ts passes): Protected Resource Metadata, the bearer token, the scopes of each
 * request, all before the SDK sees the request; the verified token goes to the SDK as `authInfo`
 * (handlers get `ctx.auth`), and a 2025-era session stays with the principal that first used it.
 */
import { randomUUID } from "node:crypto";
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { AnyLists, ServerFactory, FactoryHooks } from "../server.js";
import type { JsonObject, ServerDefinition } from "../../shared/definition.js";
import { ErrorCodes } from "../../shared/errors.js";
import { checkParamHeaders, paramHeaderDeclarations, type ParamHeader } from "./paramHeaders.js";
import { DEFAULT_MAX_MESSAGE_BYTES, positiveOption } from "../engine/options.js";
import {
  createMcpHandler,
  isInitializeRequest,
  isLegacyRequest,
  legacyStatelessFallback,
  serverView,
  WebHttpTransportClass,
  type EventStore,
  type SdkWebHttpTransport,
} from "../engine/sdk.js";
import { openState } from "../state/openState.js";
import { EventBudget, memoryEventStore, SessionTable } from "./httpSessions.js";
import { readBody, reply, send as sendWith, toWebRequest } from "./httpIo.js";
import { httpLimits, nodeServerOptions, StandingStreams, type HttpLimitOptions } from "./httpLimits.js";
import { ConnectionGuard } from "./connectionGuard.js";
import { hostAllowed, originAllowed } from "./originCheck.js";
import type { AuthPart } from "../engine/engineCore.js";
import type { AuthOptions, SharedStatePart } from "../engine/parts.js";
import { corsPolicy, withoutCorsHeaders, type CorsOptions } from "./cors.js";

export type { EventStore, AuthOptions, HttpLimitOptions, CorsOptions };

/** Options of `serveHttp`; the connection limits (maxConnections, timeouts, standing streams) are those of HttpLimitOptions. */
export interface HttpOptions extends HttpLimitOptions {
  /** Port to listen on (default 3000; 0 picks a free one). */
  port?: number;
  /** Interface to bind (default 127.0.0.1). */
  host?: string;
  /** Path of the MCP endpoint (default /mcp). */
  path?: string;
  /** 2025-era clients without sessions: every request gets a fresh server (default false: sessions with Mcp-Session-Id). 2026-07-28 requests never have sessions. */
  stateless?: boolean;
  /** Host header values accepted besides this server's own address (e.g. a public name). */
  allowedHosts?: string[];
  /** Origin header values accepted besides http(s)://localhost|127.0.0.1|[::1] on this port. */
  allowedOrigins?: string[];
  /**
   * CORS for browser-based hosts (off by default): the web origins whose pages may call the server
   * and read its answers (`Access-Control-Allow-Origin` echoing the origin, never `*`; preflights
   * answered 204; `Mcp-Session-Id`, `Mcp-Protocol-Version` and `WWW-Authenticate` readable), with
   * `credentials` (default false) and `maxAgeSeconds` for preflights (default 600). A listed origin
   * also passes the Origin check; the Host check (DNS rebinding) still applies.
   */
  cors?: CorsOptions;
  /**
   * Resumability for 2025-era sessions (SEP-1699): keep sent events so a client that lost its SSE
   * stream can replay them with Last-Event-ID. `true` keeps them in memory; or pass an EventStore
   * of your own. (2026-07-28 has no resumable streams.)
   */
  eventStore?: boolean | EventStore;
  /** `eventStore: true`: the events one session keeps, in bytes of their JSON (default 8 MiB; and at most 1,000 events). */
  sessionEventMaxBytes?: number;
  /** `eventStore: true`: the events all sessions keep together, in bytes of their JSON (default 64 MiB): past it the oldest of any session go. */
  eventStoreMaxBytes?: number;
  /** Milliseconds a client should wait before reconnecting a closed SSE stream (the `retry` field). */
  retryInterval?: number;
  /** Largest accepted request body in bytes (default 4 MiB); a larger one gets 413. */
  maxMessageBytes?: number;
  /**
   * 2025-era sessions kept at once (default 10,000; each holds an SDK Server, about 20 KB). When
   * full, a new session closes the least recently used one without a request in flight (an open
   * GET stream does not count); when every session has a request in flight, initialize is refused
   * with HTTP 503 and -32005.
   */
  maxSessions?: number;
  /**
   * A 2025-era session with no request in flight and no GET stream for this long is closed (default
   * 30 minutes); its client then gets 404 and starts a new session, as MCP prescribes.
   */
  sessionIdleTimeoutMs?: number;
  /** 2026-07-28 subscriptions/listen streams naming taskIds open at once (default 1,024, as the SDK's own listen streams); past it, 503 and -32005. */
  maxTaskListenStreams?: number;
  /**
   * Bytes that wait for the client of one such stream (default 256 KiB). A client that reads
   * slowly or not at all then gets each followed task's latest state once it reads (nothing more
   * is queued for it); list and resource notifications waiting past it close the stream.
   */
  maxTaskListenQueueBytes?: number;
  /**
   * Limits of the token checks of a server with `auth` (docs/guides/authorization.md): JWKS
   * timeout 5 s, cooldown 5 s and max age 10 min, clock skew 30 s, 10,000 verified tokens reused
   * for 60 s, introspection answers 10,000 for 30 s with a 5 s timeout.
   */
  auth?: AuthOptions;
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

/** The optional parts serving is given (engine/parts.ts): the generated serve.ts passes those its manifest needs. */
export interface ServingParts {
  /** `authGate` of `@mcpgen/runtime/server/auth`: needed when the definition has `auth`. */
  auth?: AuthPart;
  /** `redisState` of `@mcpgen/runtime/server/redis`: tasks, lists and events shared by replicas when REDIS_URL is set. */
  redis?: SharedStatePart;
}

/** Serves a factory's servers over Streamable HTTP, to both eras. */
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

export async function serveHttpWith<L extends AnyLists>(
  factory: ServerFactory & FactoryHooks & { readonly lists: L },
  definition: ServerDefinition,
  options: HttpOptions = {},
  parts: ServingParts = {},
): Promise<HttpHandle<L>> {
  if (definition.auth !== undefined && parts.auth === undefined)
    throw new Error(
      `mcpgen: ${definition.serverInfo.name} declares auth, and serving was given no authorization part: regenerate the server (its serve.ts passes \`authGate\` from @mcpgen/runtime/server/auth)`,
    );
  const host = options.host ?? "127.0.0.1";
  const endpoint = options.path ?? "/mcp";
  const maxBytes = options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
  const limits = httpLimits(options);
  const standing = new StandingStreams(limits.maxStandingStreams);
  const send = (res: ServerResponse, response: Response, aborter: AbortController, idle = false) =>
    sendWith(res, response, aborter, { stallMs: limits.stalledResponseTimeoutMs, ...(idle ? { idleMs: limits.standingStreamIdleTimeoutMs } : {}) });
  const onerror = (error: Error) => console.error(`[mcpgen] HTTP: ${error.message}`);
  const gate = await parts.auth?.open(definition, endpoint, options.auth, factory.verifyToken, process.env);
  if (gate) {
    factory.toolChallenge = (tool) => gate.toolChallenge(tool);
    gate.useSwitches((kind, name) => factory.lists.isEnabled(kind, name as never));
  }
  const state = await openState(factory, process.env, { relay: true, redis: parts.redis });
  const closeTasks = state.close;
  // The factory's bus: its list changes and resource updates reach the listen streams.
  const modern = createMcpHandler(factory, { legacy: "reject", onerror, maxRequestBodySize: maxBytes, ...(factory.bus ? { bus: factory.bus } : {}) });
  const maxListens = positiveOption(options.maxTaskListenStreams, 1024, "maxTaskListenStreams");
  const listenQueueBytes = positiveOption(options.maxTaskListenQueueBytes, 256 * 1024, "maxTaskListenQueueBytes");
  const taskListens = factory.tasks?.listens(modern.bus, (request, opts) => modern.fetch(request, opts), maxListens, listenQueueBytes);
  const stateless = options.stateless ? legacyStatelessFallback(factory, onerror) : undefined;
  const sessionEventBytes = positiveOption(options.sessionEventMaxBytes, 8 * 1024 * 1024, "sessionEventMaxBytes");
  const eventBudget = new EventBudget(positiveOption(options.eventStoreMaxBytes, 64 * 1024 * 1024, "eventStoreMaxBytes"));
  const sessions = new SessionTable(
    positiveOption(options.maxSessions, 10_000, "maxSessions"),
    positiveOption(options.sessionIdleTimeoutMs, 30 * 60_000, "sessionIdleTimeoutMs"),
  );
  // Kept for the definition's tools only: the name comes from the request (any string, up to a body).
  const headerDeclarations = new Map<string, ParamHeader[]>();
  const declarations = (tool: string): ParamHeader[] => {
    let found = headerDeclarations.get(tool);
    if (found === undefined) {
      const schema = definition.tools.find((t) => t.name === tool)?.inputSchema;
      if (schema === undefined) return [];
      found = paramHeaderDeclarations(schema);
      headerDeclarations.set(tool, found);
    }
    return found;
  };
  // The Mcp-Param-* headers of the tools' x-mcp-header arguments are request headers a page sends too.
  const paramNames = [...new Set(definition.tools.flatMap((t) => paramHeaderDeclarations(t.inputSchema).map((h) => h.header)))];
  const cors = options.cors ? corsPolicy(options.cors, paramNames) : undefined;
  const allowedOrigins = [...(options.allowedOrigins ?? []), ...(cors?.origins ?? [])];
  let port = options.port ?? 3000;

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
    if (!req.url?.startsWith("/")) return reply(res, 400, -32600, `Bad Request: the request target must be a path such as ${endpoint}`);
    const url = new URL(req.url, "http://placeholder");
    const rules = { host, port, allowedHosts: options.allowedHosts, allowedOrigins };
    const origin = req.headers.origin;
    // Set before any answer is written: every writeHead below adds its own headers to these.
    if (cors) for (const [name, value] of Object.entries(cors.responseHeaders(origin))) res.setHeader(name, value);
    // A listed origin's preflight, to the endpoint or the metadata; others go on to the checks (an unlisted origin is refused there).
    const preflight = req.method === "OPTIONS" && req.headers["access-control-request-method"] !== undefined ? cors?.preflightHeaders(origin) : undefined;
    if (preflight && (url.pathname === endpoint || gate?.metadata(url.pathname, "OPTIONS") !== undefined)) {
      if (!hostAllowed(req.headers.host, rules)) return reply(res, 403, -32600, "Forbidden: Host not allowed");
      res.writeHead(204, preflight).end();
      return;
    }
    const metadata = gate?.metadata(url.pathname, req.method ?? "GET");
    // The SDK's metadata answers allow any origin (`*`): a listed origin gets the policy's headers instead (credentials never go with `*`).
    if (metadata) return send(res, cors?.allows(origin) ? withoutCorsHeaders(metadata) : metadata, new AbortController());
    if (url.pathname !== endpoint) return reply(res, 404, -32601, `Not found: the MCP endpoint is ${endpoint}`);
    if (!hostAllowed(req.headers.host, rules)) return reply(res, 403, -32600, "Forbidden: Host not allowed");
    if (origin !== undefined && !originAllowed(origin, rules)) return reply(res, 403, -32600, "Forbidden: Origin not allowed");
    if (req.method !== "POST" && req.method !== "GET" && req.method !== "DELETE") {
      res.writeHead(405, { allow: "POST, GET, DELETE" }).end();
      return;
    }
    // A server without `auth: none` entries checks the token before reading the body.
    const authorization = req.headers.authorization;
    const early = gate && !gate.mixed ? await gate.authenticate(authorization) : undefined;
    if (early instanceof Response) return send(res, early, new AbortController());

    // POST bodies are read here, under the size limit, and handed to the SDK already parsed.
    let body: unknown;
    let text: string | undefined;
    if (req.method === "POST") {
      if (!/^application\/json\b/i.test(req.headers["content-type"] ?? ""))
        return reply(res, 415, -32000, "Unsupported Media Type: Content-Type must be application/json");
      const read = await readBody(req, maxBytes);
      if (typeof read !== "string") {
        if (read.failed === "too-large") reply(res, 413, -32600, `Invalid Request: body larger than ${maxBytes} bytes`);
        // "gone": the client left, or node answered 408 (requestTimeoutMs) and closed the connection.
        return;
      }
      text = read;
      try {
        body = JSON.parse(read);
      } catch {
        return reply(res, 400, -32700, "Parse error: the body is not JSON");
      }
    }
    // Aborted when the client goes away: on 2026-07-28 that cancels the request.
    const aborter = new AbortController();
    res.on("close", () => {
      if (!res.writableFinished) aborter.abort();
    });
    const request = toWebRequest(req, text, aborter.signal);
    // The scopes of each JSON-RPC request, decided before anything runs (on a mixed server, the token too).
    const authInfo = gate ? await gate.admit(body, authorization, early) : undefined;
    if (authInfo instanceof Response) return send(res, authInfo, aborter);
    const principal = gate?.principal(authInfo);
    const serve = { parsedBody: body, ...(authInfo === undefined ? {} : { authInfo }) };

    const sessionId = req.headers["mcp-session-id"];
    if (typeof sessionId === "string") {
      // A GET is a standing stream: counted against maxStandingStreams, ended when idle, and it does not make its session busy.
      const stream = req.method === "GET";
      if (stream && !standing.take(res)) return refuseStream(res, null);
      const transport = sessions.use(sessionId, res, principal, stream);
      if (!transport) return reply(res, 404, -32001, "Session not found");
      return send(res, await transport.handleRequest(request, serve), aborter, stream);
    }
    if (req.method === "POST" && !(await isLegacyRequest(request, body))) {
      const mismatch = paramMismatch(body, request);
      if (mismatch) return send(res, mismatch, aborter);
      if (isObject(body) && body["method"] === "subscriptions/listen" && !standing.take(res)) return refuseStream(res, requestId(body));
      if (taskListens?.wants(body)) return send(res, await taskListens.serve(request, body, authInfo), aborter);
      return send(res, await modern.fetch(request, serve), aborter);
    }
    if (stateless) return send(res, await stateless(request, serve), aborter);
    if (req.method !== "POST") return reply(res, 405, -32000, "Method Not Allowed: without an Mcp-Session-Id, only POST is served");
    if (!isInitializeRequest(body))
      return reply(res, 400, -32000, "Bad Request: a 2025-era session starts with an initialize request (2026-07-28 requests carry the _meta envelope)");
    if (!sessions.makeRoom()) {
      res.setHeader("retry-after", "5");
      return reply(res, 503, ErrorCodes.LimitExceeded, `Service Unavailable: ${sessions.max} sessions are busy (the server's maxSessions); retry later`);
    }
    const memoryStore = options.eventStore === true ? memoryEventStore(1000, sessionEventBytes, eventBudget) : undefined;
    const eventStore = memoryStore ?? (options.eventStore || undefined);
    const transport: SdkWebHttpTransport = new WebHttpTransportClass({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id: string) => sessions.add(id, transport, res, principal),
      ...(eventStore ? { eventStore } : {}),
      ...(options.retryInterval === undefined ? {} : { retryInterval: options.retryInterval }),
    });
    // Set before connect, which chains the SDK Server's own close after it.
    transport.onclose = () => {
      if (transport.sessionId) sessions.forget(transport.sessionId, transport);
      memoryStore?.dispose();
    };
    const server = serverView(factory({ era: "legacy" }));
    await server.connect(transport);
    return send(res, await transport.handleRequest(request, serve), aborter);
  }

  /** Past maxStandingStreams: 503, with the listen request's id so its client can match the error (a GET has none). */
  function refuseStream(res: ServerResponse, id: string | number | null): void {
    const message = `Service Unavailable: ${standing.max} streams are open (the server's maxStandingStreams); retry later`;
    res.writeHead(503, { "content-type": "application/json", "retry-after": "5" });
    res.end(JSON.stringify({ jsonrpc: "2.0", id, error: { code: ErrorCodes.LimitExceeded, message, data: { limit: standing.max } } }));
  }

  /** 2026-07-28 tools/call of a tool with `x-mcp-header` arguments: the Mcp-Param-* headers must agree with the body. */
  function paramMismatch(body: unknown, request: Request): Response | undefined {
    if (!isObject(body) || body["method"] !== "tools/call" || !isObject(body["params"]) || typeof body["params"]["name"] !== "string") return undefined;
    const found = declarations(body["params"]["name"]);
    if (found.length === 0) return undefined;
    const problem = checkParamHeaders(found, body["params"]["arguments"], request.headers);
    if (problem === undefined) return undefined;
    const id = requestId(body);
    return Response.json({ jsonrpc: "2.0", id, error: { code: ErrorCodes.HeaderMismatch, message: `Header mismatch: ${problem}` } }, { status: 400 });
  }

  try {
    await new Promise<void>((resolve, reject) => {
      http.once("error", reject);
      http.listen(port, host, () => resolve());
    });
  } catch (error) {
    await closeTasks();
    throw error;
  }
  port = (http.address() as AddressInfo).port;
  const shown = host.includes(":") ? `[${host}]` : host;
  const served = `http://${shown}:${port}${endpoint}`;
  if (gate) {
    const mismatch = resourceMismatch(gate.resource, served);
    if (mismatch) console.error(`[mcpgen] ${definition.serverInfo.name}: ${mismatch}`);
  }
  return {
    url: served,
    lists: factory.lists,
    notifyResourceUpdated: async (uri) => factory.notifyResourceUpdated?.(uri),
    close: async () => {
      await sessions.closeAll();
      taskListens?.closeAll();
      await modern.close();
      http.closeAllConnections();
      connections.close();
      await new Promise<void>((resolve) => http.close(() => resolve()));
      await closeTasks();
    },
  };
}

function requestId(body: JsonObject): string | number | null {
  const id = body["id"];
  return typeof id === "string" || typeof id === "number" ? id : null;
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
