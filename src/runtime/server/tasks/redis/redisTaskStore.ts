/**
 * Tasks in Redis, for several replicas of one server: every replica reads and changes the same
 * records, and tells the others about changes on a pub/sub channel.
 *
 * - One hash per task (`<prefix>task:<id>`), expiring with the task's ttl (PEXPIRE), and a sorted
 *   set per owner of 2025-era tasks (`<prefix>owner:<owner>`, scored by expiry, trimmed when
 *   read) for tasks/list.
 * - At most maxTasks tasks are kept (`<prefix>all`, and `<prefix>finished` for the ended ones,
 *   both scored by expiry): a new task evicts the finished one that expires first; when every
 *   kept task is running, it is refused with -32005.
 * - Transitions are Lua scripts: the status is checked and the record written in one step, so a
 *   terminal status is never overwritten and a record is never half-written.
 * - A running task has a lease key (`<prefix>lease:<id>`) that the process running it renews
 *   every leaseMs/3; a reader that finds a running task without one fails it (tasks.ts).
 * - Events (cancel, update, status) go on the channel `<prefix>events`, one subscriber
 *   connection per store.
 *
 * The runtime does not import the `redis` package: a store made from a URL loads it when it opens;
 * a store given a client uses it as it is (any client with these few commands fits).
 */
import { ErrorCodes, rpcError } from "../../../shared/errors.js";
import { CHANGING, CREATE, GET, LIST, parseRecord, recordFields, stored, TRANSITION } from "./redisRecords.js";
import { isTerminal, type StoredTask, type TaskChange, type TaskEvent, type TaskEventLink, type TaskRecord, type TaskStore } from "../taskStore.js";

/** The commands the store sends, as node-redis (the `redis` package, 5 or later) has them. */
export interface RedisConnection {
  sendCommand(args: string[]): Promise<unknown>;
  /** A second connection with the same options (the subscriber). */
  duplicate(): RedisConnection;
  connect(): Promise<unknown>;
  subscribe(channel: string, listener: (message: string, channel: string) => void): Promise<unknown>;
  close(): Promise<unknown>;
  on(event: "error", listener: (error: Error) => void): unknown;
  readonly isOpen: boolean;
}

export interface RedisTaskStoreOptions {
  /** Redis to connect to, e.g. redis://127.0.0.1:6379 (the `redis` package must be installed). */
  url?: string;
  /** Or a node-redis client of your own, connected or not (the store closes only the connections it opens). */
  client?: RedisConnection;
  /** Put before every key and the events channel, so several servers share one Redis (default `mcpgen:`). */
  prefix?: string;
  /** How long a running task outlives its process (ms, default 10,000): its lease, renewed every third of it. */
  leaseMs?: number;
  /** Tasks kept at once by all the replicas together (default 10,000): a new one evicts the finished task that expires first, and is refused with -32005 when all run. */
  maxTasks?: number;
}

