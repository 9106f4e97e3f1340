/** `mcpgen check` and `mcpgen explain` as users run them: the built binary on the example traces. */
import { spawn } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { mcpgen, ROOT } from "../helpers/cli.js";
import { tempProject } from "../helpers/tmp.js";

const TRACES = path.join(ROOT, "examples", "traces");
const MANIFESTS = path.join(ROOT, "examples", "gift-server", "manifests");

/** A log of one request never answered: a warning and nothing else. */
const WARNING_ONLY = `${JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" })}\n`;

describe("mcpgen check", () => {
  it("finds every mistake of the example trace, as examples/traces/mistakes.check.txt says", () => {
    const r = mcpgen(["check", "mistakes.jsonl"], TRACES);
    expect(r.stdout).toBe(readFileSync(path.join(TRACES, "mistakes.check.txt"), "utf8"));
    expect(r.code).toBe(1);
  });

  it("finds nothing in the clean trace, and exits 0", () => {
    const r = mcpgen(["check", "clean.jsonl"], TRACES);
    expect(r.stdout).toBe("clean.jsonl: no problems in 28 messages (mcpgen)\n");
    expect(r.code).toBe(0);
  });

  it("judges against the manifests when given: the same findings", () => {
    const fromLog = (JSON.parse(mcpgen(["check", "mistakes.jsonl", "--format", "json"], TRACES).stdout) as { findings: { rule: string; line: number }[] })
      .findings;
    const r = mcpgen(["check", "mistakes.jsonl", "--format", "json", "--manifests", MANIFESTS], TRACES);
    expect(r.stderr).toBe("");
    const fromManifest = (JSON.parse(r.stdout) as { findings: { rule: string; line: number; message: string }[] }).findings;
    expect(fromManifest.map((f) => [f.rule, f.line])).toEqual(fromLog.map((f) => [f.rule, f.line]));
    expect(fromManifest.find((f) => f.rule === "unknown-tool")!.message).toContain(
      "tools of the manifests and tools/list in the log: suggest_gifts, gift_details",
    );
  });

  it("--fail-on: warnings fail only when asked", () => {
    const dir = tempProject({ "run.jsonl": WARNING_ONLY });
    const byDefault = mcpgen(["check", "run.jsonl"], dir);
    expect(byDefault.stdout).toContain("run.jsonl:1:1: warning unanswered-request: client request ping was never answered (id 1)");
    expect(byDefault.code).toBe(0);
    expect(mcpgen(["check", "run.jsonl", "--fail-on", "warning"], dir).code).toBe(1);
    expect(mcpgen(["check", "run.jsonl", "--fail-on", "error"], dir).code).toBe(0);
  });

  it("writes SARIF and JUnit with the same exit codes", () => {
    const sarif = mcpgen(["check", "mistakes.jsonl", "--format", "sarif"], TRACES);
    expect(sarif.code).toBe(1);
    expect((JSON.parse(sarif.stdout) as { version: string }).version).toBe("2.1.0");
    const junit = mcpgen(["check", "clean.jsonl", "--format", "junit"], TRACES);
    expect(junit.code).toBe(0);
    expect(junit.stdout).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<testsuites name="mcpgen check clean.jsonl" tests="\d+" failures="0"/);
  });

  it.each([
    [["check"], "check needs a log"],
    [["check", "a.jsonl", "b.jsonl"], "check reads one log, not 2"],
    [["check", "mistakes.jsonl", "--format", "xml"], '--format takes text, json, sarif, junit, not "xml"'],
    [["check", "mistakes.jsonl", "--fail-on", "note"], '--fail-on takes error or warning, not "note"'],
    [["check", "mistakes.jsonl", "--input", "pcap"], '--input takes mcpgen, jsonl, har, server-log, not "pcap"'],
    [["check", "nothing.jsonl"], "nothing.jsonl: no such file"],
    [["explain", "nothing.jsonl"], "nothing.jsonl: no such file, nor a rule of mcpgen check, a code of its diagnostics or a JSON-RPC error code"],
  ])("usage error: mcpgen %j exits 2", (args, message) => {
    const r = mcpgen(args, TRACES);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(message);
  });

  it("says a file that is no HAR is not one, with exit 2", () => {
    const dir = tempProject({ "broken.har": '{\n  "log": {\n', "message.json": '{\n  "jsonrpc": "2.0",\n  "id": 1,\n  "method": "ping"\n}\n' });
    const r = mcpgen(["check", "broken.har"], dir);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("broken.har: not a HAR");
    const json = mcpgen(["check", "message.json"], dir);
    expect(json.code).toBe(2);
    expect(json.stderr).toContain("mcpgen: message.json: JSON but no HAR (no log.entries)");
  });
});

/**
 * Sends each message to `mcpgen mock` on stdio, waiting for the answer of each request, and gives
 * the exchange as plain JSONL (what a user piping a server's stdio to a file would have).
 */
