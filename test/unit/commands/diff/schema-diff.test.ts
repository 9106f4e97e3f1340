/**
 * diffSchemas: crafted pairs for each rule, and a property test of its soundness: on random schema
 * pairs (a schema and a mutation of it) and random values, "does not narrow" must mean every
 * value the old schema accepts is accepted by the new one (checked with ajv), and "does not
 * widen" the reverse.
 */
import { Ajv } from "ajv";
import fc from "fast-check";
import { propertyParameters } from "../../../helpers/properties.js";
import { describe, expect, it } from "vitest";
import type { Schema } from "../../../../src/commands/diff/difference.js";
import { diffSchemas } from "../../../../src/commands/diff/schemaDiff.js";

const narrows = (a: Schema, b: Schema) => diffSchemas(a, b).some((f) => f.narrows);
const widens = (a: Schema, b: Schema) => diffSchemas(a, b).some((f) => f.widens);
const obj = (properties: Record<string, Schema>, required: string[] = [], extra: Record<string, unknown> = {}): Schema => ({
  type: "object",
  properties,
  required,
  ...extra,
});

describe("diffSchemas on crafted pairs", () => {
  it("finds nothing between equal schemas, whatever their key order", () => {
    expect(diffSchemas({ type: "string", minLength: 1 }, { minLength: 1, type: "string" })).toEqual([]);
  });

  it("a new required property narrows; one no longer required widens", () => {
    const a = obj({ id: { type: "string" }, force: { type: "boolean" } }, ["id"]);
    const b = obj({ id: { type: "string" }, force: { type: "boolean" } }, ["id", "force"]);
    expect(diffSchemas(a, b)).toEqual([{ path: "properties.force", message: "force is now required", narrows: true, widens: false }]);
    expect(diffSchemas(b, a)).toEqual([{ path: "properties.force", message: "force is no longer required", narrows: false, widens: true }]);
  });

  it("enum values removed narrow, added widen, with the values named", () => {
    expect(diffSchemas({ enum: ["a", "b", "c"] }, { enum: ["a", "d"] })).toEqual([
      { path: "enum", message: 'values "b", "c" removed', narrows: true, widens: false },
      { path: "enum", message: 'value "d" added', narrows: false, widens: true },
    ]);
    expect(diffSchemas({ const: 1 }, { enum: [1, 2] })).toEqual([{ path: "enum", message: "value 2 added", narrows: false, widens: true }]);
  });

  it("types: integer is part of number; a type list gained or lost", () => {
    expect(diffSchemas({ type: "integer" }, { type: "number" })).toEqual([{ path: "type", message: "now accepts number", narrows: false, widens: true }]);
    expect(diffSchemas({ type: "number" }, { type: "integer" })).toEqual([
      { path: "type", message: "accepts only integers now", narrows: true, widens: false },
    ]);
    expect(diffSchemas({ type: ["string", "null"] }, { type: "string" })).toEqual([
      { path: "type", message: "no longer accepts null", narrows: true, widens: false },
    ]);
  });

  it("a list of values is checked against the other side's type and bounds; a bound of 0 bounds nothing", () => {
    // {const: 1} -> {type: integer, maximum: 3}: the list row only; the type and bound refuse no listed value.
    expect(diffSchemas({ const: 1 }, { type: "integer", maximum: 3 })).toEqual([
      { path: "enum", message: "no longer restricted to a list of values", narrows: false, widens: true },
      { path: "maximum", message: "maximum 3 added (no value the list allows is affected)", narrows: false, widens: false },
    ]);
    // An enum of strings under no type -> type string: no type row.
    expect(diffSchemas({ enum: ["en", "fr"] }, { type: "string" })).toEqual([
      { path: "enum", message: "no longer restricted to a list of values", narrows: false, widens: true },
    ]);
    expect(diffSchemas({ type: "integer", minimum: 0 }, { enum: [1, 2] })).toEqual([
      { path: "enum", message: "now one of 1, 2", narrows: true, widens: false },
      { path: "minimum", message: "minimum 0 removed (no value the list allows is affected)", narrows: false, widens: false },
    ]);
    expect(diffSchemas({ type: "string" }, { type: "string", minLength: 0 })).toEqual([]);
    expect(diffSchemas({ type: "integer" }, { type: "integer", multipleOf: 2 })).toEqual([
      { path: "multipleOf", message: "multipleOf 2 added", narrows: true, widens: false },
    ]);
  });

  it("bounds: a raised minimum narrows, a raised maximum widens, a removed one widens", () => {
    expect(diffSchemas({ type: "number", minimum: 0 }, { type: "number", minimum: 10 })[0]).toMatchObject({ path: "minimum", narrows: true, widens: false });
    expect(diffSchemas({ type: "number", maximum: 5 }, { type: "number", maximum: 6 })[0]).toMatchObject({ path: "maximum", narrows: false, widens: true });
    expect(diffSchemas({ type: "string", maxLength: 5 }, { type: "string" })[0]).toMatchObject({
      path: "maxLength",
      message: "maxLength 5 removed",
      narrows: false,
      widens: true,
    });
  });

  it("a property removed from a closed object narrows; added to a closed object widens; to an open one, by what it allows", () => {
    const closed = (p: Record<string, Schema>) => obj(p, [], { additionalProperties: false });
    // A removed property breaks typed code that sends or reads it, whatever the wire says (typed: both).
    expect(diffSchemas(closed({ a: { type: "string" }, b: {} }), closed({ a: { type: "string" } }))).toEqual([
      {
        path: "properties.b",
        message: "property b removed (no longer accepted)",
        narrows: true,
        widens: false,
        typed: { narrows: true, widens: true },
        change: "property-removed",
        consequence: { input: "calls that send it are refused", output: "code that reads it no longer compiles" },
      },
    ]);
    expect(diffSchemas(closed({ a: { type: "string" } }), closed({ a: { type: "string" }, b: {} }))).toEqual([
      { path: "properties.b", message: "property b added", narrows: false, widens: true, typed: { narrows: false, widens: true }, change: "property-added" },
    ]);
    // Open, with a declared property: b could hold anything before, so typing it narrows the wire;
    // but the type had no index signature, so no typed caller sent b.
    expect(diffSchemas(obj({ a: {} }), obj({ a: {}, b: { type: "string" } }))).toEqual([
      {
        path: "properties.b",
        message: "property b added",
        narrows: true,
        widens: false,
        typed: { narrows: false, widens: false },
        change: "property-added",
        consequence: { input: "only calls that sent it undeclared (no typed one) may be refused" },
      },
    ]);
    // With no declared property the type was `{ [key: string]: unknown }`: typed callers could send
    // b, and any other name, which the new type no longer allows.
    expect(diffSchemas(obj({}), obj({ b: { type: "string" } })).map((f) => [f.path, f.change, f.typed])).toEqual([
      ["properties.b", "property-added", { narrows: true, widens: false }],
      ["additionalProperties", "type-closed", { narrows: true, widens: true }],
    ]);
  });

  // Found in review: each pair was reported unchanged although ajv tells them apart.
  it("an inline schema against a recursive $ref is compared, not taken as seen", () => {
    const a = { type: "object", properties: { next: {} } };
    const b = { $defs: { N: { type: "object", properties: { next: { $ref: "#/$defs/N" } } } }, $ref: "#/$defs/N" };
    expect(narrows(a, b)).toBe(true);
  });

  it("const and enum together allow what both allow", () => {
    expect(diffSchemas({ enum: [1, 2], const: 1 }, { enum: [2], const: 1 })).toEqual([
      { path: "enum", message: "value 1 removed", narrows: true, widens: false },
    ]);
    expect(widens({ enum: [2], const: 1 }, { const: 1 })).toBe(true);
  });

  it("a $ref that is not followed (siblings, a deep pointer) into changed $defs is unproven", () => {
    const withSibling = (x: Schema): Schema => ({ $defs: { X: x }, type: "object", properties: { p: { $ref: "#/$defs/X", minLength: 1 } } });
    expect(narrows(withSibling({ type: "string" }), withSibling({ type: "number" }))).toBe(true);
    const deep = (y: Schema): Schema => ({ $defs: { X: { properties: { y } } }, type: "object", properties: { p: { $ref: "#/$defs/X/properties/y" } } });
    expect(narrows(deep({ type: "string" }), deep({ type: "number" }))).toBe(true);
  });

  it("unevaluatedProperties/Items make the keywords around them count; format is taken as asserted", () => {
    expect(narrows({ additionalProperties: true, unevaluatedProperties: false }, { unevaluatedProperties: false })).toBe(true);
    expect(narrows({ items: true, unevaluatedItems: false }, { unevaluatedItems: false })).toBe(true);
    expect(diffSchemas({ type: "string" }, { type: "string", format: "email" })).toEqual([
      { path: "format", message: 'format "email" added (asserted by some validators)', narrows: true, widens: false },
    ]);
    expect(narrows({}, { format: "email" })).toBe(true);
  });

  it("nested changes carry their path; annotations are neither", () => {
    const a = obj({ items: { type: "array", items: obj({ qty: { type: "integer", description: "how many" } }) } });
    const b = obj({ items: { type: "array", items: obj({ qty: { type: "integer", description: "how many (at least one)", minimum: 1 } }) } });
    expect(diffSchemas(a, b)).toEqual([
      { path: "properties.items.items.properties.qty.description", message: "description changed", narrows: false, widens: false },
      { path: "properties.items.items.properties.qty.minimum", message: "minimum 1 added", narrows: true, widens: false },
    ]);
  });

  it("follows local $refs on both sides, recursive ones included", () => {
    const tree = (leaf: Schema): Schema => ({
      $defs: { node: obj({ value: leaf, children: { type: "array", items: { $ref: "#/$defs/node" } } }) },
      $ref: "#/$defs/node",
    });
    expect(diffSchemas(tree({ type: "string" }), tree({ type: "string" }))).toEqual([]);
    expect(diffSchemas(tree({ type: "string" }), tree({ type: "string", maxLength: 3 }))).toEqual([
      { path: "properties.value.maxLength", message: "maxLength 3 added", narrows: true, widens: false },
    ]);
  });

  it("says both ways where it proves nothing: a changed anyOf, a changed pattern, an unknown keyword", () => {
    for (const [a, b] of [
      [{ anyOf: [{ type: "string" }] }, { anyOf: [{ type: "number" }] }],
      [
        { type: "string", pattern: "^a" },
        { type: "string", pattern: "^b" },
      ],
      [
        { type: "string", "x-weird": 1 },
        { type: "string", "x-weird": 2 },
      ],
    ] as [Schema, Schema][]) {
      expect(narrows(a, b) && widens(a, b)).toBe(true);
    }
  });
});

