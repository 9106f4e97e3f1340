/**
 * `npm run bench`: mcpgen's costs on synthetic manifests of 10, 100, 500, 1,000 and 5,000 tools.
 * Every figure is the median of several runs, each in a separate process; the runs that ratios
 * compare are interleaved; then the task stores (in memory against Redis, bench/tasks.ts). Prints a
 * table and writes bench/results.json. Options: --sizes 10,100 --runs 3 --task-runs 3, and
 * --only tasks (the task stores alone: their figures replace the `tasks` key of results.json),
 * --only auth (JWT verification against none, bench/auth.ts: the `auth` key), or --only widget
 * (the gift widget's HTML with sdk: mcpgen and sdk: ext-apps, bench/widget.ts: the `widget` key), or
 * --only check (`mcpgen check` on a 100 MB trace, seconds and peak RSS, bench/check.ts: the `check` key), or
 * --only lists (tools/list and tools/call per second with lists switched, filtered, or neither, against
 * mcpgen before lists could change, bench/lists.ts: the `lists` key; --runs sets its rounds), or
 * --only recorder (`mcpgen trace` on one 50 MB reply, peak RSS and seconds, against mcpgen before the
 * recorder streamed, bench/recorder.ts: the `recorder` key; --runs sets its runs).
 */
import { execFileSync, spawnSync } from "node:child_process";
import { cpus, totalmem } from "node:os";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { manifests } from "./synthetic.js";
import { measureTasks, tasksTable } from "./tasksReport.js";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const WORK = path.join(ROOT, ".cache", "bench");
const TSC = createRequire(import.meta.url).resolve("typescript/bin/tsc");
const arg = (name: string) => {
  const i = process.argv.indexOf(name);
  return i === -1 ? undefined : process.argv[i + 1];
};
const SIZES = (arg("--sizes") ?? "10,100,500,1000,5000").split(",").map(Number);
const RUNS = Number(arg("--runs") ?? 5);
const TASK_RUNS = Number(arg("--task-runs") ?? 3);
const ONLY = arg("--only");
if (ONLY !== undefined && !["tasks", "auth", "widget", "check", "lists", "recorder"].includes(ONLY))
  throw new Error(`--only takes "tasks", "auth", "widget", "check", "lists" or "recorder", not ${JSON.stringify(ONLY)}`);
const RESULTS = path.join(ROOT, "bench", "results.json");
const machine = {
  cpus: cpus().length,
  cpu: cpus()[0]?.model ?? "unknown",
  memGiB: Math.round(totalmem() / 2 ** 30),
  node: process.version,
  date: new Date().toISOString().slice(0, 10),
};

if (ONLY === "tasks") {
  // The task stores alone: the other figures of results.json stay as the last full run left them.
  const tasks = { machine, ...measureTasks(ROOT, TASK_RUNS) };
  const previous = existsSync(RESULTS) ? (JSON.parse(readFileSync(RESULTS, "utf8")) as Record<string, unknown>) : {};
  writeFileSync(RESULTS, `${JSON.stringify({ ...previous, tasks }, null, 2)}\n`);
  process.stdout.write(
    `${tasksTable(tasks)}machine: ${machine.cpus} x ${machine.cpu}, ${machine.memGiB} GiB, Node ${machine.node}; results in bench/results.json (key tasks)\n`,
  );
  process.exit(0);
}

/** bench/auth.ts in its own process (dist/ built): its BENCH figures, and the table it printed. */
function measureAuth(): { auth: Record<string, unknown>; table: string } {
  const r = spawnSync(process.execPath, ["--import", "tsx", path.join(ROOT, "bench", "auth.ts")], { cwd: ROOT, encoding: "utf8", maxBuffer: 16 * 1024 * 1024 });
  const line = r.stderr.split("\n").find((l) => l.startsWith("BENCH "));
  if (r.status !== 0 || !line) throw new Error(`bench/auth.ts failed (${r.status}):\n${r.stderr}`);
  return { auth: { machine, ...(JSON.parse(line.slice(6)) as Record<string, number>) }, table: r.stdout };
}

