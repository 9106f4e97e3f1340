/**
 * A real redis-server for a test: started on a free loopback port without persistence, ready
 * once it answers PING, stopped (and waited for) on stop(). Tests never mock Redis. The program is
 * the one the global setup found (REDIS_SERVER, else redis-server on PATH, installed when missing
 * and permitted); when there is none, startRedis() rejects at once with the setup's message.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { connect, createServer, type AddressInfo, type Socket } from "node:net";
import { started } from "./process.js";
import { programPath } from "./programs.js";
import { until } from "./wait.js";
import { freePort } from "./ports.js";

export interface RedisServer {
  /** redis://127.0.0.1:<port> */
  url: string;
  port: number;
  process: ChildProcess;
  stop(): Promise<void>;
}

/**
 * Starts redis-server on a free port; rejects at once when it is missing or cannot be run, and when
 * it does not answer PING within 10 s. `program` replaces the one the setup found.
 */
export async function startRedis(options: { program?: string } = {}): Promise<RedisServer> {
  const program = options.program ?? programPath("redis-server", process.env.REDIS_SERVER || "redis-server");
  const port = await freePort();
  const child = spawn(program, ["--port", String(port), "--save", "", "--appendonly", "no", "--bind", "127.0.0.1"], { stdio: ["ignore", "pipe", "pipe"] });
  try {
    await started(child);
  } catch (error) {
    // Never started: nothing to stop, no `exit` to wait for.
    throw new Error(`redis-server: cannot run ${program} (${(error as Error).message}): apt-get install -y redis-server, or set REDIS_SERVER to its path`, {
      cause: error,
    });
  }
  let output = "";
  child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
    await exited;
  };
  try {
    // A redis-server that exited will never answer: the wait ends there too.
    await until(async () => child.exitCode !== null || (await pings(port)), `redis-server on port ${port} to answer PING`, { timeout: 10_000, every: 50 });
    if (child.exitCode !== null) throw new Error(`redis-server exited with code ${child.exitCode}`);
  } catch (error) {
    await stop();
    throw new Error(`redis-server did not start on port ${port} (${(error as Error).message}): ${output}`, { cause: error });
  }
  return { url: `redis://127.0.0.1:${port}`, port, process: child, stop };
}

/** Whether a Redis on this port answers PING with PONG. */
function pings(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    let answer = "";
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1000, () => done(false));
    socket.on("error", () => done(false));
    socket.on("connect", () => socket.write("PING\r\n"));
    socket.on("data", (chunk) => {
      answer += chunk.toString();
      if (answer.includes("\r\n")) done(answer.startsWith("+PONG"));
    });
  });
}

/** A TCP path to a Redis that a test can cut (every connection dropped, new ones refused) and mend. */
export interface RedisPath {
  /** redis://127.0.0.1:<the path's port> */
  url: string;
  cut(): void;
  mend(): void;
  close(): Promise<void>;
}

/** A loopback TCP proxy to `redis`: what a replica sees when its network to Redis fails, while the others' does not. */
export async function redisPath(redis: RedisServer): Promise<RedisPath> {
  const open = new Set<Socket>();
  let cut = false;
  const server = createServer((client) => {
    if (cut) return void client.destroy();
    const upstream = connect(redis.port, "127.0.0.1");
    for (const [a, b] of [
      [client, upstream],
      [upstream, client],
    ] as const) {
      open.add(a);
      a.on("error", () => b.destroy());
      a.on("close", () => (open.delete(a), b.destroy()));
      a.pipe(b);
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `redis://127.0.0.1:${port}`,
    cut: () => {
      cut = true;
      for (const socket of open) socket.destroy();
    },
    mend: () => void (cut = false),
    close: async () => {
      cut = true;
      for (const socket of open) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
