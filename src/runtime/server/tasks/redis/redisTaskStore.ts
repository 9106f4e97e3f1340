/**
 * Tasks in Redis, for several replicas of one server: every replica reads and changes the same
 * records, and tells the others about changes on a pub/sub channel.
 *
 * - One hash per task (`<prefix>task:<id>`), expiring with the task's ttl (PEXPIRE), and a sorted
 *   set per owner (`<prefix>owner:<owner>`, scored by expiry, trimmed when read) for tasks/list,
 *   which reads a page of summaries inside Redis (never the results).
 * - At most maxTasks tasks are kept (`<prefix>all`, and `<prefix>finished` for the ended ones,
 *   both scored by expiry): a new task evicts the finished one that expires first; when every
 *   kept task is running, it is refused with -32005. The outcomes kept are counted in bytes
 *   (`<prefix>sizes`, `<prefix>bytes`): one over maxTaskResultBytes fails its task instead, and
 *   a new one evicts finished tasks until they all fit in maxStoredResultBytes.
 * - Transitions are Lua scripts: the status is checked and the record written in one step, so a
 *   terminal status is never overwritten and a record is never half-written. Expiries and trims
 *   use Redis's clock (see redisRecords.ts).
 * - Every command answers within commandTimeoutMs or fails: a request then gets a generic -32603
 *   (never Redis's own text, which goes to stderr once per outage), and the server keeps serving.
 * - A running task has a lease key (`<prefix>lease:<id>`) that the process running it renews
 *   every leaseMs/3; a reader that finds a running task without one fails it (tasks.ts).
 * - Events (cancel, update, status) go on the channel `<prefix>events`, one subscriber
 *   connection per store.
 *
 * The runtime does not import the `redis` package: a store made from a URL loads it when it opens;
 * a store given a client uses it as it is (any client with these few commands fits).
 */
import { ErrorCodes, rpcError } from "../../../shared/errors.js";
import { loadRedis, redactUrl, reportOnce, type RedisConnection } from "./redisClient.js";
import { CHANGING, CREATE, FORGET, GET, LIST, parseFixed, parsePage, recordFields, stored, TRANSITION } from "./redisRecords.js";
import {
  isTerminal,
  keptChange,
  storeLimits,
  type StoredTask,
  type TaskChange,
  type TaskEvent,
  type TaskEventLink,
  type TaskPage,
  type TaskRecord,
  type TaskStore,
  type TaskStoreLimits,
} from "../taskStore.js";

export type { RedisConnection } from "./redisClient.js";

/**
 * Where the store connects, and its bounds. The limits (maxTasks, maxTaskResultBytes,
 * maxStoredResultBytes) hold for all the replicas together: a new task evicts the finished task
 * that expires first and is refused with -32005 when all kept tasks run; a new result evicts
 * finished tasks the same way until the results kept fit.
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

/** The store the environment names: Redis when REDIS_URL is set (see docs/guides/tasks.md), else undefined. */
export function taskStoreFromEnvironment(env: Record<string, string | undefined>, limits: TaskStoreLimits = {}): TaskStore | undefined {
  const url = env["REDIS_URL"];
  if (url === undefined || url === "") return undefined;
  const number = (name: string) => {
    const value = env[name];
    return value === undefined || value === "" ? undefined : Number(value);
  };
  const leaseMs = number("MCP_TASKS_LEASE_MS");
  const commandTimeoutMs = number("MCP_TASKS_REDIS_TIMEOUT_MS");
  return redisTaskStore(
    {
      url,
      ...(env["MCP_TASKS_REDIS_PREFIX"] ? { prefix: env["MCP_TASKS_REDIS_PREFIX"] } : {}),
      ...(leaseMs === undefined ? {} : { leaseMs }),
      ...(commandTimeoutMs === undefined ? {} : { commandTimeoutMs }),
      ...limits,
    },
    "REDIS_URL is set",
  );
}

/** A task store in Redis (see docs/guides/replicas.md). */
export function redisTaskStore(options: RedisTaskStoreOptions, why = "redisTaskStore was given a URL"): TaskStore {
  if ((options.url === undefined) === (options.client === undefined)) throw new TypeError("redisTaskStore needs a url or a client (one of them)");
  const leaseMs = options.leaseMs ?? 10_000;
  if (!Number.isInteger(leaseMs) || leaseMs < 30)
    throw new RangeError(`the task lease must be a whole number of ms, at least 30, not ${String(options.leaseMs)}`);
  const timeoutMs = options.commandTimeoutMs ?? 5_000;
  if (!Number.isInteger(timeoutMs) || timeoutMs <= 0)
    throw new RangeError(`commandTimeoutMs must be a positive whole number of ms, not ${String(options.commandTimeoutMs)}`);
  return new RedisTaskStore(options, options.prefix ?? "mcpgen:", leaseMs, timeoutMs, storeLimits(options), why);
}

