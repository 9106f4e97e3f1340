/**
 * `mcpgen trace` on one large reply: the recorder's peak RSS and wall time while a 50 MB answer
 * goes through it, over stdio (one line) and over Streamable HTTP (a JSON body, and one
 * server-sent event), for two shapes of payload: one long text, and 50 MB of small objects
 * (structuredContent rows). The recorder is the built CLI in its own process (bench/child.mjs,
 * which reports its peak RSS); the server is a small script in a process of its own; the client
 * (this process) reads the whole answer and checks its size. Each case runs `runs` times
 * (argument 1, default 3), interleaved with the same run of mcpgen before the recorder streamed
 * (commit 5574a71, built in .cache/bench/recorder-before, a git worktree): medians.
 * Run by `npm run bench -- --only recorder` (after a build), or alone: node --import tsx bench/recorder.ts.
 */
import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import * as http from "node:http";
import { createRequire } from "node:module";
import * as path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const WORK = path.join(ROOT, ".cache", "bench", "recorder");
const CHILD = path.join(ROOT, "bench", "child.mjs");
const BEFORE = path.join(ROOT, ".cache", "bench", "recorder-before");
const BEFORE_COMMIT = "5574a71";
const REPLY_BYTES = 50 * 1024 * 1024;
const RUNS = Number(process.argv[2] ?? 3);

type Build = "before" | "after";
/** The CLI each build runs (bench/child.mjs loads the one named). */
const CLI: Record<Build, Record<string, string>> = {
  before: { MCPGEN_BENCH_CLI: path.join(BEFORE, "dist", "cli", "main.js") },
  after: {},
};

type Shape = "text" | "rows";

/** The reply to request `id`: about REPLY_BYTES of JSON. */
function reply(shape: Shape, id: number): string {
  if (shape === "text")
    return JSON.stringify({ jsonrpc: "2.0", id, result: { content: [{ type: "text", text: "lorem ipsum dolor sit amet ".repeat(REPLY_BYTES / 27) }] } });
  const row = (i: number) => ({ id: i, name: `item ${i}`, price: i % 100, tags: ["a", "b"] });
  const one = JSON.stringify(row(100000)).length + 1;
  const rows = Array.from({ length: Math.floor(REPLY_BYTES / one) }, (_, i) => row(i));
  return JSON.stringify({ jsonrpc: "2.0", id, result: { content: [{ type: "text", text: "rows" }], structuredContent: { rows } } });
}

/** A stdio server that answers every request with the reply (written to a file once, streamed out). */
function stdioServer(replyFile: string): string {
  const file = path.join(WORK, "stdio-server.mjs");
  writeFileSync(
    file,
    `import { createReadStream } from "node:fs";
import { createInterface } from "node:readline";
for await (const line of createInterface({ input: process.stdin })) {
  if (!line.includes('"id"')) continue;
  await new Promise((resolve) => createReadStream(${JSON.stringify(replyFile)}).on("end", resolve).pipe(process.stdout, { end: false }));
  process.stdout.write("\\n");
}
`,
  );
  return file;
}

interface Run {
  seconds: number;
  maxRssMiB: number;
  traceBytes: number;
}

function childOutput(child: ReturnType<typeof spawn>): { stderr: () => string } {
  let stderr = "";
  child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  return { stderr: () => stderr };
}

function benchLine(stderr: string): { maxRssKb: number } {
  const line = stderr.split("\n").find((l) => l.startsWith("BENCH "));
  if (!line) throw new Error(`the recorder did not report:\n${stderr}`);
  return JSON.parse(line.slice(6)) as { maxRssKb: number };
}

async function stdioRun(build: Build, replyFile: string, expected: number): Promise<Run> {
  const out = path.join(WORK, "stdio.jsonl");
  const began = performance.now();
  const child = spawn(process.execPath, [CHILD, "trace", "-o", out, "--", process.execPath, stdioServer(replyFile)], {
    stdio: ["pipe", "pipe", "pipe"],
    env: { ...process.env, ...CLI[build] },
  });
  const err = childOutput(child);
  let received = 0;
  const answered = new Promise<void>((resolve) =>
    child.stdout!.on("data", (chunk: Buffer) => {
      received += chunk.length;
      if (chunk[chunk.length - 1] === 10) resolve();
    }),
  );
  child.stdin!.write(`${JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "big", arguments: {} } })}\n`);
  await answered;
  child.stdin!.end();
  await new Promise((resolve) => child.once("close", resolve));
  const seconds = (performance.now() - began) / 1000;
  if (received !== expected + 1) throw new Error(`stdio: the client got ${received} bytes, not ${expected + 1}`);
  return { seconds, maxRssMiB: benchLine(err.stderr()).maxRssKb / 1024, traceBytes: statSync(out).size };
}

/** An HTTP server in its own process answering every POST with the reply, as JSON or as one event. */
const HTTP_SERVER = `import { readFileSync } from "node:fs";
import { createServer } from "node:http";
const [file, sse] = process.argv.slice(2);
const body = readFileSync(file);
const server = createServer((req, res) => {
  req.resume();
  req.on("end", () => {
    if (sse === "sse") {
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.write("event: message\\ndata: ");
      res.write(body);
      res.end("\\n\\n");
    } else {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(body);
    }
  });
});
server.listen(0, "127.0.0.1", () => process.stdout.write(server.address().port + "\\n"));
`;

