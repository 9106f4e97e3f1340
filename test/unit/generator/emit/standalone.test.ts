/**
 * The validators mcpgen prints at generate time (standalone.ts) against the ones the runtime
 * compiles with ajv, which served every check before: random schemas of both dialects (objects,
 * arrays, tuples, combinators, conditionals, refs, recursion, unevaluated keywords, patterns on
 * RegExp and on RE2JS with lengths beside them, `__proto__` keys and values) and random values,
 * near the schema and far from it. The verdict, the error objects and their words must be the
 * compiled validator's, byte for byte, under the same pattern cap.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { codePointLength, createAjv, patternEngine, planPattern, runValidator, type PatternTable } from "@mcpgen/runtime/codegen";
import type { CompiledValidator } from "@mcpgen/runtime/server";
import { standaloneValidators } from "../../../../src/generator/emit/standalone.js";
import { propertyParameters } from "../../../helpers/properties.js";

const PATTERNS = ["^a", "b$", "^[a-z]+$", "\\p{L}", "^(a|b)*$", "(a|aa)+$", "^(?=.*\\d)\\w+$", "x{2,}", '^x"'];
const plans: PatternTable = Object.fromEntries(PATTERNS.map((source) => [source, planPattern(source)]));
const CAP = 12;

/** The printed code of one schema, evaluated here as a module that imports it would run it. */
function printed(schema: object): CompiledValidator {
  const code = standaloneValidators(new Map([["s", schema]]), plans, "test");
  const make = new Function("patternEngine", "codePointLength", `${code.helpers.join("\n")}\nconst exports = {};\n${code.code}\nreturn exports;`) as (
    engine: unknown,
    length: unknown,
  ) => Record<string, CompiledValidator>;
  return make(patternEngine(plans, { maxInput: CAP }), codePointLength)[code.names.get("s")!]!;
}

const word = fc.constantFrom("a", "b", "ab", "aab", "xxy", "é", "😀", "", "a1", "__proto__", "constructor", "abcdefghijklmnop");
const num = fc.oneof(fc.integer({ min: -3, max: 5 }), fc.constantFrom(0.5, 2.5, -0));
const pattern = fc.constantFrom(...PATTERNS);
const names = fc.constantFrom("a", "b", "n", "a/b", "c~d", "__proto__", "constructor");

const leaf: fc.Arbitrary<unknown> = fc.oneof(
  fc.record({ type: fc.constant("string"), minLength: fc.nat(3), maxLength: fc.nat(6), pattern, format: fc.constant("email") }, { requiredKeys: [] }),
  fc.record(
    { type: fc.constantFrom("number", "integer"), minimum: num, maximum: num, exclusiveMinimum: num, multipleOf: fc.constantFrom(0.5, 2) },
    { requiredKeys: ["type"] },
  ),
  fc.record({
    enum: fc.array(fc.oneof(word, num, fc.constant(null), fc.constant(JSON.parse('{"__proto__":{"a":1}}') as unknown), fc.constant([1, "a"])), {
      minLength: 1,
      maxLength: 3,
    }),
  }),
  fc.record({ const: fc.oneof(word, num, fc.constant({ a: [1] })) }),
  fc.constantFrom({ type: "boolean" }, { type: "null" }, { type: ["string", "null"] }, {}, true, false, { not: { type: "string" } }),
);

const schema: fc.Arbitrary<unknown> = fc.letrec<{ node: unknown }>((tie) => ({
  node: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    leaf,
    fc.record(
      {
        type: fc.constant("object"),
        properties: fc.dictionary(names, tie("node"), { maxKeys: 3 }),
        required: fc.subarray(["a", "n", "__proto__", "missing"]),
        additionalProperties: fc.oneof(fc.boolean(), tie("node")),
        patternProperties: fc.dictionary(pattern, tie("node"), { maxKeys: 1 }),
        propertyNames: fc.record({ maxLength: fc.nat(3) }),
        minProperties: fc.nat(2),
        dependentRequired: fc.constant({ a: ["b"] }),
      },
      { requiredKeys: [] },
    ),
    fc.record(
      {
        type: fc.constant("array"),
        items: tie("node"),
        prefixItems: fc.array(tie("node"), { maxLength: 2 }),
        minItems: fc.nat(2),
        maxItems: fc.nat(3),
        uniqueItems: fc.boolean(),
        contains: tie("node"),
        minContains: fc.nat(2),
      },
      { requiredKeys: [] },
    ),
    fc.record({ anyOf: fc.array(tie("node"), { minLength: 1, maxLength: 3 }) }),
    fc.record({ oneOf: fc.array(tie("node"), { minLength: 1, maxLength: 3 }) }),
    fc.record({ allOf: fc.array(tie("node"), { minLength: 1, maxLength: 2 }), unevaluatedProperties: fc.boolean() }, { requiredKeys: ["allOf"] }),
    fc.record({ if: tie("node"), then: tie("node"), else: tie("node") }, { requiredKeys: ["if"] }),
    fc.constant({ $ref: "#/$defs/tree" }),
  ),
})).node;

