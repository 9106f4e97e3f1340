/**
 * diffSchemas across JSON Schema dialects, the folding of findings a type change explains, and
 * the safe-integer bounds schema libraries add: crafted pairs for each rule, and two property
 * tests with ajv as the judge (draft-07 by `ajv`, 2020-12 by `ajv/dist/2020`):
 * - a schema written in draft-07 and in 2020-12 with the same meaning diffs to no breaking finding;
 * - the same text under another `$schema` (where keywords change meaning) and edits of it: an
 *   instance the old side accepts and the new refuses means a narrowing finding, and the reverse a
 *   widening one.
 */
import { Ajv, type ValidateFunction } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import fc from "fast-check";
import { propertyParameters } from "../../../helpers/properties.js";
import { describe, expect, it } from "vitest";
import { classify, type Surface } from "../../../../src/commands/diff/classify.js";
import type { Schema } from "../../../../src/commands/diff/difference.js";
import { diffSchemas } from "../../../../src/commands/diff/schemaDiff.js";

const D04 = "http://json-schema.org/draft-04/schema#";
const D07 = "http://json-schema.org/draft-07/schema#";
const D2019 = "https://json-schema.org/draft/2019-09/schema";
const D2020 = "https://json-schema.org/draft/2020-12/schema";
const as = (dialect: string, schema: Record<string, unknown>): Schema => ({ $schema: dialect, ...schema });
const breaking = (a: Schema, b: Schema) => diffSchemas(a, b).filter((f) => f.narrows || f.widens);
const SAME = (from: string, to: string) => [
  { path: "$schema", message: `JSON Schema dialect ${from} -> ${to}: no keyword used here changes meaning`, narrows: false, widens: false, dialect: true },
];

describe("dialects: the same meaning in other keywords is no change", () => {
  it("draft-07 tuple items and additionalItems are 2020-12 prefixItems and items", () => {
    const d07 = as(D07, { type: "array", items: [{ type: "string" }, { type: "integer" }], additionalItems: false });
    const d2020 = as(D2020, { type: "array", prefixItems: [{ type: "string" }, { type: "integer" }], items: false });
    expect(diffSchemas(d07, d2020)).toEqual(SAME("draft-07", "2020-12"));
    expect(diffSchemas(d2020, d07)).toEqual(SAME("2020-12", "draft-07"));
    // 2019-09 still has the list form.
    expect(diffSchemas(as(D2019, { items: [{ type: "string" }] }), as(D2020, { prefixItems: [{ type: "string" }] }))).toEqual(SAME("2019-09", "2020-12"));
  });

  it("dependencies is dependentRequired and dependentSchemas; definitions is $defs, a location only", () => {
    const d07 = as(D07, {
      type: "object",
      dependencies: { a: ["b"], c: { required: ["d"] } },
      definitions: { X: { type: "string" } },
      properties: { p: { $ref: "#/definitions/X" } },
    });
    const d2020 = as(D2020, {
      type: "object",
      dependentRequired: { a: ["b"] },
      dependentSchemas: { c: { required: ["d"] } },
      $defs: { X: { type: "string" } },
      properties: { p: { $ref: "#/$defs/X" } },
    });
    expect(diffSchemas(d07, d2020)).toEqual(SAME("draft-07", "2020-12"));
  });

  it("draft-04: boolean exclusiveMinimum is a number; id is $id", () => {
    expect(
      diffSchemas(
        as(D04, { type: "number", minimum: 0, exclusiveMinimum: true, maximum: 9, exclusiveMaximum: false }),
        as(D2020, { type: "number", exclusiveMinimum: 0, maximum: 9 }),
      ),
    ).toEqual(SAME("draft-04", "2020-12"));
    expect(diffSchemas(as(D04, { id: "urn:x", type: "string" }), as(D2020, { $id: "urn:x", type: "string" }))).toEqual(SAME("draft-04", "2020-12"));
  });

  it("no $schema is 2020-12: writing it out changes nothing; an unknown dialect proves nothing", () => {
    expect(diffSchemas({ type: "string" }, as(D2020, { type: "string" }))).toEqual([]);
    expect(diffSchemas(as(D07, { type: "string" }), as("http://json-schema.org/draft-07/schema", { type: "string" }))).toEqual([]);
    expect(diffSchemas(as("https://example.com/my-dialect", { type: "string" }), as(D2020, { type: "string" }))).toEqual([
      {
        path: "$schema",
        message:
          "the JSON Schema dialect changed from https://example.com/my-dialect to https://json-schema.org/draft/2020-12/schema, which mcpgen does not know; compatibility is not proven",
        narrows: true,
        widens: true,
      },
    ]);
  });

  it("real changes next to a dialect change are still found, with nothing else", () => {
    const findings = diffSchemas(
      as(D07, { type: "object", properties: { q: { type: "string" } } }),
      as(D2020, { type: "object", properties: { q: { type: "string", minLength: 1 } } }),
    );
    expect(findings).toEqual([...SAME("draft-07", "2020-12"), { path: "properties.q.minLength", message: "minLength 1 added", narrows: true, widens: false }]);
  });
});

