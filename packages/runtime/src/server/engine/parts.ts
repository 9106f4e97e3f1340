/**
 * The optional parts of a server, as the core names them: the tasks (a server whose tools run as
 * tasks), the authorization gate of Streamable HTTP (a server with `auth`), and Redis for the
 * state replicas share. Generated code hands the core the parts its manifest needs (server.ts:
 * `tasks` of `@mcpgen/runtime/server/tasks`; serve.ts: `authGate` of `/server/auth`, `redisState`
 * of `/server/redis`). The core never imports a part, so a server carries (and a vendored copy of
 * the runtime holds) only the parts it uses; it declares here what it asks of each.
 *
 * The task store's contract is here too: `taskStore` is one of every server's options.
 */
import type { JsonObject, ServerDefinition } from "../../shared/definition.js";
import type { TaskStatus } from "../../shared/mcp.js";
import type { ListSwitch } from "./listSwitch.js";
import type { ProtocolEra, SdkAuthInfo, ServerEventBus } from "./sdk.js";

/** The 2026-07-28 tasks extension, as client and server capabilities name it. */
export const TASKS_EXTENSION = "io.modelcontextprotocol/tasks";
/** The `_meta` key that ties a message to its task. */
export const RELATED_TASK = "io.modelcontextprotocol/related-task";

// ---------------------------------------------------------------------------------------------
// The task store

/** One question for the client, as it travels in `inputRequests`. */
export interface InputRequest {
  method: "elicitation/create" | "sampling/createMessage" | "roots/list";
  params?: JsonObject;
}

/** How a task ended: the tool's result, or a JSON-RPC error. */
export type TaskOutcome = { result: JsonObject } | { error: { code: number; message: string; data?: unknown } };

/** A task as every replica sees it. */
export interface TaskRecord {
  readonly id: string;
  readonly era: ProtocolEra;
  /**
   * Whom it belongs to (owner.ts): the principal, the 2025-era session, or both. Only that
   * caller reads, answers, cancels, follows and lists it; a 2025-era owner's connection gets its
   * status notifications. Absent: nothing identified its creator, and its id is the capability.
   */
  readonly owner?: string;
  readonly status: TaskStatus;
  readonly statusMessage?: string;
  readonly createdAt: string;
  readonly lastUpdatedAt: string;
  readonly ttlMs: number;
  /** When the ttl is over (ms since the epoch): the task is then forgotten (cancelled first if running). */
  readonly expiresAt: number;
  readonly outcome?: TaskOutcome;
  /** A 2026-07-28 task's questions waiting for tasks/update, by key. */
  readonly inputRequests?: Readonly<Record<string, InputRequest>>;
}

/**
 * A change of a task: its new status and what goes with it. Fields left out are removed from the
 * record (a task back to `working` has no questions; a new status has no old message).
 */
export interface TaskChange {
  status: TaskStatus;
  statusMessage?: string;
  outcome?: TaskOutcome;
  inputRequests?: Record<string, InputRequest>;
}

/** A record read from the store, and whether the process running it has stopped renewing its lease. */
export interface StoredTask {
  task: TaskRecord;
  /** Not ended, and its lease is gone: the process that ran it stopped. */
  orphaned: boolean;
}

/** What replicas tell each other about a task. */
export type TaskEvent =
  /** Abort the handler (tasks/cancel reached another replica; the record already says cancelled). */
  | { kind: "cancel"; taskId: string; message: string }
  /** Answers to a 2026-07-28 task's questions (tasks/update reached another replica). */
  | { kind: "update"; taskId: string; responses: JsonObject }
  /**
   * The task's record changed (waiters on tasks/result wake; its owner's connection is notified).
   * A task still running comes with its record (it has no outcome yet); an ended one without it:
   * a result can be megabytes, and every replica hears every event. A replica reads an ended
   * task's record when someone there needs it.
   */
  | { kind: "status"; taskId: string; era: ProtocolEra; owner?: string; status: TaskStatus; statusMessage?: string; record?: TaskRecord }
  /**
   * The store's connection came back after an outage: events of that time may be lost, so what
   * follows tasks here reads them again. Delivered by the store to the links of this process, never
   * published.
   */
  | { kind: "resync" };

/** One process's link to the store's events: what it publishes goes to every other link. */
export interface TaskEventLink {
  publish(event: TaskEvent): Promise<void>;
  close(): void;
}

/**
 * One page of an owner's tasks: summaries (no outcome, no questions), and the key the next page
 * starts after. Each store lists in an order of its own, stable from page to page (memory: the
 * order of creation; Redis: the order of expiry, which is that of creation for tasks of one ttl).
 */
export interface TaskPage {
  tasks: StoredTask[];
  next?: number;
}

