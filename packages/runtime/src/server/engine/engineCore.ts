/**
 * What the engine's capability modules share: the request as the engine sees it (Call), the
 * engine's state (EngineCore), the method table's row, and the small helpers every method uses.
 */
import type { JsonObject, ServerDefinition } from "../../shared/definition.js";
import { inputMethods, type InputChannel } from "./context.js";
import type { AnyFunction, RequestContext, RuntimeHandlers, ServerOptions, TokenVerifier } from "./handlerTypes.js";
import type { RequestStateCodec } from "./requestState.js";
import type { ProtocolEra, ResultSchema, SdkContext, ServerEventBus } from "./sdk.js";
import type { SchemaValidators } from "../../shared/validation.js";
import type { FormValidators } from "./forms.js";
import type { ListKind, ListSwitch } from "./listSwitch.js";
import type { AuthOptions, HttpAuthGate, RunningTask, SdkFetch, StatusSink, TaskListenStreams, TaskOutcome, TaskRecord, TaskStoreUser } from "./parts.js";

/** One request as the engine sees it: its era, the SDK's context, and how to reach the client. */
export interface Call {
  era: ProtocolEra;
  sdk: SdkContext;
  /** The context fields that do not depend on the method (built by server.ts). */
  base: Omit<RequestContext, "elicit" | "sample" | "listRoots" | "signal">;
  /** How a 2025-era handler asks the client (a real request on the connection). */
  legacyChannel: (meta: JsonObject | undefined, signal: AbortSignal, waiting?: (on: boolean) => void) => InputChannel;
  /**
   * Whom the tasks this call creates belong to, and whose tasks it may reach (owner.ts):
   * unique across processes; undefined when nothing identifies the caller (the task id is then
   * the capability).
   */
  owner: string | undefined;
  /** 2025 era: sends a task's notifications/tasks/status on this connection (or session). */
  statusSink?: StatusSink;
  /**
   * Set for a request over HTTP without a token to a server with `auth`: a protected tool answers
   * the tool-error form, with `challenge`'s WWW-Authenticate value when the HTTP gate gave one.
   */
  anonymous?: { challenge(tool: string): string | undefined };
}

/** The engine's state, shared by one factory's servers: one per createServerFactory. */
export interface EngineCore {
  readonly definition: ServerDefinition;
  readonly handlers: RuntimeHandlers;
  readonly options: ServerOptions;
  readonly validators: SchemaValidators;
  /** The validators of the forms handlers ask for (elicitation), bounded. */
  readonly forms: FormValidators;
  readonly states: RequestStateCodec;
  /** The server's tasks, when a tool declares task support (made by the tasks part the generated server.ts passes). */
  readonly tasks: ServerTasks | undefined;
  /** The manifest's lists as they go out (frozen). */
  readonly lists: Record<ListKind, readonly object[]>;
  /** Which entries are enabled now (listSwitch.ts). */
  readonly switches: ListSwitch;
  /** Where unexpected handler failures are reported. */
  readonly onError: NonNullable<ServerOptions["onError"]>;
}

/** One factory's tasks: what the engine, the methods and serving code ask of them (tasks/tasks.ts). */
export interface ServerTasks extends TaskStoreUser {
  /** A new running task, or -32005 when maxRunningTasks run here. `owner`: owner.ts; `sink`: where its status changes go (2025 era). */
  create(era: ProtocolEra, owner: string | undefined, capabilities: JsonObject | undefined, requestedTtl?: unknown, sink?: StatusSink): Promise<RunningTask>;
  /** Records how the handler ended (the record as written); nothing changes when the task has already ended. */
  finish(task: RunningTask, outcome: TaskOutcome): Promise<TaskRecord | undefined>;
  /** The 2025-era status change while a handler waits for the client (or stops waiting). */
  waiting(task: RunningTask, on: boolean): void;
  /** Where a 2026-07-28 task's handler asks its questions: they wait in tasks/get for tasks/update. */
  channel(task: RunningTask): InputChannel;
  /** A Task as 2025-11-25 shows it. */
  legacyView(task: TaskRecord): JsonObject;
  /** A Task as the 2026-07-28 extension shows it; `detailed` adds result, error or questions. */
  modernView(task: TaskRecord, detailed: boolean): JsonObject;
  /** The connection of `owner` is gone: its tasks' notifications have nowhere to go. */
  forgetOwner(owner: string): void;
  /** The tasks/* rows of the method table. */
  methods(core: EngineCore): MethodEntry[];
  /** Serves 2026-07-28 listens that name tasks; other listens go to `sdk`. */
  listens(bus: ServerEventBus, sdk: SdkFetch, max: number, queueBytes: number): TaskListenStreams;
}

/** The tasks part (`tasks` of `@mcpgen/runtime/server/tasks`): makes a factory's tasks. */
export interface TasksPart {
  make(options: ServerOptions, report: (error: unknown) => void, forms: FormValidators): ServerTasks;
}

/** The authorization part (`authGate` of `@mcpgen/runtime/server/auth`): opens the gate of a definition with `auth`. */
export interface AuthPart {
  open(
    definition: ServerDefinition,
    endpoint: string,
    options: AuthOptions | undefined,
    verifyToken: TokenVerifier | undefined,
    env: Record<string, string | undefined>,
  ): Promise<HttpAuthGate | undefined>;
}

/** Answers one method for one request (`subscriptions`: the 2025-era connection's). */
export type MethodHandler = (params: JsonObject, call: Call, subscriptions: Set<string>) => Promise<object> | object;

/** One row of the method table: a method, the era it is offered in (both when absent), its handler. */
export interface MethodEntry {
  method: string;
  era?: ProtocolEra;
  handle: MethodHandler;
}

/** The context a handler gets: the call's fields, its signal, and questions on `channel`. */
export function handlerContext(call: Call, channel: InputChannel, signal: AbortSignal): RequestContext {
  // One object, filled in place: cheaper than spreading the base into a new one per call.
  const ctx = inputMethods(channel) as RequestContext;
  Object.assign(ctx, call.base);
  ctx.signal = signal;
  return ctx;
}

export function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A handler the user defined on the object itself, never one inherited from Object.prototype. */
export function ownFunction(table: { [name: string]: AnyFunction } | undefined, name: string): AnyFunction | undefined {
  if (!table || !Object.hasOwn(table, name)) return undefined;
  const fn = table[name];
  return typeof fn === "function" ? fn : undefined;
}

/** The seed's classic mistake (`tool`/`args` instead of `name`/`arguments`) gets named. */
export function expectedFields(method: string, params: JsonObject, expected: string): string {
  const got = Object.keys(params).filter((k) => k !== "_meta");
  return `Invalid params for ${method}: expected ${expected}; got ${got.length ? got.map((k) => `'${k}'`).join(", ") : "no fields"}`;
}

/** Undefined when `value` matches one of the SDK's result schemas, else its first problems in words. */
export function schemaProblems(schema: ResultSchema, value: unknown): string | undefined {
  const parsed = schema.safeParse(value);
  if (parsed.success) return undefined;
  return parsed.error.issues
    .slice(0, 3)
    .map((i) => `${i.path.map(String).join(".") || "result"} ${i.message}`)
    .join("; ");
}
