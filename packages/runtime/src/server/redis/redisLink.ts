/**
 * A server's connection to Redis, shared by everything it keeps there: the task store, the
 * switched lists, the event bus of the 2026-07-28 listen streams. Two connections (commands, and
 * a subscriber for pub/sub channels), opened once; every command answers within the timeout or
 * fails; an outage is reported on stderr once, with its end.
 */
import { ErrorCodes, rpcError } from "../../shared/errors.js";
import { loadRedis, redactUrl, reportOnce, type RedisConnection } from "./redisClient.js";

export interface RedisLinkOptions {
  /** Redis to connect to, e.g. redis://127.0.0.1:6379 (the `redis` package must be installed). */
  url?: string;
  /** Or a node-redis client of your own, connected or not (the link closes only the connections it opens). */
  client?: RedisConnection;
  /** How long one command may wait for Redis (ms). */
  commandTimeoutMs: number;
  /** Why Redis is used (for the message when the package is missing): "REDIS_URL is set". */
  why: string;
  /** Who needs it, for the message when Redis cannot be reached: "The task store". */
  who: string;
}

/** A command that got no answer in time. */
class CommandTimeout extends Error {}

export class RedisLink {
  private client: RedisConnection | undefined;
  private subscriber: RedisConnection | undefined;
  /** Whether this link opened `client` (then it closes it). */
  private ownsClient = false;
  private opening: Promise<void> | undefined;
  private closed = false;
  /** Commands failed since the last one that succeeded (an outage is reported once, with its end). */
  private failures = 0;
  private readonly scripts = new Map<string, string>();
  /** The listeners of each channel the subscriber is subscribed to. */
  private readonly channels = new Map<string, Set<(message: string) => void>>();
  /** Called when Redis is back after an outage (see onRecover). */
  private readonly recovered = new Set<() => void>();

  constructor(private readonly options: RedisLinkOptions) {
    if ((options.url === undefined) === (options.client === undefined)) throw new TypeError("a Redis link needs a url or a client (one of them)");
    const timeoutMs = options.commandTimeoutMs;
    if (!Number.isInteger(timeoutMs) || timeoutMs <= 0)
      throw new RangeError(`commandTimeoutMs must be a positive whole number of ms, not ${String(timeoutMs)}`);
  }

  get timeoutMs(): number {
    return this.options.commandTimeoutMs;
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /** Connects once (the first command calls it otherwise). */
  open(): Promise<void> {
    if (this.closed) return Promise.reject(new Error("The Redis connection is closed"));
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
        const createClient = await loadRedis(this.options.why, this.options.who);
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
      // Ready again after a reconnect (node-redis subscribes to the channels again first): the
      // messages of the time it was gone are lost.
      subscriber.on("ready", () => this.recover());
      this.subscriber = subscriber;
      for (const channel of this.channels.keys()) await this.subscribeChannel(subscriber, channel);
      connected = true;
    } catch (error) {
      await this.disconnect();
      if (error instanceof Error && error.message.includes('needs the "redis" package')) throw error;
      throw new Error(`${this.options.who} cannot reach ${target}: ${error instanceof Error ? error.message : String(error)} (${this.options.why})`, {
        cause: error,
      });
    }
  }

  /**
   * Calls `listener` with each message of `channel` (any replica's, this one's included), from the
   * moment the answered promise settles; answers the unsubscribe.
   */
  async listen(channel: string, listener: (message: string) => void): Promise<() => void> {
    await this.open();
    let listeners = this.channels.get(channel);
    if (listeners) listeners.add(listener);
    else {
      this.channels.set(channel, (listeners = new Set([listener])));
      try {
        if (this.subscriber) await this.subscribeChannel(this.subscriber, channel);
      } catch (error) {
        this.channels.delete(channel);
        throw error;
      }
    }
    const mine = listeners;
    return () => void mine.delete(listener);
  }

  private async subscribeChannel(subscriber: RedisConnection, channel: string): Promise<void> {
    await this.timed(() =>
      subscriber.subscribe(channel, (message) => {
        for (const listener of this.channels.get(channel) ?? []) listener(message);
      }),
    );
  }

  /**
   * Runs `work` on the command connection. A failure (Redis's error, no answer in time, no
   * connection) is reported on stderr, once per outage, and becomes a generic -32603 naming
   * `what` ("the task store"): Redis's text never reaches a client.
   */
  async attempt<T>(what: string, work: (client: RedisConnection) => Promise<T>, unanswered?: () => void): Promise<T> {
    let answer: T;
    try {
      answer = await work(await this.ready());
    } catch (error) {
      if (error instanceof CommandTimeout) unanswered?.();
      if (this.failures++ === 0) {
        const detail = error instanceof CommandTimeout ? error.message : `${error instanceof Error ? error.message : String(error)}`;
        console.error(`[mcpgen] Redis: ${detail} (the next failures are counted, not logged, until Redis answers again)`);
      }
      throw rpcError(
        ErrorCodes.InternalError,
        error instanceof CommandTimeout ? `Internal error: ${what} did not answer in time; retry later` : `Internal error: ${what} failed; retry later`,
      );
    }
    if (this.failures > 0) {
      console.error(`[mcpgen] Redis: answering again (${this.failures} command${this.failures === 1 ? "" : "s"} failed meanwhile)`);
      this.failures = 0;
      this.recover();
    }
    return answer;
  }

  /**
   * Calls `listener` each time Redis is back after an outage: commands answer again after failing,
   * or the subscriber connection is ready again after it was lost. What was written or published
   * meanwhile may be missing here; the listener reads the shared state again. Answers the stop.
   */
  onRecover(listener: () => void): () => void {
    this.recovered.add(listener);
    return () => void this.recovered.delete(listener);
  }

  private recover(): void {
    if (this.closed) return;
    for (const listener of [...this.recovered]) listener();
  }

  /**
   * Runs a Lua script by its digest (no keys; ARGV `args`), loading it on first use (and again
   * after a Redis restart), inside `attempt`.
   */
  run(what: string, script: string, args: readonly string[], unanswered?: () => void): Promise<unknown> {
    return this.attempt(
      what,
      async (client) => {
        let sha = this.scripts.get(script);
        if (sha === undefined) {
          sha = String(await this.command(client, ["SCRIPT", "LOAD", script]));
          this.scripts.set(script, sha);
        }
        try {
          return await this.command(client, ["EVALSHA", sha, "0", ...args]);
        } catch (error) {
          if (!(error instanceof Error && error.message.startsWith("NOSCRIPT"))) throw error;
          return this.command(client, ["EVAL", script, "0", ...args]);
        }
      },
      unanswered,
    );
  }

  /** One command, rejected with CommandTimeout when Redis does not answer within the timeout. */
  command(client: RedisConnection, args: string[]): Promise<unknown> {
    return this.timed((signal) => client.sendCommand(args, { abortSignal: signal }));
  }

  /** Closes the connections this link opened. */
  async close(): Promise<void> {
    this.closed = true;
    this.channels.clear();
    this.recovered.clear();
    await this.disconnect();
  }

  private async ready(): Promise<RedisConnection> {
    await this.open();
    if (!this.client) throw new Error("The Redis connection is closed");
    return this.client;
  }

  /** Closes the connections this link opened (a failed open leaves none behind). */
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
