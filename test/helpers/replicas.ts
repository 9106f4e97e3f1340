/**
 * Several replicas of a generated server, each a process of its own on a loopback port (Node, or
 * Deno or Bun serving the generated createFetchHandler: replicas on three runtimes share one Redis), and
 * a load balancer in front written here (node:http, loopback only). What a deployment configures
 * (MCP_REQUEST_STATE_SECRET, REDIS_URL...) reaches the replicas as environment variables, so the
 * same harness serves the requestState tests and the task-store tests (a task created on one
 * replica, read on another, a replica killed mid-task).
 *
 * Routing, per request: 2026-07-28 traffic (no Mcp-Session-Id) goes round-robin over the running
 * replicas. 2025-era traffic: `initialize` round-robin too; then, with `legacyRouting: "sticky"`,
 * every request carrying an Mcp-Session-Id goes to the replica that minted it (a table learned
 * from the initialize responses, as HAProxy's stick tables do), with `"round-robin"` anywhere.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createServer, request, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { started } from "./process.js";
import { installBun, installDeno } from "./runtimes.js";

/** The server each replica runs by default: the conformance server (multi round-trip and task tools). */
const REPLICA_SERVER = fileURLToPath(new URL("../servers/replica-http.ts", import.meta.url));
const ROOT = fileURLToPath(new URL("../..", import.meta.url));

export type LegacyRouting = "sticky" | "round-robin";

export interface Replica {
  readonly index: number;
  /** The replica's own endpoint (http://127.0.0.1:PORT/mcp); its port stays across restarts. */
  readonly url: string;
  readonly running: boolean;
  /** Everything the process wrote to stderr (for a failing test's message). */
  readonly stderr: string;
  /** Starts it again on the same port; `env` replaces the environment it was started with. */
  start(env?: Record<string, string>): Promise<void>;
  /** SIGTERM, and waits for the process to end (SIGKILL after 5 seconds). */
  stop(): Promise<void>;
  /** SIGKILL: the replica dies mid-work, as on a crash or an OOM kill. Resolves once it is gone. */
  kill(): Promise<void>;
}

/** One request as the proxy routed it. */
export interface Routed {
  replica: number;
  method: string;
  /** The Mcp-Session-Id the request carried. */
  sessionId?: string;
  /** The HTTP status the replica answered (502 when it could not be reached). */
  status: number;
}

export interface ReplicaProxy {
  /** The endpoint clients use: http://127.0.0.1:PORT/mcp. */
  readonly url: string;
  /** How 2025-era requests with an Mcp-Session-Id are routed; can be changed between requests. */
  legacyRouting: LegacyRouting;
  /** Requests forwarded to each replica, by index. */
  readonly hits: number[];
  /** Every forwarded request, in order. */
  readonly log: Routed[];
  /** Which replica minted each 2025-era session (learned from the responses' Mcp-Session-Id). */
  readonly sessions: ReadonlyMap<string, number>;
  /** Clears hits and log, and starts the round-robin again at replica 0 (the session table stays). */
  resetHits(): void;
}

export interface ReplicaSet {
  replicas: Replica[];
  proxy: ReplicaProxy;
  /** Stops the proxy and every replica still running. */
  close(): Promise<void>;
}

export interface ReplicaSetOptions {
  /** How many replicas (default 3). */
  count?: number;
  /** Environment of every replica, or of replica i. Nothing else of this process's MCP_* or REDIS_* variables is passed. */
  env?: Record<string, string> | ((index: number) => Record<string, string>);
  legacyRouting?: LegacyRouting;
  /** The server script each replica runs with tsx (default REPLICA_SERVER); it prints "listening on URL". */
  server?: string;
  /**
   * The runtime of replica i (default Node, the script through tsx). Deno and Bun (from npm,
   * test/helpers/runtimes.ts) run the script as it is; its serveReplica serves the generated
   * createFetchHandler there.
   */
  runtime?: (index: number) => ReplicaRuntime;
}

export type ReplicaRuntime = "node" | "deno" | "bun";

/** The command that runs `script` on `runtime`. */
function runtimeCommand(runtime: ReplicaRuntime, script: string): [string, string[]] {
  if (runtime === "deno") return [installDeno(), ["run", "--allow-net", "--allow-env", "--allow-read", "--allow-sys", "--sloppy-imports", script]];
  if (runtime === "bun") return [installBun(), ["run", script]];
  return [process.execPath, ["--import", "tsx", script]];
}

export async function startReplicas(options: ReplicaSetOptions = {}): Promise<ReplicaSet> {
  const count = options.count ?? 3;
  const envOf = (i: number) => (typeof options.env === "function" ? options.env(i) : (options.env ?? {}));
  const runtimeOf = options.runtime ?? (() => "node");
  const replicas = await Promise.all(
    Array.from({ length: count }, (_, i) => startReplica(i, runtimeCommand(runtimeOf(i), options.server ?? REPLICA_SERVER), envOf(i))),
  );
  try {
    const proxy = await startProxy(replicas, options.legacyRouting ?? "sticky");
    return {
      replicas,
      proxy,
      close: async () => {
        await proxy.close();
        await Promise.all(replicas.map((r) => r.stop()));
      },
    };
  } catch (error) {
    await Promise.all(replicas.map((r) => r.stop()));
    throw error;
  }
}

