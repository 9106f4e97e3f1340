/** Schema traversal and bundling: which nodes are schemas, and the wire copy of a schema. */
import { describe, expect, it } from "vitest";
import { bundleSchema, forEachSchema, usedDefs } from "../../src/model/refs.js";

describe("forEachSchema", () => {
  it("visits every subschema in document order with its path, and never data keywords", () => {
    const schema = {
      type: "object",
      properties: { a: { type: "array", items: [{ type: "string" }, { not: { const: 1 } }] }, b: { anyOf: [{ type: "null" }, true] } },
      default: { properties: { x: { type: "string" } } },
      const: { items: { type: "number" } },
      $defs: { D: { additionalProperties: { type: "integer" } } },
    };
    const seen: string[] = [];
    forEachSchema(schema, (_node, path) => seen.push(path().join(".")));
    expect(seen).toEqual(["", "properties.a", "properties.a.items.0", "properties.a.items.1", "properties.a.items.1.not", "properties.b", "properties.b.anyOf.0", "$defs.D", "$defs.D.additionalProperties"]);
  });
});

describe("bundleSchema", () => {
  const defs = new Map<string, unknown>([
    ["Money", { type: "object", properties: { currency: { $ref: "#/defs/Currency" } } }],
    ["Currency", { enum: ["EUR", "USD"] }],
    ["a/b~c", { type: "string" }],
    ["Unused", { type: "boolean" }],
  ]);

  it("returns a schema that uses no manifest def as it is", () => {
    const schema = { type: "object", properties: { n: { type: "number" } } };
    expect(bundleSchema(schema, defs)).toBe(schema);
  });

  it("rewrites def refs, bundles what is used transitively in manifest order, and leaves the input and data keywords alone", () => {
    const schema = {
      type: "object",
      properties: { price: { $ref: "#/defs/Money" }, odd: { $ref: "#/defs/a~1b~0c" } },
      examples: [{ $ref: "#/defs/Money" }],
      $defs: { Own: { type: "string" } },
    };
    const before = structuredClone(schema);
    const wire = bundleSchema(schema, defs) as Record<string, any>;
    expect(schema).toEqual(before);
    expect(wire.properties.price).toEqual({ $ref: "#/$defs/Money" });
    expect(wire.properties.odd).toEqual({ $ref: "#/$defs/a~1b~0c" });
    expect(wire.examples).toEqual([{ $ref: "#/defs/Money" }]);
    expect(Object.keys(wire.$defs)).toEqual(["Own", "Money", "Currency", "a/b~c"]);
    expect(wire.$defs.Money.properties.currency).toEqual({ $ref: "#/$defs/Currency" });
    expect(usedDefs(schema, defs)).toEqual(["Money", "Currency", "a/b~c"]);
  });

  it("keeps a __proto__ property as data, not as the copy's prototype", () => {
    const schema = JSON.parse('{"type":"object","properties":{"__proto__":{"$ref":"#/defs/Currency"}}}');
    const wire = bundleSchema(schema, defs) as Record<string, any>;
    expect(Object.getPrototypeOf(wire.properties)).toBe(Object.prototype);
    expect(Object.keys(wire.properties)).toEqual(["__proto__"]);
    expect(JSON.stringify(wire.properties)).toBe('{"__proto__":{"$ref":"#/$defs/Currency"}}');
  });
});
