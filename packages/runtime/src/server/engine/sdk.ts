/**
 * The official SDK v2's values the runtime uses (@modelcontextprotocol/server 2.4), each seen
 * through the few members the runtime calls. Calling the SDK through its own types (generic methods
 * over zod schemas) costs the compiler about a second wherever the runtime's sources are compiled
 * (the package's build, each vendored copy); through these views it costs nothing. The values are
 * the SDK's, unchanged: only their static types are narrowed here, once.
 */
import * as serverModule from "@modelcontextprotocol/server";
import * as stdioModule from "@modelcontextprotocol/server/stdio";
import type { Server } from "@modelcontextprotocol/server";
import type { JsonObject } from "../../shared/definition.js";

/** A JSON-RPC message as the SDK's transports carry it. */
export type JsonRpcMessage = { jsonrpc: "2.0"; id?: string | number; method?: string; params?: JsonObject; result?: unknown; error?: unknown };

/** A transport, as the SDK's Protocol drives it (its Transport interface). */
export interface SdkTransport {
  start(): Promise<void>;
  send(message: JsonRpcMessage, options?: object): Promise<void>;
  close(): Promise<void>;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JsonRpcMessage, extra?: object) => void;
  sessionId?: string;
  setProtocolVersion?: (version: string) => void;
}

/** The request envelope of the 2026-07-28 era, as the SDK lifts it out of `params._meta`. */
interface RequestEnvelope {
  "io.modelcontextprotocol/protocolVersion"?: string;
  "io.modelcontextprotocol/clientInfo"?: JsonObject;
  "io.modelcontextprotocol/clientCapabilities"?: JsonObject;
  "io.modelcontextprotocol/logLevel"?: string;
}

/** What the SDK passes a request handler besides its params (its ServerContext). */
export interface SdkContext {
  sessionId?: string;
  mcpReq: {
    id: string | number;
    method: string;
    /** The request's `_meta` without the envelope keys (progressToken and vendor keys). */
    _meta?: JsonObject;
    /** 2026-07-28 only: the per-request envelope. */
    envelope?: RequestEnvelope;
    /** Multi round-trip retry material, lifted out of params by the SDK (untrusted). */
    inputResponses?: Record<string, unknown>;
    droppedInputResponseKeys?: string[];
    requestState: () => unknown;
    signal: AbortSignal;
    send(request: { method: string; params?: object }, options?: object): Promise<unknown>;
    notify(notification: { method: string; params?: object }): Promise<void>;
    log(level: string, data: unknown, logger?: string): Promise<void>;
  };
  /** Set on Streamable HTTP (absent on stdio); `authInfo` is what the HTTP layer verified. */
  http?: { req?: unknown; closeSSE?: () => void; authInfo?: SdkAuthInfo };
}

/** A verified access token as the SDK carries it to handlers (its AuthInfo). */
export interface SdkAuthInfo {
  token: string;
  clientId: string;
  scopes: string[];
  /** Seconds since the epoch; the SDK's bearer check refuses a token without one. */
  expiresAt?: number;
  resource?: URL;
  resourceMetadataUrl?: string;
  extra?: Record<string, unknown>;
}

/** The SDK's OAuthError: its `code` decides the HTTP status of bearerAuthChallengeResponse. */
export interface SdkOAuthError extends Error {
  readonly code: string;
}

/** Options of the SDK's three serving entries: the body already parsed, the verified token. */
export interface ServeOptions {
  parsedBody?: unknown;
  authInfo?: SdkAuthInfo;
}

/** A Standard Schema, the form the SDK takes for a method's params. */
export interface StandardSchema {
  "~standard": { version: 1; vendor: string; validate(value: unknown): { value: unknown } | { issues: readonly { message: string }[] } };
}

/** The SDK's low-level Server. */
interface SdkServer {
  setRequestHandler(method: string, schemas: { params: StandardSchema }, handler: (params: JsonObject, ctx: SdkContext) => object | Promise<object>): void;
  connect(transport: SdkTransport): Promise<void>;
  close(): Promise<void>;
  getClientCapabilities(): JsonObject | undefined;
  sendResourceUpdated(params: { uri: string }): Promise<void>;
  /** Sends a notification on the connection (a 2025-era session: its standalone SSE stream). */
  notification(notification: { method: string; params?: object }): Promise<void>;
  onerror?: (error: Error) => void;
  /** Called once the connection has closed. */
  onclose?: () => void;
}