describe("dialects: a keyword whose meaning changes is reported where it is, with the reason", () => {
  it("dependencies kept as is under 2020-12 (no keyword there by the spec)", () => {
    const text = { type: "object", dependencies: { a: ["b"] } };
    const findings = diffSchemas(as(D07, text), as(D2020, text));
    expect(findings[0]).toMatchObject({
      path: "$schema",
      dialect: true,
      narrows: false,
      widens: false,
      message: "JSON Schema dialect draft-07 -> 2020-12: keywords that change meaning: `dependencies` at the root",
    });
    expect(findings).toContainEqual({
      path: "dependencies",
      message: "`dependencies` changed; compatibility is not proven (`dependencies` is not a 2020-12 keyword: ignored by the spec, though ajv applies it)",
      narrows: true,
      widens: true,
    });
  });

  it("keywords beside $ref: ignored by draft-07, applied by 2020-12", () => {
    const text = { $defs: { X: { type: "string" } }, type: "object", properties: { p: { $ref: "#/$defs/X", minLength: 2 } } };
    expect(breaking(as(D07, text), as(D2020, text))).toEqual([
      {
        path: "properties.p.$ref",
        message: "keywords beside `$ref` are ignored by draft-07 (though ajv applies them) and applied by 2020-12; compatibility is not proven",
        narrows: true,
        widens: true,
      },
    ]);
    // An annotation beside $ref means nothing in either.
    const described = { $defs: { X: { type: "string" } }, type: "object", properties: { p: { $ref: "#/$defs/X", description: "p" } } };
    expect(breaking(as(D07, described), as(D2020, described))).toEqual([]);
  });

  it("prefixItems in draft-07 (ignored) and a list of items in 2020-12 (not valid there)", () => {
    const tuple = { type: "array", prefixItems: [{ type: "string" }] };
    expect(breaking(as(D07, tuple), as(D2020, tuple))).toEqual([
      {
        path: "prefixItems",
        message: "`prefixItems` changed; compatibility is not proven (`prefixItems` is not a draft-07 keyword: ignored there)",
        narrows: true,
        widens: true,
      },
    ]);
    const list = { type: "array", items: [{ type: "string" }] };
    const findings = breaking(as(D07, list), as(D2020, list));
    expect(findings.map((f) => f.path)).toEqual(["prefixItems", "items"]);
    expect(findings[1]!.message).toContain("`items` as a list is not 2020-12 (there a list is `prefixItems`)");
  });

  it("a tool's dialect change is its own compatible row; a meaning change is breaking at its keyword", () => {
    const surface = (tools: Record<string, unknown>[]): Surface => ({
      source: "x",
      tools: tools as Surface["tools"],
      resources: [],
      resourceTemplates: [],
      prompts: [],
    });
    const tool = (dialect: string, extra: Record<string, unknown> = {}) => ({
      name: "t",
      inputSchema: { $schema: dialect, type: "object", properties: { q: { type: "string" } }, ...extra },
    });
    expect(classify(surface([tool(D07)]), surface([tool(D2020)]))).toEqual([
      {
        kind: "tool",
        name: "t",
        path: "inputSchema.$schema",
        change: "input-dialect-changed",
        message: "JSON Schema dialect draft-07 -> 2020-12: no keyword used here changes meaning",
        clients: false,
        servers: false,
      },
    ]);
    const changed = classify(surface([tool(D07, { dependencies: { q: ["r"] } })]), surface([tool(D2020, { dependencies: { q: ["r"] } })]));
    expect(changed.filter((c) => c.clients).map((c) => c.path)).toEqual(["inputSchema.dependentRequired", "inputSchema.dependencies"]);
  });
});

