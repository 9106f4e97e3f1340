/**
 * The official SDK's values the runtime uses, each seen through the few members the runtime
 * calls. Calling the SDK through its own types (generic methods over zod schemas) cost the
 * compiler about 1.5 s per output folder; through these views it costs nothing. The values are
 * the SDK's, unchanged: only their static types are narrowed here, once.
 */
import * as serverModule from "@modelcontextprotocol/sdk/server/index.js";
import * as httpModule from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import * as typesModule from "@modelcontextprotocol/sdk/types.js";
import type { JsonObject } from "./definition.js";

/** A JSON-RPC message as the SDK's transports carry it. */
export type JsonRpcMessage = { jsonrpc: "2.0"; id?: string | number; method?: string; params?: JsonObject; result?: unknown; error?: unknown };

/** A JSON-RPC request: what `fallbackRequestHandler` receives. */
export interface JsonRpcRequest {
  jsonrpc: "2.0";
  id: string | number;
  method: string;
  params?: JsonObject;
}

/** What the SDK passes a request handler besides the request (its RequestHandlerExtra). */
export interface RequestExtra {
  signal: AbortSignal;
  requestId: string | number;
  sessionId?: string;
  _meta?: JsonObject;
  sendNotification(notification: { method: string; params?: object }): Promise<void>;
  sendRequest(request: { method: string; params?: object }, resultSchema: ResultSchema): Promise<unknown>;
  closeSSEStream?: () => void;
}

/** A transport, as the SDK's Protocol drives it (its Transport interface). */
export interface SdkTransport {
  start(): Promise<void>;
  send(message: JsonRpcMessage, options?: object): Promise<void>;
  close(): Promise<void>;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JsonRpcMessage, extra?: object) => void;
  sessionId?: string;
}

/** The SDK's low-level Server. */
export interface SdkServer {
  setRequestHandler(schema: unknown, handler: (request: { params: JsonObject }, extra: RequestExtra) => object | Promise<object>): void;
  fallbackRequestHandler?: (request: JsonRpcRequest, extra: RequestExtra) => Promise<object>;
  sendResourceUpdated(params: { uri: string }): Promise<void>;
  connect(transport: SdkTransport): Promise<void>;
  close(): Promise<void>;
}

/** The SDK's Client, for the calls the generated client makes. */
export interface SdkClient {
  callTool(params: { name: string; arguments: JsonObject }, resultSchema: undefined, options?: object): Promise<unknown>;
  readResource(params: { uri: string }, options?: object): Promise<unknown>;
  getPrompt(params: { name: string; arguments?: Record<string, string> }, options?: object): Promise<unknown>;
}

/**
 * Where the Streamable HTTP transport keeps sent events for replay (the SDK's EventStore; an
 * object of the SDK's type fits).
 */
export interface EventStore {
  storeEvent(streamId: string, message: JsonRpcMessage): Promise<string>;
  replayEventsAfter(lastEventId: string, options: { send: (eventId: string, message: JsonRpcMessage) => Promise<void> }): Promise<string>;
}

/** The SDK's Streamable HTTP server transport. */
export interface SdkHttpTransport extends SdkTransport {
  handleRequest(req: unknown, res: unknown, parsedBody?: unknown): Promise<void>;
}

/** A zod schema of the SDK, for its safeParse. */
export interface ResultSchema {
  safeParse(value: unknown): { success: true; data: unknown } | { success: false; error: { issues: readonly { path: readonly PropertyKey[]; message: string }[] } };
}

// The modules as plain objects: their own types are never consulted.
const types = typesModule as unknown as object;
const server = serverModule as unknown as object;
const http = httpModule as unknown as object;

/** A named export of an SDK module; a missing one fails at start-up, as a static import would. */
function sdkExport<T>(module: object, name: string, from: string): T {
  const value = (module as Record<string, unknown>)[name];
  if (value === undefined) throw new Error(`@modelcontextprotocol/sdk/${from} has no export ${name}: mcpgen's runtime needs @modelcontextprotocol/sdk ~1.32`);
  return value as T;
}

export const CallToolResultSchema = sdkExport<ResultSchema>(types, "CallToolResultSchema", "types.js");
export const CreateMessageResultSchema = sdkExport<ResultSchema>(types, "CreateMessageResultSchema", "types.js");
export const ElicitResultSchema = sdkExport<ResultSchema>(types, "ElicitResultSchema", "types.js");
export const GetPromptResultSchema = sdkExport<ResultSchema>(types, "GetPromptResultSchema", "types.js");
export const ReadResourceResultSchema = sdkExport<ResultSchema>(types, "ReadResourceResultSchema", "types.js");
export const JSONRPCMessageSchema = sdkExport<ResultSchema>(types, "JSONRPCMessageSchema", "types.js");
export const SetLevelRequestSchema = sdkExport<unknown>(types, "SetLevelRequestSchema", "types.js");
export const isInitializeRequest = sdkExport<(value: unknown) => boolean>(types, "isInitializeRequest", "types.js");
export const SdkServerClass = sdkExport<new (info: object, options: object) => SdkServer>(server, "Server", "server/index.js");
export const SdkHttpTransportClass = sdkExport<new (options: object) => SdkHttpTransport>(http, "StreamableHTTPServerTransport", "server/streamableHttp.js");