/** Where tasks are kept. Every method may be called concurrently from several processes. */
export interface TaskStore {
  /** How long a running task's lease lasts without renewal (ms); undefined: never lost (one process). */
  readonly leaseMs: number | undefined;
  /** Connects (a no-op in memory). Rejects with a message naming what is missing or unreachable. */
  open(): Promise<void>;
  /** Stores a new task (running: with its lease). */
  create(task: TaskRecord): Promise<void>;
  /** The task; `summary`: the store may leave out its outcome and questions (they can be large). */
  get(id: string, summary?: boolean): Promise<StoredTask | undefined>;
  /** A page of the owner's tasks that have not expired, as summaries: at most `limit`, after the key `after` (a page's `next`). */
  list(owner: string, limit: number, after?: number): Promise<TaskPage>;
  /**
   * Applies `change` when the task exists and has not ended (`ifOrphaned`: and its lease is
   * gone), atomically; answers the record as written, or undefined when nothing changed. A
   * terminal change drops the lease. An outcome over the store's maxTaskResultBytes is not kept:
   * the task fails with the error `resultTooLarge` describes instead.
   */
  transition(id: string, change: TaskChange, at: string, ifOrphaned?: boolean): Promise<TaskRecord | undefined>;
  /** Renews the leases of the tasks this process runs. */
  renewLeases(ids: readonly string[]): Promise<void>;
  /** Events from the other processes (and other links) reach `listener`. */
  link(listener: (event: TaskEvent) => void): TaskEventLink;
  /** Closes connections (the store's owner calls it once, when it stops serving). */
  close(): Promise<void>;
}

/** The bounds every store keeps (the server's maxTasks, maxTaskResultBytes, maxStoredResultBytes). */
export interface TaskStoreLimits {
  /** Tasks kept at once, running and finished (default 10,000). */
  maxTasks?: number;
  /** The largest outcome kept, in bytes of its JSON (default 4 MiB): a larger result fails its task. */
  maxTaskResultBytes?: number;
  /** The outcomes of finished tasks kept together, in bytes of their JSON (default 64 MiB): past it, finished tasks are evicted. */
  maxStoredResultBytes?: number;
  /**
   * Tasks kept at once for one owner (default 1,000; see engine/owner.ts): past it the owner's own
   * finished tasks are evicted, and a new task is refused with -32005 when all of them run. Tasks
   * whose caller nothing identifies count only toward maxTasks.
   */
  maxTasksPerOwner?: number;
  /** The outcomes kept for one owner, in bytes of their JSON (default 16 MiB): past it, the owner's own finished tasks are evicted. */
  maxStoredResultBytesPerOwner?: number;
}

/** How tasks run; the limits bound the store the server makes (memory, or Redis from REDIS_URL), not a store passed as taskStore. */
export interface TaskOptions extends TaskStoreLimits {
  /** How long a task is kept from its creation, in ms (default one hour; a 2025-era client may ask for less). A task still running then is cancelled. */
  taskTtlMs?: number;
  /** The poll interval suggested to clients, in ms (default 500). */
  taskPollIntervalMs?: number;
  /** Tasks running at once in this process (default 1,000); past it a new task is refused with -32005 until one ends. */
  maxRunningTasks?: number;
  /** Where tasks are kept (default: this process's memory; see redisTaskStore and REDIS_URL in docs/guides/tasks.md). */
  taskStore?: TaskStore;
}

// ---------------------------------------------------------------------------------------------
// The tasks part

/** Sends a 2025-era task's `notifications/tasks/status` to the connection that created it. */
export type StatusSink = (params: JsonObject) => Promise<void>;

/** A task running in this process, as the engine holds it while its handler runs. */
export interface RunningTask {
  readonly id: string;
  /** The record as created (the store has the current one). */
  readonly created: TaskRecord;
  /** Aborted by tasks/cancel or expiry; the handler's ctx.signal. */
  readonly controller: AbortController;
}

/** A subscriptions/listen request whose filter names tasks. */
export type ListenBody = JsonObject & { params: JsonObject & { notifications: JsonObject } };

/** The 2026-07-28 listen streams that follow tasks (Streamable HTTP). */
export interface TaskListenStreams {
  /** Whether a request body is a listen that names tasks (this serves it, not the SDK). */
  wants(body: unknown): body is ListenBody;
  serve(request: Request, body: ListenBody, authInfo: SdkAuthInfo | undefined): Promise<Response>;
  closeAll(): void;
}

/** The SDK's own 2026-07-28 serving (createMcpHandler's fetch), which the task listens pass other listens to. */
export type SdkFetch = (request: Request, options: { parsedBody: unknown }) => Promise<Response>;

/** A factory's tasks as serving code opens them, on the store it chooses (state/openState.ts, the Redis part). */
export interface TaskStoreUser {
  /** The store, when it is chosen (by the options, or already from the environment): the environment does not choose it then. */
  readonly chosenStore: TaskStore | undefined;
  /** The bounds of the store the server makes. */
  readonly limits: Required<TaskStoreLimits>;
  /** Swaps in a store (from the environment) before serving; the tasks then close it. */
  useStore(store: TaskStore): void;
  /** Connects the store: serving starts after it. */
  open(): Promise<void>;
  close(): Promise<void>;
}

