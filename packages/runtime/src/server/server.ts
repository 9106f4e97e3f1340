/**
 * The generated server on the official SDK v2's low-level Server: a factory that makes one Server
 * per 2026-07-28 request, per 2025-era connection or session, all answered by one Engine. Every
 * method the manifest serves is registered with a pass-through params schema, so the engine sees
 * the request as sent (its own -32602 messages), and list answers are the manifest's JSON as is.
 */
import type { Server } from "@modelcontextprotocol/server";
import type { JsonObject, ServerCapabilities, ServerDefinition } from "../shared/definition.js";
import { LegacyChannel } from "./engine/context.js";
import { ErrorCodes, rpcError } from "../shared/errors.js";
import { Engine, isObject, type Call, type ServerParts } from "./engine.js";
import type { RuntimeHandlers, ServerOptions, TokenVerifier } from "./engine/handlerTypes.js";
import { authContextOf } from "./engine/authInfo.js";
import { messageLogSink, requestLine, type ServerLogLine } from "./engine/messageLog.js";
import {
  sdkServerOf,
  serverView,
  SdkServerClass,
  type ProtocolEra,
  type SdkContext,
  InMemoryServerEventBusClass,
  type ServerEventBus,
  type ServerFactory,
  type StandardSchema,
  type WrappedHandler,
} from "./engine/sdk.js";
import type { ServerTasks } from "./engine/engineCore.js";
import { taskOwnerOf } from "./engine/owner.js";
import { TASKS_EXTENSION, type StatusSink } from "./engine/parts.js";
import type { AnyLists, Lists, ListSwitch } from "./engine/listSwitch.js";

export type {
  AuthContext,
  CompletionHandler,
  PromptContext,
  ResourceContext,
  ResourceHandlerResult,
  RuntimeHandlers,
  ServerOptions,
  ToolContext,
  ToolTextResult,
  TokenVerifier,
} from "./engine/handlerTypes.js";
export type { InputOptions, RequestContext } from "./engine/handlerTypes.js";
export type { ServerParts } from "./engine.js";
export type { CompiledValidator, PatternEngine, PrintedValidators } from "../shared/validation.js";
export type { AuthPart, ServerTasks, TasksPart } from "./engine/engineCore.js";
export type { AuthOptions, SharedStatePart, TaskOptions, TaskStore } from "./engine/parts.js";
export type { AnyLists, ListEntry, ListNames, Lists, ListStateStore } from "./engine/listSwitch.js";
export type { VisibleContext } from "./engine/handlerTypes.js";

export type { ServerEventBus, ServerFactory } from "./engine/sdk.js";

/** What serving code (serve.ts, http.ts) adds to a factory or finds on it. */
export interface FactoryHooks {
  /**
   * Tells the clients subscribed to `uri` that it changed (`ctx.notifyResourceUpdated`, the serving
   * handles' `notifyResourceUpdated`): 2025-era sessions that sent resources/subscribe for it and
   * 2026-07-28 listen streams naming it, on this replica and (with Redis) the others.
   */
  readonly notifyResourceUpdated?: (uri: string) => Promise<void>;
  /**
   * The events of 2026-07-28 listen streams (list changes, resource updates), published by the
   * factory: give it to the SDK's `createMcpHandler(factory, { bus: factory.bus })` (serveHttp
   * does, and with Redis relays its resource updates to the other replicas).
   */
  readonly bus?: ServerEventBus;
  /** Switches the server's lists at run time (docs/guides/lists.md); serving code puts it on its handle. */
  readonly lists: AnyLists;
  /** The manifest's definition the factory serves. */
  readonly definition?: ServerDefinition;
  /** The same switches, whose state serving code may move to a store the replicas share (state/openState.ts). */
  readonly listState?: ListSwitch;
  /** The factory's tasks: serving code opens and closes them (state/openState.ts picks their store). */
  readonly tasks?: ServerTasks;
  /** `auth.verifier: handler`: the handlers' verifyToken, which the HTTP gate calls. */
  readonly verifyToken?: TokenVerifier;
  /** Set by the HTTP gate: the WWW-Authenticate value a protected tool called without a token answers with. */
  toolChallenge?: (tool: string) => string;
}

