/**
 * The engine's public types: what the user's handlers get and answer, and the server options.
 * The generated `Handlers` type is a typed view of RuntimeHandlers.
 */
import type { JsonObject } from "../../shared/definition.js";
import type {
  CallToolResult,
  CreateMessageRequestParams,
  CreateMessageResult,
  ElicitRequestFormParams,
  ElicitResult,
  ListRootsResult,
  LoggingLevel,
  ReadResourceResult,
} from "../../shared/mcp.js";
import type { MessageLogOption } from "./messageLog.js";
import type { RequestStateSecret } from "./requestStateKeys.js";
import type { TaskOptions } from "./parts.js";
import type { AnyLists, ListEntry } from "./listSwitch.js";
import type { ProtocolEra } from "./sdk.js";

/** Who asks for a list, or calls an entry: what a `visible` filter decides on. */
export interface VisibleContext {
  auth?: AuthContext;
  era: ProtocolEra;
  sessionId?: string;
}

/**
 * Who called, as the verified access token says (`ctx.auth`). Undefined on stdio, and for a call
 * of an `auth: none` entry made without a token. The token itself is never in it.
 */
export interface AuthContext {
  /** The token's `sub` (the user, or the client for a client-credentials token). */
  subject?: string;
  /** The OAuth client the token was issued to (`client_id`, else `azp`). */
  clientId: string;
  /** The scopes the token grants. */
  scopes: readonly string[];
  /** When the token expires, in seconds since the epoch (absent: the verifier named none). */
  expiresAt?: number;
  /** Every claim of the token (JWT payload, or the introspection answer; for `verifier: handler`, what it returned). */
  claims: Readonly<Record<string, unknown>>;
}

/**
 * `verifier: handler`: your check of a bearer token (an API key, an opaque token of your own).
 * Answer undefined for a token you do not accept (the client gets 401); throw for a failure of
 * your own (the client gets 500, not 401). `resource`, when given, must be this server's resource.
 */
export type TokenVerifier = (token: string) => Promise<(AuthContext & { resource?: string }) | undefined>;

/** What every handler gets besides its arguments. */
/** `L`: the type of `lists`, the generated `ServerLists` in the generated `Handlers` (any server's lists by default). */
export interface RequestContext<L extends AnyLists = AnyLists> {
  /** Aborted when the client cancels the request (or its task), or the connection closes. */
  signal: AbortSignal;
  /** The JSON-RPC id of the request being answered. */
  requestId: string | number;
  /** `"legacy"` for 2025-era clients (initialize handshake), `"modern"` for 2026-07-28 requests. */
  era: ProtocolEra;
  /**
   * The verified access token's principal and scopes, on a server with `auth` served over
   * Streamable HTTP. Undefined on stdio, and for `auth: none` entries called without a token.
   */
  auth?: AuthContext;
  /** The transport's session, for Streamable HTTP with sessions (2025-era clients). */
  sessionId?: string;
  /** Switches the server's lists at run time (docs/guides/lists.md): the same object as the factory's `lists`, typed by the manifest's names in the generated `Handlers`. */
  lists: L;
  /** The request's `params._meta` without the 2026-07-28 envelope keys (progressToken, vendor keys). */
  meta?: JsonObject;
  /** What the client declared it can do: its initialize capabilities, or this request's envelope. */
  clientCapabilities: JsonObject;
  /**
   * Sends `notifications/message` for this request: on 2025-era connections unless the client's
   * `logging/setLevel` asks for a higher level, on 2026-07-28 requests only when the request
   * carries a log level. Needs `capabilities: {logging: {}}` in the manifest (a no-op otherwise).
   */
  log(level: LoggingLevel, data: unknown, logger?: string): Promise<void>;
  /**
   * Sends `notifications/progress` when the request carried a progressToken (a no-op otherwise,
   * and in a 2026-07-28 task). `progress` must increase from call to call.
   */
  progress(progress: number, total?: number, message?: string): Promise<void>;
  /**
   * Asks the client's model for a completion (sampling/createMessage). Rejects with
   * MissingClientCapabilityError when the client did not declare `sampling`.
   */
  sample(params: CreateMessageRequestParams, options?: InputOptions): Promise<CreateMessageResult>;
  /**
   * Asks the user for input through the client (elicitation/create, form mode). Rejects with
   * MissingClientCapabilityError when the client did not declare `elicitation`.
   */
  elicit(params: Omit<ElicitRequestFormParams, "mode"> & { mode?: "form" }, options?: InputOptions): Promise<ElicitResult>;
  /** Asks the client for its roots (roots/list). Rejects with MissingClientCapabilityError without `roots`. */
  listRoots(options?: InputOptions): Promise<ListRootsResult>;
  /**
   * Sends `notifications/resources/updated` to clients subscribed to `uri`: on 2025-era
   * connections those that called resources/subscribe, on 2026-07-28 the subscriptions/listen
   * streams that name it.
   */
  notifyResourceUpdated(uri: string): Promise<void>;
  /**
   * Streamable HTTP with an event store (2025-era sessions): closes this request's SSE stream so
   * the client polls for the answer (SEP-1699). A no-op elsewhere.
   */
  closeSSEStream(): void;
}

export interface InputOptions {
  /**
   * The key of this question in a 2026-07-28 `input_required` result (default: `elicitation-1`,
   * `sampling-1`, `roots-1`, ... in the order the handler asks). It must be the same on every run
   * of the handler for the same question.
   */
  key?: string;
}

