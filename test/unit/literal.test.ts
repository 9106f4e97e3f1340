import { describe, expect, it } from "vitest";
import { docComment, jsonLiteral, jsonLiteralType, propertyKey, stringLiteral, typePropertyKey } from "../../src/print/literal.js";

describe("stringLiteral", () => {
  const cases: [string, { given: string; want: string }][] = [
    ["plain", { given: "hello", want: '"hello"' }],
    ["quotes and backslashes", { given: 'say "hi" \\ bye', want: '"say \\"hi\\" \\\\ bye"' }],
    ["template syntax stays inert", { given: "${process.exit(1)} `x`", want: '"${process.exit(1)} `x`"' }],
    ["line terminators", { given: "a\nb\r\u2028\u2029", want: '"a\\nb\\r\\u2028\\u2029"' }],
    ["closing script tags", { given: "</script>", want: '"<\\/script>"' }],
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

describe("jsonLiteral", () => {
  it("evaluates to the same JSON, own __proto__ keys included", () => {
    const value = JSON.parse('{"a":[1,-0,"x\\u2028"],"__proto__":{"polluted":true},"b":{},"c":[],"d":null,"e":false}');
    const text = jsonLiteral(value);
    const evaluated = new Function(`return ${text};`)();
    expect(JSON.stringify(evaluated)).toBe(JSON.stringify(value));
    expect(Object.hasOwn(evaluated, "__proto__")).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(text).toBe(
      '{\n  a: [\n    1,\n    0,\n    "x\\u2028",\n  ],\n  ["__proto__"]: {\n    polluted: true,\n  },\n  b: {},\n  c: [],\n  d: null,\n  e: false,\n}',
    );
  });

  it("types literal values", () => {
    expect(jsonLiteralType({ kind: "a", n: [1, null] })).toBe('{ kind: "a"; n: readonly [1, null] }');
  });
});

describe("docComment", () => {
  it("cannot be closed early and keeps one line per line", () => {
    expect(docComment(["Ends */ here", "line1\nline2\u2028line3"])).toBe("/**\n * Ends *\\/ here\n *\n * line1\n * line2\n * line3\n */\n");
    expect(docComment(["one"], "  ")).toBe("  /** one */\n");
    expect(docComment([""])).toBe("");
  });
});
