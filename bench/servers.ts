/**
 * `npm run bench:servers`: the generated server beside the fastest TypeScript MCP server (tmcp,
 * with its HTTP transport) and a hand-written `@modelcontextprotocol/server` v2 server (McpServer
 * with zod, `createMcpHandler` behind the SDK's `toNodeHandler`), each in a Node process of its own
 * on Streamable HTTP, under mcp-use's published workload: one `benchmark_echo` tool, 50 concurrent
 * clients each sending 1 `tools/list` per 9 `tools/call`, for 2025-11-25 clients (initialize, then
 * the session each server gives: the generated server and tmcp keep one, the SDK's
 * createMcpHandler serves 2025 requests statelessly) and for 2026-07-28 ones (stateless requests).
 *
 * Measured per server and era, rounds rotating the order, medians reported:
 * - requests per second, over `seconds` after a warm-up of 2 s;
 * - the server's CPU per request (its user and system time from /proc over the measured window);
 * - its resident memory after the load (VmRSS), and the heap it still uses after a full garbage
 *   collection (bench/gcProbe.mjs, loaded into every server): RSS also counts garbage not yet
 *   collected, which grows with how fast a server allocates;
 * - cold launch: spawn to the first answered `tools/list`.
 *
 * The load comes from this process, on the same two cores, so a figure is the pair's, not the
 * server's ceiling; CPU per request is the server's own. tmcp, its transport and adapter, the SDK's
 * Node adapter and the Fetch server tmcp's README uses come from the npm registry into
 * .cache/bench/servers once, pinned.
 *
 * Args: [rounds=3] [seconds=5] [clients=50] [servers=generated,tmcp,sdk]. Prints a Markdown table
 * (stdout) and one BENCH line of JSON (stderr); `npm run bench` runs it too.
 * BENCH_SERVER_NODE_ARGS: flags for the servers' Node (`--cpu-prof --cpu-prof-dir=DIR` profiles
 * each: they exit on SIGTERM, so the profile is written).
 */
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { Agent, request } from "node:http";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import { ROOT } from "../test/helpers/cli.js";
import { freePort } from "../test/helpers/ports.js";
import { compileInPlace, median } from "./spawned.js";

const rounds = Number(process.argv[2] ?? 3);
const seconds = Number(process.argv[3] ?? 5);
const clients = Number(process.argv[4] ?? 50);

/** The other servers' packages, pinned (tmcp 1.20 is the version of mcp-use's table). */
const PACKAGES = {
  tmcp: "1.20.0",
  "@tmcp/transport-http": "0.9.0",
  "@tmcp/adapter-zod": "0.1.7",
  "@remix-run/node-fetch-server": "0.14.2",
  "@modelcontextprotocol/node": "2.1.2",
  "@modelcontextprotocol/server": "2.4.0",
  zod: "4.6.7",
};

const MANIFEST = `server:
  name: echo-bench
  version: 1.0.0
tools:
  - name: benchmark_echo
    description: Echoes the message back.
    inputSchema:
      type: object
      properties:
        message: {type: string}
      required: [message]
`;

const GENERATED = `import { serveHttp } from "./generated/echo-bench/serve.js";
await serveHttp({ tools: { benchmark_echo: ({ message }) => message } }, { port: Number(process.env.PORT) });
console.error("ready");
process.on("SIGTERM", () => process.exit(0));
`;

const SDK = `import { createServer } from "node:http";
import { createMcpHandler, McpServer } from "@modelcontextprotocol/server";
import { toNodeHandler } from "@modelcontextprotocol/node";
import * as z from "zod/v4";

function factory() {
  const server = new McpServer({ name: "echo-sdk", version: "1.0.0" });
  server.registerTool("benchmark_echo", { description: "Echoes the message back.", inputSchema: z.object({ message: z.string() }) }, ({ message }) => ({
    content: [{ type: "text", text: message }],
  }));
  return server;
}
const handler = toNodeHandler(createMcpHandler(factory));
createServer((req, res) => void handler(req, res)).listen(Number(process.env.PORT), "127.0.0.1", () => console.error("ready"));
process.on("SIGTERM", () => process.exit(0));
`;

