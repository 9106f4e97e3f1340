/**
 * The connection a Redis task store uses: the commands it needs (node-redis has them), node-redis
 * loaded only when a store is made from a URL, and how connection trouble is reported.
 */

/** The commands the store sends, as node-redis (the `redis` package, 5 or later) has them. */
export interface RedisConnection {
  /** `abortSignal`: node-redis drops a command not sent yet when it aborts (a client without it ignores it). */
  sendCommand(args: string[], options?: { abortSignal?: AbortSignal }): Promise<unknown>;
  /** A second connection with the same options (the subscriber). */
  duplicate(): RedisConnection;
  connect(): Promise<unknown>;
  subscribe(channel: string, listener: (message: string, channel: string) => void): Promise<unknown>;
  close(): Promise<unknown>;
  /** Closes at once, dropping what is pending (used when close() gets no answer in time). */
  destroy?(): unknown;
  on(event: "error", listener: (error: Error) => void): unknown;
  /** node-redis emits it each time the connection is ready, after a reconnect too. */
  on(event: "ready", listener: () => void): unknown;
  readonly isOpen: boolean;
}

type CreateClient = (options: object) => RedisConnection;

/** node-redis's createClient, loaded when a store from a URL opens: servers without Redis never need the package. */
export async function loadRedis(why: string, who = "The task store"): Promise<CreateClient> {
  // A name in a variable: the compiler does not look for the package (it may well be absent).
  const name = "redis";
  let module: unknown;
  try {
    module = await import(name);
  } catch {
    throw new Error(`${who} needs the "redis" package (${why}): run npm install redis, or unset REDIS_URL to keep it in memory`);
  }
  const createClient = typeof module === "object" && module !== null ? (module as { createClient?: unknown }).createClient : undefined;
  if (typeof createClient !== "function") throw new Error(`${who} needs the "redis" package 5 or later (${why}): its createClient is missing`);
  return createClient as CreateClient;
}

/** Connection errors are reported once per connection (node-redis repeats them while it retries). */
export function reportOnce(): (error: Error) => void {
  let reported = false;
  return (error) => {
    if (reported) return;
    reported = true;
    console.error(`[mcpgen] Redis: ${error.message}`);
  };
}

/** A URL without its password, for messages. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = "***";
    return parsed.toString();
  } catch {
    return "(an invalid URL)";
  }
}
