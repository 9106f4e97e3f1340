/** check and explain never crash on what a log may hold: random JSON, message-like objects with any members. */
import { writeFileSync } from "node:fs";
import * as path from "node:path";
import fc from "fast-check";
import { propertyParameters } from "../../../helpers/properties.js";
import { describe, expect, it } from "vitest";
import { explainLog } from "../../../../src/commands/check/explain/run.js";
import { checkLog } from "../../../../src/commands/check/run.js";
import { tempProject } from "../../../helpers/tmp.js";

const METHODS = [
  "tools/call",
  "tools/list",
  "resources/read",
  "prompts/get",
  "initialize",
  "notifications/progress",
  "notifications/message",
  "sampling/createMessage",
  "tools/col",
];

const value = fc.jsonValue({ maxDepth: 3 });
const message = fc.record(
  {
    jsonrpc: fc.oneof(fc.constant("2.0"), value),
    id: fc.oneof(fc.integer({ min: 0, max: 5 }), fc.constantFrom("a", null), value),
    method: fc.oneof(fc.constantFrom(...METHODS), value),
    params: fc.oneof(
      fc.record(
        { name: fc.oneof(fc.constantFrom("suggest_gifts", "x"), value), arguments: value, uri: value, tools: value, _meta: value },
        { requiredKeys: [] },
      ),
      value,
    ),
    result: fc.oneof(
      fc.record(
        {
          tools: fc.array(fc.record({ name: fc.string(), inputSchema: value, outputSchema: value }, { requiredKeys: [] })),
          content: value,
          structuredContent: value,
          isError: value,
        },
        { requiredKeys: [] },
      ),
      value,
    ),
    error: fc.oneof(fc.record({ code: value, message: value }, { requiredKeys: [] }), value),
  },
  { requiredKeys: [] },
);
const entry = fc.record({
  time: fc.oneof(fc.constant("2025-12-05T16:00:00.000Z"), fc.string()),
  from: fc.constantFrom("client", "server"),
  message: fc.oneof(message, fc.array(message, { maxLength: 3 }), value),
  http: fc.oneof(
    fc.constant(undefined),
    fc.record({
      exchange: fc.nat(3),
      method: fc.constant("POST"),
      path: fc.constant("/mcp"),
      headers: fc.dictionary(fc.constantFrom("mcp-method", "mcp-name", "mcp-protocol-version"), fc.constantFrom("tools/call", "x", "2026-07-28")),
    }),
  ),
});

describe("check and explain on any log", () => {
  it("give findings or words, never an exception", async () => {
    const dir = tempProject();
    let n = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(fc.oneof(entry, value), { maxLength: 12 }), fc.boolean(), async (lines, plain) => {
        const file = path.join(dir, `log-${n++}.jsonl`);
        const start = JSON.stringify({ mcpgenTrace: 1, time: "2025-12-05T16:00:00.000Z", transport: "stdio", mcpgen: "0.1.0" });
        const body = lines.map((l) => JSON.stringify(plain && typeof l === "object" && l !== null && "message" in l ? l.message : l));
        writeFileSync(file, `${(plain ? body : [start, ...body]).join("\n")}\n`);
        const result = await checkLog(file);
        for (const f of result.findings) expect(f.line).toBeGreaterThan(0);
        await explainLog(file, () => {});
      }),
      propertyParameters(150, 20261206),
    );
  });
});

describe("check and explain on lines no log should hold", () => {
  it("skip a message nested a million levels deep, in each reader, and go on with the next line", async () => {
    const deep = `${"[".repeat(1_000_000)}${"]".repeat(1_000_000)}`;
    const ping = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" });
    const pong = JSON.stringify({ jsonrpc: "2.0", id: 1, result: {} });
    const dir = tempProject();
    const plain = path.join(dir, "deep.jsonl");
    writeFileSync(plain, `${ping}\n{"jsonrpc":"2.0","id":${deep},"method":"ping"}\n${pong}\n`);
    const trace = path.join(dir, "deep-trace.jsonl");
    const start = { mcpgenTrace: 1, time: "2026-12-07T00:00:00.000Z", transport: "stdio", mcpgen: "0.1.0" };
    writeFileSync(
      trace,
      [
        JSON.stringify(start),
        JSON.stringify({ time: start.time, from: "client", message: JSON.parse(ping) }),
        `{"time":"${start.time}","from":"server","message":${deep}}`,
        JSON.stringify({ time: start.time, from: "server", message: JSON.parse(pong) }),
        "",
      ].join("\n"),
    );
    for (const [file, line] of [
      [plain, 2],
      [trace, 3],
    ] as const) {
      const { findings } = await checkLog(file);
      expect(findings.map((f) => [f.rule, f.line, f.message])).toEqual([["unreadable-line", line, "a message nested more than 512 levels deep: not judged"]]);
      const explained: string[] = [];
      await explainLog(file, (e) => explained.push(JSON.stringify(e)));
      expect(explained.filter((e) => e.includes("nested more than 512 levels deep"))).toHaveLength(1);
    }
  });

  it("skip a line longer than they read, without holding it, and go on with the next", async () => {
    const { fileLines } = await import("../../../../src/commands/check/read/lines.js");
    const file = path.join(tempProject(), "long.jsonl");
    writeFileSync(file, `\uFEFFfirst\r\n${"x".repeat(5000)}\nlast`);
    const lines = [];
    for await (const l of fileLines(file, 1000)) lines.push(l);
    expect(lines).toEqual([
      { line: 1, text: "first" },
      { line: 2, tooLong: 5000 },
      { line: 3, text: "last" },
    ]);
  });
});
