/**
 * Tasks in Redis, for several replicas of one server: every replica reads and changes the same
 * records, and tells the others about changes on a pub/sub channel.
 *
 * - One hash per task (`<prefix>task:<id>`), expiring with the task's ttl (PEXPIRE), and a sorted
 *   set per owner (`<prefix>owner:<owner>`, scored by expiry, trimmed when read) for tasks/list,
 *   which reads a page of summaries inside Redis (never the results).
 * - At most maxTasks tasks are kept (`<prefix>all`, and `<prefix>finished` for the ended ones,
 *   both scored by expiry), at most maxTasksPerOwner of one owner: a new task evicts a finished
 *   one that expires first (the owner's own first); when every kept task is running, it is
 *   refused with -32005. The outcomes kept are counted in bytes (`<prefix>sizes`, `<prefix>bytes`,
 *   `<prefix>obytes` per owner): one over maxTaskResultBytes fails its task instead, and a new one
 *   evicts finished tasks until the owner's fit in maxStoredResultBytesPerOwner and all of them in
 *   maxStoredResultBytes. The layout is in redisRecords.ts.
 * - Transitions are Lua scripts: the status is checked and the record written in one step, so a
 *   terminal status is never overwritten and a record is never half-written. Expiries and trims
 *   use Redis's clock (see redisRecords.ts).
 * - Every command answers within commandTimeoutMs or fails: a request then gets a generic -32603
 *   (never Redis's own text, which goes to stderr once per outage), and the server keeps serving.
 * - A running task has a lease key (`<prefix>lease:<id>`) that the process running it renews
 *   every leaseMs/3; a reader that finds a running task without one fails it (tasks.ts).
 * - Events (cancel, update, status) go on the channel `<prefix>events`, one subscriber
 *   connection per store. A status event of a running task carries its record (no outcome yet);
 *   one of an ended task does not (a result can be 4 MiB, and Redis would send it to every
 *   replica): a replica reads it when someone there needs it. When the connection comes back
 *   after an outage, the followers of tasks in this process read them again (events of that time
 *   may be lost).
 *
 * The runtime does not import the `redis` package: a store made from a URL loads it when it opens;
 * a store given a client uses it as it is (any client with these few commands fits).
 */
import type { RedisConnection } from "./redisClient.js";
import { RedisLink } from "./redisLink.js";
import { CHANGING, CREATE, FORGET, GET, LIST, parseFixed, parsePage, recordFields, stored, TRANSITION } from "./redisRecords.js";
import type { StoredTask, TaskChange, TaskEvent, TaskEventLink, TaskPage, TaskRecord, TaskStore, TaskStoreLimits } from "../engine/parts.js";
import { isTerminal, keptChange, storeLimits, tooManyOwnTasks, tooManyTasks } from "../tasks/taskStore.js";

export type { RedisConnection } from "./redisClient.js";

/**
 * Where the store connects, and its bounds. The limits (maxTasks, maxTaskResultBytes,
 * maxStoredResultBytes and the per-owner shares) hold for all the replicas together: a new task
 * evicts the finished task that expires first (the owner's own first) and is refused with -32005
 * when all kept tasks run; a new result evicts finished tasks the same way until the results kept fit.
 */
export interface RedisTaskStoreOptions extends TaskStoreLimits {
  /** Redis to connect to, e.g. redis://127.0.0.1:6379 (the `redis` package must be installed). */
  url?: string;
  /** Or a node-redis client of your own, connected or not (the store closes only the connections it opens). */
  client?: RedisConnection;
  /** Put before every key and the events channel, so several servers share one Redis (default `mcpgen:`). */
  prefix?: string;
  /** How long a running task outlives its process (ms, default 10,000): its lease, renewed every third of it. */
  leaseMs?: number;
  /**
   * How long one command may wait for Redis (ms, default 5,000): then the request answers -32603
   * and the server goes on (a Redis that stops answering never hangs it).
   */
  commandTimeoutMs?: number;
}

/** What the environment says of Redis (see docs/guides/replicas.md): REDIS_URL, else undefined. */
export function redisSettings(env: Record<string, string | undefined>): (Omit<RedisTaskStoreOptions, "client"> & { url: string }) | undefined {
  const url = env["REDIS_URL"];
  if (url === undefined || url === "") return undefined;
  const number = (name: string) => {
    const value = env[name];
    return value === undefined || value === "" ? undefined : Number(value);
  };
  const leaseMs = number("MCP_TASKS_LEASE_MS");
  const commandTimeoutMs = number("MCP_TASKS_REDIS_TIMEOUT_MS");
  return {
    url,
    ...(env["MCP_TASKS_REDIS_PREFIX"] ? { prefix: env["MCP_TASKS_REDIS_PREFIX"] } : {}),
    ...(leaseMs === undefined ? {} : { leaseMs }),
    ...(commandTimeoutMs === undefined ? {} : { commandTimeoutMs }),
  };
}

