/** Published packages installed from npm into a temporary folder, for the e2e suites that run real servers. */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { afterAll } from "vitest";
import { ROOT } from "./cli.js";
import { linkNodeModules } from "./tmp.js";

/** This process's environment without npm's own variables (a test may run under `npm test`). */
export const NPM_FREE_ENV = Object.fromEntries(
  Object.entries(process.env).filter((e): e is [string, string] => e[1] !== undefined && !e[0].toLowerCase().startsWith("npm_")),
);
const NPM = process.platform === "win32" ? "npm.cmd" : "npm";

/** A temporary folder, removed after the test file (deleting an install can take a minute on a loaded machine). */
export function workFolder(prefix: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  afterAll(() => rmSync(dir, { recursive: true, force: true }), 300_000);
  return dir;
}

/** Installs `specs` into `dir` (made, with a private package.json), install scripts off. */
export function installPackages(
  dir: string,
  specs: readonly string[],
  options: { flags?: readonly string[]; env?: Record<string, string>; timeoutMs?: number } = {},
): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name: "published-servers", private: true }));
  execFileSync(NPM, ["install", "--no-audit", "--no-fund", "--ignore-scripts", ...(options.flags ?? []), ...specs], {
    cwd: dir,
    env: options.env ?? NPM_FREE_ENV,
    stdio: "ignore",
    timeout: options.timeoutMs ?? 240_000,
  });
}

/** An ESM app folder that uses the repository's node_modules (the client SDK, TypeScript, @types/node). */
export function appFolder(dir: string): void {
  mkdirSync(dir);
  writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name: "app", private: true, type: "module" }));
  linkNodeModules(dir);
}

/** The command that starts an installed package (`node_modules/<pkg>` under `dir`), from its first `bin`. */
export function binCommand(dir: string, pkg: string): string[] {
  const home = path.join(dir, "node_modules", pkg);
  const { bin } = JSON.parse(readFileSync(path.join(home, "package.json"), "utf8")) as { bin: string | Record<string, string> };
  return [process.execPath, path.join(home, typeof bin === "string" ? bin : Object.values(bin)[0]!)];
}

/** The version of the reference servers (@modelcontextprotocol/server-everything, -filesystem, -memory) the network suites run. */
const REFERENCE_SERVERS_VERSION = "2026.8.31";

/**
 * Packages installed from npm into .cache/<name> once and shared by the suites that use them (each
 * only reads them); the folder that holds their node_modules, for binCommand. Two suites asking at
 * once: flock makes the second wait for the first's install, then find it done. `name` carries
 * the versions, so a change of version installs afresh.
 */
function cachedInstall(name: string, specs: readonly string[]): string {
  const dir = path.join(ROOT, ".cache", name);
  mkdirSync(dir, { recursive: true });
  const lock = path.join(dir, ".install.lock");
  const done = path.join(dir, ".installed");
  execFileSync("flock", [lock, "true"], { stdio: "ignore" });
  if (existsSync(done)) return dir;
  writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name: path.basename(name), private: true, type: "module" }));
  const install = [NPM, "install", "--no-audit", "--no-fund", "--ignore-scripts", "--no-save", "--engine-strict=false", ...specs];
  execFileSync("flock", [lock, "sh", "-c", `"$@" && touch .installed`, "install", ...install], {
    cwd: dir,
    env: NPM_FREE_ENV,
    stdio: "ignore",
    timeout: 300_000,
  });
  return dir;
}

/** The reference servers, installed once into .cache/reference-servers/<version>. */
export function referenceServers(): string {
  return cachedInstall(
    path.join("reference-servers", REFERENCE_SERVERS_VERSION),
    ["everything", "filesystem", "memory"].map((p) => `@modelcontextprotocol/server-${p}@${REFERENCE_SERVERS_VERSION}`),
  );
}

/**
 * The other third-party MCP software the check corpus runs, installed once into .cache/corpus/:
 * the Vercel AI SDK's MCP client (@ai-sdk/mcp, which needs Node 22), and tmcp, an MCP server
 * written apart from the official SDK (with its stdio transport and zod adapter).
 */
const CORPUS_SPECS = ["@ai-sdk/mcp@2.0.99", "tmcp@1.20.0", "@tmcp/transport-stdio@0.5.0", "@tmcp/adapter-zod@0.1.7", "zod@4.6.7"] as const;
export function corpusPackages(): string {
  return cachedInstall(path.join("corpus", CORPUS_SPECS.join(" ").replace(/[^a-z0-9.@-]+/gi, "_")), CORPUS_SPECS);
}
