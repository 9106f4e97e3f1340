/** What pull prints about a server: a stray stdout line made safe, problems named by definition. */
import { describe, expect, it } from "vitest";
import { formatDiagnostic, type Diagnostic } from "../../../../src/common/diagnostics.js";
import { admitsAnyObject } from "../../../../src/jsonSchema/objects.js";
import { shownLine } from "../../../../src/commands/pull/explain.js";
import { describePulledProblems } from "../../../../src/commands/pull/report.js";

describe("shownLine", () => {
  it.each([
    ["plain text", "Server started", '"Server started"'],
    ["colour codes and quotes", '\u001b[32mok\u001b[0m "x"', '"\\u001b[32mok\\u001b[0m \\"x\\""'],
    ["C1 controls, line separators and bidirectional overrides", "a\u0085b\u2028c\u202ed\u2066e\tf", '"a\\u0085b\\u2028c\\u202ed\\u2066e\\tf"'],
    ["a long line, cut by characters (not UTF-16 units)", "😀".repeat(200), `"${"😀".repeat(160)}" (cut)`],
  ])("%s", (_, line, shown) => expect(shownLine(line)).toBe(shown));
});

describe("admitsAnyObject", () => {
  it.each([
    [true, true],
    [false, false],
    [{}, true],
    [{ $schema: "http://json-schema.org/draft-07/schema#", description: "x" }, true],
    [{ minLength: 1, "x-vendor": 1 }, true],
    [{ type: "object" }, false],
    [{ properties: {} }, false],
    [{ anyOf: [{ type: "string" }] }, false],
    [{ $ref: "#/defs/A" }, false],
  ])("%j -> %s", (schema, open) => expect(admitsAnyObject(schema)).toBe(open));
});

describe("describePulledProblems", () => {
  const at = (path: string, message = "m"): Diagnostic => ({ severity: "warning", code: "schema-not-object", message, file: "x.yaml", line: 1, col: 1, path });
  const lists = { tools: ["a", "b", "c", "d", "e", "f", "g"].map((name) => ({ name })), resources: [], resourceTemplates: [], prompts: [{ name: "p\u202eq" }] };

  it("says one problem once, listing the definitions, five by name", () => {
    expect(
      describePulledProblems(
        ["a", "b", "c", "d", "e", "f", "g"].map((_, i) => at(`tools[${i}].inputSchema`)),
        lists,
        "S",
        "-- s",
      ).map(formatDiagnostic),
    ).toEqual(["mcpgen: -- s: warning schema-not-object: m\n  in what S serves: inputSchema of 7 tools: `a`, `b`, `c`, `d`, `e` and 2 more"]);
  });

  it("names each place apart, escapes names, and keeps paths outside the lists", () => {
    expect(
      describePulledProblems(
        [at("tools[1].inputSchema.properties.q"), at("tools[2]"), at("prompts[0].arguments[0]"), at("server.name", "n")],
        lists,
        "S",
        "-- s",
      ).map(formatDiagnostic),
    ).toEqual([
      'mcpgen: -- s: warning schema-not-object: m\n  in what S serves: inputSchema.properties.q of tool `b`; tool `c`; arguments[0] of prompt "p\\u202eq"',
      "mcpgen: -- s: warning schema-not-object: n\n  in what S serves: server.name",
    ]);
  });
});
