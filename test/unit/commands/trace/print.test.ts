/** `mcpgen trace --print`: one line per message, replies paired with their requests. */
import { describe, expect, it } from "vitest";
import { livePrinter } from "../../../../src/commands/trace/print.js";
import type { TraceMessage, TraceNote } from "../../../../src/commands/trace/record.js";

const at = (ms: number) => new Date(Date.UTC(2026, 11, 6, 12, 3, 4, ms)).toISOString();

function printed(records: (TraceMessage | TraceNote)[]): string[] {
  const out: string[] = [];
  const print = livePrinter((line) => out.push(line));
  for (const r of records) print(r);
  return out;
}

describe("livePrinter", () => {
  it("prints requests, paired replies with their time, errors and isError", () => {
    expect(
      printed([
        { time: at(0), from: "client", message: { jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "suggest_gifts" } } },
        { time: at(12), from: "server", message: { jsonrpc: "2.0", id: 3, result: { content: [] } } },
        { time: at(20), from: "client", message: { jsonrpc: "2.0", id: 4, method: "tools/call", params: { name: "nope" } } },
        { time: at(23), from: "server", message: { jsonrpc: "2.0", id: 4, error: { code: -32602, message: "Unknown tool: nope" } } },
        { time: at(30), from: "client", message: { jsonrpc: "2.0", id: 5, method: "tools/call", params: { name: "suggest_gifts" } } },
        { time: at(31), from: "server", message: { jsonrpc: "2.0", id: 5, result: { content: [], isError: true } } },
        { time: at(40), from: "client", message: { jsonrpc: "2.0", method: "notifications/initialized" } },
        { time: at(50), from: "server", message: { jsonrpc: "2.0", id: 9, result: {} } },
        { time: at(60), note: "the server exited with code 0", from: "server" },
      ]),
    ).toEqual([
      "12:03:04.000 → #3 tools/call suggest_gifts",
      "12:03:04.012 ← reply #3 tools/call suggest_gifts 12 ms",
      "12:03:04.020 → #4 tools/call nope",
      "12:03:04.023 ← reply #4 tools/call nope 3 ms ERROR -32602 Unknown tool: nope",
      "12:03:04.030 → #5 tools/call suggest_gifts",
      "12:03:04.031 ← reply #5 tools/call suggest_gifts 1 ms isError",
      "12:03:04.040 → notifications/initialized",
      "12:03:04.050 ← reply #9",
      "12:03:04.060 · the server exited with code 0",
    ]);
  });

  it("pairs by exchange first on HTTP, and prints each message of a batch", () => {
    const http = (exchange: number) => ({ exchange, method: "POST", path: "/mcp", headers: {} });
    expect(
      printed([
        { time: at(0), from: "client", message: { jsonrpc: "2.0", id: 1, method: "tools/list" }, http: http(1) },
        { time: at(1), from: "client", message: { jsonrpc: "2.0", id: 1, method: "prompts/list" }, http: http(2) },
        { time: at(5), from: "server", message: { jsonrpc: "2.0", id: 1, result: {} }, http: { ...http(1), status: 200 } },
        {
          time: at(6),
          from: "client",
          message: [
            { jsonrpc: "2.0", id: 2, method: "ping" },
            { jsonrpc: "2.0", method: "notifications/cancelled" },
          ],
        },
      ]),
    ).toEqual([
      "12:03:04.000 → #1 tools/list",
      "12:03:04.001 → #1 prompts/list",
      "12:03:04.005 ← reply #1 tools/list 5 ms",
      "12:03:04.006 → #2 ping",
      "12:03:04.006 → notifications/cancelled",
    ]);
  });
});