/**
 * What a factory offers for serving it with the SDK's own entries: pass `bus` to
 * `createMcpHandler(factory, { bus: factory.bus })` so its 2026-07-28 listen streams hear of list
 * changes and resource updates; `notifyResourceUpdated` tells a resource's subscribers it changed
 * from code outside a request.
 */
export interface FactoryEvents {
  readonly bus: ServerEventBus;
  readonly notifyResourceUpdated: (uri: string) => Promise<void>;
}

/**
 * Tells this process's connections from other replicas' in task owner ids (2025-era stdio
 * connections). Made at first use, not when the module loads: Cloudflare Workers refuse random
 * values outside a request.
 */
let processId: string | undefined;

/** Params as sent: the SDK hands them to the handler unchanged (its Standard Schema interface). */
const RAW: StandardSchema = { "~standard": { version: 1, vendor: "mcpgen", validate: (value) => ({ value }) } };

/** The SDK's Server, except that the methods mcpgen serves skip the SDK's own wrapping of them. */
class ManifestSdkServer extends SdkServerClass {
  /** Methods whose handlers the engine owns entirely. */
  readonly owned = new Set<string>();

  /**
   * The SDK's Server wraps a registered tools/call handler to re-validate its request (with its
   * own message for a missing `name`) and result (dropping unknown keys in content blocks,
   * refusing a task result), and prompts/get and resources/read to run its own multi round-trip
   * machinery. The engine does each of these itself, the same way in both eras, so its handlers
   * go in as they are; everything else (initialize, server/discover, logging/setLevel) keeps the
   * SDK's wrapping. `_wrapHandler` is the SDK's documented hook for subclasses.
   */
  override _wrapHandler(method: string, handler: WrappedHandler): WrappedHandler {
    // The SDK's constructor registers its own methods before this class's fields exist.
    if (this.owned?.has(method)) return handler;
    return super._wrapHandler(method, handler);
  }

  /**
   * The SDK builds a "Connection closed" error each time a Server closes, to settle what is still
   * pending; over HTTP a 2026-07-28 Server closes after every request, and nothing is pending
   * then. Its stack trace, a tenth of the time of closing, is left out: the error says what it
   * is without one. (The close is synchronous, so no other code runs with the limit at 0.)
   */
  override _onclose(): void {
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    try {
      super._onclose();
    } finally {
      Error.stackTraceLimit = limit;
    }
  }
}

/**
 * Builds the factory of SDK Servers for a manifest. The generated createServerFactory passes its
 * typed `Handlers` as they are: any of them is a RuntimeHandlers (the engine calls each by MCP name).
 */