// ---- soundness on generated pairs ----

const KEYS = ["a", "b", "c"];
const leaf: fc.Arbitrary<Record<string, unknown>> = fc.oneof(
  fc.record({ type: fc.constantFrom("string", "number", "integer", "boolean", "null") }),
  fc.record({ type: fc.constant("integer"), minimum: fc.integer({ min: -2, max: 4 }), maximum: fc.integer({ min: 0, max: 6 }) }, { requiredKeys: ["type"] }),
  fc.record({ type: fc.constant("string"), minLength: fc.integer({ min: 0, max: 2 }), maxLength: fc.integer({ min: 0, max: 3 }) }, { requiredKeys: ["type"] }),
  fc.record({ enum: fc.uniqueArray(fc.constantFrom<unknown>("x", "y", 1, 2, true, null), { minLength: 1, maxLength: 4 }) }),
  fc.record(
    { enum: fc.uniqueArray(fc.constantFrom<unknown>("x", 1, 2), { minLength: 1, maxLength: 3 }), const: fc.constantFrom<unknown>("x", 1, 2) },
    { requiredKeys: ["const"] },
  ),
  fc.record({ type: fc.constant(["string", "null"]) }),
  fc.constant({}),
);
const { schema } = fc.letrec<{ schema: Record<string, unknown> }>((tie) => ({
  schema: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    leaf,
    fc.record(
      {
        type: fc.constant("object"),
        properties: fc.dictionary(fc.constantFrom(...KEYS), tie("schema"), { maxKeys: 3 }),
        required: fc.uniqueArray(fc.constantFrom(...KEYS), { maxLength: 3 }),
        additionalProperties: fc.oneof(fc.constant(false), fc.constant(true), leaf),
      },
      { requiredKeys: ["type"] },
    ),
    fc.record(
      {
        type: fc.constant("array"),
        items: tie("schema"),
        minItems: fc.integer({ min: 0, max: 2 }),
        maxItems: fc.integer({ min: 1, max: 3 }),
        uniqueItems: fc.boolean(),
      },
      { requiredKeys: ["type"] },
    ),
  ),
}));

