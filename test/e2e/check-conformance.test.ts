/**
 * `mcpgen check` on the official conformance suite's traffic: @modelcontextprotocol/conformance
 * 0.2.0-alpha.12 (`--suite all`, both eras) runs against the generated conformance server through
 * `mcpgen trace --http`, and check finds exactly the requests the suite sends wrong on purpose,
 * each named below, and nothing else. In the `network` project: the suite and the Node 22 it needs
 * come from the npm registry into .cache/ once (shared with `npm run conformance`).
 */
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { checkLog } from "../../src/commands/check/run.js";
import { ROOT } from "../helpers/cli.js";
import { installNode22 } from "../helpers/node22.js";
import { NPM_FREE_ENV } from "../helpers/published.js";
import { tempProject } from "../helpers/tmp.js";
import { BIN } from "../helpers/trace.js";

const VERSION = "0.2.0-alpha.12";
const CACHE = path.join(ROOT, ".cache", "conformance", VERSION);
const SUITE = path.join(CACHE, "node_modules", "@modelcontextprotocol", "conformance", "dist", "index.js");
let node22: string;

beforeAll(() => {
  node22 = installNode22();
  mkdirSync(CACHE, { recursive: true });
  const lock = path.join(CACHE, ".install.lock");
  execFileSync("flock", [lock, "true"]);
  if (existsSync(SUITE)) return;
  writeFileSync(path.join(CACHE, "package.json"), '{ "private": true }\n');
  execFileSync("flock", [lock, "npm", "install", "--no-audit", "--no-fund", "--no-save", `@modelcontextprotocol/conformance@${VERSION}`], {
    cwd: CACHE,
    env: NPM_FREE_ENV,
    stdio: "ignore",
    timeout: 300_000,
  });
}, 360_000);

/** Starts a child and resolves with the first match of `pattern` in what it prints. */
function started(child: ChildProcess, pattern: RegExp): Promise<string> {
  return new Promise((resolve, reject) => {
    let said = "";
    const read = (chunk: Buffer) => {
      said += chunk.toString();
      const m = pattern.exec(said);
      if (m) resolve(m[1]!);
    };
    child.stdout?.on("data", read);
    child.stderr?.on("data", read);
    child.once("exit", (code) => reject(new Error(`exited (${code}) before it was ready: ${said}`)));
  });
}

/**
 * The requests the suite sends wrong on purpose, as check names them (rule and what, exchange
 * numbers and ids left out), in the order of the log.
 */
const DELIBERATE = [
  // server/discover without `_meta`, without its protocolVersion, without clientCapabilities.
  "spec-shape the server/discover request is no DiscoverRequest of MCP 2026-07-28",
  "spec-shape the server/discover request is no DiscoverRequest of MCP 2026-07-28",
  "spec-shape the server/discover request is no DiscoverRequest of MCP 2026-07-28",
  // A revision the server does not speak in `_meta` (v999.0.0) under MCP-Protocol-Version 2026-07-28.
  "header-mismatch server/discover",
  // initialize and ping on 2026-07-28, which the server must refuse.
  "lifecycle initialize on MCP 2026-07-28, which has none (no handshake",
  "lifecycle ping on MCP 2026-07-28, which has none",
  'unknown-method unknown method "unknown/method"',
  // A tool of a list-change scenario this server does not have (it answers -32602 Unknown tool).
  'unknown-tool tools/call of unknown tool "test_trigger_tool_change"',
  'unknown-tool tools/call of unknown tool "test_trigger_tool_change"',
  // SEP-2164: a read of a resource that does not exist.
  'unknown-resource resources/read of unknown resource "test://nonexistent-resource-for-conformance-testing"',
  // HTTP header validation (SEP-2243): Mcp-Method or Mcp-Name wrong, missing or in the wrong case,
  // Mcp-Param-* headers broken or missing, and SEP-2663's task routing headers that disagree.
  "header-mismatch tools/list",
  "header-mismatch tools/list",
  "header-mismatch tools/call",
  "header-mismatch tools/call",
  "header-mismatch tools/list",
  "header-mismatch tools/call",
  "header-mismatch tools/call",
  "header-mismatch tools/call",
  "header-mismatch tools/call",
  "header-mismatch tasks/get",
  // input_required rounds answered with inputResponses not in MCP's shape.
  "spec-shape the tools/call request is no CallToolRequest of MCP 2026-07-28",
  "spec-shape the tools/call request is no CallToolRequest of MCP 2026-07-28",
];

describe("check on the official conformance suite's traffic", () => {
  it("finds the requests the suite sends wrong on purpose, and nothing else", async () => {
    const file = path.join(tempProject(), "conformance.jsonl");
    const server = spawn(process.execPath, ["--import", "tsx", path.join(ROOT, "conformance", "server.ts"), "0"], {
      cwd: ROOT,
      stdio: ["ignore", "pipe", "pipe"],
    });
    const children: ChildProcess[] = [server];
    try {
      const url = await started(server, /listening on (\S+)/);
      const proxy = spawn(process.execPath, [BIN, "trace", "--http", url, "--listen", "127.0.0.1:0", "-o", file], { stdio: ["ignore", "ignore", "pipe"] });
      children.push(proxy);
      const proxied = await started(proxy, /serving (http:\/\/127\.0\.0\.1:\d+\/\S*) in front of/);
      const suite = spawn(node22, [SUITE, "server", "--url", proxied, "--suite", "all"], { cwd: CACHE, stdio: ["ignore", "pipe", "pipe"] });
      let output = "";
      suite.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
      suite.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
      await new Promise((resolve) => suite.once("exit", resolve));
      // The suite ran whole (its DNS-rebinding check fails through the recorder, which rewrites Host).
      expect(output).toMatch(/Total: \d{3} passed/);
      proxy.kill("SIGINT");
      await new Promise((resolve) => proxy.once("exit", resolve));
      const { findings, messages } = await checkLog(file);
      expect(messages).toBeGreaterThan(400);
      const said = findings.map(
        (f) =>
          `${f.rule} ${f.message
            .split(": ")[0]!
            .replace(/ on exchange \d+/, "")
            .replace(/; tools of .*/, "")}`,
      );
      expect(said).toEqual(DELIBERATE);
    } finally {
      for (const child of children) child.kill();
    }
  }, 300_000);
});
