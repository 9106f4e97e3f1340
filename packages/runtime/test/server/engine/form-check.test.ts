/**
 * formCheck.ts against ajv, which checked every form before: random forms of MCP's subset (string,
 * number, integer, boolean fields, single- and multi-select enums, titled or not, lengths, bounds,
 * patterns) and random answers, near the form's values and far from them. The verdict, the error
 * objects and their words (describeErrors) must be ajv's, byte for byte, in ajv's order. Forms
 * outside the subset are not interpreted, and a form that is interpreted compiles no code.
 */
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { compileForm } from "../../../src/server/engine/formCheck.js";
import { FormValidators } from "../../../src/server/engine/forms.js";
import { planPattern } from "../../../src/server/engine/patternPlans.js";
import { patternEngine, loadRe2 } from "../../../src/shared/patterns.js";
import { createAjv } from "../../../src/shared/ajv.js";
import { runValidator } from "../../../src/shared/validation.js";
import { propertyParameters } from "../../../../../test/helpers/properties.js";

// Patterns that run on RE2JS need it loaded first, as the validators' prepare does.
beforeAll(() => loadRe2());

const plans = (source: string) => planPattern(source);
const engine = patternEngine(plans, { maxInput: 40 });
const matcherFor = (source: string) => engine(source, "u");
const ajv = createAjv(false, plans, { maxPatternInput: 40 });

const word = fc.constantFrom("a", "b", "ab", "Ada", "é", "😀", "", "x y", "0", "true");
const count = fc.integer({ min: 0, max: 4 });
const options = fc.uniqueArray(word, { minLength: 1, maxLength: 4 });
const titled = (values: string[]) => values.map((v, i) => (i % 2 === 0 ? { const: v, title: `T${v}` } : { const: v }));

/** One field of MCP's PrimitiveSchemaDefinition, with the optional keywords present or not. */
const field: fc.Arbitrary<Record<string, unknown>> = fc.oneof(
  fc.record(
    {
      type: fc.constant("string"),
      minLength: count,
      maxLength: count,
      pattern: fc.constantFrom("^a", "b$", "^[a-z]+$", "\\p{L}", "^(a|b)*$"),
      format: fc.constantFrom("email", "date"),
      title: fc.constant("A field"),
      default: word,
    },
    { requiredKeys: ["type"] },
  ),
  fc.record({ type: fc.constant("string"), enum: options, enumNames: fc.constant(["x"]) }, { requiredKeys: ["type", "enum"] }),
  options.map((values) => ({ type: "string", oneOf: titled(values) })),
  // Two branches with the same const: oneOf fails when both hold (ajv's passingSchemas).
  word.map((v) => ({ type: "string", oneOf: [{ const: v }, { const: v, title: "again" }] })),
  fc.record(
    {
      type: fc.constantFrom("number", "integer"),
      minimum: fc.oneof(fc.integer({ min: -3, max: 3 }), fc.constant(-0)),
      maximum: fc.double({ min: -3, max: 5, noNaN: true }),
    },
    { requiredKeys: ["type"] },
  ),
  fc.constant({ type: "boolean", description: "yes or no" }),
  fc.record(
    { type: fc.constant("array"), minItems: count, maxItems: count, items: options.map((values) => ({ type: "string", enum: values })) },
    { requiredKeys: ["type", "items"] },
  ),
  fc.record({ type: fc.constant("array"), minItems: count, items: options.map((values) => ({ anyOf: titled(values) })) }, { requiredKeys: ["type", "items"] }),
);

const names = fc.constantFrom("name", "age", "tags", "a/b", "c~d", "ok", "constructor");
const form = fc
  .dictionary(names, field, { maxKeys: 4 })
  .chain((properties) =>
    fc.record(
      { type: fc.constant("object"), properties: fc.constant(properties), required: fc.subarray([...Object.keys(properties), "missing"]) },
      { requiredKeys: ["type", "properties"] },
    ),
  );

const value: fc.Arbitrary<unknown> = fc.oneof(
  word,
  fc.integer({ min: -5, max: 6 }),
  fc.double({ min: -5, max: 6, noNaN: true, noDefaultInfinity: true }),
  fc.boolean(),
  fc.constant(null),
  fc.array(word, { maxLength: 5 }),
  fc.array(fc.oneof(word, fc.integer()), { maxLength: 3 }),
  fc.string({ maxLength: 50 }),
  fc.constant({}),
);
const answer = fc.oneof(fc.dictionary(names, value, { maxKeys: 5 }), value);