export interface ToolContext<L extends AnyLists = AnyLists> extends RequestContext<L> {
  /** The tool's MCP name. */
  tool: string;
  /**
   * Tools with `execution.taskSupport`: turns this call into a task. On 2026-07-28 requests whose
   * client declared the tasks extension, the client gets a CreateTaskResult now and the handler
   * goes on in the background (questions asked before this point were asked with input_required,
   * those after it wait in tasks/get). A no-op otherwise (a 2025-era task-augmented call is a task
   * from the start; a call without tasks simply goes on).
   */
  startTask(): Promise<void>;
  /** The task this call runs as, once it is one. */
  task?: { id: string };
}

export interface ResourceContext<L extends AnyLists = AnyLists> extends RequestContext<L> {
  /** The URI being read. */
  uri: string;
}

export type PromptContext<L extends AnyLists = AnyLists> = RequestContext<L>;

/** A resource handler answers the text, `{ blob: base64 }`, or a full ReadResourceResult. */
export type ResourceHandlerResult = string | { blob: string } | ReadResourceResult;

/** A tool without outputSchema answers a string (one text block) or a full CallToolResult. */
export type ToolTextResult = string | CallToolResult;

type Awaitable<T> = T | Promise<T>;
export type AnyFunction = (...args: never[]) => Awaitable<unknown>;

/** A completion handler: the values that start (or match) what the user typed so far. */
export type CompletionHandler = (
  value: string,
  ctx: RequestContext & { arguments: Record<string, string> },
) => Awaitable<readonly string[] | { values: readonly string[]; total?: number; hasMore?: boolean }>;

/** The untyped view of the generated `Handlers` type. */
export interface RuntimeHandlers {
  /** `auth.verifier: handler`: checks each bearer token (Streamable HTTP only). */
  verifyToken?: TokenVerifier;
  tools?: { [name: string]: AnyFunction };
  resources?: { [name: string]: AnyFunction };
  resourceTemplates?: { [name: string]: AnyFunction };
  prompts?: { [name: string]: AnyFunction };
  completions?: {
    prompts?: { [name: string]: { [argument: string]: AnyFunction } };
    resourceTemplates?: { [name: string]: { [variable: string]: AnyFunction } };
  };
}

export interface ServerOptions extends TaskOptions {
  /**
   * How arguments that break a tool's inputSchema are answered: `"tool-error"` (default) is a
   * result with `isError: true` that the model can read and correct, as MCP advises;
   * `"protocol-error"` is a JSON-RPC error -32602 with the same message.
   */
  invalidArguments?: "tool-error" | "protocol-error";
  /** Where unexpected handler failures are reported. Default: a line on stderr. */
  onError?: (error: unknown, context: { method: string; name?: string }) => void;
  /** Items per page of every list method (default: all in one page). */
  pageSize?: number;
  /**
   * HMAC key of the 2026-07-28 `requestState` (see docs/guides/multi-round-trip.md): one key (at least 32 bytes), or
   * `{ current, previous }` to rotate keys (the current one signs, previous ones still verify).
   * Share it between processes that answer the same clients. Absent: the environment's
   * `MCP_REQUEST_STATE_SECRET` (and `MCP_REQUEST_STATE_PREVIOUS_SECRETS`, comma-separated), else
   * a random key per process. A weak key (short, repetitive, or guessable: a common password,
   * a run such as 12345) is refused when the server is made, with the reason.
   */
  requestStateSecret?: RequestStateSecret;
  /**
   * How long a requestState stays valid, in ms (default 10 minutes). Until then the same caller
   * may replay the same round and the handler runs again: the replay window.
   */
  requestStateTtlMs?: number;
  /**
   * The longest string, in UTF-16 code units, tested against a schema `pattern` that runs on
   * RE2JS (default 100,000). Linear time is still time: a lookbehind with a counted repetition
   * costs length × count. A longer string is refused ("must NOT have more than … characters to be
   * checked against pattern"); patterns mcpgen runs on JavaScript's RegExp (proved linear) have no cap.
   */
  maxPatternInputLength?: number;
  /**
   * Time for schema patterns that run on RE2JS, per value checked (a call's arguments, a tool's
   * output, a form's answer), in ms (default 100). Before each string is tested its worst case is
   * estimated from its length and the pattern's counted repetitions: a string that would not fit
   * in what is left is refused untested ("the patterns of this value would take more than … ms"),
   * as invalid as any other; each test's real time is taken from what is left (its estimate, when the machine is slower than that).
   */
  maxPatternMs?: number;
  /**
   * Forms (elicitation `requestedSchema`s) whose validators are kept, by their JSON text (default
   * 100). Past it, all are dropped and compiled again when asked.
   */
  maxFormValidators?: number;
  /**
   * A JSON line per request answered (id, method, tool, duration, outcome: ok, business-error or
   * protocol-error), on stderr when `true`, or to your function; never arguments or results.
   * Default: on when the environment has `MCP_LOG_MESSAGES=1`. `mcpgen check` and `mcpgen
   * explain` read these lines.
   */
  logMessages?: MessageLogOption;
  /**
   * A per-request filter of the lists (docs/guides/lists.md): an entry it answers false for is
   * left out of the caller's list and answers as unknown to that caller (unknown tool, unknown
   * prompt, resource not found), as a disabled one does. With it, 2026-07-28 list answers are
   * `cacheScope: "private"`. MCP allows lists to vary by the authorization presented, not by
   * connection: decide on `ctx.auth`.
   */
  visible?: (entry: ListEntry, ctx: VisibleContext) => boolean;
}