/** What a task id of this runtime can look like: anything else is not found without asking Redis. */
const TASK_ID = /^[A-Za-z0-9_-]{1,128}$/;

/** A command that got no answer in time. */
class CommandTimeout extends Error {}

class RedisTaskStore implements TaskStore {
  private client: RedisConnection | undefined;
  private subscriber: RedisConnection | undefined;
  /** Whether this store opened `client` (then it closes it). */
  private ownsClient = false;
  private readonly links = new Map<string, (event: TaskEvent) => void>();
  private readonly scripts = new Map<string, string>();
  private opening: Promise<void> | undefined;
  private closed = false;
  private readonly channel: string;
  /** Commands failed since the last one that succeeded (an outage is reported once, with its end). */
  private failures = 0;

  constructor(
    private readonly options: RedisTaskStoreOptions,
    private readonly prefix: string,
    readonly leaseMs: number,
    private readonly timeoutMs: number,
    private readonly limits: Required<TaskStoreLimits>,
    private readonly why: string,
  ) {
    this.channel = `${prefix}events`;
  }

  /** Connects once (serveHttp and serveStdio call it at start; the first command calls it otherwise). */
  open(): Promise<void> {
    if (this.closed) return Promise.reject(new Error("The Redis task store is closed"));
    return (this.opening ??= this.connect());
  }

  private async connect(): Promise<void> {
    let connected = false;
    const target = this.options.url === undefined ? "the Redis client given to redisTaskStore" : `Redis at ${redactUrl(this.options.url)}`;
    try {
      if (this.options.client) {
        this.client = this.options.client;
        if (!this.client.isOpen) {
          this.client.on("error", reportOnce());
          await this.client.connect();
          this.ownsClient = true;
        }
      } else {
        const createClient = await loadRedis(this.why);
        // Fails fast at start (a wrong URL is a deployment error); reconnects once it has served.
        const client = createClient({
          url: this.options.url,
          socket: {
            connectTimeout: 5000,
            reconnectStrategy: (retries: number) => (connected ? Math.min(100 * 2 ** retries, 2000) : new Error(`cannot connect to ${target}`)),
          },
        });
        client.on("error", reportOnce());
        this.client = client;
        this.ownsClient = true;
        await client.connect();
      }
      await this.command(this.client, ["PING"]);
      const subscriber = this.client.duplicate();
      subscriber.on("error", reportOnce());
      await subscriber.connect();
      this.subscriber = subscriber;
      await this.timed(() => subscriber.subscribe(this.channel, (message) => this.deliver(message)));
      connected = true;
    } catch (error) {
      await this.disconnect();
      if (error instanceof Error && error.message.startsWith("The task store needs")) throw error;
      throw new Error(`The task store cannot reach ${target}: ${error instanceof Error ? error.message : String(error)} (${this.why})`, { cause: error });
    }
  }

  async create(task: TaskRecord): Promise<void> {
    // Checked before Redis sees them: the script refuses them too, before it writes anything.
    if (!Number.isSafeInteger(task.ttlMs) || task.ttlMs < 1) throw new TypeError(`a task's ttl is a whole number of ms, at least 1, not ${task.ttlMs}`);
    if (!TASK_ID.test(task.id)) throw new TypeError(`not a task id: ${JSON.stringify(task.id)}`);
    if (task.outcome !== undefined) throw new TypeError("a new task has no outcome yet: transition writes it");
    const args = [String(task.ttlMs), isTerminal(task.status) ? "0" : String(this.leaseMs), String(this.limits.maxTasks), task.id, task.owner ?? ""];
    // Unanswered, the script may still run when Redis comes back: the task it makes, which no
    // client knows of, is forgotten right after it (commands on a connection run in order).
    // (EVAL, not EVALSHA: a script to load first would wait for Redis before the EVALSHA is sent.)
    const forget = () => void this.attempt((client) => this.command(client, ["EVAL", FORGET, "0", this.prefix, task.id])).catch(() => {});
    const created = await this.run(CREATE, [...args, ...recordFields(task)], forget);
    if (Number(created) !== 1) {
      throw rpcError(
        ErrorCodes.LimitExceeded,
        `Too many tasks: the ${this.limits.maxTasks} tasks kept are all running (the server's maxTasks); retry when one has ended`,
        { limit: this.limits.maxTasks },
      );
    }
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
    const written = await this.run(TRANSITION, [id, ifOrphaned ? "1" : "0", String(set.length / 2), String(this.limits.maxStoredResultBytes), ...set, ...drop]);
    const fixed = written ? parseFixed(written) : undefined;
    // Only the fixed fields come back: the rest is what was just written (the result is not sent back).
    return fixed && { ...fixed, ...kept.change, lastUpdatedAt: at };
  }