describe("findings a type change explains are folded into it", () => {
  it("string -> array: no separate rows for its items and minItems", () => {
    expect(diffSchemas({ type: "string", minLength: 1 }, { type: "array", minItems: 1, items: { type: "string" } })).toEqual([
      { path: "type", message: "no longer accepts string (with its minLength)", narrows: true, widens: false },
      { path: "type", message: "now accepts array (with its minItems, items)", narrows: false, widens: true },
    ]);
  });

  it("object -> string folds properties and required; a kind both accept keeps its rows", () => {
    const findings = diffSchemas({ type: "object", properties: { a: { type: "string" } }, required: ["a"] }, { type: "string", maxLength: 3 });
    expect(findings).toEqual([
      { path: "type", message: "no longer accepts object (with its properties)", narrows: true, widens: false },
      { path: "type", message: "now accepts string (with its maxLength)", narrows: false, widens: true },
    ]);
    expect(diffSchemas({ type: ["string", "array"], minItems: 1 }, { type: ["string", "array"], minItems: 2 })).toEqual([
      { path: "minItems", message: "minItems 1 -> 2", narrows: true, widens: false },
    ]);
    expect(diffSchemas({ type: "integer", maximum: 5 }, { type: "number", maximum: 3 })).toEqual([
      { path: "type", message: "now accepts number", narrows: false, widens: true },
      { path: "maximum", message: "maximum 5 -> 3", narrows: true, widens: false },
    ]);
  });

  it("a keyword for a kind neither version accepts changes nothing", () => {
    expect(diffSchemas({ type: "string", minItems: 1 }, { type: "string" })).toEqual([
      { path: "minItems", message: "minItems 1 removed (it applies to arrays, which neither version accepts)", narrows: false, widens: false },
    ]);
  });
});

describe("integer bounds of ±(2^53-1) are no bound", () => {
  const MAX = Number.MAX_SAFE_INTEGER;
  it("adding or removing them on an integer is no change; on a number it is", () => {
    expect(diffSchemas({ type: "integer" }, { type: "integer", minimum: -MAX, maximum: MAX })).toEqual([]);
    expect(diffSchemas({ type: ["integer", "null"], maximum: MAX }, { type: ["integer", "null"] })).toEqual([]);
    expect(diffSchemas({ type: "number" }, { type: "number", maximum: MAX })).toEqual([
      { path: "maximum", message: `maximum ${MAX} added`, narrows: true, widens: false },
    ]);
    // Only the side of the bound: a maximum of -(2^53-1) is a real bound.
    expect(diffSchemas({ type: "integer" }, { type: "integer", maximum: -MAX })).toEqual([
      { path: "maximum", message: `maximum ${-MAX} added`, narrows: true, widens: false },
    ]);
  });

  it("a real bound in place of one is reported as added", () => {
    expect(diffSchemas({ type: "integer", maximum: MAX }, { type: "integer", maximum: 100 })).toEqual([
      { path: "maximum", message: "maximum 100 added", narrows: true, widens: false },
    ]);
    // zod's positive int, from a plain number: the type and the lower bound, not the maximum.
    expect(diffSchemas({ type: "number" }, { type: "integer", exclusiveMinimum: 0, maximum: MAX }).map((f) => f.message)).toEqual([
      "accepts only integers now",
      "exclusiveMinimum 0 added",
    ]);
  });
});

// ---- property tests ----

const KEYS = ["a", "b", "c"];
type S = Record<string, unknown>;

