/** The four logs check and explain read: told apart, and each read into messages at their lines. */
import { describe, expect, it } from "vitest";
import type { LogEvent } from "../../../../src/commands/check/model.js";
import { detectFormat, openLog } from "../../../../src/commands/check/read/index.js";
import { entryLines } from "../../../../src/commands/check/read/har.js";
import { checkLog } from "../../../../src/commands/check/run.js";
import { client, rawFile, server, traceFile } from "./logs.js";

async function events(file: string): Promise<LogEvent[]> {
  const out: LogEvent[] = [];
  for await (const e of (await openLog(file)).events) out.push(e);
  return out;
}

const HAR = {
  log: {
    version: "1.2",
    creator: { name: "test", version: "1" },
    entries: [
      {
        startedDateTime: "2026-08-01T10:00:00.000Z",
        time: 40,
        request: {
          method: "POST",
          url: "http://127.0.0.1:3000/mcp?x=1",
          headers: [
            { name: "Content-Type", value: "application/json" },
            { name: "MCP-Protocol-Version", value: "2026-07-28" },
            { name: "Mcp-Method", value: "tools/call" },
            { name: "Mcp-Name", value: "suggest_gifts" },
            { name: "Authorization", value: "Bearer secret" },
            { name: "User-Agent", value: "x" },
          ],
          postData: {
            mimeType: "application/json",
            text: JSON.stringify({
              jsonrpc: "2.0",
              id: 1,
              method: "tools/call",
              params: {
                name: "suggest_gifts",
                arguments: {},
                _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}, progressToken: 1 },
              },
            }),
          },
        },
        response: {
          status: 200,
          headers: [{ name: "Content-Type", value: "text/event-stream" }],
          content: {
            mimeType: "text/event-stream",
            text: `id: e1\nevent: message\ndata: ${JSON.stringify({ jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: 1, progress: 1 } })}\n\nid: e2\ndata: ${JSON.stringify({ jsonrpc: "2.0", id: 1, result: { resultType: "complete", content: [] } })}\n\n`,
          },
        },
      },
      {
        startedDateTime: "2026-08-01T10:00:01.000Z",
        time: 5,
        request: { method: "POST", url: "http://127.0.0.1:3000/mcp", headers: [], postData: { text: '{"jsonrpc":"2.0","id":2,"method":"tools/col"}' } },
        response: { status: 200, headers: [], content: { text: '{"jsonrpc":"2.0","id":2,"error":{"code":-32601,"message":"Method not found"}}' } },
      },
    ],
  },
};