/** The values a field names itself (its options), so that answers hit them, twice-listed consts included. */
function named(field: Record<string, unknown>): unknown[] {
  const consts = (list: unknown) => (Array.isArray(list) ? list.map((o) => (o as { const: unknown }).const) : []);
  const items = field["items"] as Record<string, unknown> | undefined;
  const own = [...((field["enum"] as unknown[] | undefined) ?? []), ...consts(field["oneOf"])];
  const listed = [...((items?.["enum"] as unknown[] | undefined) ?? []), ...consts(items?.["anyOf"])];
  return [...own, ...(listed.length ? [listed, listed.slice(0, 1), [...listed, listed[0]]] : [])];
}

/** Answers to one form: random ones, and ones made of what its fields name. */
const answersTo = (schema: { properties: Record<string, Record<string, unknown>> }) => {
  const fields = Object.entries(schema.properties);
  const near =
    fields.length === 0
      ? fc.constant({})
      : fc.record(Object.fromEntries(fields.map(([name, f]) => [name, named(f).length ? fc.oneof(fc.constantFrom(...named(f)), value) : value])), {
          requiredKeys: [],
        });
  return fc.array(fc.oneof(answer, near), { minLength: 1, maxLength: 8 });
};

describe("forms interpreted without compiling code", () => {
  it("give ajv's verdict, error objects and words on random forms and answers", () => {
    fc.assert(
      fc.property(
        form.chain((schema) => fc.tuple(fc.constant(schema), answersTo(schema))),
        ([schema, answers]) => {
          const interpreted = compileForm(schema, matcherFor);
          expect(interpreted, JSON.stringify(schema)).toBeDefined();
          const compiled = ajv.compile(schema);
          for (const a of answers) {
            const want = compiled(a);
            expect(interpreted!(a), `${JSON.stringify(schema)} ${JSON.stringify(a)}`).toBe(want);
            expect(interpreted!.errors).toEqual(compiled.errors ?? null);
            expect(runValidator(interpreted!, a)).toBe(runValidator(compiled, a));
          }
        },
      ),
      propertyParameters(300, 4120),
    );
  });

  it("say the pattern's length limit as ajv's keyword does", () => {
    const schema = { type: "object", properties: { code: { type: "string", pattern: "^(a|b)*$" } } };
    const long = { code: "a".repeat(41) };
    const interpreted = compileForm(schema, matcherFor)!;
    const compiled = ajv.compile(schema);
    expect(interpreted(long)).toBe(compiled(long));
    expect(interpreted.errors).toEqual(compiled.errors);
  });

  it.each([
    ["a nested object", { type: "object", properties: { address: { type: "object", properties: {} } } }],
    ["a $ref", { type: "object", properties: { a: { $ref: "#/$defs/x" } }, $defs: { x: { type: "string" } } }],
    ["exclusiveMinimum", { type: "object", properties: { n: { type: "number", exclusiveMinimum: 0 } } }],
    ["additionalProperties", { type: "object", properties: {}, additionalProperties: false }],
    ["a field without a type", { type: "object", properties: { a: { enum: ["x"] } } }],
    ["an unknown keyword", { type: "object", properties: { a: { type: "string", "x-ui": "wide" } } }],
    ["a minLength that is no count", { type: "object", properties: { a: { type: "string", minLength: -1 } } }],
    ["a root that is not an object", { type: "string" }],
  ])("leave %s to ajv", (_, schema) => {
    expect(compileForm(schema, matcherFor)).toBeUndefined();
  });

  it("check a form in the subset where code from strings is refused, and say so for one outside it", async () => {
    const forms = new FormValidators();
    // ajv loaded first (a Worker bundles it): what fails below is its compile, not a missing module.
    await forms.prepare({ type: "object", properties: { address: { type: "object" } } });
    const subset = { type: "object", properties: { name: { type: "string", minLength: 2 } }, required: ["name"] };
    const outside = { type: "object", properties: { address: { type: "object", properties: { city: { type: "string" } } } } };
    // What Workers and a strict CSP do to ajv: its compile cannot make its function.
    const original = globalThis.Function;
    globalThis.Function = function () {
      throw new EvalError("Code generation from strings disallowed for this context");
    } as unknown as FunctionConstructor;
    try {
      expect(forms.check(subset, { name: "A" })).toBe("Property 'name' must NOT have fewer than 2 characters");
      expect(forms.check(subset, {})).toBe("Missing required property 'name'");
      expect(forms.check(subset, { name: "Ada" })).toBeUndefined();
      expect(forms.problem(outside)).toMatch(/^requestedSchema is not a schema ajv can compile \(Code generation from strings disallowed/);
    } finally {
      globalThis.Function = original;
    }
  });
});