/** This process's environment without what configures a replica (the test says that explicitly). */
function baseEnvironment(): Record<string, string> {
  const keep = Object.entries(process.env).filter(([k, v]) => v !== undefined && !/^(MCP_|REDIS_)/.test(k) && !k.toLowerCase().startsWith("npm_"));
  return Object.fromEntries(keep) as Record<string, string>;
}

async function startReplica(index: number, [program, args]: [string, string[]], initialEnv: Record<string, string>): Promise<Replica> {
  let proc: ChildProcess | undefined;
  let exited: Promise<void> = Promise.resolve();
  let port = 0;
  let env = initialEnv;
  let stderr = "";

  async function start(newEnv?: Record<string, string>): Promise<void> {
    if (proc) throw new Error(`replica ${index} is already running`);
    if (newEnv) env = newEnv;
    const child = spawn(program, args, {
      cwd: ROOT,
      env: { ...baseEnvironment(), ...env, PORT: String(port) },
      stdio: ["ignore", "pipe", "pipe"],
    });
    const ended = new Promise<void>((resolve) => child.once("exit", () => resolve()));
    // A process that never started (EAGAIN, ENOMEM...) never exits either: nothing to wait for.
    await started(child).catch((error: Error) => {
      throw new Error(`replica ${index} could not start: ${error.message}`, { cause: error });
    });
    proc = child;
    exited = ended;
    void exited.then(() => {
      if (proc === child) proc = undefined;
    });
    child.stderr!.on("data", (d) => (stderr += d));
    const url = await new Promise<string>((resolve, reject) => {
      let out = "";
      const timer = setTimeout(() => reject(new Error(`replica ${index} did not start in 60 s; stderr:\n${stderr}`)), 60_000);
      child.stdout!.on("data", (d) => {
        out += d;
        const match = /listening on (\S+)/.exec(out);
        if (match) {
          clearTimeout(timer);
          resolve(match[1]!);
        }
      });
      void exited.then(() => {
        clearTimeout(timer);
        reject(new Error(`replica ${index} exited before it listened; stderr:\n${stderr}`));
      });
    });
    port = Number(new URL(url).port);
  }

  async function end(signal: NodeJS.Signals): Promise<void> {
    const child = proc;
    if (!child) return;
    child.kill(signal);
    const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
    await exited;
    clearTimeout(timer);
  }

  await start();
  return {
    index,
    get url() {
      return `http://127.0.0.1:${port}/mcp`;
    },
    get running() {
      return proc !== undefined;
    },
    get stderr() {
      return stderr;
    },
    start,
    stop: () => end("SIGTERM"),
    kill: () => end("SIGKILL"),
  };
}

async function startProxy(replicas: Replica[], legacyRouting: LegacyRouting): Promise<ReplicaProxy & { close(): Promise<void> }> {
  const hits = replicas.map(() => 0);
  const log: Routed[] = [];
  const sessions = new Map<string, number>();
  let next = 0;

  /** The next running replica, round-robin (the first one when none runs: the request then gets 502). */
  function roundRobin(): number {
    for (let tried = 0; tried < replicas.length; tried++) {
      const i = next++ % replicas.length;
      if (replicas[i]!.running) return i;
    }
    return 0;
  }

  const state = {
    legacyRouting,
    hits,
    log,
    sessions,
    url: "",
    resetHits() {
      hits.fill(0);
      log.length = 0;
      next = 0;
    },
  };

  function forward(req: IncomingMessage, res: ServerResponse): void {
    const sessionId = typeof req.headers["mcp-session-id"] === "string" ? req.headers["mcp-session-id"] : undefined;
    const sticky = sessionId !== undefined && state.legacyRouting === "sticky" ? sessions.get(sessionId) : undefined;
    const index = sticky ?? roundRobin();
    const target = new URL(replicas[index]!.url);
    hits[index]!++;
    const routed: Routed = { replica: index, method: req.method ?? "GET", ...(sessionId === undefined ? {} : { sessionId }), status: 0 };
    log.push(routed);
    // The replica checks Host against its own address (DNS-rebinding protection), as it would behind any proxy that sets Host.
    const upstream = request(
      { host: target.hostname, port: target.port, path: req.url, method: req.method, headers: { ...req.headers, host: target.host } },
      (answer) => {
        routed.status = answer.statusCode ?? 0;
        const minted = answer.headers["mcp-session-id"];
        if (typeof minted === "string" && !sessions.has(minted)) sessions.set(minted, index);
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on("error", () => {
      routed.status = 502;
      if (!res.headersSent) res.writeHead(502, { "content-type": "text/plain" });
      res.end(`replica ${index} unreachable`);
    });
    res.on("close", () => upstream.destroy());
    req.pipe(upstream);
  }

  const server = createServer(forward);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
  return Object.assign(state, {
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
}
