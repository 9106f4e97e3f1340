/**
 * The server's own message log (`logMessages`): one line per request answered, in both eras, with
 * the outcome read from the answer (ok, a business failure, a protocol error) and never the
 * arguments or results; on stderr over stdio when `MCP_LOG_MESSAGES=1`.
 */
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { describe, expect, it } from "vitest";
import { createServerFactory } from "../../examples/gift-server/generated/gift-server/index.js";
import type { ServerLogLine } from "../../src/commands/trace/record.js";
import { connectInMemory, ERAS } from "../helpers/connect.js";
import { giftHandlers } from "../servers/gift.js";

describe.each(ERAS)("logMessages (%s era)", (era) => {
  it("logs each request with its id, method, name, duration and outcome; no arguments, no results", async () => {
    const lines: ServerLogLine[] = [];
    const client = await connectInMemory(createServerFactory(giftHandlers, { logMessages: (line) => lines.push(line) }), { era });
    await client.sdk.listTools();
    await client.sdk.callTool({ name: "suggest_gifts", arguments: { occasion: "birthday", budget: 100, recipient: "Ada" } });
    await client.sdk.callTool({ name: "gift_details", arguments: { name: "Kite" } });
    await expect(client.sdk.callTool({ name: "no_such_tool", arguments: {} })).rejects.toMatchObject({ code: -32602 });
    await client.close();

    const modern = era === "modern" ? { protocol: "2026-07-28" } : {};
    expect(lines.map(({ time, durationMs, id, ...rest }) => rest)).toEqual([
      { mcpgenLog: 1, direction: "in", method: "tools/list", outcome: "ok", ...modern },
      { mcpgenLog: 1, direction: "in", method: "tools/call", name: "suggest_gifts", outcome: "ok", ...modern },
      {
        mcpgenLog: 1,
        direction: "in",
        method: "tools/call",
        name: "gift_details",
        outcome: "business-error",
        error: { message: "No gift named Kite" },
        ...modern,
      },
      {
        mcpgenLog: 1,
        direction: "in",
        method: "tools/call",
        name: "no_such_tool",
        outcome: "protocol-error",
        error: { code: -32602, message: expect.stringContaining("no_such_tool") },
        ...modern,
      },
    ]);
    for (const line of lines) {
      expect(new Date(line.time).toISOString()).toBe(line.time);
      expect(line.durationMs).toBeGreaterThanOrEqual(0);
      expect(["string", "number"]).toContain(typeof line.id);
    }
    expect(new Set(lines.map((l) => l.id)).size).toBe(lines.length);
    expect(JSON.stringify(lines)).not.toContain("birthday");
  });
});

describe("MCP_LOG_MESSAGES=1 over stdio", () => {
  it("writes one JSON line per request on stderr, stdout staying the transport", async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: ["--import", "tsx", fileURLToPath(new URL("../servers/gift-stdio.ts", import.meta.url))],
      env: { ...(process.env as Record<string, string>), MCP_LOG_MESSAGES: "1" },
      stderr: "pipe",
    });
    let stderr = "";
    transport.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
    const sdk = new Client({ name: "log-test", version: "1.0.0" });
    await sdk.connect(transport);
    await sdk.callTool({ name: "suggest_gifts", arguments: { occasion: "birthday", budget: 100, recipient: "Ada" } });
    await sdk.close();
    const logged = stderr
      .split("\n")
      .filter((l) => l.startsWith("{"))
      .map((l) => JSON.parse(l) as ServerLogLine);
    expect(logged).toEqual([expect.objectContaining({ mcpgenLog: 1, method: "tools/call", name: "suggest_gifts", outcome: "ok" })]);
  });
});