/** The store the environment names: Redis when REDIS_URL is set (see docs/guides/tasks.md), else undefined. */
export function taskStoreFromEnvironment(env: Record<string, string | undefined>, maxTasks?: number): TaskStore | undefined {
  const url = env["REDIS_URL"];
  if (url === undefined || url === "") return undefined;
  const lease = env["MCP_TASKS_LEASE_MS"];
  const leaseMs = lease === undefined || lease === "" ? undefined : Number(lease);
  return redisTaskStore(
    {
      url,
      ...(env["MCP_TASKS_REDIS_PREFIX"] ? { prefix: env["MCP_TASKS_REDIS_PREFIX"] } : {}),
      ...(leaseMs === undefined ? {} : { leaseMs }),
      ...(maxTasks === undefined ? {} : { maxTasks }),
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
  const maxTasks = options.maxTasks ?? 10_000;
  if (!Number.isInteger(maxTasks) || maxTasks <= 0) throw new RangeError(`maxTasks must be a positive whole number, not ${String(options.maxTasks)}`);
  return new RedisTaskStore(options, options.prefix ?? "mcpgen:", leaseMs, maxTasks, why);
}

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

  constructor(
    private readonly options: RedisTaskStoreOptions,
    private readonly prefix: string,
    readonly leaseMs: number,
    private readonly maxTasks: number,
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
      await this.client.sendCommand(["PING"]);
      const subscriber = this.client.duplicate();
      subscriber.on("error", reportOnce());
      await subscriber.connect();
      this.subscriber = subscriber;
      await subscriber.subscribe(this.channel, (message) => this.deliver(message));
      connected = true;
    } catch (error) {
      await this.disconnect();
      if (error instanceof Error && error.message.startsWith("The task store needs")) throw error;
      throw new Error(`The task store cannot reach ${target}: ${error instanceof Error ? error.message : String(error)} (${this.why})`, { cause: error });
    }
  }

  async create(task: TaskRecord): Promise<void> {
    const fields = recordFields(task);
    const created = await this.run(
      CREATE,
      [
        this.key("task", task.id),
        this.key("lease", task.id),
        // Only tasks/list reads the owner index: a 2025-era task with an owner.
        task.owner !== undefined && task.era === "legacy" ? this.key("owner", task.owner) : "",
        `${this.prefix}all`,
        `${this.prefix}finished`,
      ],
      [
        String(task.ttlMs),
        isTerminal(task.status) ? "0" : String(this.leaseMs),
        String(task.expiresAt),
        task.id,
        String(this.maxTasks),
        String(Date.now()),
        this.prefix,
        ...fields,
      ],
    );
    if (Number(created) !== 1) {
      throw rpcError(
        ErrorCodes.LimitExceeded,
        `Too many tasks: the ${this.maxTasks} tasks kept are all running (the server's maxTasks); retry when one has ended`,
        { limit: this.maxTasks },
      );
    }
  }

  async get(id: string): Promise<StoredTask | undefined> {
    const found = await this.run(GET, [this.key("task", id), this.key("lease", id)], []);
    return found ? stored(id, found) : undefined;
  }

  async list(owner: string): Promise<StoredTask[]> {
    const found = await this.run(LIST, [this.key("owner", owner)], [String(Date.now()), this.prefix]);
    if (!Array.isArray(found)) return [];
    return found.flatMap((entry) => {
      const task = stored(undefined, entry);
      return task && task.task.owner === owner ? [task] : [];
    });
  }

  async transition(id: string, change: TaskChange, at: string, ifOrphaned = false): Promise<TaskRecord | undefined> {
    const set: string[] = ["status", change.status, "lastUpdatedAt", at];
    const drop: string[] = [];
    for (const field of CHANGING) {
      const value = change[field];
      if (value === undefined) drop.push(field);
      else set.push(field, typeof value === "string" ? value : JSON.stringify(value));
    }
    const written = await this.run(
      TRANSITION,
      [this.key("task", id), this.key("lease", id), `${this.prefix}finished`],
      [ifOrphaned ? "1" : "0", String(set.length / 2), ...set, ...drop],
    );
    return written ? parseRecord(id, written) : undefined;
  }

  async renewLeases(ids: readonly string[]): Promise<void> {
    if (this.closed) return;
    const client = await this.ready();
    // Issued together: node-redis pipelines commands sent in the same tick.
    await Promise.all(ids.map((id) => client.sendCommand(["PEXPIRE", this.key("lease", id), String(this.leaseMs)])));
  }

  link(listener: (event: TaskEvent) => void): TaskEventLink {
    const id = crypto.randomUUID();
    this.links.set(id, listener);
    return {
      publish: async (event) => {
        // Closed while a change was in flight: nobody is left to tell.
        if (this.closed) return;
        await (await this.ready()).sendCommand(["PUBLISH", this.channel, JSON.stringify({ origin: id, event })]);
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
      if (connection?.isOpen) await connection.close().catch(() => {});
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

  private key(kind: "task" | "lease" | "owner", id: string): string {
    return `${this.prefix}${kind}:${id}`;
  }

  /** Runs a script by its digest, loading it on first use (and again after a Redis restart). */
  private async run(script: string, keys: string[], args: string[]): Promise<unknown> {
    const client = await this.ready();
    let sha = this.scripts.get(script);
    if (sha === undefined) {
      sha = String(await client.sendCommand(["SCRIPT", "LOAD", script]));
      this.scripts.set(script, sha);
    }
    try {
      return await client.sendCommand(["EVALSHA", sha, String(keys.length), ...keys, ...args]);
    } catch (error) {
      if (!(error instanceof Error && error.message.startsWith("NOSCRIPT"))) throw error;
      return client.sendCommand(["EVAL", script, String(keys.length), ...keys, ...args]);
    }
  }
}

type CreateClient = (options: object) => RedisConnection;

/** node-redis's createClient, loaded when a store from a URL opens: servers without Redis never need the package. */
async function loadRedis(why: string): Promise<CreateClient> {
  // A name in a variable: the compiler does not look for the package (it may well be absent).
  const name = "redis";
  let module: unknown;
  try {
    module = await import(name);
  } catch {
    throw new Error(`The task store needs the "redis" package (${why}): run npm install redis, or unset REDIS_URL to keep tasks in memory`);
  }
  const createClient = typeof module === "object" && module !== null ? (module as { createClient?: unknown }).createClient : undefined;
  if (typeof createClient !== "function") throw new Error(`The task store needs the "redis" package 5 or later (${why}): its createClient is missing`);
  return createClient as CreateClient;
}

/** Connection errors are reported once per connection (node-redis repeats them while it retries). */
function reportOnce(): (error: Error) => void {
  let reported = false;
  return (error) => {
    if (reported) return;
    reported = true;
    console.error(`[mcpgen] Redis task store: ${error.message}`);
  };
}

/** A URL without its password, for messages. */
function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = "***";
    return parsed.toString();
  } catch {
    return "(an invalid URL)";
  }
}
