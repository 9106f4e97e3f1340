/**
 * Streamable HTTP for a generated server on the web's Request and Response, in both protocol eras
 * on one endpoint: what every platform serves (createFetchHandlerWith: Deno, Bun, Cloudflare
 * Workers, a Lambda function) and what serveHttp on Node adapts (server/node/http.ts).
 *
 * - 2026-07-28 requests (they carry the per-request envelope) go to the SDK's createMcpHandler:
 *   a fresh Server per request, no sessions, `subscriptions/listen`, the standard header checks.
 *   mcpgen checks the `Mcp-Param-*` headers of tools with `x-mcp-header` arguments itself.
 * - 2025-era clients get sessions (`Mcp-Session-Id`) on the SDK's Streamable HTTP transport, kept
 *   in this endpoint's memory, or the SDK's stateless serving with `stateless: true`.
 *
 * Requests whose Host or Origin is not this server are refused (DNS-rebinding protection,
 * originCheck.ts). Bodies are read here under a size limit and handed to the SDK parsed; a body
 * that is not JSON gets 400 with -32700, and the server keeps serving. What clients may hold is
 * bounded: sessions, their stored events, standing streams (a 2025 session's GET stream, a
 * 2026-07-28 listen) and the time a GET stream may say nothing.
 *
 * A definition with `auth` adds the gate of the auth part (`authGate`, server/auth/gate.ts, which
 * the generated code passes): Protected Resource Metadata, the bearer token, the scopes of each
 * request, all before the SDK sees the request; the verified token goes to the SDK as `authInfo`
 * (handlers get `ctx.auth`), and a 2025-era session stays with the principal that first used it.
 *
 * Nothing here runs when the module loads or the endpoint is made, beyond checking the options:
 * the state and the gate open at the first request (or `ready()`), as platforms that forbid I/O,
 * timers and random values outside a request (Cloudflare Workers) require.
 */
import type { AnyLists, FactoryHooks, ServerFactory } from "../server.js";
import type { JsonObject, ServerDefinition } from "../../shared/definition.js";
import { ErrorCodes } from "../../shared/errors.js";
import { DEFAULT_MAX_MESSAGE_BYTES, positiveOption } from "../engine/options.js";
import {
  createMcpHandler,
  isInitializeRequest,
  isLegacyRequest,
  legacyStatelessFallback,
  PROTOCOL_VERSION_META_KEY,
  serverView,
  WebHttpTransportClass,
  type EventStore,
  type SdkAuthInfo,
  type SdkWebHttpTransport,
} from "../engine/sdk.js";
import type { AuthPart } from "../engine/engineCore.js";
import type { AuthOptions, HttpAuthGate, SharedStatePart, TaskListenStreams } from "../engine/parts.js";
import { openState } from "../state/openState.js";
import { checkParamHeaders, paramHeaderDeclarations, type ParamHeader } from "./paramHeaders.js";
import { EventBudget, memoryEventStore, SessionTable } from "./sessions.js";
import { hostAllowed, originAllowed, type OriginRules } from "./originCheck.js";
import { corsPolicy, withoutCorsHeaders, type CorsOptions } from "./cors.js";
import { readText, StandingStreams, whenSent, type BodyText } from "./bodies.js";

export type { AuthOptions, CorsOptions, EventStore };

