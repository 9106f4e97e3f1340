/**
 * `mcpgen trace` under a real client and a real server from npm: the MCP Inspector CLI 2.12.0
 * (test/helpers/inspector.ts) starts `mcpgen trace -o FILE -- <server>` over stdio, with
 * @modelcontextprotocol/server-memory (pinned) as the server. The Inspector prints what it prints
 * without the recorder, and the trace holds the session's messages. In the `network` project: both
 * come from the npm registry.
 */
import { execFile } from "node:child_process";
import * as path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { INSPECTOR_CLI, installInspector } from "../helpers/inspector.js";
import { binCommand, referenceServers } from "../helpers/published.js";
import { tempProject } from "../helpers/tmp.js";
import { BIN, readTrace } from "../helpers/trace.js";

let server: string[];
let home: string;
/** The Node 22 that runs the Inspector. */
let node22: string;

beforeAll(() => {
  node22 = installInspector();
  server = binCommand(referenceServers(), "@modelcontextprotocol/server-memory");
  // The Inspector keeps state in ~/.mcp-inspector; the memory server its graph in MEMORY_FILE_PATH.
  home = tempProject();
}, 360_000);

function inspector(command: string[], args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) =>
    execFile(
      node22,
      [INSPECTOR_CLI, "--cli", ...command, ...args],
      { timeout: 60_000, env: { ...process.env, HOME: home, MEMORY_FILE_PATH: path.join(home, "memory.jsonl") } },
      (error, stdout, stderr) => resolve({ code: typeof error?.code === "number" ? error.code : error ? -1 : 0, stdout, stderr }),
    ),
  );
}

describe("mcpgen trace under the MCP Inspector CLI", () => {
  it("tools/list prints the same with and without the recorder, and the trace holds the session", async () => {
    const file = path.join(tempProject(), "inspector.jsonl");
    const direct = await inspector(server, ["--method", "tools/list"]);
    expect(direct.code, direct.stderr).toBe(0);
    const traced = await inspector([process.execPath, BIN, "trace", "-o", file, "--", ...server], ["--method", "tools/list"]);
    expect(traced.code, traced.stderr).toBe(0);
    expect(traced.stdout).toBe(direct.stdout);
    expect((JSON.parse(traced.stdout) as { tools: unknown[] }).tools.length).toBeGreaterThan(0);

    const trace = readTrace(file);
    expect(trace.start).toMatchObject({ transport: "stdio", command: server });
    const seen = trace.messages.map((m) => {
      const message = m.message as { id?: unknown; method?: string };
      return `${m.from} ${message.method ?? `reply ${String(message.id)}`}`;
    });
    expect(seen).toEqual(["client initialize", "server reply 0", "client notifications/initialized", "client tools/list", "server reply 1"]);
    const listed = trace.messages[4]!.message as { result: unknown };
    expect(listed.result).toEqual(JSON.parse(traced.stdout));
  }, 120_000);
});