/** A task store in Redis (see docs/guides/replicas.md). */
export function redisTaskStore(options: RedisTaskStoreOptions, why = "redisTaskStore was given a URL"): TaskStore {
  if ((options.url === undefined) === (options.client === undefined)) throw new TypeError("redisTaskStore needs a url or a client (one of them)");
  const timeoutMs = options.commandTimeoutMs ?? 5_000;
  const link = new RedisLink({
    ...(options.url === undefined ? {} : { url: options.url }),
    ...(options.client === undefined ? {} : { client: options.client }),
    commandTimeoutMs: timeoutMs,
    why,
    who: "The task store",
  });
  return new RedisTaskStore(link, true, options);
}

/** What a task id of this runtime can look like: anything else is not found without asking Redis. */
const TASK_ID = /^[A-Za-z0-9_-]{1,128}$/;

/** What a failure names in the error a client gets. */
const WHAT = "the task store";

/**
 * The store on a Redis connection: one of its own (redisTaskStore), or the one the server shares
 * with its lists and events (REDIS_URL, opened by redisState.ts).
 */
export class RedisTaskStore implements TaskStore {
  private readonly links = new Map<string, (event: TaskEvent) => void>();
  private closed = false;
  private readonly channel: string;
  /** Put before every key and channel (the lists and events of a server sharing the connection use it too). */
  readonly prefix: string;
  readonly leaseMs: number;
  private readonly limits: Required<TaskStoreLimits>;
  private opening: Promise<void> | undefined;
  private readonly stopRecovering: () => void;

  constructor(
    /** The connection (the lists and the event bus of a server with REDIS_URL use it too). */
    readonly redis: RedisLink,
    /** Whether closing the store closes the connection. */
    private readonly ownsLink: boolean,
    options: Omit<RedisTaskStoreOptions, "url" | "client" | "commandTimeoutMs">,
  ) {
    this.leaseMs = options.leaseMs ?? 10_000;
    if (!Number.isInteger(this.leaseMs) || this.leaseMs < 30)
      throw new RangeError(`the task lease must be a whole number of ms, at least 30, not ${String(options.leaseMs)}`);
    this.prefix = options.prefix ?? "mcpgen:";
    this.channel = `${this.prefix}events`;
    this.limits = storeLimits(options);
    // Events of an outage may be lost: what follows tasks in this process reads them again.
    this.stopRecovering = redis.onRecover(() => {
      for (const listener of [...this.links.values()]) listener({ kind: "resync" });
    });
  }

  /** Connects once and subscribes to the events channel (serveHttp and serveStdio call it at start; the first command calls it otherwise). */
  open(): Promise<void> {
    if (this.closed) return Promise.reject(new Error("The Redis task store is closed"));
    this.opening ??= this.redis
      .listen(this.channel, (message) => this.deliver(message))
      .then(
        () => {},
        (error: unknown) => {
          // Tried again by the next command.
          this.opening = undefined;
          throw error;
        },
      );
    return this.opening;
  }
  async create(task: TaskRecord): Promise<void> {
    // Checked before Redis sees them: the script refuses them too, before it writes anything.
    if (!Number.isSafeInteger(task.ttlMs) || task.ttlMs < 1) throw new TypeError(`a task's ttl is a whole number of ms, at least 1, not ${task.ttlMs}`);
    if (!TASK_ID.test(task.id)) throw new TypeError(`not a task id: ${JSON.stringify(task.id)}`);
    if (task.outcome !== undefined) throw new TypeError("a new task has no outcome yet: transition writes it");
    const { maxTasks, maxTasksPerOwner } = this.limits;
    const args = [
      String(task.ttlMs),
      isTerminal(task.status) ? "0" : String(this.leaseMs),
      String(maxTasks),
      String(maxTasksPerOwner),
      task.id,
      task.owner ?? "",
    ];
    // Unanswered, the script may still run when Redis comes back: the task it makes, which no
    // client knows of, is forgotten right after it (commands on a connection run in order).
    // (EVAL, not EVALSHA: a script to load first would wait for Redis before the EVALSHA is sent.)
    const forget = () => void this.attempt((client) => this.redis.command(client, ["EVAL", FORGET, "0", this.prefix, task.id])).catch(() => {});
    const created = Number(await this.run(CREATE, [...args, ...recordFields(task)], forget));
    if (created === 2) throw tooManyOwnTasks(maxTasksPerOwner);
    if (created !== 1) throw tooManyTasks(maxTasks);
  }

  async get(id: string, summary = false): Promise<StoredTask | undefined> {
    if (!TASK_ID.test(id)) return undefined;
    const found = await this.run(GET, [id, summary ? "1" : "0"]);
    return found ? stored(id, found) : undefined;
  }

  async list(owner: string, limit: number, after?: number): Promise<TaskPage> {
    if (!Number.isInteger(limit) || limit < 1 || limit > 1000) throw new RangeError(`a page holds 1 to 1,000 tasks, not ${limit}`);
    if (after !== undefined && !(Number.isSafeInteger(after) && after >= 0)) return { tasks: [] };
    const page = parsePage(await this.run(LIST, [owner, String(limit), after === undefined ? "" : String(after)]));
    const tasks = page.entries.flatMap((entry) => {
      const task = stored(undefined, entry);
      return task && task.task.owner === owner ? [task] : [];
    });
    return { tasks, ...(page.next === undefined ? {} : { next: page.next }) };
  }