/** bench/widget.ts in its own process: the gift widget's sizes both ways, and the table it printed. */
function measureWidget(): { widget: Record<string, unknown>; table: string } {
  const r = spawnSync(process.execPath, ["--import", "tsx", path.join(ROOT, "bench", "widget.ts")], {
    cwd: ROOT,
    encoding: "utf8",
    maxBuffer: 16 * 1024 * 1024,
  });
  const line = r.stderr.split("\n").find((l) => l.startsWith("BENCH "));
  if (r.status !== 0 || !line) throw new Error(`bench/widget.ts failed (${r.status}):\n${r.stderr}`);
  return { widget: { uri: "ui://widget/gifts.html", ...(JSON.parse(line.slice(6)) as Record<string, number>) }, table: r.stdout };
}

if (ONLY === "widget") {
  // The widget's sizes alone: the other figures of results.json stay as they were.
  const { widget, table } = measureWidget();
  const previous = existsSync(RESULTS) ? (JSON.parse(readFileSync(RESULTS, "utf8")) as Record<string, unknown>) : {};
  writeFileSync(RESULTS, `${JSON.stringify({ ...previous, widget }, null, 2)}\n`);
  process.stdout.write(`${table}results in bench/results.json (key widget)\n`);
  process.exit(0);
}

/**
 * One built-CLI benchmark alone (bench/<name>.ts, with `args`), after a build: its BENCH figures
 * replace only the `name` key of results.json; the other figures stay as they were.
 */
function runAlone(name: "check" | "recorder" | "lists", args: string[] = []): never {
  execFileSync(process.execPath, [TSC, "-p", "tsconfig.build.json"], { cwd: ROOT, stdio: "inherit" });
  const r = spawnSync(process.execPath, ["--import", "tsx", path.join(ROOT, "bench", `${name}.ts`), ...args], {
    cwd: ROOT,
    encoding: "utf8",
    maxBuffer: 16 * 1024 * 1024,
  });
  const line = r.stderr.split("\n").find((l) => l.startsWith("BENCH "));
  if (r.status !== 0 || !line) throw new Error(`bench/${name}.ts failed (${r.status}):\n${r.stderr}`);
  const figures = { machine, ...(JSON.parse(line.slice(6)) as Record<string, unknown>) };
  const previous = existsSync(RESULTS) ? (JSON.parse(readFileSync(RESULTS, "utf8")) as Record<string, unknown>) : {};
  writeFileSync(RESULTS, `${JSON.stringify({ ...previous, [name]: figures }, null, 2)}\n`);
  process.stdout.write(
    `${r.stdout}machine: ${machine.cpus} x ${machine.cpu}, ${machine.memGiB} GiB, Node ${machine.node}; results in bench/results.json (key ${name})\n`,
  );
  process.exit(0);
}

// check on a 100 MB trace, the recorder on one large reply, lists that change: each alone.
if (ONLY === "check") runAlone("check");
if (ONLY === "recorder") runAlone("recorder", [String(arg("--runs") ?? 3)]);
if (ONLY === "lists") runAlone("lists", [String(arg("--runs") ?? 5)]);

if (ONLY === "auth") {
  // JWT verification against none alone: the other figures of results.json stay as they were.
  execFileSync(process.execPath, [TSC, "-p", "tsconfig.build.json"], { cwd: ROOT, stdio: "inherit" });
  const { auth, table } = measureAuth();
  const previous = existsSync(RESULTS) ? (JSON.parse(readFileSync(RESULTS, "utf8")) as Record<string, unknown>) : {};
  writeFileSync(RESULTS, `${JSON.stringify({ ...previous, auth }, null, 2)}\n`);
  process.stdout.write(
    `${table}machine: ${machine.cpus} x ${machine.cpu}, ${machine.memGiB} GiB, Node ${machine.node}; results in bench/results.json (key auth)\n`,
  );
  process.exit(0);
}