async function mockSession(messages: Record<string, unknown>[]): Promise<string> {
  const child = spawn(process.execPath, [path.join(ROOT, "dist/cli/bin.js"), "mock", MANIFESTS, "--quiet"], { stdio: ["pipe", "pipe", "inherit"] });
  const log: string[] = [];
  let buffer = "";
  let waiting: (() => void) | undefined;
  child.stdout.setEncoding("utf8");
  child.stdout.on("data", (chunk: string) => {
    buffer += chunk;
    for (let i = buffer.indexOf("\n"); i !== -1; i = buffer.indexOf("\n")) {
      log.push(buffer.slice(0, i));
      buffer = buffer.slice(i + 1);
      waiting?.();
    }
  });
  try {
    for (const m of messages) {
      log.push(JSON.stringify(m));
      const answered = "id" in m ? new Promise<void>((resolve) => (waiting = resolve)) : Promise.resolve();
      child.stdin.write(`${JSON.stringify(m)}\n`);
      await answered;
    }
  } finally {
    child.kill();
  }
  return `${log.join("\n")}\n`;
}

describe("mcpgen check on real traffic", () => {
  it("finds nothing in a session with the gift server served by mcpgen mock, with or without its manifests", async () => {
    const rpc = (m: Record<string, unknown>) => ({ jsonrpc: "2.0", ...m });
    const text = await mockSession([
      rpc({ id: 0, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "test", version: "1" } } }),
      rpc({ method: "notifications/initialized" }),
      rpc({ id: 1, method: "tools/list" }),
      rpc({ id: 2, method: "resources/list" }),
      rpc({ id: 3, method: "prompts/list" }),
      rpc({
        id: 4,
        method: "tools/call",
        params: { name: "suggest_gifts", arguments: { occasion: "birthday", budget: 100, recipient: "friend who loves board games" } },
      }),
      rpc({ id: 5, method: "tools/call", params: { name: "gift_details", arguments: { name: "Dice set" } } }),
      rpc({ id: 6, method: "tools/call", params: { name: "suggest_gifts", arguments: { occasion: "wedding", budget: 5 } } }),
      rpc({ id: 7, method: "resources/read", params: { uri: "mcp://gift-server/resources/gift_catalog" } }),
      rpc({ id: 8, method: "prompts/get", params: { name: "gift_congrats_style", arguments: { tone: "funny" } } }),
      rpc({ id: 9, method: "ping" }),
    ]);
    const dir = tempProject();
    writeFileSync(path.join(dir, "session.jsonl"), text);
    expect(mcpgen(["check", "session.jsonl"], dir).stdout).toBe("session.jsonl: no problems in 21 messages (jsonl)\n");
    const withManifests = mcpgen(["check", "session.jsonl", "--manifests", MANIFESTS], dir);
    expect(withManifests.stdout).toBe("session.jsonl: no problems in 21 messages (jsonl)\n");
    expect(withManifests.code).toBe(0);
  });
});

describe("mcpgen explain", () => {
  it("explains the example trace message by message", () => {
    const r = mcpgen(["explain", "mistakes.jsonl"], TRACES);
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split("\n");
    expect(lines).toContain(
      `16    server → client  reply to #6 tools/call gift_details (line 15, 8 ms): error -32603: internal error (the server failed): "No gift named Kite" (reads like a business failure: a result with isError: true would say so)`,
    );
    expect(lines).toContain(
      `32    server → client  notification notifications/tool_result: carries a result {requestId: 13, structuredContent: {…}}, answering no request`,
    );
  });

  it("explains a rule of check, or an error code, when given one instead of a log", () => {
    const rule = mcpgen(["explain", "misnamed-param"], TRACES);
    expect(rule.code).toBe(0);
    expect(rule.stdout).toMatch(/^misnamed-param \(error\): A params field under another name\n\ntools\/call with `tool`/);
    expect(rule.stdout).toMatch(
      /\nFix: rename the field as the specification names it: .*\n\nMore: https:\/\/unpkg\.com\/mcpgen@[^/]+\/docs\/reference\/check-rules\.md#misnamed-param\n$/,
    );
    const code = mcpgen(["explain", "--", "-32602"], TRACES);
    expect([code.code, code.stdout.split("\n")[0]]).toEqual([0, "-32602 Invalid params: the request's params are wrong."]);
    expect(mcpgen(["explain", "--", "-32002"], TRACES).stdout).toContain("2026-07-28 replaced it with -32602");
    expect(mcpgen(["explain", "--", "-32005"], TRACES).stdout).toBe(
      "-32005: an implementation's own error (JSON-RPC's server-error range; MCP never defines codes from -32000 to -32019).\n",
    );
    expect(mcpgen(["explain", "--", "42"], TRACES).stdout).toContain("an application's own error code");
  });

  it("--format jsonl: one JSON object per message", () => {
    const r = mcpgen(["explain", "clean.jsonl", "--format", "jsonl"], TRACES);
    expect(r.code).toBe(0);
    const objects = r.stdout
      .trimEnd()
      .split("\n")
      .map((l) => JSON.parse(l) as { line: number; answers?: number });
    expect(objects).toHaveLength(29);
    expect(objects.find((o) => o.line === 13)?.answers).toBe(11);
    expect(mcpgen(["explain", "clean.jsonl", "--format", "json"], TRACES).code).toBe(2);
  });
});