/** A root that may carry $defs (a recursive tree the `$ref` leaves point to) and draft-07's $schema. */
const root = fc.tuple(schema, fc.boolean()).map(([node, draft07]) => {
  const defs = {
    tree: { type: "object", properties: { name: { type: "string", pattern: "^(a|b)*$" }, kids: { type: "array", items: { $ref: "#/$defs/tree" } } } },
  };
  const base = typeof node === "object" && node !== null ? node : { allOf: [node] };
  return draft07
    ? { $schema: "http://json-schema.org/draft-07/schema#", definitions: defs, ...JSON.parse(JSON.stringify(base).replaceAll("#/$defs/", "#/definitions/")) }
    : { $defs: defs, ...base };
});

const value: fc.Arbitrary<unknown> = fc.oneof(
  word,
  num,
  fc.boolean(),
  fc.constant(null),
  fc.string({ maxLength: 20 }),
  fc.constant("ab".repeat(10)),
  fc.dictionary(names, fc.oneof(word, num, fc.constant(null), fc.array(word, { maxLength: 3 })), { maxKeys: 4 }),
  fc.array(fc.oneof(word, num, fc.dictionary(names, word, { maxKeys: 2 })), { maxLength: 4 }),
  fc.constant({ name: "ab", kids: [{ name: "c" }, { kids: [{ name: 1 }] }] }),
  fc.jsonValue({ maxDepth: 3 }),
);

