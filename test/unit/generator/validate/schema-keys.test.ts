/**
 * validate/schemaKeys.ts: which keys of a schema are no keywords of its dialect (a typo, a keyword
 * of the other dialect, or no keyword at all), where keys are keywords and only there.
 */
import { describe, expect, it } from "vitest";
import { dialectOf, schemaKeyFindings, type KeyFinding } from "../../../../src/generator/validate/schemaKeys.js";
import { keywordsOf } from "../../../../src/jsonSchema/keywords.js";

const DRAFT_07 = "http://json-schema.org/draft-07/schema#";

/** The findings as `path: kind key (-> near)`, short to read. */
function findings(schema: unknown): string[] {
  return schemaKeyFindings(schema, dialectOf(schema)).map((f: KeyFinding) => {
    const where = f.path.join("/");
    if (f.kind === "typo") return `${where}: typo of ${f.near}`;
    if (f.kind === "other-dialect") return `${where}: ${f.other} keyword`;
    return `${where}: unknown`;
  });
}

const cases: [string, { given: unknown; want: string[] }][] = [
  ["a schema of keywords only", { given: { type: "object", properties: { a: { type: "string", minLength: 1 } }, required: ["a"] }, want: [] }],
  [
    "the issue's typos, and the one inside the misspelt `properties`",
    {
      given: { type: "object", properites: { name: { type: "string", minLenght: 1 } }, requried: ["name"] },
      want: ["properites: typo of properties", "properites/name/minLenght: typo of minLength", "requried: typo of required"],
    },
  ],
  [
    "every subschema form: one, list, map, draft-07 tuple items, dependencies",
    {
      given: {
        $schema: DRAFT_07,
        not: { tpye: "string" },
        anyOf: [{ maximun: 1 }],
        definitions: { D: { formatt: "date" } },
        items: [{ enun: [1] }],
        dependencies: { a: { requried: ["b"] }, b: ["a"] },
      },
      want: [
        "not/tpye: typo of type",
        "anyOf/0/maximun: typo of maximum",
        "definitions/D/formatt: typo of format",
        "items/0/enun: typo of enum",
        "dependencies/a/requried: typo of required",
      ],
    },
  ],
  [
    "names and data are not keys of a schema: property and def names, enum, const, default, examples",
    {
      given: {
        properties: { requried: { default: { tpye: 1 } }, titel: { const: { itmes: 1 }, enum: [{ minLenght: 1 }], examples: [{ properites: 1 }] } },
        $defs: { requried: { type: "string" } },
        patternProperties: { "^tpye$": {} },
      },
      want: [],
    },
  ],
  [
    "x- keys are extensions; an x-mcp key next to one mcpgen reads is a typo",
    {
      given: { "x-nullable": true, "x-api-header": "h", "x-mcp-heder": "H", "x-mcp-header": "H", "x-mcp-cache": 1 },
      want: ["x-mcp-heder: typo of x-mcp-header"],
    },
  ],
  ["keys YAML made from text are the suspicious-key check's, not typos", { given: { description: "a name", "Type.": null, requried: null }, want: [] }],
  [
    "keywords of the other dialect, walked into all the same",
    {
      given: { $schema: DRAFT_07, prefixItems: [{ tpye: "string" }], unevaluatedProperties: false, $defs: { A: {} } },
      want: ["prefixItems: 2020-12 keyword", "prefixItems/0/tpye: typo of type", "unevaluatedProperties: 2020-12 keyword"],
    },
  ],
  [
    "additionalItems in 2020-12; definitions and dependencies are in both",
    { given: { additionalItems: false, definitions: {}, dependencies: {} }, want: ["additionalItems: draft-07 keyword"] },
  ],
  [
    "keys of no dialect, far from any keyword",
    {
      given: { nullable: true, discriminator: { propertyName: "k" }, tsType: "X", $comment: "a keyword" },
      want: ["nullable: unknown", "discriminator: unknown", "tsType: unknown"],
    },
  ],
  [
    "of two keywords as near, the one whose value fits: `$def` with a mapping is `$defs`, with a string `$ref`",
    {
      given: { $def: { A: { tpye: "string" } }, items: { $def: "#/$defs/A" } },
      want: ["$def: typo of $defs", "$def/A/tpye: typo of type", "items/$def: typo of $ref"],
    },
  ],
  [
    "case aside: additionalproperties is additionalProperties",
    { given: { additionalproperties: false }, want: ["additionalproperties: typo of additionalProperties"] },
  ],
];

describe("schemaKeyFindings", () => {
  it.each(cases)("%s", (_name, { given, want }) => {
    expect(findings(given)).toEqual(want);
  });

  it("reads the dialect from the root's $schema: 2020-12 unless it says draft-07", () => {
    expect(dialectOf({ $schema: DRAFT_07 })).toBe("draft-07");
    expect(dialectOf({ $schema: "https://json-schema.org/draft/2020-12/schema" })).toBe("2020-12");
    expect(dialectOf({})).toBe("2020-12");
    expect(dialectOf(true)).toBe("2020-12");
  });

  it("knows each dialect's keywords: draft-07 lacks 2019-09's and 2020-12's, 2020-12 lacks additionalItems", () => {
    expect(keywordsOf("draft-07")).not.toContain("prefixItems");
    expect(keywordsOf("draft-07")).toEqual(expect.arrayContaining(["additionalItems", "definitions", "$defs", "dependencies", "if"]));
    expect(keywordsOf("2020-12")).not.toContain("additionalItems");
    expect(keywordsOf("2020-12")).toEqual(expect.arrayContaining(["prefixItems", "$defs", "definitions", "dependentSchemas", "unevaluatedProperties"]));
  });
});