/** The options of a Streamable HTTP endpoint, on every platform (serveHttp adds those of node:http's connections). */
export interface EndpointOptions {
  /** Path of the MCP endpoint (default /mcp). */
  path?: string;
  /**
   * 2025-era clients without sessions: every request gets a fresh server (default false: sessions
   * with Mcp-Session-Id, kept in this process's memory). 2026-07-28 requests never have sessions.
   * Where requests of one client may reach different instances (Cloudflare Workers, Lambda), set
   * it: a session lives in one instance's memory.
   */
  stateless?: boolean;
  /**
   * Host header values accepted besides this server's own address (e.g. a public name). `"any"`
   * skips the Host check: for a platform that routes requests by their Host (Cloudflare Workers, a
   * Lambda function URL, Deno Deploy), where a name made to resolve to the server cannot reach it.
   */
  allowedHosts?: readonly string[] | "any";
  /** Origin header values accepted besides the server's own pages (http(s)://localhost|127.0.0.1|[::1] on its port). */
  allowedOrigins?: readonly string[];
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
   * Standing streams open at once: 2025-era GET streams and 2026-07-28 `subscriptions/listen`
   * streams (default 256; serveHttp: half of `maxConnections`, so that requests always find a
   * connection). Past it, a new one is refused with HTTP 503, -32005 and `Retry-After: 5`.
   */
  maxStandingStreams?: number;
  /**
   * A 2025-era GET stream on which nothing but keep-alive comments went out for this long is ended
   * (default 5 minutes); the client opens a new one (the SDK's clients do so at once). 2026-07-28
   * listen streams are not ended: their clients do not re-listen on their own.
   */
  standingStreamIdleTimeoutMs?: number;
  /**
   * Limits of the token checks of a server with `auth` (docs/guides/authorization.md): JWKS
   * timeout 5 s, cooldown 5 s and max age 10 min, clock skew 30 s, 10,000 verified tokens reused
   * for 60 s, introspection answers 10,000 for 30 s with a 5 s timeout.
   */
  auth?: AuthOptions;
}

/** The optional parts serving is given (engine/parts.ts): the generated code passes those its manifest needs. */
export interface ServingParts {
  /** `authGate` of `@mcpgen/runtime/server/auth`: needed when the definition has `auth`. */
  auth?: AuthPart;
  /** `redisState` of `@mcpgen/runtime/server/redis`: tasks, lists and events shared by replicas when REDIS_URL is set. */
  redis?: SharedStatePart;
}

/** What the platform tells the endpoint about where it runs. */
export interface EndpointSite {
  /** The environment variables (MCP_AUTH_*, REDIS_URL, MCP_REQUEST_STATE_SECRET, ...). */
  env: Readonly<Record<string, string | undefined>>;
  /** The address it listens on, where the endpoint knows it (serveHttp): the Host and Origin checks then name it exactly. */
  address?: () => { host: string; port: number };
}

/** One endpoint: answers requests; its state and gate open at the first one. */
export interface Endpoint<L extends AnyLists = AnyLists> {
  /** Opens the state and the authorization gate (once; again after a failure); throws what is misconfigured. */
  ready(): Promise<{ resource?: string }>;
  /**
   * The answer to `request`; null when there is none to give (the client left while sending its
   * body). `readBody` reads a POST body where the platform has its own way (node:http); by default
   * the request's own body is read.
   */
  handle(request: Request, readBody?: (maxBytes: number) => Promise<BodyText>): Promise<Response | null>;
  readonly lists: L;
  notifyResourceUpdated(uri: string): Promise<void>;
  /** Closes the sessions, the listen streams and the state. */
  close(): Promise<void>;
}

/** What opens at the first request. */
interface Opened {
  gate: HttpAuthGate | undefined;
  modern: ReturnType<typeof createMcpHandler>;
  taskListens: TaskListenStreams | undefined;
  stateless: ReturnType<typeof legacyStatelessFallback> | undefined;
  close: () => Promise<void>;
}

/** A JSON-RPC error without an id, with its HTTP status. */
export function errorAnswer(status: number, code: number, message: string, headers?: Record<string, string>): Response {
  return Response.json({ jsonrpc: "2.0", id: null, error: { code, message } }, { status, ...(headers ? { headers } : {}) });
}

/**
 * The endpoint of a factory's servers. Checks the options now (a bad one throws here); opens
 * nothing until the first request or `ready()`.
 */