// ---------------------------------------------------------------------------------------------
// The authorization gate

/** The limits of a protected server's token checks (HttpOptions.auth), each with its default. */
export interface AuthOptions {
  /** `jwt`: how long one JWKS fetch may take before the request answers 500 (ms, default 5,000). */
  jwksTimeoutMs?: number;
  /**
   * `jwt`: a token whose `kid` is not in the cached JWKS refetches it, at most once per this
   * many ms (default 5,000): a rotated key is accepted within seconds, and forged `kid`s cost the
   * authorization server at most one fetch per period.
   */
  jwksCooldownMs?: number;
  /** `jwt`: the JWKS is refetched before use when older than this (ms, default 600,000: 10 minutes), so a key removed from it stops verifying. */
  jwksCacheMaxAgeMs?: number;
  /** `jwt`: tolerance for clock differences with the authorization server on `exp`, `nbf` and `iat` (seconds, default 30). */
  /** The largest JWKS read (bytes, default 1 MiB; a real one is a few KB): past it the body is read no further and the request answers 500. */
  jwksMaxBytes?: number;
  clockSkewSeconds?: number;
  /**
   * Verified tokens kept so a token is not checked again on every request (default 10,000; for
   * `introspection` see below). The oldest is dropped when full.
   */
  tokenCacheMax?: number;
  /**
   * How long a verified token is reused without checking it again (ms, default 60,000), never
   * past its `exp`: for `verifier: handler`, a token you stop accepting is refused within this time.
   */
  tokenCacheTtlMs?: number;
  /**
   * The verified tokens kept, in bytes of the tokens and their claims' JSON (default 16 MiB; the
   * heap holds about 1.3 times that): the oldest are dropped past it, so large tokens cannot fill
   * memory before `tokenCacheMax` counts them. Introspection answers share it.
   */
  tokenCacheMaxBytes?: number;
  /** `introspection`: answers kept (default 10,000). */
  introspectionCacheMax?: number;
  /** `introspection`: how long an active answer is reused, never past the token's `exp` (ms, default 30,000): a revoked token is refused within this time. */
  introspectionCacheTtlMs?: number;
  /** `introspection`: how long one call of the endpoint may take before the request answers 500 (ms, default 5,000). */
  introspectionTimeoutMs?: number;
}

/** The checks of a protected server's HTTP requests, before the SDK sees them (auth/gate.ts). */
export interface HttpAuthGate {
  /** Whether some entry is `auth: none`: then the body is read before the token is checked. */
  readonly mixed: boolean;
  /** The resource every token must be issued for (URL.href): the manifest's, or MCP_AUTH_RESOURCE. */
  readonly resource: string;
  /** The Protected Resource Metadata answer when `path` is one of its well-known paths. */
  metadata(path: string, method: string): Response | undefined;
  /** The verified token of an Authorization header, or the 401/500 answer. */
  authenticate(authorization: string | undefined): Promise<SdkAuthInfo | Response>;
  /** After the body is read: the token (on a mixed server), then each JSON-RPC request's scopes; undefined: anonymous. */
  admit(body: unknown, authorization: string | undefined, early: SdkAuthInfo | undefined): Promise<SdkAuthInfo | Response | undefined>;
  /** Whom a 2025-era session belongs to. */
  principal(authInfo: SdkAuthInfo | undefined): string | undefined;
  /** The WWW-Authenticate value a protected tool called without a token answers with. */
  toolChallenge(tool: string): string;
  /**
   * Which entries are switched on now (the server's lists): the gate takes a resource's rule from
   * the entry that would serve it, so a switched-off template is not what decides a URI's rule.
   */
  useSwitches(enabled: (kind: "resources" | "resourceTemplates", name: string) => boolean): void;
}

// ---------------------------------------------------------------------------------------------
// The state replicas share

/** What serving code opens: the factory's tasks and lists, and its event bus. */
export interface SharedParts {
  readonly tasks?: TaskStoreUser | undefined;
  /** The factory's event bus, whose resource updates are relayed between replicas. */
  readonly bus?: ServerEventBus | undefined;
  readonly listState?: ListSwitch | undefined;
  readonly definition?: ServerDefinition | undefined;
}

export interface OpenedState {
  /** Closes what was opened (once; later calls answer the same promise). */
  close(): Promise<void>;
}

/**
 * The Redis part (`redisState` of `@mcpgen/runtime/server/redis`): opens the shared state on Redis
 * when the environment or the options ask for it; undefined when they do not (memory then).
 */
export interface SharedStatePart {
  open(parts: SharedParts, env: Record<string, string | undefined>, options: { relay?: boolean }): Promise<OpenedState | undefined>;
}
