import { describe, expect, it } from "vitest";
import { KEYWORDS, SUBSCHEMAS } from "../../../src/validate/schemaKeywords.js";
import { ANNOTATIONS, APPLIES_TO } from "../../../src/diff/keywords.js";
import { forEachSchema } from "../../../src/model/refs.js";

describe("the JSON Schema keyword tables agree", () => {
  it.each([
    ["SUBSCHEMAS (every walk over a schema)", Object.keys(SUBSCHEMAS)],
    ["the diff's ANNOTATIONS", [...ANNOTATIONS]],
    ["the diff's APPLIES_TO", Object.keys(APPLIES_TO)],
  ])("every keyword of %s is a known keyword (no suspicious-key warning on it)", (_name, keywords) => {
    expect(keywords.filter((k) => !KEYWORDS.has(k))).toEqual([]);
  });

  it("SUBSCHEMAS has no prototype: an inherited name is not a keyword", () => {
    expect(SUBSCHEMAS["constructor"]).toBeUndefined();
    expect(SUBSCHEMAS["toString"]).toBeUndefined();
    expect(SUBSCHEMAS["__proto__"]).toBeUndefined();
  });

  it("a walk reaches a subschema under every keyword of the table, in each form", () => {
    const leaf = (n: number) => ({ title: `leaf ${n}` });
    const schema: Record<string, unknown> = {};
    let n = 0;
    for (const [keyword, form] of Object.entries(SUBSCHEMAS))
      schema[keyword] = form === "one" ? leaf(n++) : form === "list" ? [leaf(n++), leaf(n++)] : { a: leaf(n++), b: leaf(n++) };
    const seen: string[] = [];
    forEachSchema(schema, (node, path) => {
      if (typeof node.title === "string") seen.push(`${node.title} at ${path().join("/")}`);
    });
    expect(seen).toHaveLength(n);
    expect(seen).toContain("leaf 0 at additionalProperties");
    expect(seen.filter((s) => s.includes(" at properties/"))).toEqual(
      expect.arrayContaining([expect.stringMatching(/ at properties\/a$/), expect.stringMatching(/ at properties\/b$/)]),
    );
  });
});
