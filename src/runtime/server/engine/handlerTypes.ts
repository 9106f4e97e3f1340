/**
 * The engine's public types: what the user's handlers get and answer, and the server options.
 * The generated `Handlers` type is a typed view of RuntimeHandlers.
 */
import type { MessageLogOption } from "./messageLog.js";
import type { RequestContext } from "./context.js";
import type { CallToolResult, ReadResourceResult } from "../../shared/mcp.js";
import type { RequestStateSecret } from "./requestStateKeys.js";
import type { TaskOptions } from "../tasks/tasks.js";
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