/** A schema changed in one place, as an upstream edit would: a keyword added, dropped or replaced. */
interface Rng {
  nextInt(min: number, max: number): number;
}

function mutate(s: Record<string, unknown>, rnd: Rng, fresh: Record<string, unknown>): Record<string, unknown> {
  const copy: Record<string, unknown> = structuredClone(s);
  const keys = Object.keys(copy);
  const choice = rnd.nextInt(0, 5);
  if (choice === 0) return fresh;
  if (choice === 1 && keys.length) {
    delete copy[keys[rnd.nextInt(0, keys.length - 1)]!];
    return copy;
  }
  if (choice === 2 && copy.properties && typeof copy.properties === "object") {
    const props = copy.properties as Record<string, unknown>;
    const names = Object.keys(props);
    if (names.length) {
      const name = names[rnd.nextInt(0, names.length - 1)]!;
      props[name] = mutate(props[name] as Record<string, unknown>, rnd, fresh);
      return copy;
    }
  }
  if (choice === 3 && copy.items && typeof copy.items === "object") {
    copy.items = mutate(copy.items as Record<string, unknown>, rnd, fresh);
    return copy;
  }
  if (choice === 4) {
    const required = new Set((copy.required as string[] | undefined) ?? []);
    const key = KEYS[rnd.nextInt(0, 2)]!;
    if (required.has(key)) required.delete(key);
    else required.add(key);
    if (copy.type === "object") copy.required = [...required];
    return copy;
  }
  return { ...copy, ...fresh };
}

