/**
 * Lists that change (issue 31): tools/list and tools/call per second on a synthetic server of 100
 * tools, in both eras, over the SDK v2's serveStdio entry on an in-memory pair (bench/measure.ts:
 * lists asked by a bare JSON-RPC peer, calls by the SDK v2 Client), in rounds whose order rotates,
 * for the same tools served four ways:
 *
 * - `before`: generated and served by mcpgen as it was before lists could change (commit
 *   5661683, checked out in .cache/bench/lists-before as a git worktree);
 * - `off`: today's server, nothing switched, no filter (the path every server without switches takes);
 * - `disabled`: one tool switched off with `lists.disable` (lists are then built per request);
 * - `visible`: a per-request `visible` filter that hides one tool.
 *
 * The calls go to the tools every server lists. Run by `npm run bench -- --only lists` (dist/
 * built); prints a table, and one BENCH line with the medians.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { callsPerSecond, listsPerSecond, rotatingRounds, type Factory } from "./measure.js";
import { manifests } from "./synthetic.js";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const WORK = path.join(ROOT, ".cache", "bench", "lists");
const BEFORE = path.join(ROOT, ".cache", "bench", "lists-before");
const BEFORE_COMMIT = "5661683";
const ROUNDS = Number(process.argv[2] ?? 5);
const LISTS = 20_000;
const CALLS = 3000;

function linkModules(dir: string): void {
  mkdirSync(path.join(dir, "node_modules"), { recursive: true });
  for (const entry of readdirSync(path.join(ROOT, "node_modules"))) {
    const to = path.join(dir, "node_modules", entry);
    if (!entry.startsWith(".") && !existsSync(to)) symlinkSync(path.join(ROOT, "node_modules", entry), to, "dir");
  }
}

rmSync(WORK, { recursive: true, force: true });
mkdirSync(path.join(WORK, "manifests"), { recursive: true });
linkModules(WORK);
writeFileSync(path.join(WORK, "package.json"), '{ "type": "module" }\n');
const [file, text] = manifests(100, 100)[0]!;
writeFileSync(path.join(WORK, "manifests", file), text);
if (!existsSync(BEFORE)) execFileSync("git", ["worktree", "add", "--detach", BEFORE, BEFORE_COMMIT], { cwd: ROOT, stdio: "ignore" });
linkModules(BEFORE);
execFileSync(process.execPath, [path.join(ROOT, "dist/cli/bin.js"), "generate", "--quiet", "--out", "now"], { cwd: WORK, stdio: "inherit" });
execFileSync(process.execPath, ["--import", "tsx", path.join(BEFORE, "src/cli/bin.ts"), "generate", "--quiet", "--out", "before"], {
  cwd: WORK,
  stdio: "inherit",
});

const server = readdirSync(path.join(WORK, "now")).find((f) => !f.startsWith("_"))!;
const now = await import(pathToFileURL(path.join(WORK, "now", server, "index.ts")).href);
const before = await import(pathToFileURL(path.join(WORK, "before", server, "index.ts")).href);
const names: string[] = (
  await import(pathToFileURL(path.join(WORK, "now", server, "fixtures/tools-list.json")).href, { with: { type: "json" } })
).default.tools.map((t: { name: string }) => t.name);
const hidden = names[0]!;
const output = { items: [{ id: "a", name: "A", amount: 1, status: "open", owner: { name: "Ann", email: null } }], total: 1, next: null };
const args = { id: "x1", limit: 10, status: "open", note: null, filter: { from: "2026-01-01", tags: ["a", "b"] }, address: { city: "Paris", country: "FR" } };
const handlers = { tools: Object.fromEntries(names.map((n) => [n, () => output])) };
const disabled = now.createServerFactory(handlers);
disabled.lists.disable("tools", hidden);
const factories: Record<string, Factory> = {
  before: before.createServerFactory(handlers),
  off: now.createServerFactory(handlers),
  disabled,
  visible: now.createServerFactory(handlers, { visible: (entry: { name: string }) => entry.name !== hidden }),
};
const called = names.slice(1);
const lists = await rotatingRounds(factories, ROUNDS, (factory, era) => listsPerSecond(factory, era, LISTS));
const calls = await rotatingRounds(factories, ROUNDS, (factory, era) => callsPerSecond(factory, era, called, args, CALLS));

const rows = Object.keys(factories).flatMap((name) =>
  (["legacy", "modern"] as const).map((era) => {
    const key = `${name}.${era}`;
    const ratio = (table: Record<string, number>) => (table[key]! / table[`before.${era}`]!).toFixed(2);
    return `| ${name} | ${era === "legacy" ? "2025-11-25" : "2026-07-28"} | ${Math.round(lists[key]!)} | ${ratio(lists)} | ${Math.round(calls[key]!)} | ${ratio(calls)} |`;
  }),
);
process.stdout.write(
  [
    `Lists that change: ${names.length} tools, median of ${ROUNDS} rotating rounds (${LISTS} tools/list and ${CALLS} tools/call each)`,
    "| server | era | tools/list per s | vs before | tools/call per s | vs before |",
    "|---|---|---|---|---|---|",
    ...rows,
    "",
  ].join("\n"),
);
process.stderr.write(`BENCH ${JSON.stringify({ tools: names.length, rounds: ROUNDS, lists, calls })}\n`);
