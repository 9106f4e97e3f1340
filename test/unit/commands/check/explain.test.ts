/** `mcpgen explain`: the example traces in words, line by line. */
import { describe, expect, it } from "vitest";
import { explainedText, explainLog, type Explained } from "../../../../src/commands/check/explain/run.js";
import { client, server, traceFile } from "./logs.js";

async function explain(file: string): Promise<string[]> {
  const lines: string[] = [];
  await explainLog(file, (e) => lines.push(explainedText(e)));
  return lines;
}

const example = (name: string) => new URL(`../../../../examples/traces/${name}`, import.meta.url).pathname;

describe("explain", () => {
  it("says who sends what in the clean trace, which request each reply answers and how long it took", async () => {
    const lines = await explain(example("clean.jsonl"));
    expect(lines[0]).toBe("1     note: trace of stdio (node generated/gift-server/main.js), recorded by mcpgen 0.1.0 from 2025-12-05T16:00:00.000Z");
    expect(lines).toContain("11    client → server  request #4 tools/call suggest_gifts {occasion, budget, recipient}");
    expect(lines).toContain(
      "13    server → client  reply to #4 tools/call suggest_gifts (line 11, 45 ms): ok: structuredContent {gifts: 2 items}, _meta ui resourceUri ui://widget/gifts.html",
    );
    expect(lines).toContain('17    server → client  reply to #6 tools/call gift_details (line 16, 7 ms): isError: business failure: "No gift named Kite"');
    expect(lines).toContain('12    server → client  notification notifications/progress: progress 1/2 of token "p4" "Looking for gift ideas"');
    expect(lines).toContain("25    server → client  notification notifications/tools/list_changed: the tools list changed (call tools/list again)");
    expect(lines).toContain('24    server → client  notification notifications/message: log info from gifts: "2 calls of suggest_gifts"');
    expect(lines).toContain("6     server → client  reply to #1 tools/list (line 5, 8 ms): ok: 2 tools: suggest_gifts, gift_details");
    expect(lines).toHaveLength(29);
  });

  it("says which request an HTTP error with id null answers: the one of its exchange", async () => {
    const http = (status?: number) => ({ http: { exchange: 3, method: "POST", path: "/mcp", ...(status ? { status } : {}), headers: {} } });
    const lines = await explain(
      traceFile([
        client({ id: 1, method: "tools/list" }, http()),
        server({ id: null, error: { code: -32600, message: "Bad Request: no session" } }, http(400)),
      ]),
    );
    expect(lines.slice(1)).toEqual([
      "2     client → server  request #1 tools/list  [HTTP POST /mcp exchange 3]",
      '3     server → client  an HTTP error with id null, answering #1 tools/list (line 2) on its exchange: error -32600: invalid request (not a JSON-RPC request): "Bad Request: no session"  [HTTP POST /mcp exchange 3, 400]',
    ]);
  });

  it("tells protocol errors from business failures, and names what is wrong in the mistakes trace", async () => {
    const lines = await explain(example("mistakes.jsonl"));
    expect(lines).toContain(
      `12    server → client  reply to #4 tools/call suggest_gifts (line 11, 6 ms): error -32602: protocol error (the request was malformed): "Missing required property 'budget' in arguments"`,
    );
    expect(lines).toContain("13    client → server  request #5 tools/call (no name)");
    expect(lines).toContain("22    server → client  a reply without an id: it answers no request");
    expect(lines).toContain(
      '39    client → server  notification notifications/cancelled (with id 16: notifications have none): cancels request #13 ("took too long")',
    );
    expect(lines.at(-1)).toBe("end   request #8 tools/call (line 20) was never answered");
  });

  it("gives each line's facts for --format jsonl", async () => {
    const all: Explained[] = [];
    await explainLog(example("clean.jsonl"), (e) => all.push(e));
    expect(all.find((e) => e.line === 13)).toEqual({
      line: 13,
      from: "server",
      id: 4,
      method: "tools/call",
      answers: 11,
      durationMs: 45,
      text: "reply to #4 tools/call suggest_gifts (line 11, 45 ms): ok: structuredContent {gifts: 2 items}, _meta ui resourceUri ui://widget/gifts.html",
    });
  });

  it("shows the HTTP exchange a message rode on", async () => {
    const http = { exchange: 3, method: "POST", path: "/mcp", headers: { "mcp-protocol-version": "2026-07-28" } };
    const lines = await explain(
      traceFile([client({ id: 1, method: "ping" }, { http }), server({ id: 1, result: {} }, { http: { ...http, status: 200, sse: { id: "e1" } } })]),
    );
    expect(lines[1]).toBe("2     client → server  request #1 ping  [HTTP POST /mcp exchange 3, MCP-Protocol-Version 2026-07-28]");
    expect(lines[2]).toBe(
      "3     server → client  reply to #1 ping (line 2, 1 ms): ok (empty result)  [HTTP POST /mcp exchange 3, 200, SSE id e1, MCP-Protocol-Version 2026-07-28]",
    );
  });
});