const TMCP = `import { createServer } from "node:http";
import { createRequestListener } from "@remix-run/node-fetch-server";
import { ZodJsonSchemaAdapter } from "@tmcp/adapter-zod";
import { HttpTransport } from "@tmcp/transport-http";
import { McpServer } from "tmcp";
import { z } from "zod";

const server = new McpServer(
  { name: "echo-tmcp", version: "1.0.0", description: "mcp-use's benchmark server." },
  { adapter: new ZodJsonSchemaAdapter(), capabilities: { tools: {} } },
);
server.tool({ name: "benchmark_echo", description: "Echoes the message back.", schema: z.object({ message: z.string() }) }, async ({ message }) => ({
  content: [{ type: "text", text: message }],
}));
const transport = new HttpTransport(server);
createServer(createRequestListener(async (request) => (await transport.respond(request)) ?? new Response(null, { status: 404 }))).listen(
  Number(process.env.PORT),
  "127.0.0.1",
  () => console.error("ready"),
);
process.on("SIGTERM", () => process.exit(0));
`;

type Kind = "generated" | "tmcp" | "sdk";
type Era = "2025-11-25" | "2026-07-28";
const KINDS = (process.argv[5] ?? "generated,tmcp,sdk").split(",") as Kind[];
const ERAS: Era[] = ["2025-11-25", "2026-07-28"];

/** Installs the pinned packages into .cache/bench/servers once. */
function installPackages(): string {
  const dir = path.join(ROOT, ".cache", "bench", "servers");
  const pkg = JSON.stringify({ private: true, type: "module", dependencies: PACKAGES }, null, 2);
  mkdirSync(dir, { recursive: true });
  const marker = path.join(dir, "node_modules", ".installed.json");
  if (!existsSync(marker) || readFileSync(marker, "utf8") !== pkg) {
    writeFileSync(path.join(dir, "package.json"), pkg);
    const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.toLowerCase().startsWith("npm_")));
    execFileSync("npm", ["install", "--no-audit", "--no-fund", "--no-package-lock"], { cwd: dir, env, stdio: ["ignore", "ignore", "inherit"] });
    writeFileSync(marker, pkg);
  }
  return dir;
}

/** The generated echo server, compiled as a user's build has it (esbuild, no bundling), in a folder of its own. */
async function generatedServer(): Promise<string> {
  const dir = mkdtempSync(path.join(tmpdir(), "mcpgen-bench-servers-"));
  process.on("exit", () => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(path.join(dir, "package.json"), JSON.stringify({ type: "module", private: true }));
  symlinkSync(path.join(ROOT, "node_modules"), path.join(dir, "node_modules"));
  mkdirSync(path.join(dir, "manifests"));
  writeFileSync(path.join(dir, "manifests", "echo-bench.yaml"), MANIFEST);
  writeFileSync(path.join(dir, "mcpgen.config.json"), JSON.stringify({ manifests: "manifests", out: "generated" }));
  execFileSync(process.execPath, [path.join(ROOT, "dist", "cli", "bin.js"), "generate", "--quiet"], { cwd: dir, stdio: "inherit" });
  writeFileSync(path.join(dir, "server.ts"), GENERATED);
  await compileInPlace(dir, ["generated/echo-bench/**/*.ts", "server.ts"]);
  return path.join(dir, "server.js");
}

const agent = new Agent({ keepAlive: true, maxSockets: clients });

/** One POST over the shared keep-alive agent: the status, the session header and the body. */
function post(url: string, headers: Record<string, string>, body: string): Promise<{ status: number; session?: string; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: "POST", agent, headers: { ...headers, "content-length": String(Buffer.byteLength(body)) } }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (text += chunk));
      res.on("end", () => {
        const session = res.headers["mcp-session-id"];
        resolve({ status: res.statusCode!, ...(typeof session === "string" ? { session } : {}), text });
      });
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end(body);
  });
}