describe("reading logs", () => {
  it("tells the formats apart by their first JSON line", async () => {
    expect(await detectFormat(traceFile([]))).toBe("mcpgen");
    expect(await detectFormat(rawFile(['{"jsonrpc":"2.0","id":1,"method":"ping"}'], "raw.jsonl"))).toBe("jsonl");
    expect(await detectFormat(rawFile([JSON.stringify(HAR, null, 2)], "session.json"))).toBe("har");
    expect(await detectFormat(rawFile(["server listening", '{"mcpgenLog":1,"time":"x","direction":"in","method":"ping"}'], "server.log"))).toBe("server-log");
  });

  it("reads mcpgen's trace: messages with their side, time and line; batches split", async () => {
    const file = traceFile([
      client({ id: 1, method: "ping" }),
      {
        from: "server",
        message: [
          { jsonrpc: "2.0", id: 1, result: {} },
          { jsonrpc: "2.0", method: "notifications/message" },
        ],
      },
    ]);
    const got = await events(file);
    expect(got.map((e) => [e.kind, e.line, e.kind === "message" ? e.from : ""])).toEqual([
      ["note", 1, ""],
      ["message", 2, "client"],
      ["message", 3, "server"],
      ["message", 3, "server"],
    ]);
    expect(got[1]!.time).toBe(Date.parse("2025-12-05T16:00:00.001Z"));
  });

  it("infers who sent each message of plain JSONL", async () => {
    const file = rawFile(
      [
        '{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"progressToken":1}}}',
        '{"jsonrpc":"2.0","id":7,"method":"sampling/createMessage","params":{"messages":[],"maxTokens":10}}',
        '{"jsonrpc":"2.0","id":7,"result":{"model":"m","role":"assistant","content":{"type":"text","text":"hi"}}}',
        '{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":1}}',
        '{"jsonrpc":"2.0","id":1,"result":{"tools":[]}}',
        '{"jsonrpc":"2.0","method":"notifications/initialized"}',
      ],
      "raw.jsonl",
    );
    const sides = (await events(file)).map((e) => (e.kind === "message" ? e.from : e.kind));
    expect(sides).toEqual(["client", "server", "client", "server", "server", "client"]);
    expect((await checkLog(file)).findings).toEqual([]);
  });

  it("reads a HAR: request bodies from the client, JSON or SSE responses from the server, at the entry's line, headers kept as a trace keeps them", async () => {
    const text = JSON.stringify(HAR, null, 2);
    const file = rawFile([text], "session.har");
    const got = (await events(file)).filter((e) => e.kind === "message");
    const starts = entryLines(text);
    expect(starts).toHaveLength(2);
    expect(text.split("\n")[starts[0]! - 1]!.trim()).toBe("{");
    expect(got.map((e) => [e.line, e.from, e.entry])).toEqual([
      [starts[0], "client", 0],
      [starts[0], "server", 0],
      [starts[0], "server", 0],
      [starts[1], "client", 1],
      [starts[1], "server", 1],
    ]);
    expect(got[0]!.http).toEqual({
      exchange: 1,
      method: "POST",
      path: "/mcp?x=1",
      headers: {
        "content-type": "application/json",
        "mcp-protocol-version": "2026-07-28",
        "mcp-method": "tools/call",
        "mcp-name": "suggest_gifts",
        authorization: "[redacted]",
      },
    });
    expect(got[2]!.http?.sse).toEqual({ id: "e2" });
    expect(got[2]!.time).toBe(Date.parse("2026-08-01T10:00:00.040Z"));
    const { findings } = await checkLog(file);
    expect(findings.map((f) => [f.rule, f.line])).toEqual([["unknown-method", starts[1]]]);
  });

  it("reads a generated server's log among its other output", async () => {
    const file = rawFile(
      [
        "gift-server listening on stdio",
        JSON.stringify({
          mcpgenLog: 1,
          time: "2025-12-05T16:00:00.050Z",
          direction: "in",
          id: 3,
          method: "tools/call",
          name: "suggest_gifts",
          durationMs: 45,
          outcome: "ok",
        }),
        JSON.stringify({
          mcpgenLog: 1,
          time: "2025-12-05T16:00:00.060Z",
          direction: "in",
          id: 4,
          method: "tools/col",
          durationMs: 1,
          outcome: "protocol-error",
          error: { code: -32601, message: "Method not found" },
        }),
        JSON.stringify({
          mcpgenLog: 1,
          time: "2025-12-05T16:00:00.070Z",
          direction: "in",
          id: 5,
          method: "tools/call",
          name: "gift_details",
          durationMs: 3,
          outcome: "protocol-error",
          error: { code: -32603, message: "No gift named Kite" },
        }),
      ],
      "server.log",
    );
    const got = await events(file);
    expect(got.map((e) => [e.kind, e.line])).toEqual([
      ["server-log", 2],
      ["server-log", 3],
      ["server-log", 4],
    ]);
    const { findings, format } = await checkLog(file);
    expect(format).toBe("server-log");
    expect(findings.map((f) => [f.rule, f.line, f.id])).toEqual([
      ["unknown-method", 3, 4],
      ["business-error-as-protocol-error", 4, 5],
    ]);
  });

  it("reads a log that starts with a byte order mark", async () => {
    const file = rawFile(['\uFEFF{"jsonrpc":"2.0","id":1,"method":"ping"}', '{"jsonrpc":"2.0","id":1,"result":{}}'], "bom.jsonl");
    expect(await detectFormat(file)).toBe("jsonl");
    expect((await checkLog(file)).findings).toEqual([]);
  });

  it("keeps a line that is not JSON in mcpgen's trace as a finding", async () => {
    const file = traceFile([server({ id: 1, result: {} })]);
    const { writeFileSync, readFileSync } = await import("node:fs");
    writeFileSync(file, `${readFileSync(file, "utf8")}not json\n`);
    const { findings } = await checkLog(file);
    expect(findings.map((f) => [f.rule, f.line])).toEqual([
      ["unmatched-response", 2],
      ["unreadable-line", 3],
    ]);
  });
});