export function createManifestServerFactory<H extends RuntimeHandlers>(
  definition: ServerDefinition,
  handlers: H,
  options: ServerOptions = {},
  parts: ServerParts = {},
): ServerFactory & FactoryHooks & FactoryEvents & { readonly lists: Lists } {
  const engine = new Engine(definition, handlers, options, parts);
  const logLine = messageLogSink(options.logMessages);
  let connections = 0;
  // The Servers a list change is announced on: 2025-era connections and sessions, and 2026-07-28
  // stdio connections (the SDK routes their notifications to their listen streams). Over HTTP a
  // 2026-07-28 Server lives for one request: the change goes to the SDK's event bus instead.
  const live = new Set<Server>();
  // The resources/subscribe subscriptions of each 2025-era connection or session.
  const subscribed = new Map<Server, Set<string>>();
  const build = (context?: { era?: ProtocolEra; requestInfo?: unknown }) => {
    const era = context?.era ?? "legacy";
    const subscriptions = new Set<string>();
    const server = buildServer(engine, era, factory, ++connections, logLine, subscriptions);
    // A Server made for one HTTP request (2026-07-28, or a stateless 2025 one) is told nothing afterwards.
    if (context?.requestInfo === undefined) {
      live.add(server);
      if (era === "legacy") subscribed.set(server, subscriptions);
      const view = serverView(server);
      const closed = view.onclose;
      view.onclose = () => {
        live.delete(server);
        subscribed.delete(server);
        closed?.();
      };
    }
    return server;
  };
  // A 2025-era Server is told only of the URIs it subscribed to; a 2026-07-28 stdio one always
  // (the SDK routes the notification to the listen streams that name the URI).
  const resourceUpdatedHere = (uri: string) => {
    for (const server of live) {
      if (subscribed.get(server)?.has(uri) === false) continue;
      serverView(server)
        .notification({ method: "notifications/resources/updated", params: { uri } })
        .catch(() => {});
    }
  };
  // Every event goes through the bus: the SDK's HTTP listen streams read it, serveHttp relays its
  // resource updates to the other replicas (and theirs here), and this process's connections hear them below.
  const bus = new InMemoryServerEventBusClass((error) => console.error(`[mcpgen] event bus listener: ${error.message}`));
  bus.subscribe((event) => {
    if (event.kind === "resource_updated" && event.uri !== undefined) resourceUpdatedHere(event.uri);
  });
  const notifyResourceUpdated = async (uri: string) => bus.publish({ kind: "resource_updated", uri });
  engine.switches.onChange((kind) => {
    // Announced only where the capability says lists change (the SDK honors listen filters the same way).
    if (definition.capabilities[kind]?.["listChanged"] !== true) return;
    const method = `notifications/${kind}/list_changed`;
    for (const server of live)
      serverView(server)
        .notification({ method })
        .catch(() => {});
    bus.publish({ kind: `${kind}_list_changed` });
  });
  const factory: ServerFactory & FactoryHooks & FactoryEvents & { readonly lists: Lists } = Object.assign(
    build,
    { lists: engine.switches, listState: engine.switches, definition, notifyResourceUpdated, bus },
    engine.tasks ? { tasks: engine.tasks } : {},
    handlers.verifyToken === undefined ? {} : { verifyToken: handlers.verifyToken },
  );
  return factory;
}

/** The capabilities a Server declares in one era: 2025-11-25 `tasks`, or the 2026-07-28 tasks extension. */
function eraCapabilities(capabilities: ServerCapabilities, era: ProtocolEra, taskTools: boolean): JsonObject {
  const { tasks, ...rest } = capabilities;
  if (!taskTools) return rest;
  if (era === "legacy") return { ...rest, tasks: tasks ?? { list: {}, cancel: {}, requests: { tools: { call: {} } } } };
  const extensions = isObject(rest["extensions"]) ? rest["extensions"] : {};
  return { ...rest, extensions: { ...extensions, [TASKS_EXTENSION]: {} } };
}