const BASE = { "content-type": "application/json", accept: "application/json, text/event-stream" };
const ENVELOPE = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientInfo": { name: "bench", version: "1" },
  "io.modelcontextprotocol/clientCapabilities": {},
};

/** A client of one era: `send(n)` sends its n-th request (1 tools/list per 9 tools/call) and checks the answer. */
async function client(url: string, era: Era): Promise<(n: number) => Promise<void>> {
  let headers: Record<string, string> = { ...BASE };
  if (era === "2025-11-25") {
    const init = await post(
      url,
      BASE,
      JSON.stringify({
        jsonrpc: "2.0",
        id: 0,
        method: "initialize",
        params: { protocolVersion: era, capabilities: {}, clientInfo: { name: "bench", version: "1" } },
      }),
    );
    if (init.status !== 200) throw new Error(`initialize: ${init.status} ${init.text.slice(0, 200)}`);
    headers = { ...BASE, "mcp-protocol-version": era, ...(init.session ? { "mcp-session-id": init.session } : {}) };
    const ack = await post(url, headers, JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }));
    if (ack.status !== 202) throw new Error(`notifications/initialized: ${ack.status} ${ack.text.slice(0, 200)}`);
  }
  return async (n) => {
    const list = n % 10 === 0;
    const method = list ? "tools/list" : "tools/call";
    const params: Record<string, unknown> = list ? {} : { name: "benchmark_echo", arguments: { message: `hello ${n}` } };
    const modern = era === "2026-07-28";
    const answer = await post(
      url,
      modern ? { ...BASE, "mcp-protocol-version": era, "mcp-method": method, ...(list ? {} : { "mcp-name": "benchmark_echo" }) } : headers,
      JSON.stringify({ jsonrpc: "2.0", id: n + 1, method, params: modern ? { ...params, _meta: ENVELOPE } : params }),
    );
    if (answer.status !== 200 || !answer.text.includes(list ? "benchmark_echo" : `hello ${n}`))
      throw new Error(`${method}: ${answer.status} ${answer.text.slice(0, 300)}`);
  };
}

/** user + system CPU of a process, in ms (/proc/<pid>/stat, clock ticks of 10 ms). */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

function rssMiB(pid: number): number {
  const line = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))!;
  return Number(line[1]) / 1024;
}

interface Sample {
  rps: number;
  cpuMsPerRequest: number;
  rssMiB: number;
  heapMiB: number;
  startMs: number;
}