/** A request handler as the SDK's Server wraps it (its `_wrapHandler` hook). */
export type WrappedHandler = (request: unknown, ctx: unknown) => Promise<object>;

/**
 * The SDK's Server class as mcpgen subclasses it: the view above plus `_wrapHandler` and
 * `_onclose`, the hooks the SDK documents for subclasses (protected in its own types).
 */
interface SdkServerBase extends SdkServer {
  _wrapHandler(method: string, handler: WrappedHandler): WrappedHandler;
  /** The transport closed: the SDK settles what is pending (an override must call it). */
  _onclose(): void;
}

export type ProtocolEra = "legacy" | "modern";

/**
 * Makes SDK Servers for one manifest and one set of handlers: pass it to the SDK's serving
 * entries (`serveStdio(factory)` from @modelcontextprotocol/server/stdio,
 * `createMcpHandler(factory)`), which call it with the era they serve. Every Server it makes
 * shares one engine: validators, tasks, the requestState key.
 */
export interface ServerFactory {
  /** `requestInfo`: the HTTP request a Server is made for (createMcpHandler sets it; it then lives for that request). */
  (context?: { era?: ProtocolEra; requestInfo?: unknown }): Server;
}

/** The SDK's in-process event bus behind `subscriptions/listen` on Streamable HTTP. */
interface ServerNotifier {
  resourceUpdated(uri: string): void;
  toolsChanged(): void;
  resourcesChanged(): void;
  promptsChanged(): void;
}

/** An event on that bus: a list changed (`tools_list_changed`, ...), or `resource_updated` with its uri. */
export interface ServerEvent {
  kind: string;
  uri?: string;
  params?: JsonObject;
}

/** The bus itself: what the SDK's listen streams read (createMcpHandler's `bus` option; server/redis/redisBus.ts spans replicas). */
export interface ServerEventBus {
  publish(event: ServerEvent): void;
  subscribe(listener: (event: ServerEvent) => void): () => void;
}

/** What createMcpHandler answers: a web-standard fetch face. */
interface McpHttpHandler {
  fetch(request: Request, options?: ServeOptions): Promise<Response>;
  close(): Promise<void>;
  notify: ServerNotifier;
  bus: ServerEventBus;
}

/** The SDK's sessionful Streamable HTTP transport for 2025-era clients, on web-standard Request/Response. */
export interface SdkWebHttpTransport extends SdkTransport {
  handleRequest(request: Request, options?: ServeOptions): Promise<Response>;
}

/**
 * Where the Streamable HTTP transport keeps sent events for replay (the SDK's EventStore; an
 * object of the SDK's type fits).
 */
export interface EventStore {
  storeEvent(streamId: string, message: JsonRpcMessage): Promise<string>;
  replayEventsAfter(lastEventId: string, options: { send: (eventId: string, message: JsonRpcMessage) => Promise<void> }): Promise<string>;
}

/** A zod schema of the SDK, for its safeParse. */
export interface ResultSchema {
  safeParse(
    value: unknown,
  ): { success: true; data: unknown } | { success: false; error: { issues: readonly { path: readonly PropertyKey[]; message: string }[] } };
}

/**
 * The generator-runtime seam's only casts: one object, the SDK's Server, under its two static
 * types. The generated code and the SDK's serving entries see the SDK's own `Server` (what a
 * ServerFactory returns); the runtime works on it through the SdkServer view, which leaves out
 * most members and states wire types (JSON-RPC messages, handler params) more loosely than the
 * SDK's zod-inferred ones. So neither type is assignable to the other under every compiler
 * setting (exactOptionalPropertyTypes rejects the view's looser optionals), and the runtime
 * restates one as the other here and nowhere else.
 */
export function serverView(server: Server): SdkServer {
  return server as unknown as SdkServer;
}

/** The other way: a Server made through SdkServerClass (the SDK's own class, unchanged) as the SDK's type. See serverView. */
export function sdkServerOf(server: SdkServer): Server {
  return server as unknown as Server;
}

