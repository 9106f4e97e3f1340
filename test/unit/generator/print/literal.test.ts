import fc from "fast-check";
import { propertyParameters } from "../../../helpers/properties.js";
import { describe, expect, it } from "vitest";
import { docComment, jsonLiteralType, jsonTemplate, propertyKey, safeJson, stringLiteral, typePropertyKey } from "../../../../src/generator/print/literal.js";

describe("stringLiteral", () => {
  const cases: [string, { given: string; want: string }][] = [
    ["plain", { given: "hello", want: '"hello"' }],
    ["quotes and backslashes", { given: 'say "hi" \\ bye', want: '"say \\"hi\\" \\\\ bye"' }],
    ["template syntax stays inert", { given: "${process.exit(1)} `x`", want: '"${process.exit(1)} `x`"' }],
    ["line terminators", { given: "a\nb\r\u2028\u2029", want: '"a\\nb\\r\\u2028\\u2029"' }],
    ["closing script tags", { given: "</script>", want: '"<\\/script>"' }],
    // `<!--` then `<script` puts the HTML parser in its double-escaped state: the next </script> no longer ends the element.
    ["HTML comment and script openers, any case", { given: "<!--<script><SCRIPT", want: '"\\u003c!--\\u003cscript>\\u003cSCRIPT"' }],
    ["NUL and emoji", { given: "\u0000🎁", want: '"\\u0000🎁"' }],
    ["comment closers", { given: "*/ /*", want: '"*/ /*"' }],
  ];
  it.each(cases)("%s", (_name, { given, want }) => {
    expect(stringLiteral(given)).toBe(want);
    // What the literal evaluates to is exactly the input.
    expect(new Function(`return ${want};`)()).toBe(given);
  });
});

describe("property keys", () => {
  it.each([
    ["name", "name", "name"],
    ["content-type", '"content-type"', '"content-type"'],
    ["2fa", '"2fa"', '"2fa"'],
    ["__proto__", '["__proto__"]', "__proto__"],
    ["with space", '"with space"', '"with space"'],
  ])("%s", (name, value, type) => {
    expect(propertyKey(name)).toBe(value);
    expect(typePropertyKey(name)).toBe(type);
  });
});

describe("jsonLiteralType", () => {
  it("types literal values", () => {
    expect(jsonLiteralType({ kind: "a", n: [1, null] })).toBe('{ kind: "a"; n: readonly [1, null] }');
  });
});

describe("safeJson", () => {
  it("makes JSON text safe to paste into source, value unchanged", () => {
    const value = JSON.parse('{"a": ["x\\u2028", "</script>", "<!--<script>"], "__proto__": 1}');
    const text = safeJson(JSON.stringify(value));
    expect(text).toBe('{"a":["x\\u2028","<\\/script>","\\u003c!--\\u003cscript>"],"__proto__":1}');
    expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(value)));
  });
});

describe("jsonTemplate", () => {
  const evaluate = (source: string): unknown => JSON.parse(new Function(`return ${source};`)() as string);

  it("cannot be left early, and JSON.parse reads back the value", () => {
    const hostile = {
      a: "`); process.exit(1); (`",
      b: "${process.exit(1)}",
      c: "end\\",
      d: "\\`",
      e: "</script>\u2028\u2029",
      g: "<!--<script><Script",
      f: "\r\n\u0000\ud800",
      "`k${": ["$", "{", "\\u0060"],
    };
    const source = jsonTemplate(JSON.stringify(hostile));
    expect(source).toMatch(/^String\.raw`[^`]*`$/);
    expect(source).not.toContain("${");
    expect(source).not.toContain("</");
    expect(source).not.toMatch(/<!--|<script/i);
    expect(evaluate(source)).toEqual(hostile);
  });

  it("round-trips any JSON value, on one line or many", () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.boolean(), (value, pretty) => {
        const json = JSON.stringify(value, null, pretty ? 1 : undefined);
        expect(evaluate(jsonTemplate(json))).toEqual(JSON.parse(json));
      }),
      propertyParameters(500, 20261202),
    );
  });
});

describe("docComment", () => {
  it("cannot be closed early and keeps one line per line", () => {
    expect(docComment(["Ends */ here", "line1\nline2\u2028line3"])).toBe("/**\n * Ends *\\/ here\n *\n * line1\n * line2\n * line3\n */\n");
    expect(docComment(["one"], "  ")).toBe("  /** one */\n");
    expect(docComment([""])).toBe("");
  });
});