/** Resolves with the first match of `pattern` in what `read` returns, polling. */
function waitFor(read: () => string, pattern: RegExp): Promise<string> {
  return new Promise<string>((resolve) => {
    const look = () => {
      const m = pattern.exec(read());
      if (m) resolve(m[1]!);
      else setTimeout(look, 20);
    };
    look();
  });
}

async function httpRun(build: Build, replyFile: string, expected: number, sse: boolean): Promise<Run> {
  const serverFile = path.join(WORK, "http-server.mjs");
  writeFileSync(serverFile, HTTP_SERVER);
  const upstream = spawn(process.execPath, [serverFile, replyFile, sse ? "sse" : "json"], { stdio: ["ignore", "pipe", "inherit"] });
  let upstreamOut = "";
  upstream.stdout!.on("data", (chunk: Buffer) => (upstreamOut += chunk.toString()));
  const port = await waitFor(() => upstreamOut, /^(\d+)\n/);
  const out = path.join(WORK, "http.jsonl");
  const began = performance.now();
  const child = spawn(process.execPath, [CHILD, "trace", "--http", `http://127.0.0.1:${port}/mcp`, "--listen", "127.0.0.1:0", "-o", out], {
    stdio: ["ignore", "ignore", "pipe"],
    env: { ...process.env, ...CLI[build] },
  });
  const err = childOutput(child);
  const url = await waitFor(err.stderr, /serving (http:\/\/\S+)/);
  const received = await new Promise<number>((resolve, reject) => {
    const request = http.request(
      url,
      { method: "POST", headers: { "content-type": "application/json", accept: "application/json, text/event-stream" } },
      (res) => {
        let size = 0;
        res.on("data", (chunk: Buffer) => (size += chunk.length));
        res.on("end", () => resolve(size));
      },
    );
    request.on("error", reject);
    request.end(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "big", arguments: {} } }));
  });
  child.kill("SIGINT");
  await new Promise((resolve) => child.once("close", resolve));
  const seconds = (performance.now() - began) / 1000;
  upstream.kill();
  const framing = sse ? "event: message\ndata: ".length + 2 : 0;
  if (received !== expected + framing) throw new Error(`http: the client got ${received} bytes, not ${expected + framing}`);
  return { seconds, maxRssMiB: benchLine(err.stderr()).maxRssKb / 1024, traceBytes: statSync(out).size };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

// mcpgen before the recorder streamed, built once.
if (!existsSync(path.join(BEFORE, "dist", "cli", "main.js"))) {
  if (!existsSync(BEFORE)) execFileSync("git", ["worktree", "add", "--detach", BEFORE, BEFORE_COMMIT], { cwd: ROOT, stdio: "ignore" });
  const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
  execFileSync(process.execPath, [tsc, "-p", "tsconfig.build.json"], { cwd: BEFORE, stdio: "inherit" });
}

rmSync(WORK, { recursive: true, force: true });
mkdirSync(WORK, { recursive: true });
type Figures = { seconds: number; maxRssMiB: number; recorded: boolean };
const results: Record<string, Record<Build, Figures>> = {};
for (const shape of ["text", "rows"] as const) {
  const replyFile = path.join(WORK, `reply-${shape}.json`);
  writeFileSync(replyFile, reply(shape, 1));
  const size = statSync(replyFile).size;
  const cases: [string, (build: Build) => Promise<Run>][] = [
    ["stdio", (build) => stdioRun(build, replyFile, size)],
    ["http-json", (build) => httpRun(build, replyFile, size, false)],
    ["http-sse", (build) => httpRun(build, replyFile, size, true)],
  ];
  for (const [transport, run] of cases) {
    const runs: Record<Build, Run[]> = { before: [], after: [] };
    for (let i = 0; i < RUNS; i++)
      for (const build of i % 2 ? (["after", "before"] as const) : (["before", "after"] as const)) runs[build].push(await run(build));
    const figures = (list: Run[]): Figures => ({
      seconds: Math.round(median(list.map((r) => r.seconds)) * 100) / 100,
      maxRssMiB: Math.round(median(list.map((r) => r.maxRssMiB))),
      // A trace holding the reply is larger than the reply; one that noted it unrecorded is tiny.
      recorded: list.every((r) => r.traceBytes > size),
    });
    results[`${transport}/${shape}`] = { before: figures(runs.before), after: figures(runs.after) };
  }
}
const cell = (f: Figures) => `${String(f.seconds).padStart(6)} s ${String(f.maxRssMiB).padStart(5)} MiB${f.recorded ? "" : " (not recorded)"}`;
process.stdout.write(
  [
    `mcpgen trace: one reply of ${REPLY_BYTES / 1024 / 1024} MiB through the recorder, seconds and peak RSS (medians of ${RUNS})`,
    `  ${"case".padEnd(16)} ${"before (5574a71)".padStart(17)}  ${"now".padStart(17)}`,
    ...Object.entries(results).map(([name, r]) => `  ${name.padEnd(16)} ${cell(r.before)}  ${cell(r.after)}`),
    "",
  ].join("\n"),
);
process.stderr.write(`BENCH ${JSON.stringify(results)}\n`);