export function openEndpoint<L extends AnyLists>(
  factory: ServerFactory & FactoryHooks & { readonly lists: L },
  definition: ServerDefinition,
  options: EndpointOptions,
  parts: ServingParts,
  site: EndpointSite,
): Endpoint<L> {
  if (definition.auth !== undefined && parts.auth === undefined)
    throw new Error(
      `mcpgen: ${definition.serverInfo.name} declares auth, and serving was given no authorization part: regenerate the server (its generated code passes \`authGate\` from @mcpgen/runtime/server/auth)`,
    );
  const endpoint = options.path ?? "/mcp";
  const maxBytes = positiveOption(options.maxMessageBytes, DEFAULT_MAX_MESSAGE_BYTES, "maxMessageBytes");
  const standing = new StandingStreams(positiveOption(options.maxStandingStreams, 256, "maxStandingStreams"));
  const streamIdleMs = positiveOption(options.standingStreamIdleTimeoutMs, 5 * 60_000, "standingStreamIdleTimeoutMs");
  const maxListens = positiveOption(options.maxTaskListenStreams, 1024, "maxTaskListenStreams");
  const listenQueueBytes = positiveOption(options.maxTaskListenQueueBytes, 256 * 1024, "maxTaskListenQueueBytes");
  const sessionEventBytes = positiveOption(options.sessionEventMaxBytes, 8 * 1024 * 1024, "sessionEventMaxBytes");
  const eventBudget = new EventBudget(positiveOption(options.eventStoreMaxBytes, 64 * 1024 * 1024, "eventStoreMaxBytes"));
  const sessions = new SessionTable(
    positiveOption(options.maxSessions, 10_000, "maxSessions"),
    positiveOption(options.sessionIdleTimeoutMs, 30 * 60_000, "sessionIdleTimeoutMs"),
  );
  const onerror = (error: Error) => console.error(`[mcpgen] HTTP: ${error.message}`);
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
  const rules = (): OriginRules => ({ ...site.address?.(), allowedHosts: options.allowedHosts, allowedOrigins });

  let opening: Promise<Opened> | undefined;
  let closed = false;
  const open = async (): Promise<Opened> => {
    const gate = await parts.auth?.open(definition, endpoint, options.auth, factory.verifyToken, { ...site.env });
    if (gate) {
      factory.toolChallenge = (tool) => gate.toolChallenge(tool);
      gate.useSwitches((kind, name) => factory.lists.isEnabled(kind, name as never));
    }
    const state = await openState(factory, { ...site.env }, { relay: true, redis: parts.redis });
    // The factory's bus: its list changes and resource updates reach the listen streams.
    const modern = createMcpHandler(factory, { legacy: "reject", onerror, maxRequestBodySize: maxBytes, ...(factory.bus ? { bus: factory.bus } : {}) });
    const taskListens = factory.tasks?.listens(modern.bus, (request, opts) => modern.fetch(request, opts), maxListens, listenQueueBytes);
    const stateless = options.stateless ? legacyStatelessFallback(factory, onerror) : undefined;
    return { gate, modern, taskListens, stateless, close: state.close };
  };
  const ready = (): Promise<Opened> => {
    if (closed) return Promise.reject(new Error("mcpgen: this endpoint is closed"));
    opening ??= open().catch((error: unknown) => {
      // A failure (Redis down at the first request) is tried again at the next one.
      opening = undefined;
      throw error;
    });
    return opening;
  };

  /** Past maxStandingStreams: 503, with the listen request's id so its client can match the error (a GET has none). */
  const refuseStream = (id: string | number | null): Response => {
    const message = `Service Unavailable: ${standing.max} streams are open (the server's maxStandingStreams); retry later`;
    return Response.json(
      { jsonrpc: "2.0", id, error: { code: ErrorCodes.LimitExceeded, message, data: { limit: standing.max } } },
      { status: 503, headers: { "retry-after": "5" } },
    );
  };

  /** 2026-07-28 tools/call of a tool with `x-mcp-header` arguments: the Mcp-Param-* headers must agree with the body. */
  const paramMismatch = (body: unknown, request: Request): Response | undefined => {
    if (!isObject(body) || body["method"] !== "tools/call" || !isObject(body["params"]) || typeof body["params"]["name"] !== "string") return undefined;
    const found = declarations(body["params"]["name"]);
    if (found.length === 0) return undefined;
    const problem = checkParamHeaders(found, body["params"]["arguments"], request.headers);
    if (problem === undefined) return undefined;
    const id = requestId(body);
    return Response.json({ jsonrpc: "2.0", id, error: { code: ErrorCodes.HeaderMismatch, message: `Header mismatch: ${problem}` } }, { status: 400 });
  };

  /** What this request holds until its answer is sent: a session's place, a standing stream's; and whether its stream may idle out. */
  interface Held {
    release: (() => void)[];
    idle: boolean;
  }

  async function answer(request: Request, held: Held, readBody: (maxBytes: number) => Promise<BodyText>): Promise<Response | null> {
    const { gate, modern, taskListens, stateless } = await ready();
    const url = new URL(request.url);
    const method = request.method;
    const headers = request.headers;
    const host = headers.get("host") ?? url.host;
    const origin = headers.get("origin") ?? undefined;
    const own = rules();
    // A listed origin's preflight, to the endpoint or the metadata; others go on to the checks (an unlisted origin is refused there).
    const preflight = method === "OPTIONS" && headers.has("access-control-request-method") ? cors?.preflightHeaders(origin) : undefined;
    if (preflight && (url.pathname === endpoint || gate?.metadata(url.pathname, "OPTIONS") !== undefined)) {
      if (!hostAllowed(host, own)) return errorAnswer(403, -32600, "Forbidden: Host not allowed");
      return new Response(null, { status: 204, headers: preflight });
    }
    const metadata = gate?.metadata(url.pathname, method);
    // The SDK's metadata answers allow any origin (`*`): a listed origin gets the policy's headers instead (credentials never go with `*`).
    if (metadata) return cors?.allows(origin) ? withoutCorsHeaders(metadata) : metadata;
    if (url.pathname !== endpoint) return errorAnswer(404, -32601, `Not found: the MCP endpoint is ${endpoint}`);
    if (!hostAllowed(host, own)) return errorAnswer(403, -32600, "Forbidden: Host not allowed");
    if (origin !== undefined && !originAllowed(origin, own, host)) return errorAnswer(403, -32600, "Forbidden: Origin not allowed");
    if (method !== "POST" && method !== "GET" && method !== "DELETE") return new Response(null, { status: 405, headers: { allow: "POST, GET, DELETE" } });
    // A server without `auth: none` entries checks the token before reading the body.
    const authorization = headers.get("authorization") ?? undefined;
    const early = gate && !gate.mixed ? await gate.authenticate(authorization) : undefined;
    if (early instanceof Response) return early;

    // POST bodies are read here, under the size limit, and handed to the SDK already parsed.
    let body: unknown;
    if (method === "POST") {
      if (!/^application\/json\b/i.test(headers.get("content-type") ?? ""))
        return errorAnswer(415, -32000, "Unsupported Media Type: Content-Type must be application/json");
      const read = await readBody(maxBytes);
      if (typeof read !== "string") {
        // "gone": the client left (on Node, or node answered 408 for requestTimeoutMs and closed the connection).
        return read.failed === "too-large" ? errorAnswer(413, -32600, `Invalid Request: body larger than ${maxBytes} bytes`) : null;
      }
      try {
        body = JSON.parse(read);
      } catch {
        return errorAnswer(400, -32700, "Parse error: the body is not JSON");
      }
    }
    // The scopes of each JSON-RPC request, decided before anything runs (on a mixed server, the token too).
    const authInfo: SdkAuthInfo | Response | undefined = gate ? await gate.admit(body, authorization, early) : undefined;
    if (authInfo instanceof Response) return authInfo;
    const principal = gate?.principal(authInfo);
    const serve = { parsedBody: body, ...(authInfo === undefined ? {} : { authInfo }) };

    const sessionId = headers.get("mcp-session-id");
    if (sessionId !== null) {
      // A GET is a standing stream: counted against maxStandingStreams, ended when idle, and it does not make its session busy.
      const stream = method === "GET";
      if (stream) {
        const place = standing.take();
        if (!place) return refuseStream(null);
        held.release.push(place);
        held.idle = true;
      }
      const session = sessions.use(sessionId, principal, stream);
      if (!session) return errorAnswer(404, -32001, "Session not found");
      held.release.push(session.release);
      return session.transport.handleRequest(request, serve);
    }
    if (method === "POST" && (claimsModern(body) || !(await isLegacyRequest(request, body)))) {
      const mismatch = paramMismatch(body, request);
      if (mismatch) return mismatch;
      if (isObject(body) && body["method"] === "subscriptions/listen") {
        const place = standing.take();
        if (!place) return refuseStream(requestId(body));
        held.release.push(place);
      }
      if (taskListens?.wants(body)) return taskListens.serve(request, body, authInfo);
      return modern.fetch(request, serve);
    }
    if (stateless) return stateless(request, serve);
    if (method !== "POST") return errorAnswer(405, -32000, "Method Not Allowed: without an Mcp-Session-Id, only POST is served");
    if (!isInitializeRequest(body))
      return errorAnswer(400, -32000, "Bad Request: a 2025-era session starts with an initialize request (2026-07-28 requests carry the _meta envelope)");
    if (!sessions.makeRoom())
      return errorAnswer(503, ErrorCodes.LimitExceeded, `Service Unavailable: ${sessions.max} sessions are busy (the server's maxSessions); retry later`, {
        "retry-after": "5",
      });
    const memoryStore = options.eventStore === true ? memoryEventStore(1000, sessionEventBytes, eventBudget) : undefined;
    const eventStore = memoryStore ?? (options.eventStore || undefined);
    const transport: SdkWebHttpTransport = new WebHttpTransportClass({
      sessionIdGenerator: () => crypto.randomUUID(),
      onsessioninitialized: (id: string) => held.release.push(sessions.add(id, transport, principal)),
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
    return transport.handleRequest(request, serve);
  }

  return {
    ready: async () => {
      const { gate } = await ready();
      return gate ? { resource: gate.resource } : {};
    },
    async handle(request, readBody = (max) => readText(request, max)) {
      const held: Held = { release: [], idle: false };
      const releaseAll = () => {
        for (const release of held.release) release();
      };
      let response: Response | null;
      try {
        response = await answer(request, held, readBody);
      } catch (error) {
        releaseAll();
        throw error;
      }
      if (response === null) {
        releaseAll();
        return null;
      }
      const origin = request.headers.get("origin") ?? undefined;
      if (cors) response = withHeaders(response, cors.responseHeaders(origin));
      return whenSent(response, releaseAll, held.idle ? streamIdleMs : undefined);
    },
    lists: factory.lists,
    notifyResourceUpdated: async (uri) => factory.notifyResourceUpdated?.(uri),
    async close() {
      closed = true;
      const opened = await opening?.catch(() => undefined);
      await sessions.closeAll();
      opened?.taskListens?.closeAll();
      await opened?.modern.close();
      await opened?.close();
    },
  };
}

/** `response` with `headers` added (a copy when its own headers cannot change). */
function withHeaders(response: Response, headers: Record<string, string>): Response {
  try {
    for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
    return response;
  } catch {
    const copy = new Headers(response.headers);
    for (const [name, value] of Object.entries(headers)) copy.set(name, value);
    return new Response(response.body, { status: response.status, statusText: response.statusText, headers: copy });
  }
}

/**
 * Whether a POST body certainly goes to the 2026-07-28 path: one request or notification (not
 * `initialize`, not a response) whose params carry the envelope's protocol-version claim. The
 * SDK's classification (`isLegacyRequest`) sends every such body to its modern path, which serves
 * it or refuses it with its own checks; so the endpoint routes it there without classifying it
 * once more than the SDK's handler does (each classification parses the message with zod up to
 * three times). Any other body is classified by the SDK.
 */
export function claimsModern(body: unknown): boolean {
  if (!isObject(body) || typeof body["method"] !== "string" || body["method"] === "initialize" || "result" in body || "error" in body) return false;
  const params = body["params"];
  return isObject(params) && isObject(params["_meta"]) && PROTOCOL_VERSION_META_KEY in params["_meta"];
}

function requestId(body: JsonObject): string | number | null {
  const id = body["id"];
  return typeof id === "string" || typeof id === "number" ? id : null;
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