describe("printed validators", () => {
  const compiled = { d07: createAjv(true, plans, { maxPatternInput: CAP }), d2020: createAjv(false, plans, { maxPatternInput: CAP }) };

  it("give the compiled validator's verdict and errors on any schema and value", () => {
    fc.assert(
      // As JSON.parse makes them, which is how schemas and arguments arrive (`__proto__` an own key).
      fc.property(root.map(json), fc.array(value.map(json), { minLength: 1, maxLength: 6 }), (s, values) => {
        const draft07 = "$schema" in s;
        let reference: ReturnType<typeof compiled.d07.compile>;
        try {
          reference = (draft07 ? compiled.d07 : compiled.d2020).compile(s);
        } catch {
          // A schema its meta-schema refuses (`prefixItems: []`): mcpgen's validate stage reports
          // it before anything is printed, so there is nothing to compare.
          return;
        }
        const fn = printed(s);
        for (const v of values) {
          const wordsOfCompiled = safe(() => runValidator(reference, v));
          const wordsOfPrinted = safe(() => runValidator(fn, v));
          expect(wordsOfPrinted).toEqual(wordsOfCompiled);
          if (!wordsOfCompiled.startsWith("throws")) expect(JSON.stringify(fn.errors)).toBe(JSON.stringify(reference.errors));
        }
      }),
      propertyParameters(300, 41),
    );
  });

  it("keep a `__proto__` key a key, as the compiled ones do: in properties and enum values", () => {
    const withProto = JSON.parse(
      '{"type":"object","properties":{"__proto__":{"type":"string"}},"required":["__proto__"],"additionalProperties":false}',
    ) as object;
    const fn = printed(withProto);
    const reference = createAjv(false, plans).compile(withProto);
    for (const text of ['{"__proto__":"x"}', '{"__proto__":1}', "{}"]) expect(fn(JSON.parse(text)), text).toBe(reference(JSON.parse(text)));
    // ajv itself never counts `__proto__` among `properties` (it is "additional"); printed, the same.
    expect(fn(JSON.parse('{"__proto__":"x"}'))).toBe(false);
    const enumFn = printed(JSON.parse('{"enum":[{"__proto__":{"a":1}}]}') as object);
    expect(enumFn(JSON.parse('{"__proto__":{"a":1}}'))).toBe(true);
    expect(enumFn({})).toBe(false);
  });

  it("keep a schema's text data: names, values and patterns made to look like code stay strings", () => {
    const evil = '"+(globalThis.pwned=1)+"';
    const schema = {
      type: "object",
      properties: { [evil]: { type: "string", enum: [evil, "</script><script>globalThis.pwned=2</script>"] }, "a\u2028b": { const: "\u2029" } },
      required: [evil],
      patternProperties: { '^x"': { type: "number" } },
      $comment: "*/ globalThis.pwned = 3; /*",
    };
    const fn = printed(schema);
    expect((globalThis as { pwned?: unknown }).pwned).toBeUndefined();
    expect(fn({ [evil]: evil, "a\u2028b": "\u2029" })).toBe(true);
    expect(fn({})).toBe(false);
    expect(JSON.stringify(fn.errors)).toContain(evil.replaceAll('"', '\\"'));
    expect((globalThis as { pwned?: unknown }).pwned).toBeUndefined();
  });

  it("share one function among schemas of the same text and dialect", () => {
    const a = { type: "object", properties: { x: { type: "string" } } };
    const code = standaloneValidators(
      new Map<string, object>([
        ["one", a],
        ["two", structuredClone(a)],
        ["three", { $schema: "http://json-schema.org/draft-07/schema#", ...a }],
      ]),
      plans,
      "test",
    );
    expect(code.names.get("one")).toBe(code.names.get("two"));
    expect(code.names.get("three")).not.toBe(code.names.get("one"));
    expect(code.code.match(/^exports\.v\d+ = /gm)).toHaveLength(2);
  });

  it("name what they print from 0 in each schema, whatever the ajv printed before (the output is the same in every run)", () => {
    // Texts no other test prints, so neither is found in the run's cache.
    const a = { $comment: `a ${Math.random()}`, type: "object", properties: { x: { type: "string", minLength: 1, pattern: "^a" } } };
    const b = { $comment: `b ${Math.random()}`, type: "object", properties: { y: { enum: [{ k: 1 }] }, z: { type: "string", maxLength: 3 } } };
    const code = standaloneValidators(
      new Map<string, object>([
        ["a", a],
        ["b", b],
      ]),
      plans,
      "test",
    ).code;
    const second = code.slice(code.indexOf("exports.v1 = "));
    // The same schema (another comment, so not from the cache), printed first by a fresh ajv.
    const alone = standaloneValidators(new Map([["b", { ...b, $comment: "alone" }]]), plans, "test").code;
    expect(second.replace("exports.v1 = ", "").replace(b.$comment, "alone")).toBe(alone.replace("exports.v0 = ", ""));
    expect(second).toContain("exports.f = validate0;");
  });

  it("read the pattern cap of the engine that runs them, not the one they were printed with", () => {
    const s = { type: "string", pattern: "(a|aa)+$" };
    expect(plans["(a|aa)+$"]).not.toHaveProperty("regexp");
    const code = standaloneValidators(new Map([["s", s]]), plans, "test");
    const run = (cap: number, text: string) => {
      const make = new Function("patternEngine", "codePointLength", `const exports = {};\n${code.code}\nreturn exports;`) as (
        e: unknown,
        l: unknown,
      ) => Record<string, (v: unknown) => boolean>;
      const fn = make(patternEngine(plans, { maxInput: cap }), codePointLength)[code.names.get("s")!]!;
      return runValidator(fn, text);
    };
    expect(run(5, "aaaaaa")).toBe('Arguments must NOT have more than 5 characters to be checked against pattern "(a|aa)+$"');
    expect(run(50, "aaaaaa")).toBeUndefined();
  });
});

function json<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

function safe(run: () => string | undefined): string {
  try {
    return run() ?? "valid";
  } catch (error) {
    return `throws ${(error as Error).name}: ${(error as Error).message}`;
  }
}