const { value } = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: "small" },
    fc.constantFrom<unknown>("x", "y", "", "ab", "abcd", 1, 2, -1, 0, 3, 5, 7, 1.5, true, false, null),
    fc.array(tie("value"), { maxLength: 3 }),
    fc.dictionary(fc.constantFrom(...KEYS), tie("value"), { maxKeys: 3 }),
  ),
}));

describe("diffSchemas soundness on generated schema pairs (ajv as the judge)", () => {
  const ajv = new Ajv({ strict: false, allErrors: false });

  it("no narrowing claimed => whatever the old schema accepts the new one accepts; and likewise for widening", () => {
    let checkedNarrow = 0;
    let checkedWiden = 0;
    fc.assert(
      fc.property(schema, schema, fc.array(value, { minLength: 20, maxLength: 40 }), fc.integer(), (a0, fresh0, values0, seed) => {
        // Plain objects, as JSON gives them (fast-check's dictionaries have no prototype).
        let [a, fresh, values] = JSON.parse(JSON.stringify([a0, fresh0, values0])) as [Record<string, unknown>, Record<string, unknown>, unknown[]];
        let b = mutate(a, seeded(seed), fresh);
        // Half the pairs go through a $ref into $defs, as mcpgen bundles shared definitions.
        if (seed % 2 === 0) {
          const wrap = (s: Record<string, unknown>) => ({
            $defs: { node: s },
            type: "object",
            properties: { a: { type: "array", items: { $ref: "#/$defs/node" } } },
          });
          [a, b] = [wrap(a), wrap(b)];
        }
        const findings = diffSchemas(a, b);
        const validA = ajv.compile(a);
        const validB = ajv.compile(b);
        if (!findings.some((f) => f.narrows)) {
          checkedNarrow++;
          for (const v of values)
            if (validA(v)) expect(validB(v), `${JSON.stringify(v)} valid for ${JSON.stringify(a)} but not for ${JSON.stringify(b)}`).toBe(true);
        }
        if (!findings.some((f) => f.widens)) {
          checkedWiden++;
          for (const v of values)
            if (validB(v)) expect(validA(v), `${JSON.stringify(v)} valid for ${JSON.stringify(b)} but not for ${JSON.stringify(a)}`).toBe(true);
        }
      }),
      propertyParameters(400, 20261203),
    );
    // The property would hold vacuously if every pair were said to change both ways.
    expect(checkedNarrow).toBeGreaterThan(100);
    expect(checkedWiden).toBeGreaterThan(100);
    // 2000 pairs take about 20 s on a loaded 2-core machine.
  }, 120_000);
});

/** A small seeded generator (mulberry32): each pair's mutation replays from its seed. */
function seeded(seed: number): Rng {
  let t = seed >>> 0;
  return {
    nextInt(min, max) {
      t = (t + 0x6d2b79f5) >>> 0;
      let r = Math.imul(t ^ (t >>> 15), 1 | t);
      r = (r + Math.imul(r ^ (r >>> 7), 61 | r)) ^ r;
      return min + (((r ^ (r >>> 14)) >>> 0) % (max - min + 1));
    },
  };
}
