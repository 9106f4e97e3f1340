/** The mock's value generator: values valid by ajv for random schemas of the supported subset, seeded and deterministic. */
import { Ajv2020 } from "ajv/dist/2020.js";
import fc from "fast-check";
import { propertyParameters } from "../../../helpers/properties.js";
import { describe, expect, it } from "vitest";
import { Random, stableJson } from "../../../../src/commands/mock/random.js";
import { formatString, patternString, UnmockablePattern } from "../../../../src/commands/mock/strings.js";
import { DEFAULT_LIMITS, generateValue, MINIMAL_LIMITS, Unmockable } from "../../../../src/commands/mock/values.js";
import { AJV_OPTIONS } from "../../../../packages/runtime/src/shared/ajv.js";

// The servers' options: with ownProperties, an absent `constructor` property is absent (ajv's
// default reads Object.prototype's and calls it "not a string").
const ajv = new Ajv2020(AJV_OPTIONS);

type Schema = Record<string, unknown>;

/** Patterns with classes, groups, alternatives, quantifiers and anchors. */
const PATTERNS = [
  "^[a-z]+$",
  "^[A-Z]{2}-\\d{3,5}$",
  "^(foo|bar)_\\w*$",
  "\\d+",
  "^[^\\s@]+@[^\\s@]+\\.[a-z]{2,}$",
  "^(?:ab|cd)?x{2}$",
  "^\\p{Lu}\\p{Ll}+$",
  "^[0-9a-f]{8}$",
];
const FORMATS = ["date-time", "date", "time", "email", "uri", "uuid", "hostname", "ipv4"];

const leaf: fc.Arbitrary<Schema> = fc.oneof(
  fc.tuple(fc.nat(5), fc.nat(10)).map(([min, extra]) => ({ type: "string", minLength: min, maxLength: min + extra })),
  fc.constantFrom(...PATTERNS).map((pattern) => ({ type: "string", pattern })),
  fc.constantFrom(...FORMATS).map((format) => ({ type: "string", format })),
  fc.tuple(fc.integer({ min: -1000, max: 1000 }), fc.nat(500), fc.option(fc.constantFrom(2, 3, 5, 10), { nil: undefined })).map(([min, span, multipleOf]) => ({
    type: "integer",
    minimum: min,
    maximum: min + span + (multipleOf ?? 0),
    ...(multipleOf ? { multipleOf } : {}),
  })),
  fc
    .tuple(fc.double({ min: -100, max: 100, noNaN: true }), fc.double({ min: 0.5, max: 100, noNaN: true }))
    .map(([min, span]) => ({ type: "number", exclusiveMinimum: min, maximum: min + span })),
  fc.constant({ type: "boolean" }),
  fc.constant({ type: "null" }),
  fc.array(fc.oneof(fc.string(), fc.integer(), fc.boolean()), { minLength: 1, maxLength: 4 }).map((values) => ({ enum: values })),
  fc.jsonValue().map((value) => ({ const: value })),
  fc.constant({ $ref: "#/$defs/Leaf" }),
);

const { schema: arbitrarySchema } = fc.letrec<{ schema: Schema }>((tie) => ({
  schema: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    leaf,
    fc.tuple(tie("schema"), fc.nat(2), fc.nat(3)).map(([items, min, extra]) => ({ type: "array", items, minItems: min, maxItems: min + extra })),
    fc
      .tuple(fc.dictionary(fc.constantFrom("a", "b", "c", "d", "constructor"), tie("schema"), { maxKeys: 4 }), fc.boolean(), fc.boolean())
      .map(([properties, closed, requireAll]) => ({
        type: "object",
        properties,
        required: requireAll ? Object.keys(properties) : Object.keys(properties).slice(0, 1),
        ...(closed ? { additionalProperties: false } : {}),
      })),
    fc.tuple(tie("schema"), tie("schema")).map(([a, b]) => ({ anyOf: [a, b] })),
    // Disjoint branches: an overlapping oneOf may admit no value at all.
    fc.tuple(tie("schema"), fc.constantFrom(...PATTERNS)).map(([a, pattern]) => ({
      oneOf: [{ type: "object", properties: { v: a }, required: ["v"] }, { type: "string", pattern }, { type: "null" }],
    })),
    fc.tuple(tie("schema"), tie("schema")).map(([a, b]) => ({
      allOf: [
        { type: "object", properties: { x: a }, required: ["x"] },
        { type: "object", properties: { y: b }, required: ["y"] },
      ],
    })),
    fc.tuple(tie("schema"), tie("schema")).map(([a, b]) => ({ type: "array", prefixItems: [a, b], minItems: 2, items: false })),
  ),
}));