function buildServer(
  engine: Engine,
  era: ProtocolEra,
  hooks: FactoryHooks,
  connection: number,
  logLine: ((line: ServerLogLine) => void) | undefined,
  /** 2025-era state of this connection (or session): its resources/subscribe subscriptions. */
  subscriptions: Set<string>,
): Server {
  const definition = engine.definition;
  const capabilities = eraCapabilities(definition.capabilities, era, engine.tasks !== undefined);
  const discoverHint = definition.cache?.["server/discover"];
  const server = new ManifestSdkServer(definition.serverInfo, {
    capabilities,
    ...(definition.instructions === undefined ? {} : { instructions: definition.instructions }),
    ...(discoverHint === undefined ? {} : { cacheHints: { "server/discover": discoverHint } }),
  });
  const connectionId = `${(processId ??= crypto.randomUUID())}-${connection}`;
  // The owners whose task notifications go out on this connection (its own, or its HTTP session's).
  const owners = new Set<string>();
  if (era === "legacy") {
    server.onclose = () => {
      for (const one of owners) engine.tasks?.forgetOwner(one);
    };
  }
  const statusSink = (taskOwner: string): StatusSink => {
    owners.add(taskOwner);
    return (params) => server.notification({ method: "notifications/tasks/status", params });
  };

  const call = (sdk: SdkContext): Call => {
    const progressToken = sdk.mcpReq._meta?.["progressToken"];
    const authInfo = sdk.http?.authInfo;
    const clientCapabilities = (era === "modern" ? sdk.mcpReq.envelope?.["io.modelcontextprotocol/clientCapabilities"] : server.getClientCapabilities()) ?? {};
    const base: Call["base"] = {
      requestId: sdk.mcpReq.id,
      era,
      ...(sdk.sessionId === undefined ? {} : { sessionId: sdk.sessionId }),
      ...(authInfo === undefined ? {} : { auth: authContextOf(authInfo) }),
      ...(sdk.mcpReq._meta === undefined ? {} : { meta: sdk.mcpReq._meta }),
      clientCapabilities,
      // The SDK applies the era's level rule: logging/setLevel, or the request's logLevel.
      log: (level, data, logger) => sdk.mcpReq.log(level, data, logger),
      progress: async (progress, total, message) => {
        if (typeof progressToken !== "string" && typeof progressToken !== "number") return;
        await sdk.mcpReq.notify({
          method: "notifications/progress",
          params: { progressToken, progress, ...(total === undefined ? {} : { total }), ...(message === undefined ? {} : { message }) },
        });
      },
      notifyResourceUpdated: async (uri) => hooks.notifyResourceUpdated?.(uri),
      closeSSEStream: () => sdk.http?.closeSSE?.(),
      lists: engine.switches,
    };
    // Whom the tasks this call creates belong to, and whose tasks it reaches (engine/owner.ts).
    const owner = taskOwnerOf({
      era,
      auth: base.auth,
      sessionId: sdk.sessionId,
      // No HTTP: stdio (or in memory), where the connection is the 2025-era client's session.
      connection: sdk.http === undefined ? connectionId : undefined,
    });
    return {
      era,
      sdk,
      base,
      owner,
      ...(era === "legacy" && owner !== undefined ? { statusSink: statusSink(owner) } : {}),
      // Over HTTP without a token on a server with auth: protected entries are refused (hideUnauthorized lists too).
      ...(definition.auth !== undefined && sdk.http !== undefined && authInfo === undefined
        ? { anonymous: { challenge: (tool: string) => hooks.toolChallenge?.(tool) } }
        : {}),
      legacyChannel: (meta, signal, waiting) =>
        new LegacyChannel((request, options) => sdk.mcpReq.send(request, options), clientCapabilities, meta, signal, engine.forms, waiting),
    };
  };

  // JSON-RPC ids must be unique among the requests in flight on a connection.
  // A Set tells 7 from "7" as JSON-RPC does.
  const inFlight = new Set<string | number>();
  const answer = async (method: string, params: JsonObject, sdk: SdkContext): Promise<object> => {
    const key = sdk.mcpReq.id;
    if (inFlight.has(key))
      throw rpcError(ErrorCodes.InvalidRequest, `Invalid Request: id ${JSON.stringify(sdk.mcpReq.id)} is already used by a request in flight`);
    inFlight.add(key);
    const startedAt = performance.now();
    try {
      const result = await engine.handle(method, params, call(sdk), subscriptions);
      logLine?.(requestLine({ id: key, method, params, ...protocolOf(sdk) }, startedAt, { result }));
      return result;
    } catch (error) {
      logLine?.(requestLine({ id: key, method, params, ...protocolOf(sdk) }, startedAt, { error }));
      throw error;
    } finally {
      inFlight.delete(key);
    }
  };
  for (const method of engine.methods(era)) {
    server.owned.add(method);
    server.setRequestHandler(method, { params: RAW }, (params, sdk) => answer(method, params, sdk));
  }
  return sdkServerOf(server);
}

/** The protocol revision a 2026-07-28 request names in its envelope. */
function protocolOf(sdk: SdkContext): { protocol?: string } {
  const named = sdk.mcpReq.envelope?.["io.modelcontextprotocol/protocolVersion"];
  return typeof named === "string" ? { protocol: named } : {};
}
