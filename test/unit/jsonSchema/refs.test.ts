/** Schema traversal and bundling: which nodes are schemas, and the wire copy of a schema; how a `$ref` is read. */
import { Ajv2020 } from "ajv/dist/2020.js";
import fc from "fast-check";
import { propertyParameters } from "../../helpers/properties.js";
import { describe, expect, it } from "vitest";
import { diffSchemas } from "../../../src/commands/diff/schemaDiff.js";
import { refResolver } from "../../../src/generator/emit/schemaType.js";
import { bundleSchema, classifyRef, forEachSchema, refToken, usedDefs, type RefTarget } from "../../../src/jsonSchema/refs.js";

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
    expect(seen).toEqual([
      "",
      "properties.a",
      "properties.a.items.0",
      "properties.a.items.1",
      "properties.a.items.1.not",
      "properties.b",
      "properties.b.anyOf.0",
      "$defs.D",
      "$defs.D.additionalProperties",
    ]);
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

  it("rewrites and bundles refs inside draft-07 `dependencies` schemas, and leaves its lists of names alone", () => {
    const schema = {
      $schema: "http://json-schema.org/draft-07/schema#",
      type: "object",
      dependencies: { card: { properties: { card: { $ref: "#/defs/Money" } } }, billing: ["card"] },
    };
    const wire = bundleSchema(schema, defs) as Record<string, any>;
    expect(wire.dependencies).toEqual({ card: { properties: { card: { $ref: "#/$defs/Money" } } }, billing: ["card"] });
    expect(Object.keys(wire.$defs)).toEqual(["Money", "Currency"]);
  });

  it("keeps a __proto__ property as data, not as the copy's prototype", () => {
    const schema = JSON.parse('{"type":"object","properties":{"__proto__":{"$ref":"#/defs/Currency"}}}');
    const wire = bundleSchema(schema, defs) as Record<string, any>;
    expect(Object.getPrototypeOf(wire.properties)).toBe(Object.prototype);
    expect(Object.keys(wire.properties)).toEqual(["__proto__"]);
    expect(JSON.stringify(wire.properties)).toBe('{"__proto__":{"$ref":"#/$defs/Currency"}}');
  });
});

describe("classifyRef", () => {
  // A local ref is a URI fragment: percent-decoded, then split at "/", then ~1 -> "/" and ~0 -> "~".
  const cases: [string, { given: string; want: RefTarget | RegExp }][] = [
    ["the root", { given: "#", want: { kind: "root" } }],
    ["a manifest def", { given: "#/defs/Gift", want: { kind: "def", name: "Gift" } }],
    ["a manifest def, percent-encoded", { given: "#/defs/Th%69ng", want: { kind: "def", name: "Thing" } }],
    ["a space and a slash in a local name", { given: "#/$defs/a%20b~1c", want: { kind: "local", container: "$defs", name: "a b/c" } }],
    ["~01 is ~ then 1, not /", { given: "#/$defs/a~01", want: { kind: "local", container: "$defs", name: "a~1" } }],
    ["%7E1 decodes to ~1 first, so it is /", { given: "#/definitions/%7E1", want: { kind: "local", container: "definitions", name: "/" } }],
    ["UTF-8 escapes", { given: "#/$defs/caf%C3%A9", want: { kind: "local", container: "$defs", name: "café" } }],
    ["an encoded $ in the container", { given: "#/%24defs/X", want: { kind: "local", container: "$defs", name: "X" } }],
    ["an encoded literal %", { given: "#/$defs/100%25", want: { kind: "local", container: "$defs", name: "100%" } }],
    ["%2F is a pointer separator, so this is a deep pointer", { given: "#/$defs/a%2Fb", want: /use \$ref: '#\/defs\/Name'/ }],
    [
      "a malformed escape",
      { given: "#/$defs/%zz", want: /^"%zz" is not a percent escape \(% must be followed by two hex digits; write a literal % as %25\)$/ },
    ],
    ["a % at the end", { given: "#/$defs/50%", want: /^"%" is not a percent escape/ }],
    ["escapes that are not UTF-8", { given: "#/$defs/%FF", want: /not UTF-8/ }],
    ["an anchor", { given: "#foo", want: /use \$ref: '#\/defs\/Name'/ }],
    ["a URL", { given: "https://example.com/s.json#/$defs/X", want: /refs to URLs are not fetched/ }],
    ["another file", { given: "other.json#/$defs/X", want: /refs to other files are not followed/ }],
  ];
  it.each(cases)("%s", (_name, { given, want }) => {
    const got = classifyRef(given);
    if (want instanceof RegExp) {
      expect(got.kind).toBe("unsupported");
      expect((got as { reason: string }).reason).toMatch(want);
    } else expect(got).toEqual(want);
  });
});