/** The heap `child` still uses after a full garbage collection (bench/gcProbe.mjs answers SIGUSR2 on stderr). */
async function heapAfterGc(child: ChildProcess, stderr: () => string): Promise<number> {
  const before = stderr().length;
  child.kill("SIGUSR2");
  for (let waited = 0; waited < 10_000; waited += 10) {
    const line = /mcpgen-bench-heap (\d+)/.exec(stderr().slice(before));
    if (line) return Number(line[1]) / 2 ** 20;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error("the server did not report its heap (bench/gcProbe.mjs)");
}

async function measure(command: [string, string[], string], era: Era): Promise<Sample> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}/mcp`;
  const t0 = performance.now();
  const child: ChildProcess = spawn(command[0], command[1], {
    cwd: command[2],
    env: { ...process.env, PORT: String(port) },
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  try {
    // Spawn to the first answered tools/list (2026-07-28: no handshake first).
    const probe = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: { _meta: ENVELOPE } });
    for (;;) {
      if (child.exitCode !== null) throw new Error(`the server exited: ${stderr}`);
      try {
        const r = await post(url, { ...BASE, "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/list" }, probe);
        if (r.status === 200) break;
        throw new Error(`tools/list: ${r.status} ${r.text.slice(0, 300)}`);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "ECONNREFUSED") throw error;
        await new Promise((r) => setTimeout(r, 2));
      }
    }
    const startMs = performance.now() - t0;
    const sends = await Promise.all(Array.from({ length: clients }, () => client(url, era)));
    const run = async (ms: number) => {
      let done = 0;
      const end = performance.now() + ms;
      await Promise.all(
        sends.map(async (send, c) => {
          for (let n = c; performance.now() < end; n++) {
            await send(n);
            done++;
          }
        }),
      );
      return done;
    };
    await run(2000);
    const cpu0 = cpuMs(child.pid!);
    const t1 = performance.now();
    const done = await run(seconds * 1000);
    const elapsed = performance.now() - t1;
    const cpu = cpuMs(child.pid!) - cpu0;
    const rss = rssMiB(child.pid!);
    return { rps: (done * 1000) / elapsed, cpuMsPerRequest: cpu / done, rssMiB: rss, heapMiB: await heapAfterGc(child, () => stderr), startMs };
  } finally {
    child.kill();
    await new Promise((r) => (child.exitCode !== null ? r(undefined) : child.once("exit", r)));
  }
}

async function main(): Promise<void> {
  const cache = installPackages();
  const generated = await generatedServer();
  writeFileSync(path.join(cache, "sdk.js"), SDK);
  writeFileSync(path.join(cache, "tmcp.js"), TMCP);
  const probe = ["--expose-gc", "--import", pathToFileURL(path.join(ROOT, "bench", "gcProbe.mjs")).href];
  const flags = [...probe, ...(process.env.BENCH_SERVER_NODE_ARGS ?? "").split(" ").filter(Boolean)];
  const commands: Record<Kind, [string, string[], string]> = {
    generated: [process.execPath, [...flags, generated], path.dirname(generated)],
    tmcp: [process.execPath, [...flags, "tmcp.js"], cache],
    sdk: [process.execPath, [...flags, "sdk.js"], cache],
  };
  const samples: Record<string, Sample[]> = {};
  for (let round = 0; round < rounds; round++) {
    const order = KINDS.slice(round % KINDS.length).concat(KINDS.slice(0, round % KINDS.length));
    for (const era of round % 2 ? [...ERAS].reverse() : ERAS)
      for (const kind of order) {
        const sample = await measure(commands[kind], era);
        (samples[`${kind} ${era}`] ??= []).push(sample);
        console.error(
          `round ${round + 1}: ${kind} ${era}: ${sample.rps.toFixed(0)} req/s, ${(sample.cpuMsPerRequest * 1000).toFixed(0)} µs CPU/request, ${sample.rssMiB.toFixed(0)} MiB (heap after GC ${sample.heapMiB.toFixed(1)}), start ${sample.startMs.toFixed(0)} ms`,
        );
      }
  }
  const of = (kind: Kind, era: Era, key: keyof Sample) => median(samples[`${kind} ${era}`]!.map((s) => s[key]));
  const ratio = (kind: Kind, era: Era, key: keyof Sample) => (KINDS.includes("tmcp") ? (of(kind, era, key) / of("tmcp", era, key)).toFixed(2) : "-");
  let table = `| era | server | req/s | CPU µs/request | RSS after load (MiB) | heap after GC (MiB) | cold launch (ms) | req/s / tmcp | CPU / tmcp |\n|---|---|---|---|---|---|---|---|---|\n`;
  for (const era of ERAS)
    for (const kind of KINDS)
      table += `| ${era} | ${kind} | ${of(kind, era, "rps").toFixed(0)} | ${(of(kind, era, "cpuMsPerRequest") * 1000).toFixed(0)} | ${of(kind, era, "rssMiB").toFixed(0)} | ${of(kind, era, "heapMiB").toFixed(1)} | ${of(kind, era, "startMs").toFixed(0)} | ${ratio(kind, era, "rps")} | ${ratio(kind, era, "cpuMsPerRequest")} |\n`;
  console.log(table);
  console.error(`BENCH ${JSON.stringify({ rounds, seconds, clients, samples })}`);
  agent.destroy();
}

await main();