const median = (values: number[]) => {
  const s = [...values].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

/** Runs a command in its own process; wall time in ms and the BENCH line it printed. */
function timed(args: string[], cwd: string, node = process.execPath): { ms: number; bench: Record<string, number> } {
  const start = performance.now();
  const r = spawnSync(node, args, { cwd, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
  const ms = performance.now() - start;
  if (r.status !== 0) throw new Error(`${args.join(" ")} failed (${r.status}):\n${r.stderr}`);
  const line = r.stderr.split("\n").find((l) => l.startsWith("BENCH "));
  return { ms, bench: line ? JSON.parse(line.slice(6)) : {} };
}

/** bench/servers.ts in a process of its own: its samples (BENCH, stderr) and its table (stdout). */
function measureServers(): { servers: Record<string, unknown>; table: string } {
  const r = spawnSync(process.execPath, ["--import", "tsx", path.join(ROOT, "bench", "servers.ts"), "3", "5", "50"], {
    cwd: ROOT,
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
  if (r.status !== 0) throw new Error(`bench/servers.ts failed (${r.status}):\n${r.stderr}`);
  const line = r.stderr.split("\n").find((l) => l.startsWith("BENCH "));
  return { servers: line ? (JSON.parse(line.slice(6)) as Record<string, unknown>) : {}, table: r.stdout };
}

function files(dir: string): Map<string, number> {
  const out = new Map<string, number>();
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const abs = path.join(d, name);
      const info = statSync(abs);
      if (info.isDirectory()) walk(abs);
      else out.set(abs, info.mtimeMs);
    }
  };
  walk(dir);
  return out;
}

/** A project folder with the synthetic manifests and a node_modules that resolves mcpgen's deps. */
function project(size: number): string {
  const dir = path.join(WORK, `tools-${size}`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(path.join(dir, "manifests"), { recursive: true });
  mkdirSync(path.join(dir, "node_modules"));
  for (const entry of readdirSync(path.join(ROOT, "node_modules"))) {
    if (!entry.startsWith(".")) symlinkSync(path.join(ROOT, "node_modules", entry), path.join(dir, "node_modules", entry), "dir");
  }
  writeFileSync(path.join(dir, "package.json"), '{ "type": "module" }\n');
  for (const [name, text] of manifests(size, 100)) writeFileSync(path.join(dir, "manifests", name), text);
  const tsconfig = (include: string[]) =>
    JSON.stringify({
      compilerOptions: { target: "ES2022", module: "NodeNext", moduleResolution: "NodeNext", strict: true, skipLibCheck: true, noEmit: true, types: ["node"] },
      include,
    });
  writeFileSync(path.join(dir, "tsconfig.json"), tsconfig(["generated"]));
  writeFileSync(path.join(dir, "tsconfig.types.json"), tsconfig(["generated/*/types.ts"]));
  return dir;
}

const CHILD = path.join(ROOT, "bench", "child.mjs");
const results: Record<string, unknown>[] = [];
execFileSync(process.execPath, [TSC, "-p", "tsconfig.build.json"], { cwd: ROOT, stdio: "inherit" });

for (const size of SIZES) {
  const dir = project(size);
  const runs = size >= 5000 ? Math.max(3, Math.min(RUNS, 3)) : RUNS;
  const bytes = readdirSync(path.join(dir, "manifests")).reduce((n, f) => n + statSync(path.join(dir, "manifests", f)).size, 0);
  const cache = path.join(dir, "node_modules", ".cache");
  const out = path.join(dir, "generated");
  process.stdout.write(
    `\n${size} tools (${(bytes / 1e6).toFixed(2)} MB of YAML in ${readdirSync(path.join(dir, "manifests")).length} files), ${runs} runs each\n`,
  );

  // 1, 2, 3 and 6 interleaved, one round after another, so that every ratio compares runs made
  // minutes apart at most on this shared, noisy machine: cold (no cache, no output), then the
  // naive baseline on the same tools (json-schema-to-typescript per schema, Prettier on; not at
  // 5,000 tools, where one run takes about 45 s), then a no-op (nothing changed: no file may be
  // written), then one tool changed (a description).
  const cold: number[] = [];
  const rss: number[] = [];
  const naiveTimes: number[] = [];
  const noop: number[] = [];
  const oneChanged: number[] = [];
  const bare: number[] = [];
  let touched = 0;
  const first = path.join(dir, "manifests", "server-0.yaml");
  const original = readFileSync(first, "utf8");
  for (let i = 0; i < runs; i++) {
    rmSync(cache, { recursive: true, force: true });
    rmSync(out, { recursive: true, force: true });
    const r = timed([CHILD, "generate", "--quiet"], dir);
    cold.push(r.ms);
    rss.push(r.bench.maxRssKb!);
    if (size <= 1000 && (size < 1000 || i < 3)) {
      const fixtures = readdirSync(out)
        .filter((s) => !s.startsWith("_"))
        .map((s) => path.join(out, s, "fixtures", "tools-list.json"));
      naiveTimes.push(timed(["--import", "tsx", path.join(ROOT, "bench", "naive.ts"), ...fixtures], ROOT).ms);
    }
    const before = files(out);
    noop.push(timed([CHILD, "generate", "--quiet"], dir).ms);
    const after = files(out);
    touched += [...after].filter(([f, m]) => before.get(f) !== m).length + [...before.keys()].filter((f) => !after.has(f)).length;
    writeFileSync(first, original.replace("Tool number 0.", `Tool number 0 (edit ${i}).`));
    oneChanged.push(timed([CHILD, "generate", "--quiet"], dir).ms);
    writeFileSync(first, original);
    bare.push(timed(["-e", "0"], ROOT).ms);
  }
  timed([CHILD, "generate", "--quiet"], dir);
  const naive = naiveTimes.length ? median(naiveTimes) : undefined;
  // 3b. one tool changed in a process that stays up (`generate --watch`): the pipeline warm.
  const warm = timed([path.join(ROOT, "bench", "warm.mjs")], dir).bench.warmOneChangedMs!;
  // 4. type-check cost: everything generated, against the types files alone.
  const tscRuns = size >= 5000 ? 1 : Math.min(runs, 3);
  const tscAll: number[] = [];
  const tscTypes: number[] = [];
  for (let i = 0; i < tscRuns; i++) {
    tscAll.push(timed([TSC, "-p", "tsconfig.json"], dir).ms);
    tscTypes.push(timed([TSC, "-p", "tsconfig.types.json"], dir).ms);
  }
  // 5. tools/call throughput (100 tools and up: one server folder): the generated server against
  // hand-written v2 McpServers (zod schemas; the JSON Schemas through fromJsonSchema), both eras.
  let throughput: Record<string, number> | undefined;
  if (size >= 100) {
    const folder = path.join(out, "bench-0");
    // Compiled by tsc, as a user's build has it.
    const emitted = path.join(dir, "compiled");
    writeFileSync(
      path.join(dir, "tsconfig.emit.json"),
      JSON.stringify({
        compilerOptions: {
          target: "ES2022",
          module: "NodeNext",
          moduleResolution: "NodeNext",
          strict: true,
          skipLibCheck: true,
          types: ["node"],
          rootDir: "generated",
          outDir: "compiled",
        },
        include: ["generated/bench-0"],
      }),
    );
    execFileSync(process.execPath, [TSC, "-p", "tsconfig.emit.json"], { cwd: dir, stdio: "inherit" });
    throughput = timed(["--import", "tsx", path.join(ROOT, "bench", "throughput.ts"), folder, "3000", "5", path.join(emitted, "bench-0")], ROOT).bench;
  }
  const row = {
    tools: size,
    nodeStartMs: median(bare),
    yamlBytes: bytes,
    coldMs: median(cold),
    coldMinMs: Math.min(...cold),
    coldMsPerTool: median(cold) / size,
    peakRssMiB: median(rss) / 1024,
    noopMs: median(noop),
    noopFilesWritten: touched,
    oneChangedMs: median(oneChanged),
    watchOneChangedMs: warm,
    tscAllMs: median(tscAll),
    tscTypesMs: median(tscTypes),
    ...(throughput
      ? {
          callsPerSecGenerated2025: throughput["generated.legacy"],
          callsPerSecZod2025: throughput["zod.legacy"],
          callsPerSecFromJsonSchema2025: throughput["fromJsonSchema.legacy"],
          callsPerSecGenerated2026: throughput["generated.modern"],
          callsPerSecZod2026: throughput["zod.modern"],
          callsPerSecFromJsonSchema2026: throughput["fromJsonSchema.modern"],
        }
      : {}),
    ...(naive !== undefined ? { naiveMs: naive, naiveOverCold: median(naiveTimes.map((n, i) => n / cold[i]!)) } : {}),
  };
  results.push(row);
  for (const [k, v] of Object.entries(row)) process.stdout.write(`  ${k.padEnd(22)} ${typeof v === "number" ? (Number.isInteger(v) ? v : v.toFixed(2)) : v}\n`);
}

// Which SDK layer serves a manifest's tools/list as written (the conformance manifest, on the wire).
const verbatim = timed(["--import", "tsx", path.join(ROOT, "bench", "verbatim.ts")], ROOT).bench;
// The gift widget's HTML (the bundled example), built with each sdk (bench/widget.ts).
const { widget, table: widgetTable } = measureWidget();
// What schema patterns in linear time cost, against the backtracking RegExp of before (both eras).
const patterns = timed(["--import", "tsx", path.join(ROOT, "bench", "patterns.ts"), "3000", String(Math.max(RUNS, 5))], ROOT).bench;
// mcp-use's workload: the generated server beside tmcp and a hand-written SDK v2 server (bench/servers.ts).
const { servers, table: serversTable } = measureServers();
// Task creation and tasks/get, the in-memory store against Redis (each run in its own process).
const tasks = { machine, ...measureTasks(ROOT, TASK_RUNS) };
// tools/call with JWT verification against without (bench/auth.ts).
const { auth, table: authTable } = measureAuth();

writeFileSync(RESULTS, `${JSON.stringify({ machine, runs: RUNS, results, verbatim, patterns, widget, tasks, auth, servers }, null, 2)}\n`);

const pct = (part: number, whole: number) => `${Math.round((100 * part) / whole)}%`;
const r = (n: number) => (n >= 100 ? n.toFixed(0) : n >= 10 ? n.toFixed(1) : n.toFixed(2));
process.stdout.write(
  `\n| tools | cold ms | ms/tool | peak MiB | no-op ms (files written) | no-op / cold | 1 changed ms | 1 changed / cold | 1 changed in --watch | tsc all / types ms | layers / types | calls/s 2025: gen / zod / fromJsonSchema | calls/s 2026: gen / zod / fromJsonSchema | naive ms | naive / cold (median of rounds) |\n|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n`,
);
for (const row of results as Record<string, number>[]) {
  process.stdout.write(
    `| ${row.tools} | ${r(row.coldMs!)} | ${r(row.coldMsPerTool!)} | ${r(row.peakRssMiB!)} | ${r(row.noopMs!)} (${row.noopFilesWritten}) | ${pct(row.noopMs!, row.coldMs!)} | ${r(row.oneChangedMs!)} | ${pct(row.oneChangedMs!, row.coldMs!)} | ${r(row.watchOneChangedMs!)} ms (${pct(row.watchOneChangedMs!, row.coldMs!)}) | ${r(row.tscAllMs!)} / ${r(row.tscTypesMs!)} | ${r((row.tscAllMs! - row.tscTypesMs!) / row.tscTypesMs!)}x | ${row.callsPerSecGenerated2025 ? `${r(row.callsPerSecGenerated2025)} / ${r(row.callsPerSecZod2025!)} / ${r(row.callsPerSecFromJsonSchema2025!)}` : "-"} | ${row.callsPerSecGenerated2026 ? `${r(row.callsPerSecGenerated2026)} / ${r(row.callsPerSecZod2026!)} / ${r(row.callsPerSecFromJsonSchema2026!)}` : "-"} | ${row.naiveMs ? r(row.naiveMs) : "-"} | ${row.naiveOverCold ? `${r(row.naiveOverCold)}x` : "-"} |\n`,
  );
}
process.stdout.write(
  `\nNode's own start (node -e 0), median per size: ${results.map((row) => r(row.nodeStartMs as number)).join(", ")} ms; every figure above includes it.\n`,
);
process.stdout.write(
  `tools/list byte for byte (conformance manifest, ${verbatim.tools} tools): generated ${verbatim["generated.verbatim"]}, McpServer.registerTool + fromJsonSchema ${verbatim["fromJsonSchema.verbatim"]} (differ: ${(verbatim["fromJsonSchema.differs"] as unknown as string[]).join(", ")}, ...)\n`,
);
process.stdout.write(
  `schema patterns, tools/call per second, now / every pattern on backtracking RegExp (before): 2025 era ${r(patterns["linear.legacy"]!)} / ${r(patterns["backtracking.legacy"]!)} (${pct(patterns["linear.legacy"]!, patterns["backtracking.legacy"]!)}), 2026-07-28 ${r(patterns["linear.modern"]!)} / ${r(patterns["backtracking.modern"]!)} (${pct(patterns["linear.modern"]!, patterns["backtracking.modern"]!)})\n`,
);
process.stdout.write(widgetTable);
process.stdout.write(tasksTable(tasks));
process.stdout.write(authTable);
process.stdout.write(`\nmcp-use's workload (bench/servers.ts), medians of 3 rounds:\n${serversTable}`);
process.stdout.write(`machine: ${machine.cpus} x ${machine.cpu}, ${machine.memGiB} GiB, Node ${machine.node}; results in bench/results.json\n`);
