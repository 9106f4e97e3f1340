import { describe, expect, it } from "vitest";
import { refResolver, typeOf } from "../../../../src/generator/emit/schemaType.js";
import type { JsonSchema } from "../../../../src/jsonSchema/refs.js";

const ctx = refResolver(new Map([["Gift", "Gift"]]), { rootTypeName: "Root", localTypeNames: new Map([["$defs/Point", "RootPoint"]]) });

const cases: [string, { given: JsonSchema; want: string }][] = [
  ["true schema", { given: true, want: "unknown" }],
  ["false schema", { given: false, want: "never" }],
  ["empty schema", { given: {}, want: "unknown" }],
  ["primitives", { given: { type: "integer" }, want: "number" }],
  ["type list with null", { given: { type: ["string", "null"] }, want: "string | null" }],
  ["enum", { given: { enum: ["a", 1, null, "a"] }, want: '"a" | 1 | null' }],
  ["const", { given: { const: "x" }, want: '"x"' }],
  ["array", { given: { type: "array", items: { type: "string" } }, want: "string[]" }],
  ["array of unions", { given: { type: "array", items: { type: ["string", "number"] } }, want: "(string | number)[]" }],
  ["array without items", { given: { type: "array" }, want: "unknown[]" }],
  [
    "tuple (2020-12)",
    { given: { type: "array", prefixItems: [{ type: "string" }, { type: "number" }], items: false, minItems: 1 }, want: "[string, number?]" },
  ],
  [
    "tuple (draft-07) with rest",
    { given: { type: "array", items: [{ type: "string" }], additionalItems: { type: "boolean" } }, want: "[string?, ...boolean[]]" },
  ],
  ["manifest def ref", { given: { $ref: "#/defs/Gift" }, want: "Gift" }],
  ["local ref", { given: { $ref: "#/$defs/Point" }, want: "RootPoint" }],
  ["root ref", { given: { $ref: "#" }, want: "Root" }],
  ["ref with description only", { given: { $ref: "#/defs/Gift", description: "x" }, want: "Gift" }],
  ["bare object", { given: { type: "object" }, want: "{\n  [key: string]: unknown;\n}" }],
  [
    "object with required, optional and quoted keys",
    {
      given: { type: "object", properties: { a: { type: "string" }, "b-c": { type: "number" } }, required: ["a"] },
      want: '{\n  a: string;\n  "b-c"?: number;\n}',
    },
  ],
  ["closed object", { given: { type: "object", properties: {}, additionalProperties: false }, want: "{\n  [key: string]: never;\n}" }],
  ["map", { given: { type: "object", additionalProperties: { type: "number" } }, want: "{\n  [key: string]: number;\n}" }],
  ["anyOf", { given: { anyOf: [{ type: "string" }, { $ref: "#/defs/Gift" }] }, want: "string | Gift" }],
  ["allOf", { given: { allOf: [{ $ref: "#/defs/Gift" }, { type: "object", properties: { n: { type: "number" } } }] }, want: "Gift & {\n  n?: number;\n}" }],
  ["nullable ref via anyOf", { given: { anyOf: [{ $ref: "#/defs/Gift" }, { type: "null" }] }, want: "Gift | null" }],
  [
    "brackets and quotes in descriptions do not change precedence",
    {
      given: {
        type: "array",
        items: { anyOf: [{ type: "object", properties: { n: { type: "integer", description: 'must be > 0 (or "("' } } }, { type: "null" }] },
      },
      want: '({\n  /** must be > 0 (or "(" */\n  n?: number;\n} | null)[]',
    },
  ],
  [
    "index signature admits undefined when a declared property is optional",
    {
      given: { type: "object", properties: { a: { type: "string" }, x: { type: "string" } }, required: ["x", "y"], additionalProperties: { type: "string" } },
      want: "{\n  a?: string;\n  x: string;\n  y: string;\n  [key: string]: string | undefined;\n}",
    },
  ],
  [
    "a required property without a schema is typed by what admits it: unknown, a pattern's type, never when closed",
    {
      given: { type: "object", properties: { id: { type: "string" } }, required: ["id", "force", "n1"], patternProperties: { "^n\\d$": { type: "number" } } },
      want: "{\n  id: string;\n  force: unknown;\n  n1: number;\n  [key: string]: unknown;\n}",
    },
  ],
  [
    "anyOf of required-only branches (also under allOf) requires what each branch requires: one variant per branch",
    {
      given: {
        type: "object",
        properties: { phone: { type: "string" }, email: { type: "string" } },
        allOf: [{ anyOf: [{ required: ["phone"] }, { required: ["email"] }] }],
      },
      want: "{\n  phone: string;\n  email?: string;\n} | {\n  phone?: string;\n  email: string;\n}",
    },
  ],
  [
    "allOf of required-only branches adds to required",
    { given: { type: "object", properties: { a: { type: "string" } }, allOf: [{ required: ["a"] }] }, want: "{\n  a: string;\n}" },
  ],
  [
    "a required property of a closed object with no schema is never",
    { given: { type: "object", required: ["x"], additionalProperties: false }, want: "{\n  x: never;\n  [key: string]: never;\n}" },
  ],
  [
    "doc comments on properties",
    {
      given: { type: "object", properties: { a: { type: "string", description: "The */ a", default: "x" } } },
      want: '{\n  /**\n   * The *\\/ a\n   *\n   * @default "x"\n   */\n  a?: string;\n}',
    },
  ],
];

describe("JSON Schema to TypeScript", () => {
  it.each(cases)("%s", (_name, { given, want }) => {
    expect(typeOf(given, ctx)).toBe(want);
  });
});