  async transition(id: string, change: TaskChange, at: string, ifOrphaned = false): Promise<TaskRecord | undefined> {
    if (!TASK_ID.test(id)) return undefined;
    // A result too large to keep is replaced here, before it travels to Redis.
    const kept = keptChange(change, this.limits.maxTaskResultBytes);
    const set: string[] = ["status", kept.change.status, "lastUpdatedAt", at];
    const drop: string[] = [];
    for (const field of CHANGING) {
      const value = field === "outcome" ? kept.outcome : kept.change[field];
      if (value === undefined) drop.push(field);
      else set.push(field, typeof value === "string" ? value : JSON.stringify(value));
    }
    const { maxStoredResultBytes, maxStoredResultBytesPerOwner } = this.limits;
    const written = await this.run(TRANSITION, [
      id,
      ifOrphaned ? "1" : "0",
      String(set.length / 2),
      String(maxStoredResultBytes),
      String(maxStoredResultBytesPerOwner),
      ...set,
      ...drop,
    ]);
    const fixed = written ? parseFixed(written) : undefined;
    // Only the fixed fields come back: the rest is what was just written (the result is not sent back).
    return fixed && { ...fixed, ...kept.change, lastUpdatedAt: at };
  }

  async renewLeases(ids: readonly string[]): Promise<void> {
    if (this.closed) return;
    // Issued together: node-redis pipelines commands sent in the same tick.
    await this.attempt(async (client) => {
      await Promise.all(ids.map((id) => this.redis.command(client, ["PEXPIRE", this.key("lease", id), String(this.leaseMs)])));
    });
  }

  link(listener: (event: TaskEvent) => void): TaskEventLink {
    const id = crypto.randomUUID();
    this.links.set(id, listener);
    return {
      publish: async (event) => {
        // Closed while a change was in flight: nobody is left to tell.
        if (this.closed) return;
        await this.attempt((client) => this.redis.command(client, ["PUBLISH", this.channel, JSON.stringify({ origin: id, event })]));
      },
      close: () => void this.links.delete(id),
    };
  }

  async close(): Promise<void> {
    this.closed = true;
    this.stopRecovering();
    this.links.clear();
    if (this.ownsLink) await this.redis.close();
  }

  private deliver(message: string): void {
    let parsed: { origin?: unknown; event?: TaskEvent };
    try {
      parsed = JSON.parse(message) as typeof parsed;
    } catch {
      return;
    }
    // Only events of this version's shape (a replica of another version, a forged PUBLISH: dropped);
    // a resync is this process's own, never one from the channel.
    const event = parsed.event;
    if (!isPublishedEvent(event)) return;
    for (const [id, listener] of this.links) if (id !== parsed.origin) listener(event);
  }

  private key(kind: "lease", id: string): string {
    return `${this.prefix}${kind}:${id}`;
  }

  /** Runs a script (ARGV: the prefix, then `args`); `unanswered` is called when Redis does not answer in time. */
  private async run(script: string, args: string[], unanswered?: () => void): Promise<unknown> {
    // A failed open is reported by the command that follows (a -32603, Redis's text on stderr).
    await this.open().catch(() => {});
    return this.redis.run(WHAT, script, [this.prefix, ...args], unanswered);
  }

  /** Runs `work` on the connection (failures become a generic -32603, see RedisLink.attempt). */
  private async attempt<T>(work: (client: RedisConnection) => Promise<T>): Promise<T> {
    await this.open().catch(() => {});
    return this.redis.attempt(WHAT, work);
  }
}

/** Whether `value` is an event a replica of this version publishes. */
function isPublishedEvent(value: unknown): value is TaskEvent {
  if (typeof value !== "object" || value === null) return false;
  const event = value as Record<string, unknown>;
  const text = (key: string) => typeof event[key] === "string";
  switch (event["kind"]) {
    case "cancel":
      return text("taskId") && text("message");
    case "update":
      return text("taskId") && typeof event["responses"] === "object" && event["responses"] !== null;
    case "status":
      return (
        text("taskId") &&
        (event["era"] === "legacy" || event["era"] === "modern") &&
        typeof event["status"] === "string" &&
        ["working", "input_required", "completed", "failed", "cancelled"].includes(event["status"]) &&
        (event["owner"] === undefined || text("owner")) &&
        (event["statusMessage"] === undefined || text("statusMessage")) &&
        (event["record"] === undefined || isRunningRecord(event["record"], event["taskId"]))
      );
    default:
      return false;
  }
}

/** A running task's record as an event carries it: its own id, no outcome. */
function isRunningRecord(value: unknown, taskId: unknown): boolean {
  if (typeof value !== "object" || value === null) return false;
  const record = value as Record<string, unknown>;
  return record["id"] === taskId && record["outcome"] === undefined && (record["status"] === "working" || record["status"] === "input_required");
}