describe("refToken", () => {
  const cases: [string, { given: string; want: string }][] = [
    ["a plain name as it is", { given: "Gift", want: "Gift" }],
    ["pointer escapes, ~ first", { given: "a~b/c", want: "a~0b~1c" }],
    ["a space, a %, a #", { given: "a b%#", want: "a%20b%25%23" }],
    ["sub-delims and : @ as they are", { given: "$x:y@z!", want: "$x:y@z!" }],
    ["non-ASCII as UTF-8 escapes", { given: "café", want: "caf%C3%A9" }],
  ];
  it.each(cases)("%s", (_name, { given, want }) => {
    expect(refToken(given)).toBe(want);
  });

  it("reads back as the name it was made from (property)", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme", maxLength: 12 }), (name) => {
        expect(classifyRef(`#/$defs/${refToken(name)}`)).toEqual({ kind: "local", container: "$defs", name });
        expect(classifyRef(`#/defs/${refToken(name)}`)).toEqual({ kind: "def", name });
      }),
      propertyParameters(300, 20261206),
    );
  });
});

describe("a percent-encoded pointer, read the same everywhere", () => {
  const schema = { type: "object", properties: { x: { $ref: "#/$defs/a%20b~1c" }, y: { $ref: "#/defs/Odd%20one" } }, $defs: { "a b/c": { type: "integer" } } };
  const defs = new Map<string, unknown>([["Odd one", { type: "string", maxLength: 3 }]]);

  it("bundling escapes the def name for the wire, where ajv finds both", () => {
    const wire = bundleSchema(schema, defs) as Record<string, any>;
    expect(wire.properties).toEqual({ x: { $ref: "#/$defs/a%20b~1c" }, y: { $ref: "#/$defs/Odd%20one" } });
    expect(Object.keys(wire.$defs)).toEqual(["a b/c", "Odd one"]);
    const validate = new Ajv2020({ strict: false }).compile(wire);
    expect(validate({ x: 1, y: "abc" })).toBe(true);
    expect(validate({ x: "1" })).toBe(false);
    expect(validate({ y: "abcd" })).toBe(false);
  });

  it("the type emitter names the local def's type", () => {
    const ctx = refResolver(new Map([["Odd one", "OddOne"]]), { rootTypeName: "Root", localTypeNames: new Map([["$defs/a b/c", "RootABC"]]) });
    expect(ctx.resolveRef("#/$defs/a%20b~1c")).toBe("RootABC");
    expect(ctx.resolveRef("#/defs/Odd%20one")).toBe("OddOne");
  });

  it("diff follows it, and a malformed escape is a ref it does not follow, not a crash", () => {
    // diff reads wire schemas: every ref local.
    const before = bundleSchema(schema, defs);
    const after = bundleSchema({ ...schema, $defs: { "a b/c": { type: "integer", minimum: 0 } } }, new Map([["Odd one", { type: "string", maxLength: 4 }]]));
    expect(diffSchemas(before, after)).toEqual([
      { path: "properties.x.minimum", message: "minimum 0 added", narrows: true, widens: false },
      { path: "properties.y.maxLength", message: "maxLength 3 -> 4", narrows: false, widens: true },
    ]);
    const broken = { type: "object", properties: { x: { $ref: "#/$defs/%zz" } } };
    expect(() => diffSchemas(broken, schema)).not.toThrow();
  });
});
