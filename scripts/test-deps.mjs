// The two programs the tests need besides Node and the npm packages: Debian's `chromium` (the widget
// tests drive it headless through playwright-core, which downloads no browser) and `redis-server`
// (the task-store tests start their own on a free loopback port). Finds each (CHROMIUM_PATH,
// REDIS_SERVER, else on PATH), installs the missing ones with apt-get where that is permitted, and
// prints one line per piece still missing: what, why, the suites that need it, how to get it.
//
// Run by .ci/run before `npm test`, and by the e2e project's global setup (test/deps-setup.ts), so
// that on a fresh Debian machine as root `npm test` alone brings what it needs, as CI does.
//
// Installing is permitted with MCPGEN_TEST_INSTALL=1 (through `sudo -n` when not root), never with
// MCPGEN_TEST_INSTALL=0, and by default when running as root with apt-get on PATH. A program named
// by CHROMIUM_PATH or REDIS_SERVER is never installed over: a wrong path is the variable's to fix.
//
//   node scripts/test-deps.mjs           exit 0 when both run, 1 otherwise (the lines on stderr)
//   node scripts/test-deps.mjs --json    also the result on stdout, for the global setup:
//                                        {"chromium": {"path": P} | {"missing": LINE}, "redis-server": ...}
import { spawnSync } from "node:child_process";
import { accessSync, constants, readdirSync, readFileSync, statSync } from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));

/** Each piece: its variable, the command and Debian package, and the test helper that runs it. */
const PIECES = [
  { name: "chromium", variable: "CHROMIUM_PATH", command: "chromium", aptPackage: "chromium", helper: "helpers/browser.js", what: "widget" },
  { name: "redis-server", variable: "REDIS_SERVER", command: "redis-server", aptPackage: "redis-server", helper: "helpers/redis.js", what: "Redis" },
];

/** The test files that import a helper (so the message names the suites that will fail, and never drifts). */
function suitesUsing(helper) {
  const files = [];
  for (const top of ["test", "examples"]) {
    for (const file of readdirSync(path.join(root, top), { recursive: true, encoding: "utf8" })) {
      if (!file.endsWith(".test.ts") || file.includes("node_modules")) continue;
      const text = readFileSync(path.join(root, top, file), "utf8");
      if (text.includes(`/${helper}"`)) files.push(path.posix.join(top, file.split(path.sep).join("/")));
    }
  }
  return files.sort();
}