// The modules as plain objects: their own types are never consulted.
const server: object = serverModule;
const stdio: object = stdioModule;

/** A named export of an SDK module; a missing one fails at start-up, as a static import would. */
function sdkExport<T>(module: object, name: string, from: string): T {
  const value = (module as Record<string, unknown>)[name];
  if (value === undefined) throw new Error(`@modelcontextprotocol/${from} has no export ${name}: mcpgen's runtime needs @modelcontextprotocol/server ~2.4`);
  return value as T;
}

const specTypes = sdkExport<Record<string, ResultSchema>>(server, "specTypeSchemas", "server");
function specSchema(name: string): ResultSchema {
  const schema = specTypes[name];
  if (schema === undefined)
    throw new Error(`@modelcontextprotocol/server has no spec type schema ${name}: mcpgen's runtime needs @modelcontextprotocol/server ~2.4`);
  return schema;
}

export const CallToolResultSchema = specSchema("CallToolResult");
export const GetPromptResultSchema = specSchema("GetPromptResult");
export const ReadResourceResultSchema = specSchema("ReadResourceResult");
export const JSONRPCMessageSchema = specSchema("JSONRPCMessage");
export const CreateMessageResultSchema = specSchema("CreateMessageResult");
export const ElicitResultSchema = specSchema("ElicitResult");
export const ListRootsResultSchema = specSchema("ListRootsResult");

export const SdkServerClass = sdkExport<new (info: object, options: object) => SdkServerBase>(server, "Server", "server");
export const WebHttpTransportClass = sdkExport<new (options: object) => SdkWebHttpTransport>(server, "WebStandardStreamableHTTPServerTransport", "server");
export const InMemoryServerEventBusClass = sdkExport<new (onerror?: (error: Error) => void) => ServerEventBus>(server, "InMemoryServerEventBus", "server");
export const createMcpHandler = sdkExport<(factory: ServerFactory, options: object) => McpHttpHandler>(server, "createMcpHandler", "server");
export const legacyStatelessFallback = sdkExport<
  (factory: ServerFactory, onerror?: (error: Error) => void) => (request: Request, options?: ServeOptions) => Promise<Response>
>(server, "legacyStatelessFallback", "server");
export const isLegacyRequest = sdkExport<(request: Request, parsedBody?: unknown) => Promise<boolean>>(server, "isLegacyRequest", "server");
/** The `_meta` key of a 2026-07-28 message's protocol-version claim (`io.modelcontextprotocol/protocolVersion`). */
export const PROTOCOL_VERSION_META_KEY = sdkExport<string>(server, "PROTOCOL_VERSION_META_KEY", "server");
export const isInitializeRequest = sdkExport<(value: unknown) => boolean>(server, "isInitializeRequest", "server");
export const serveStdio = sdkExport<
  (factory: ServerFactory, options: { transport: SdkTransport; onerror?: (error: Error) => void }) => { close(): Promise<void> }
>(stdio, "serveStdio", "server/stdio");

// The SDK's OAuth resource-server pieces (Streamable HTTP with `auth`; see server/auth/).
export const OAuthErrorClass = sdkExport<new (code: string, message: string) => SdkOAuthError>(server, "OAuthError", "server");
/** The OAuth error codes mcpgen answers with (the SDK's OAuthErrorCode enum). */
export const OAuthErrorCode = sdkExport<{ readonly InvalidToken: string; readonly InsufficientScope: string; readonly ServerError: string }>(
  server,
  "OAuthErrorCode",
  "server",
);
export const verifyBearerToken = sdkExport<
  (
    header: string | undefined,
    options: { verifier: { verifyAccessToken(token: string): Promise<SdkAuthInfo> }; resourceMetadataUrl?: string; expectedResource?: URL },
  ) => Promise<SdkAuthInfo>
>(server, "verifyBearerToken", "server");
export const bearerAuthChallengeResponse = sdkExport<
  (error: unknown, options?: { requiredScopes?: readonly string[]; resourceMetadataUrl?: string }) => Response
>(server, "bearerAuthChallengeResponse", "server");
export const resourceMetadataUrlOf = sdkExport<(resource: URL) => string>(server, "getOAuthProtectedResourceMetadataUrl", "server");
