/**
 * The MCP Inspector CLI for the network suites. It needs Node >= 22.19: it comes from the npm
 * registry into .cache/inspector/<version> once, and runs on the shared Node 22 (./node22.ts).
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { ROOT } from "./cli.js";
import { installNode22 } from "./node22.js";

const INSPECTOR_VERSION = "2.12.0";
const CACHE = path.join(ROOT, ".cache", "inspector", INSPECTOR_VERSION);
/** The Inspector's launcher: `<node22> INSPECTOR_CLI --cli ...`. */
export const INSPECTOR_CLI = path.join(CACHE, "node_modules", "@modelcontextprotocol", "inspector", "clients", "launcher", "build", "index.js");

/** Installs Node 22 and the Inspector, each unless it is there, and returns the Node 22 that runs the Inspector. */
export function installInspector(): string {
  const node22 = installNode22();
  mkdirSync(CACHE, { recursive: true });
  const lock = path.join(CACHE, ".install.lock");
  // Wait for an install another suite may have under way, then look.
  execFileSync("flock", [lock, "true"], { stdio: "ignore" });
  if (existsSync(INSPECTOR_CLI)) return node22;
  writeFileSync(path.join(CACHE, "package.json"), '{ "private": true }\n');
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.toLowerCase().startsWith("npm_")));
  // Two suites (two workers) may ask at once: util-linux's flock makes the second wait for the first's
  // install, then run its own, which finds everything in place. Two npm installs at once in one
  // folder fail.
  const install = ["npm", "install", "--no-audit", "--no-fund", "--no-save", `@modelcontextprotocol/inspector@${INSPECTOR_VERSION}`];
  execFileSync("flock", [lock, ...install], { cwd: CACHE, env, stdio: "ignore" });
  return node22;
}
