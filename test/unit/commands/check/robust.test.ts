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