const leaf: fc.Arbitrary<S> = fc.oneof(
  fc.record({ type: fc.constantFrom("string", "number", "integer", "boolean", "null") }),
  fc.record({ type: fc.constant("integer"), minimum: fc.integer({ min: -2, max: 3 }), maximum: fc.integer({ min: 0, max: 5 }) }, { requiredKeys: ["type"] }),
  fc.record({ type: fc.constant("string"), minLength: fc.integer({ min: 0, max: 2 }), maxLength: fc.integer({ min: 0, max: 3 }) }, { requiredKeys: ["type"] }),
  fc.record({ enum: fc.uniqueArray(fc.constantFrom<unknown>("x", "y", 1, 2, true, null), { minLength: 1, maxLength: 3 }) }),
  fc.record({ const: fc.constantFrom<unknown>("x", 1, null) }),
  fc.constant({}),
);

/** 2020-12 schemas from keywords that have a draft-07 spelling of the same meaning. */
const { schema2020 } = fc.letrec<{ schema2020: S }>((tie) => ({
  schema2020: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    leaf,
    fc.record(
      {
        type: fc.constant("object"),
        properties: fc.dictionary(fc.constantFrom(...KEYS), tie("schema2020"), { maxKeys: 3 }),
        required: fc.uniqueArray(fc.constantFrom(...KEYS), { maxLength: 2 }),
        additionalProperties: fc.oneof(fc.constant(false), leaf),
        dependentRequired: fc.record({ a: fc.uniqueArray(fc.constantFrom("b", "c"), { minLength: 1 }) }),
        dependentSchemas: fc.dictionary(fc.constantFrom("b", "c"), tie("schema2020"), { minKeys: 1, maxKeys: 1 }),
      },
      { requiredKeys: ["type"] },
    ),
    fc.record({ type: fc.constant("array"), items: tie("schema2020"), minItems: fc.integer({ min: 0, max: 2 }) }, { requiredKeys: ["type"] }),
    fc.record(
      {
        type: fc.constant("array"),
        prefixItems: fc.array(tie("schema2020"), { minLength: 1, maxLength: 2 }),
        items: fc.oneof(fc.constant(false), tie("schema2020")),
      },
      { requiredKeys: ["type", "prefixItems"] },
    ),
  ),
}));

/** The same schema in draft-07 words (written here, independently of the code under test). */
function toDraft07(s: unknown): unknown {
  if (Array.isArray(s)) return s.map(toDraft07);
  if (typeof s !== "object" || s === null) return s;
  const out: S = {};
  for (const [k, v] of Object.entries(s)) {
    if (k === "enum" || k === "const" || k === "required") out[k] = v;
    else if (k === "prefixItems") out.items = toDraft07(v);
    else if (k === "items" && Object.hasOwn(s, "prefixItems")) out.additionalItems = toDraft07(v);
    else if (k === "dependentRequired" || k === "dependentSchemas") out.dependencies = { ...(out.dependencies as S | undefined), ...(toDraft07(v) as S) };
    else if (k === "$defs") out.definitions = toDraft07(v);
    else if (k === "$ref") out.$ref = String(v).replace("#/$defs/", "#/definitions/");
    else out[k] = toDraft07(v);
  }
  return out;
}

/** Half the schemas sit behind a $ref, as mcpgen bundles shared definitions. */
const wrap = (s: S, ref: boolean): S =>
  ref ? { $defs: { node: s }, type: "object", properties: { a: { type: "array", items: { $ref: "#/$defs/node" } } } } : s;

const { value } = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: "small" },
    fc.constantFrom<unknown>("x", "y", "", "ab", "abcd", 1, 2, -1, 0, 3, 7, 1.5, true, false, null),
    fc.array(tie("value"), { maxLength: 3 }),
    fc.dictionary(fc.constantFrom(...KEYS), tie("value"), { maxKeys: 3 }),
  ),
}));

const plain = <T>(x: T): T => JSON.parse(JSON.stringify(x)) as T;
const ajv07 = new Ajv({ strict: false });
const ajv2020 = new Ajv2020({ strict: false });
const compile = (s: S): ValidateFunction | undefined => {
  try {
    return (s.$schema === D07 ? ajv07 : (ajv2020 as unknown as Ajv)).compile(s);
  } catch {
    return undefined;
  }
};