  async renewLeases(ids: readonly string[]): Promise<void> {
    if (this.closed) return;
    // Issued together: node-redis pipelines commands sent in the same tick.
    await this.attempt(async (client) => {
      await Promise.all(ids.map((id) => this.command(client, ["PEXPIRE", this.key("lease", id), String(this.leaseMs)])));
    });
  }

  link(listener: (event: TaskEvent) => void): TaskEventLink {
    const id = crypto.randomUUID();
    this.links.set(id, listener);
    return {
      publish: async (event) => {
        // Closed while a change was in flight: nobody is left to tell.
        if (this.closed) return;
        await this.attempt((client) => this.command(client, ["PUBLISH", this.channel, JSON.stringify({ origin: id, event })]));
      },
      close: () => void this.links.delete(id),
    };
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.disconnect();
  }

  /** Closes the connections this store opened (a failed open leaves none behind). */
  private async disconnect(): Promise<void> {
    const subscriber = this.subscriber;
    const client = this.ownsClient ? this.client : undefined;
    this.subscriber = undefined;
    this.client = undefined;
    this.opening = undefined;
    for (const connection of [subscriber, client]) {
      // A close waits for pending answers: a Redis that stopped answering is left at once.
      if (connection?.isOpen) await this.timed(() => connection.close()).catch(() => connection.destroy?.());
    }
  }

  private deliver(message: string): void {
    let parsed: { origin?: unknown; event?: TaskEvent };
    try {
      parsed = JSON.parse(message) as typeof parsed;
    } catch {
      return;
    }
    if (!parsed.event) return;
    for (const [id, listener] of this.links) if (id !== parsed.origin) listener(parsed.event);
  }

  private async ready(): Promise<RedisConnection> {
    await this.open();
    if (!this.client) throw new Error("The Redis task store is closed");
    return this.client;
  }

  private key(kind: "lease", id: string): string {
    return `${this.prefix}${kind}:${id}`;
  }

  /**
   * Runs a script by its digest (ARGV: the prefix, then `args`), loading it on first use (and
   * again after a Redis restart); `unanswered` is called when Redis does not answer in time.
   */
  private run(script: string, args: string[], unanswered?: () => void): Promise<unknown> {
    return this.attempt(async (client) => {
      const argv = [this.prefix, ...args];
      let sha = this.scripts.get(script);
      if (sha === undefined) {
        sha = String(await this.command(client, ["SCRIPT", "LOAD", script]));
        this.scripts.set(script, sha);
      }
      try {
        return await this.command(client, ["EVALSHA", sha, "0", ...argv]);
      } catch (error) {
        if (!(error instanceof Error && error.message.startsWith("NOSCRIPT"))) throw error;
        return this.command(client, ["EVAL", script, "0", ...argv]);
      }
    }, unanswered);
  }

  /**
   * Runs `work` on the connection. A failure (Redis's error, no answer in time, no connection)
   * is reported on stderr, once per outage, and becomes a generic -32603: Redis's text never
   * reaches a client.
   */
  private async attempt<T>(work: (client: RedisConnection) => Promise<T>, unanswered?: () => void): Promise<T> {
    let answer: T;
    try {
      answer = await work(await this.ready());
    } catch (error) {
      if (error instanceof CommandTimeout) unanswered?.();
      if (this.failures++ === 0) {
        const detail = error instanceof CommandTimeout ? error.message : `${error instanceof Error ? error.message : String(error)}`;
        console.error(`[mcpgen] Redis task store: ${detail} (the next failures are counted, not logged, until Redis answers again)`);
      }
      throw rpcError(
        ErrorCodes.InternalError,
        error instanceof CommandTimeout
          ? "Internal error: the task store did not answer in time; retry later"
          : "Internal error: the task store failed; retry later",
      );
    }
    if (this.failures > 0) {
      console.error(`[mcpgen] Redis task store: answering again (${this.failures} command${this.failures === 1 ? "" : "s"} failed meanwhile)`);
      this.failures = 0;
    }
    return answer;
  }

  /** One command, rejected with CommandTimeout when Redis does not answer within the timeout. */
  private command(client: RedisConnection, args: string[]): Promise<unknown> {
    return this.timed((signal) => client.sendCommand(args, { abortSignal: signal }));
  }

  /** What `send` sends, rejected with CommandTimeout after the timeout (its signal then aborts). */
  private timed(send: (signal: AbortSignal) => Promise<unknown>): Promise<unknown> {
    const abort = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const expired = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        abort.abort();
        reject(new CommandTimeout(`no answer from Redis within ${this.timeoutMs} ms (commandTimeoutMs)`));
      }, this.timeoutMs);
      (timer as { unref?: () => void }).unref?.();
    });
    return Promise.race([send(abort.signal), expired]).finally(() => clearTimeout(timer));
  }
}