/** A value valid by ajv within the attempts the mock makes (oneOf branches may overlap on one draw). */
function validWithin(schema: Schema, seed: number, attempts = 12): unknown {
  const validate = ajv.compile(schema);
  for (let attempt = 0; attempt < attempts; attempt++) {
    const value = generateValue(schema, new Random(seed, attempt));
    if (validate(value)) return value;
  }
  throw new Error(`no valid value for ${JSON.stringify(schema)}: ${ajv.errorsText(validate.errors)}`);
}

describe("generateValue", () => {
  it("makes values ajv accepts for random schemas of the supported subset", () => {
    fc.assert(
      fc.property(
        arbitrarySchema,
        leaf.filter((s) => !("$ref" in s)),
        fc.integer(),
        (schema, def, seed) => {
          const root = { ...schema, $defs: { Leaf: def } };
          validWithin(root, seed);
        },
      ),
      propertyParameters(150, 20261206),
    );
  });

  it("leaves an optional property named constructor out, as the servers' validators read it (fast-check's find)", () => {
    const schema = {
      type: "array",
      items: { type: "object", properties: { a: { type: "number" }, constructor: { type: "string", maxLength: 0 } }, required: ["a"] },
      minItems: 2,
      maxItems: 5,
    };
    expect(validWithin(schema, 385029008, 1)).toEqual(expect.arrayContaining([expect.not.objectContaining({ constructor: "" })]));
  });

  it("is deterministic for a seed, and varies with it", () => {
    const schema = {
      type: "object",
      properties: { name: { type: "string" }, n: { type: "integer" }, tags: { type: "array", items: { type: "string" } } },
      required: ["name", "n", "tags"],
    };
    const a = generateValue(schema, new Random(7, "t"));
    expect(generateValue(schema, new Random(7, "t"))).toEqual(a);
    const others = [1, 2, 3, 4, 5].map((seed) => stableJson(generateValue(schema, new Random(seed, "t"))));
    expect(new Set([...others, stableJson(a)]).size).toBeGreaterThan(1);
  });

  it("follows recursive $refs and stops nesting at maxDepth (only required parts below it)", () => {
    const tree = {
      $ref: "#/$defs/Node",
      $defs: {
        Node: { type: "object", properties: { name: { type: "string" }, children: { type: "array", items: { $ref: "#/$defs/Node" } } }, required: ["name"] },
      },
    };
    const depth = (node: unknown): number => {
      const children = (node as { children?: unknown[] }).children ?? [];
      return 1 + Math.max(0, ...children.map(depth));
    };
    for (let seed = 0; seed < 20; seed++) {
      const value = generateValue(tree, new Random(seed));
      expect(ajv.validate(tree, value)).toBe(true);
      expect(depth(value)).toBeLessThanOrEqual(DEFAULT_LIMITS.maxDepth);
    }
    expect(generateValue({ type: "object", properties: { a: { type: "string" } }, required: [] }, new Random(1), MINIMAL_LIMITS)).toEqual({});
  });

  it("says Unmockable for schemas it cannot satisfy", () => {
    expect(() => generateValue(false, new Random(1))).toThrow(Unmockable);
    expect(() => generateValue({ type: "integer", minimum: 5, maximum: 4 }, new Random(1))).toThrow(Unmockable);
    expect(() => generateValue({ allOf: [{ type: "string" }, { type: "integer" }] }, new Random(1))).toThrow(Unmockable);
    expect(() => generateValue({ $ref: "#/$defs/Missing" }, new Random(1))).toThrow(Unmockable);
    expect(() => generateValue({ type: "object", required: ["a"], additionalProperties: false }, new Random(1))).toThrow(Unmockable);
    expect(() => generateValue({ $ref: "#" }, new Random(1))).toThrow(Unmockable);
  });
});

describe("strings", () => {
  it.each(PATTERNS)("builds strings that match %s", (pattern) => {
    const re = new RegExp(pattern, "u");
    for (let seed = 0; seed < 30; seed++) expect(patternString(pattern, new Random(seed), 4)).toMatch(re);
  });

  it.each([["(a)\\1"], ["^(?=a)a$"], ["(?<!x)y"]])("refuses %s (a backreference or lookaround)", (pattern) => {
    expect(() => patternString(pattern, new Random(1), 4)).toThrow(UnmockablePattern);
  });

  it.each([
    ["date-time", /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/],
    ["date", /^\d{4}-\d{2}-\d{2}$/],
    ["email", /^[a-z]+\d+@example\.com$/],
    ["uri", /^https:\/\/example\.com\/[a-z]+\/\d+$/],
    ["uuid", /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/],
  ])("formats %s", (format, re) => {
    expect(formatString(format, new Random(3))).toMatch(re);
    expect(formatString("no-such-format", new Random(3))).toBeUndefined();
  });
});