describe("dialects on generated schemas (ajv as the judge)", () => {
  it("a schema written in draft-07 and in 2020-12 with the same meaning: no breaking finding either way", () => {
    fc.assert(
      fc.property(schema2020, fc.boolean(), fc.array(value, { minLength: 15, maxLength: 30 }), (s0, ref, values0) => {
        const [s, values] = plain([s0, values0]);
        const d2020 = { $schema: D2020, ...wrap(s, ref) };
        const d07 = { $schema: D07, ...(toDraft07(wrap(s, ref)) as S) };
        // The two writings mean the same to ajv, or the generator is wrong.
        const [v07, v2020] = [compile(d07)!, compile(d2020)!];
        for (const v of values) expect(v07(v), JSON.stringify({ d07, d2020, v })).toBe(v2020(v));
        for (const [a, b] of [
          [d07, d2020],
          [d2020, d07],
        ] as [Schema, Schema][]) {
          const findings = diffSchemas(a, b);
          expect(
            findings.filter((f) => f.narrows || f.widens),
            JSON.stringify({ a, b }),
          ).toEqual([]);
          expect(findings.filter((f) => f.dialect)).toHaveLength(1);
        }
      }),
      propertyParameters(150, 20261204),
    );
  });

  it("the same text under another $schema, or an edit of it: an instance the old accepts and the new refuses means a narrowing finding (and the reverse a widening one)", () => {
    let narrowingsSeen = 0;
    let provenNoNarrowing = 0;
    // Keywords whose meaning differs between the two: tuple lists, dependencies, $ref siblings.
    const text = fc.oneof(
      schema2020.map((s) => s),
      schema2020.map((s) => toDraft07(s) as S),
      fc.record({ $defs: fc.record({ X: leaf }), type: fc.constant("object"), properties: fc.record({ a: leaf.map((l) => ({ $ref: "#/$defs/X", ...l })) }) }),
    );
    fc.assert(
      fc.property(
        text,
        text,
        fc.constantFrom<[string, string]>([D07, D2020], [D2020, D07]),
        fc.nat(3),
        fc.array(value, { minLength: 20, maxLength: 40 }),
        (t0, other0, [from, to], edit, values0) => {
          const [t, other, values] = plain([t0, other0, values0]);
          // The new side: the same text, the other generated one, or the same with one keyword dropped or replaced.
          const keys = Object.keys(t);
          const changed =
            edit === 0
              ? t
              : edit === 1
                ? other
                : edit === 2 && keys.length
                  ? Object.fromEntries(Object.entries(t).filter(([k]) => k !== keys[0]))
                  : { ...t, ...other };
          const a = { $schema: from, ...t };
          const b = { $schema: to, ...changed };
          const validA = compile(a);
          const validB = compile(b);
          // A list of items is not valid 2020-12: ajv refuses to compile it, there is nothing to judge.
          fc.pre(validA !== undefined && validB !== undefined);
          const findings = diffSchemas(a, b);
          const narrowed = values.find((v) => validA!(v) && !validB!(v));
          const widened = values.find((v) => !validA!(v) && validB!(v));
          if (narrowed !== undefined) {
            narrowingsSeen++;
            expect(
              findings.some((f) => f.narrows),
              `${JSON.stringify(narrowed)} valid for ${JSON.stringify(a)} but not for ${JSON.stringify(b)}`,
            ).toBe(true);
          }
          if (widened !== undefined)
            expect(
              findings.some((f) => f.widens),
              `${JSON.stringify(widened)} valid for ${JSON.stringify(b)} but not for ${JSON.stringify(a)}`,
            ).toBe(true);
          if (!findings.some((f) => f.narrows)) provenNoNarrowing++;
        },
      ),
      propertyParameters(200, 20261205),
    );
    // Not vacuous: ajv found narrowings to check, and diff said "no narrowing" on others.
    expect(narrowingsSeen).toBeGreaterThan(30);
    expect(provenNoNarrowing).toBeGreaterThan(30);
  });
});
