import { Ajv } from "ajv";
import fc from "fast-check";
import { propertyParameters } from "../../helpers/properties.js";
import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { planPatterns } from "../../../src/generator/model/patterns.js";
import type { ToolModel } from "../../../src/generator/model/types.js";
import { KEYWORDS, SUBSCHEMAS } from "../../../src/jsonSchema/keywords.js";
import { ANNOTATIONS, APPLIES_TO } from "../../../src/commands/diff/keywords.js";
import { forEachSchema } from "../../../src/jsonSchema/refs.js";

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

  it.each([
    ["draft-07", "items", () => new Ajv({ strict: false, code: { regExp: recording } })],
    ["2020-12", "prefixItems", () => new Ajv2020({ strict: false, code: { regExp: recording } }) as unknown as Ajv],
  ])("%s: the walk plans every pattern ajv compiles, under every keyword ajv knows, in each form", (_dialect, tuple, make) => {
    const ajv = make();
    const known = Object.keys((ajv as unknown as { RULES: { all: Record<string, unknown> } }).RULES.all);
    expect(known).toEqual(expect.arrayContaining(["dependencies", "not", "contains", "propertyNames", "if", "then", "else", "allOf"]));
    let n = 0;
    const sub = () => ({ type: "string", pattern: `^p${n++}$` });
    const planned = new Set<string>();
    compiled.clear();
    for (const keyword of known) {
      const forms: Record<string, unknown>[] = [{ [keyword]: sub() }, { [keyword]: [sub(), sub()] }, { [keyword]: { a: sub(), b: sub() } }];
      for (const form of forms) {
        // What some keywords need beside them to apply: `if` for then/else, a tuple for
        // additionalItems, a $ref for a definition to be compiled at all.
        const schema: Record<string, unknown> = { [tuple]: [true], if: true, ...form, $ref: `#/${keyword}/a` };
        for (const source of Object.keys(planPatterns([{ wire: { inputSchema: schema } } as unknown as ToolModel]))) planned.add(source);
        try {
          ajv.compile(schema);
        } catch {
          // A form this keyword does not take (ajv checks the schema first): nothing compiled.
        }
      }
    }
    // Ours only: ajv also compiles its meta-schema's patterns.
    const ours = [...compiled].filter((source) => /^\^p\d+\$$/.test(source));
    expect(ours.length).toBeGreaterThan(15);
    expect(ours.filter((source) => !planned.has(source))).toEqual([]);
  });

  it("on random nestings of the keywords ajv applies (and `$ref`s to local pointers), the walk plans what ajv compiles", () => {
    const ajv07 = new Ajv({ strict: false, code: { regExp: recording } });
    const ajv2020 = new Ajv2020({ strict: false, code: { regExp: recording } }) as unknown as Ajv;
    // Which keyword, in which form, makes ajv compile a subschema: asked of ajv, not of SUBSCHEMAS.
    const applied = new Map<string, [string, Form]>();
    for (const [ajv, tuple] of [
      [ajv07, "items"],
      [ajv2020, "prefixItems"],
    ] as const) {
      for (const keyword of Object.keys((ajv as unknown as { RULES: { all: object } }).RULES.all))
        for (const form of FORMS) {
          compiled.clear();
          try {
            ajv.compile({ [tuple]: [true], if: true, [keyword]: shape(keyword, form, { pattern: "^probe$" }, { pattern: "^probe$" }) });
          } catch {
            continue;
          }
          if (compiled.has("^probe$")) applied.set(`${keyword} ${form}`, [keyword, form]);
        }
    }
    expect([...applied.keys()]).toEqual(expect.arrayContaining(["dependencies map", "not one", "allOf list", "contains one"]));
    let n = 0;
    const leaf = fc.constant(null).map(() => ({ type: "string", pattern: `^q${n++}$` }));
    const node: fc.Arbitrary<Record<string, unknown>> = fc.letrec<{ node: Record<string, unknown> }>((tie) => ({
      node: fc.oneof(
        { depthSize: "small", withCrossShrink: true },
        leaf,
        fc
          .tuple(fc.constantFrom(...applied.values()), tie("node"), tie("node"))
          .map(([[keyword, form], a, b]) => ({ if: true, [keyword]: shape(keyword, form, a, b) })),
        fc
          .tuple(tie("node"), fc.constantFrom("#/properties/p", "#/$defs/d", "#/allOf/0"))
          .map(([a, ref]) => ({ $ref: ref, properties: { p: a }, $defs: { d: a }, allOf: [a] })),
      ),
    })).node;
    fc.assert(
      fc.property(node, fc.boolean(), (schema, draft07) => {
        compiled.clear();
        try {
          (draft07 ? ajv07 : ajv2020).compile(schema);
        } catch {
          return;
        }
        const planned = Object.keys(planPatterns([{ wire: { inputSchema: schema } } as unknown as ToolModel]));
        expect([...compiled].filter((source) => /^\^q\d+\$$/.test(source) && !planned.includes(source))).toEqual([]);
      }),
      propertyParameters(150, 20261206),
    );
  });
});

const FORMS = ["one", "list", "map"] as const;
type Form = (typeof FORMS)[number];

/** `a` (and `b`) as a keyword's value in one form; a dependencies map also gets a list of names. */
function shape(keyword: string, form: Form, a: object, b: object): unknown {
  if (form === "one") return a;
  if (form === "list") return [a, b];
  return { a, b: keyword === "dependencies" ? ["a"] : b };
}

/** The patterns ajv compiled (its regExp engine, recording). */
const compiled = new Set<string>();
const recording = Object.assign(
  (source: string, flags: string) => {
    compiled.add(source);
    return new RegExp(source, flags);
  },
  { code: "recording" },
);