function isExecutableFile(file) {
  try {
    accessSync(file, constants.X_OK);
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

/** The first executable `command` on PATH, as a shell would find it. */
function onPath(command) {
  for (const dir of (process.env.PATH ?? "").split(path.delimiter)) {
    if (dir && isExecutableFile(path.join(dir, command))) return path.join(dir, command);
  }
  return undefined;
}

/** `file --version` answers: the program is there and runs (a broken install fails here, not in a test). */
function runs(file) {
  const run = spawnSync(file, ["--version"], { encoding: "utf8", timeout: 30_000 });
  if (run.error) return `${file} --version failed: ${run.error.message}`;
  if (run.status !== 0) return `${file} --version exited ${run.status ?? run.signal}: ${lastLine(run.stderr || run.stdout)}`;
  return true;
}

function lastLine(text) {
  return (
    String(text ?? "")
      .trim()
      .split("\n")
      .pop() ?? ""
  );
}

/** Where a piece is, or why not: {path} or {why} (a fragment of the message). */
function locate(piece) {
  const named = process.env[piece.variable];
  if (named) {
    if (!isExecutableFile(named)) return { why: `${piece.variable}=${named} is not an executable file`, named: true };
    const ok = runs(named);
    return ok === true ? { path: named } : { why: ok, named: true };
  }
  const found = onPath(piece.command);
  if (!found) return { why: `no ${piece.command} on PATH and ${piece.variable} is unset` };
  const ok = runs(found);
  return ok === true ? { path: found } : { why: ok };
}

/** Whether this run may install with apt-get, and how (the command prefix), or why not. */
function installer() {
  const setting = process.env.MCPGEN_TEST_INSTALL;
  if (setting === "0") return { why: "MCPGEN_TEST_INSTALL=0" };
  const aptGet = onPath("apt-get");
  if (!aptGet) return { why: "no apt-get on PATH" };
  if (process.getuid?.() === 0) return { prefix: [] };
  if (setting !== "1") return { why: "not root (MCPGEN_TEST_INSTALL=1 installs with sudo)" };
  if (!onPath("sudo")) return { why: "not root and no sudo" };
  return { prefix: ["sudo", "-n"] };
}

/** apt-get update, then one install of every missing package; undefined when it worked, else why not. */
function aptInstall(prefix, packages) {
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  const apt = (args) => {
    const [command, ...rest] = [...prefix, "apt-get", ...args];
    return spawnSync(command, rest, { env, encoding: "utf8", stdio: ["ignore", "ignore", "pipe"] });
  };
  const started = Date.now();
  console.error(`test-deps: installing ${packages.join(" and ")} with apt-get (a few minutes on a fresh machine; MCPGEN_TEST_INSTALL=0 turns this off)`);
  const update = apt(["update", "-qq"]);
  if (update.status !== 0) return `apt-get update failed: ${lastLine(update.stderr) || update.error?.message}`;
  const install = apt(["install", "-y", "-qq", ...packages]);
  if (install.status !== 0) return `apt-get install -y ${packages.join(" ")} failed: ${lastLine(install.stderr) || install.error?.message}`;
  console.error(`test-deps: installed ${packages.join(" and ")} in ${Math.round((Date.now() - started) / 1000)} s`);
  return undefined;
}

/**
 * Debian's package may start a system instance on port 6379 (where the init system allows it): the
 * tests start their own on free ports and do not use it, so it does not stay. Only called right
 * after this script installed the package: an instance that was there before is not touched.
 */
function stopSystemRedis(prefix) {
  const cli = onPath("redis-cli");
  if (!cli || spawnSync(cli, ["-p", "6379", "ping"], { encoding: "utf8", timeout: 5_000 }).stdout?.trim() !== "PONG") return;
  const [command, ...rest] = [...prefix, "service", "redis-server", "stop"];
  if (spawnSync(command, rest, { stdio: "ignore" }).status !== 0) spawnSync(cli, ["-p", "6379", "shutdown", "nosave"], { stdio: "ignore", timeout: 5_000 });
}

/** The one line for a missing piece: what, why, which suites fail without it, how to get it. */
function missingLine(piece, why, suites) {
  const how = onPath("apt-get")
    ? `apt-get install -y ${piece.aptPackage} as root (npm test run as root does it), or set ${piece.variable} to its path`
    : `install ${piece.name} on PATH, or set ${piece.variable} to its path`;
  const files = suites.map((f) => path.posix.basename(f, ".test.ts")).join(", ");
  return `${piece.name} missing: ${why}. ${suites.length} ${piece.what} test file${suites.length === 1 ? " fails" : "s fail"} without it (${files}). Fix: ${how}.`;
}

/** Finds, installs where permitted, finds again; returns each piece's path or its one-line message. */
function testDeps() {
  const found = new Map(PIECES.map((piece) => [piece, locate(piece)]));
  const installable = PIECES.filter((piece) => !found.get(piece).path && !found.get(piece).named);
  if (installable.length > 0) {
    const how = installer();
    const failed =
      how.why ??
      aptInstall(
        how.prefix,
        installable.map((p) => p.aptPackage),
      );
    for (const piece of installable) {
      if (failed === undefined) found.set(piece, locate(piece));
      const now = found.get(piece);
      if (!now.path) now.why = `${now.why}; not installed (${failed ?? "apt-get installed it, yet it is still not found"})`;
    }
    if (failed === undefined && installable.some((p) => p.name === "redis-server")) stopSystemRedis(how.prefix);
  }
  const result = {};
  for (const piece of PIECES) {
    const where = found.get(piece);
    result[piece.name] = where.path ? { path: where.path } : { missing: missingLine(piece, where.why, suitesUsing(piece.helper)) };
  }
  return result;
}

const result = testDeps();
const missing = Object.values(result).filter((r) => r.missing);
for (const r of missing) console.error(r.missing);
if (process.argv.includes("--json")) console.log(JSON.stringify(result));
process.exitCode = missing.length === 0 ? 0 : 1;
