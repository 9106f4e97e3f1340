/**
 * `diff` against its definition of breaking for clients, on random tool schemas: a change is
 * breaking for clients exactly when code a typed client wrote against the old types stops working.
 *
 * For each pair (old schema, new schema), used as a tool's input and its output:
 * - inputs: calls a typed client can write under the old input type (literals built from the old
 *   schema, which the old type compiles and the old schema accepts). The change breaks them when
 *   one stops compiling against the new type (TypeScript's compiler), the server refuses it now
 *   (ajv), or it sends a property the new schema no longer declares (the server ignores it);
 * - outputs: a consumer reading every field of the old output type compiled against the new
 *   type; values the new server may return (any the new schema accepts: a handler's object may
 *   carry more than its type declares) that the old schema refused, as the generated client checks
 *   results against the outputSchema it was built from; a declared property gone.
 * The diff must say breaking for clients on a side exactly when one of these happens.
 *
 * The types are mcpgen's own, emitted from a manifest holding every pair as a tool (one manifest
 * for the old side, one for the new, as generate writes types.ts); all checks compile as one
 * program, each case's lines mapped back to it.
 */
import { Ajv2020 } from "ajv/dist/2020.js";
import fc from "fast-check";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { compile } from "../../../../src/generator/compile.js";
import { formatDiagnostic } from "../../../../src/common/diagnostics.js";
import { classify, type Surface } from "../../../../src/commands/diff/classify.js";
import { emitTypes } from "../../../../src/generator/emit/types.js";
import type { ServerModel } from "../../../../src/generator/model/types.js";
import type { JsonObject } from "../../../../src/common/objects.js";
import { propertyParameters } from "../../../helpers/properties.js";

type Schema = Record<string, unknown>;

// ---- realistic tool schemas ----

const NAMES = ["name", "language", "lang", "count", "tags"];
const WORDS = ["en", "fr", "de"];

const leaf: fc.Arbitrary<Schema> = fc.oneof(
  fc.record({ type: fc.constant("string"), minLength: fc.integer({ min: 0, max: 2 }), maxLength: fc.integer({ min: 2, max: 5 }) }, { requiredKeys: ["type"] }),
  fc.record({ type: fc.constant("string"), enum: fc.uniqueArray(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 3 }) }),
  fc.record({ enum: fc.uniqueArray(fc.constantFrom<unknown>(1, 2, "x", null), { minLength: 1, maxLength: 3 }) }),
  fc.record({ const: fc.constantFrom<unknown>("x", 1, true) }),
  fc.record(
    { type: fc.constantFrom("number", "integer"), minimum: fc.integer({ min: -3, max: 2 }), maximum: fc.integer({ min: 3, max: 8 }) },
    { requiredKeys: ["type"] },
  ),
  fc.record({ type: fc.constantFrom("boolean", "string", "number", "integer") }),
  fc.record({ type: fc.constantFrom(["string", "null"], ["integer", "null"], ["number", "string"]) }),
);

const { node, object } = fc.letrec<{ node: Schema; object: Schema }>((tie) => ({
  node: fc.oneof(
    { depthSize: "small", maxDepth: 2 },
    leaf,
    tie("object"),
    fc.record(
      { type: fc.constant("array"), items: tie("node"), minItems: fc.integer({ min: 0, max: 1 }), maxItems: fc.integer({ min: 2, max: 3 }) },
      { requiredKeys: ["type", "items"] },
    ),
  ),
  object: fc
    .record(
      {
        properties: fc.dictionary(fc.constantFrom(...NAMES), tie("node"), { maxKeys: 3 }),
        requiredMask: fc.array(fc.boolean(), { minLength: 5, maxLength: 5 }),
        additionalProperties: fc.constantFrom<unknown>(undefined, undefined, false, true, { type: "string" }),
      },
      { requiredKeys: ["properties", "requiredMask", "additionalProperties"] },
    )
    .map(({ properties, requiredMask, additionalProperties }) => {
      const names = Object.keys(properties);
      const required = names.filter((_, i) => requiredMask[i]);
      return {
        type: "object",
        properties,
        ...(required.length ? { required } : {}),
        ...(additionalProperties === undefined ? {} : { additionalProperties }),
      };
    }),
}));

interface Rng {
  int(min: number, max: number): number;
  pick<T>(list: readonly T[]): T;
}

/** The schema changed in one or two places, as an author edits a tool. */
function edit(schema: Schema, rng: Rng, template: Schema): Schema {
  const copy = structuredClone(schema);
  for (let n = rng.int(1, 2); n > 0; n--) editSomewhere(copy, rng, structuredClone(template));
  return satisfiable(copy);
}

/** Bounds an author would write: a maximum below its minimum is raised to it (no schema accepting nothing). */
function satisfiable(schema: Schema): Schema {
  for (const [min, max] of [
    ["minimum", "maximum"],
    ["minLength", "maxLength"],
    ["minItems", "maxItems"],
  ] as const) {
    if (typeof schema[min] === "number" && typeof schema[max] === "number" && schema[max] < schema[min]) schema[max] = schema[min];
  }
  for (const sub of Object.values((schema.properties ?? {}) as Record<string, Schema>)) satisfiable(sub);
  if (typeof schema.items === "object" && schema.items !== null) satisfiable(schema.items as Schema);
  return schema;
}

function editSomewhere(root: Schema, rng: Rng, fresh: Schema): void {
  // The object nodes (the root included), and every property's schema with its parent.
  const objects: Schema[] = [];
  const walk = (s: Schema) => {
    if (s.type === "object") objects.push(s);
    for (const sub of Object.values((s.properties ?? {}) as Record<string, Schema>)) walk(sub);
    if (s.items && typeof s.items === "object") walk(s.items as Schema);
  };
  walk(root);
  const target = rng.pick(objects);
  const props = (target.properties ?? {}) as Record<string, Schema>;
  const names = Object.keys(props);
  const required = new Set((target.required as string[] | undefined) ?? []);
  const setRequired = () => {
    if (required.size) target.required = [...required];
    else delete target.required;
  };
  const choice = rng.int(0, 6);
  if (choice === 0 && names.length) {
    // Remove a property.
    const name = rng.pick(names);
    delete props[name];
    required.delete(name);
    setRequired();
  } else if (choice === 1 && names.length) {
    // Rename a property (language -> lang).
    const name = rng.pick(names);
    const unused = NAMES.filter((n) => !(n in props));
    if (!unused.length) return;
    const to = rng.pick(unused);
    target.properties = Object.fromEntries(Object.entries(props).map(([k, v]) => [k === name ? to : k, v]));
    if (required.delete(name)) required.add(to);
    setRequired();
  } else if (choice === 2) {
    // Add a property, optional or required.
    const unused = NAMES.filter((n) => !(n in props));
    if (!unused.length) return;
    const name = rng.pick(unused);
    target.properties = { ...props, [name]: fresh };
    if (rng.int(0, 2) === 0) required.add(name);
    setRequired();
  } else if (choice === 3 && names.length) {
    // Required <-> optional.
    const name = rng.pick(names);
    if (!required.delete(name)) required.add(name);
    setRequired();
  } else if (choice === 4) {
    const next = rng.pick<unknown>([undefined, false, true, { type: "string" }, { type: "integer" }]);
    if (next === undefined) delete target.additionalProperties;
    else target.additionalProperties = next;
  } else if (choice === 5 && names.length) {
    const name = rng.pick(names);
    props[name] = editLeaf(props[name]!, rng, fresh);
  } else if (names.length) {
    props[rng.pick(names)] = fresh;
  }
}

/** One keyword of a property's schema changed: a type, an enum value, a bound, its items. */
function editLeaf(schema: Schema, rng: Rng, fresh: Schema): Schema {
  const s = structuredClone(schema);
  if (Array.isArray(s.enum)) {
    const values = s.enum as unknown[];
    const pool: unknown[] = s.type === "string" ? WORDS : [1, 2, "x", null];
    const missing = pool.filter((v) => !values.includes(v));
    if (rng.int(0, 1) === 0 && values.length > 1) values.splice(rng.int(0, values.length - 1), 1);
    else if (missing.length) values.push(rng.pick(missing));
    return s;
  }
  if ("const" in s) return { const: rng.pick<unknown>(["x", "y", 1, true]) };
  if (s.type === "array") {
    if (rng.int(0, 1) === 0) s.items = editLeaf(s.items as Schema, rng, fresh);
    else {
      // An array that can hold no item (maxItems: 0) makes its items irrelevant: not written.
      const key = rng.pick(["minItems", "maxItems"]);
      s[key] = rng.int(key === "maxItems" ? 1 : 0, 3);
    }
    return s;
  }
  const type = s.type;
  switch (rng.int(0, 4)) {
    case 0: {
      // The type changes: number <-> integer, null added or removed, another type.
      const types = Array.isArray(type) ? [...(type as string[])] : typeof type === "string" ? [type] : [];
      if (types.includes("number")) types[types.indexOf("number")] = "integer";
      else if (types.includes("integer") && rng.int(0, 1) === 0) types[types.indexOf("integer")] = "number";
      else if (types.includes("null")) types.splice(types.indexOf("null"), 1);
      else if (types.length && rng.int(0, 1) === 0) types.push("null");
      else return { type: rng.pick(["string", "number", "boolean"]) };
      if (types.length === 0) return { type: "string" };
      s.type = types.length === 1 ? types[0] : types;
      const numeric = types.includes("number") || types.includes("integer");
      if (!numeric) for (const k of ["minimum", "maximum"]) delete s[k];
      if (!types.includes("string")) for (const k of ["minLength", "maxLength"]) delete s[k];
      return s;
    }
    case 1:
    case 2: {
      // A bound added, removed, raised or lowered.
      const numeric = type === "number" || type === "integer";
      const isString = type === "string";
      if (!numeric && !isString) return fresh;
      const key = numeric ? rng.pick(["minimum", "maximum"]) : rng.pick(["minLength", "maxLength"]);
      if (s[key] !== undefined && rng.int(0, 2) === 0) delete s[key];
      else s[key] = numeric ? rng.int(-4, 9) : rng.int(0, 5);
      return s;
    }
    default:
      return fresh;
  }
}

function seeded(seed: number): Rng {
  let t = seed >>> 0;
  const int = (min: number, max: number) => {
    t = (t + 0x6d2b79f5) >>> 0;
    let r = Math.imul(t ^ (t >>> 15), 1 | t);
    r = (r + Math.imul(r ^ (r >>> 7), 61 | r)) ^ r;
    return min + (((r ^ (r >>> 14)) >>> 0) % (max - min + 1));
  };
  return { int, pick: (list) => list[int(0, list.length - 1)]! };
}

// ---- values a typed client writes ----

/** How many values of a nested schema stand in for it in its parent's values. */
const NESTED = 40;
/** How many values of a tool's schema are tried. */
const ROOT = 160;

/**
 * Values of a schema, picked to reach every edge a rule may move: each enum value, each type, the
 * bounds and just inside them, a fraction, an object with only its required properties and with
 * each property in turn, and undeclared properties (under every name) where the type has an index
 * signature.
 */
function samples(schema: unknown, cap = NESTED, structural = false): unknown[] {
  if (typeof schema !== "object" || schema === null) return ANY;
  const s = schema as Schema;
  if ("const" in s) return [s.const];
  if (Array.isArray(s.enum)) return [...(s.enum as unknown[])];
  const types = Array.isArray(s.type) ? (s.type as string[]) : typeof s.type === "string" ? [s.type] : ["string", "number", "null"];
  const groups: unknown[][] = [];
  for (const t of types) {
    if (t === "null") groups.push([null]);
    else if (t === "boolean") groups.push([true, false]);
    else if (t === "string") {
      const min = (s.minLength as number | undefined) ?? 0;
      const max = (s.maxLength as number | undefined) ?? 12;
      groups.push([min, min + 1, max].filter((n) => n <= max).map((n) => "abcdefghijkl".slice(0, n)));
    } else if (t === "number" || t === "integer") {
      const min = s.minimum as number | undefined;
      const max = s.maximum as number | undefined;
      groups.push([min ?? -100, max ?? 100, 0, 1]);
      if (t === "number") groups.push([(min ?? max ?? 0) + 0.5, (max ?? 1) - 0.5]);
    } else if (t === "array") {
      const items = samples(s.items, NESTED, structural);
      const min = (s.minItems as number | undefined) ?? 0;
      const max = Math.min((s.maxItems as number | undefined) ?? 4, 4);
      const fill = (n: number, item: unknown) => Array.from({ length: n }, () => item);
      groups.push(
        [...new Set([min, max])].map((n) => fill(n, items[0])),
        items.slice(1).map((item) => fill(Math.max(min, 1), item)),
      );
    } else if (t === "object") groups.push(...objectSamples(s, structural));
  }
  return interleave(groups).slice(0, cap);
}

/** Any JSON value, for a schema that allows anything. */
const ANY: unknown[] = ["x", 1, 1.5, true, null, [], {}];

function objectSamples(s: Schema, structural: boolean): unknown[][] {
  const props = (s.properties ?? {}) as Record<string, Schema>;
  const required = ((s.required as string[] | undefined) ?? []).filter((n) => n in props);
  const per = Object.fromEntries(Object.entries(props).map(([k, v]) => [k, samples(v, NESTED, structural)]));
  const base: Record<string, unknown> = {};
  for (const name of required) if (per[name]!.length) base[name] = per[name]![0];
  const groups: unknown[][] = [[base]];
  for (const [name, values] of Object.entries(per)) groups.push(values.map((v) => ({ ...base, [name]: v })));
  groups.push([{ ...base, ...Object.fromEntries(Object.entries(per).flatMap(([k, v]) => (v.length ? [[k, v[v.length - 1]]] : []))) }]);
  const extra = s.additionalProperties;
  // Undeclared properties: in a literal where the type has an index signature; in any object
  // (structurally, a value may carry more than its type declares) where the schema admits them.
  const indexed = extra === true || (typeof extra === "object" && extra !== null) || (extra === undefined && Object.keys(props).length === 0);
  if (indexed || (structural && extra !== false)) {
    const values = extra === true || extra === undefined ? ["x", 1.5, null] : samples(extra, NESTED, structural);
    for (const name of ["zz", ...NAMES.filter((n) => !(n in props))]) groups.push(values.map((v) => ({ ...base, [name]: v })));
  }
  return groups;
}

/** The first of each group, then the second of each... so that a cut keeps every kind. */
function interleave(groups: unknown[][]): unknown[] {
  const out: unknown[] = [];
  for (let i = 0; groups.some((g) => i < g.length); i++) for (const g of groups) if (i < g.length) out.push(g[i]);
  return unique(out);
}

function unique(values: unknown[]): unknown[] {
  const seen = new Set<string>();
  return values.filter((v) => {
    const key = JSON.stringify(v);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** Whether `value` holds, anywhere, a property the old schema declares there and the new one does not. */
function dropsDeclared(value: unknown, before: unknown, after: unknown): boolean {
  if (typeof before !== "object" || before === null || typeof after !== "object" || after === null) return false;
  const a = before as Schema;
  const b = after as Schema;
  if (Array.isArray(value)) return value.some((v) => dropsDeclared(v, a.items, b.items));
  if (typeof value !== "object" || value === null) return false;
  const propsA = (a.properties ?? {}) as Record<string, unknown>;
  const propsB = (b.properties ?? {}) as Record<string, unknown>;
  return Object.entries(value).some(([k, v]) => {
    if (k in propsA && !(k in propsB)) return true;
    return dropsDeclared(v, propsA[k] ?? a.additionalProperties, propsB[k] ?? b.additionalProperties);
  });
}

// ---- a consumer of the old output type ----

/**
 * Statements reading every field of the old output type `type` (reached through objects and arrays)
 * from `expr`, each into a variable of the old field's type; `maybe`: whether `expr` may be undefined.
 */
function reads(schema: Schema, type: string, expr: string, maybe: boolean, out: string[]): boolean {
  const types = Array.isArray(schema.type) ? (schema.type as string[]) : [schema.type];
  const nullable = types.includes("null");
  const kind = types.filter((t) => t !== "null");
  const at = (key: string) => `${expr}${maybe || nullable ? "?." : ""}[${key}]`;
  if (kind.length === 1 && kind[0] === "object") {
    const required = new Set((schema.required as string[] | undefined) ?? []);
    for (const [name, sub] of Object.entries((schema.properties ?? {}) as Record<string, Schema>)) {
      const t = `NonNullable<${type}>[${JSON.stringify(name)}]`;
      const e = at(JSON.stringify(name));
      const deeper = maybe || nullable || !required.has(name);
      if (!reads(sub, t, e, deeper, out)) out.push(`{ const r: ${t}${deeper ? " | undefined" : ""} = ${e}; void r; }`);
    }
    const extra = schema.additionalProperties;
    const indexed =
      extra === true || (typeof extra === "object" && extra !== null) || (extra === undefined && Object.keys(schema.properties ?? {}).length === 0);
    // Under noUncheckedIndexedAccess an index signature's value may be undefined.
    if (indexed) out.push(`{ const r: NonNullable<${type}>[string] | undefined = ${at('"zz"')}; void r; }`);
    return true;
  }
  if (kind.length === 1 && kind[0] === "array" && typeof schema.items === "object") {
    const t = `NonNullable<${type}>[number]`;
    const e = at("0");
    if (!reads(schema.items as Schema, t, e, true, out)) out.push(`{ const r: ${t} | undefined = ${e}; void r; }`);
    return true;
  }
  return false;
}

// ---- one batch ----

interface Case {
  before: Schema;
  after: Schema;
}

async function modelOf(cases: Case[], side: "before" | "after"): Promise<ServerModel> {
  const manifest = {
    server: { name: "cases", version: "1.0.0" },
    tools: cases.map((c, i) => ({ name: `c${i}`, description: "A case.", inputSchema: c[side], outputSchema: c[side] })),
  };
  const compiled = await compile({ absPath: "/cases.yaml", file: "cases.yaml", text: JSON.stringify(manifest) });
  if (!compiled.model) throw new Error(compiled.diagnostics.map(formatDiagnostic).join("\n"));
  return compiled.model;
}

function typesText(model: ServerModel): string {
  return emitTypes(model).find((f) => f.path === "types.ts")!.content;
}

/** The lines of one program that fail to compile, under the scaffold's compiler options. */
function failingLines(text: string): Set<number> {
  const options: ts.CompilerOptions = {
    strict: true,
    noUncheckedIndexedAccess: true,
    target: ts.ScriptTarget.ES2022,
    lib: ["lib.es5.d.ts"],
    types: [],
    noEmit: true,
    skipLibCheck: true,
  };
  const host = ts.createCompilerHost(options);
  const file = "/cases/check.ts";
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, true);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (name, ...rest) => (name === file ? source : getSourceFile(name, ...rest));
  const fileExists = host.fileExists.bind(host);
  host.fileExists = (name) => name === file || fileExists(name);
  const program = ts.createProgram([file], options, host);
  const failing = new Set<number>();
  for (const d of program.getSemanticDiagnostics(source)) {
    if (d.start !== undefined) failing.add(source.getLineAndCharacterOfPosition(d.start).line);
  }
  const syntax = program.getSyntacticDiagnostics(source);
  if (syntax.length) throw new Error(ts.flattenDiagnosticMessageText(syntax[0]!.messageText, "\n"));
  return failing;
}

interface Verdict {
  case: number;
  side: "input" | "output";
  said: boolean;
  witness: string | undefined;
}

/** A program's lines, each with what failing to compile there means. */
class Program {
  readonly lines: string[] = [];
  readonly checks: { line: number; case: number; what: "old" | "new" | "reader"; value?: unknown }[] = [];

  add(text: string, check?: Omit<Program["checks"][number], "line">): void {
    if (check) this.checks.push({ line: this.lines.length, ...check });
    this.lines.push(...text.split("\n"));
  }
}

async function judge(cases: Case[]): Promise<{ verdicts: Verdict[]; typedCalls: number; untypedCalls: number }> {
  const [before, after] = [await modelOf(cases, "before"), await modelOf(cases, "after")];
  const ajv = new Ajv2020({ strict: false });
  const validBefore = cases.map((c) => ajv.compile(c.before));
  const validAfter = cases.map((c) => ajv.compile(c.after));
  // Calls a typed client may write (the old schema accepts them; the old type must compile them),
  // and results the new server may return that the old schema refused.
  const calls = cases.map((c, i) => samples(c.before, ROOT).filter((v) => validBefore[i]!(v)));
  const novel = cases.map((c, i) => samples(c.after, ROOT, true).filter((v) => validAfter[i]!(v) && !validBefore[i]!(v)));

  const program = new Program();
  program.add(`namespace Old {\n${typesText(before)}}\nnamespace New {\n${typesText(after)}}`);
  cases.forEach((c, i) => {
    const [typeA, typeB] = [`Old.${before.tools[i]!.input.typeName}`, `New.${after.tools[i]!.input.typeName}`];
    const literal = (type: string, value: unknown) => `{ const v: ${type} = ${JSON.stringify(value)}; void v; }`;
    for (const value of calls[i]!) {
      program.add(literal(typeA, value), { case: i, what: "old", value });
      // Refused now or dropping a property breaks it already; whether it compiles tells nothing more.
      if (validAfter[i]!(value) && !dropsDeclared(value, c.before, c.after)) program.add(literal(typeB, value), { case: i, what: "new", value });
    }
    // Outputs: a reader of the old type.
    const [outA, outB] = [`Old.${before.tools[i]!.output!.typeName}`, `New.${after.tools[i]!.output!.typeName}`];
    const body: string[] = [];
    reads(c.before, outA, "o", false, body);
    for (const [k, line] of body.entries()) program.add(`function read${i}_${k}(o: ${outB}): void ${line}`, { case: i, what: "reader" });
  });
  const failing = failingLines(program.lines.join("\n"));
  // The emitted types themselves compile.
  const first = program.checks[0]?.line ?? program.lines.length;
  expect([...failing].filter((l) => l < first).map((l) => program.lines[l])).toEqual([]);

  const checks = cases.map(() => [] as Program["checks"]);
  for (const c of program.checks) checks[c.case]!.push(c);
  let typedCalls = 0;
  let untypedCalls = 0;
  const verdicts: Verdict[] = [];
  cases.forEach((c, i) => {
    const fails = (line: number) => failing.has(line);
    const olds = checks[i]!.filter((k) => k.what === "old");
    const news = new Map(checks[i]!.filter((k) => k.what === "new").map((k) => [JSON.stringify(k.value), k.line]));
    let inputWitness: string | undefined;
    for (const { line, value } of olds) {
      // Only a call the old type compiles is one a typed client writes.
      if (fails(line)) {
        untypedCalls++;
        continue;
      }
      typedCalls++;
      const shown = JSON.stringify(value);
      const next = news.get(shown);
      inputWitness ??= !validAfter[i]!(value)
        ? `the call ${shown} is refused now`
        : dropsDeclared(value, c.before, c.after)
          ? `the call ${shown} sends a property the new schema does not declare`
          : next !== undefined && fails(next)
            ? `the call ${shown} no longer compiles`
            : undefined;
    }
    const reader = checks[i]!.find((k) => k.what === "reader" && fails(k.line));
    const returned = novel[i]![0];
    const dropped = calls[i]!.find((v) => dropsDeclared(v, c.before, c.after));
    const outputWitness = reader
      ? `a reader of the old type no longer compiles: ${program.lines[reader.line]}`
      : returned !== undefined
        ? `the new server may return ${JSON.stringify(returned)}, which the old schema refused`
        : dropped !== undefined
          ? `${JSON.stringify(dropped)} holds a property the new schema does not declare`
          : undefined;
    const rows = classify(surfaceOf(`c${i}`, c.before), surfaceOf(`c${i}`, c.after));
    verdicts.push({ case: i, side: "input", said: rows.some((r) => r.path.startsWith("inputSchema") && r.clients), witness: inputWitness });
    verdicts.push({ case: i, side: "output", said: rows.some((r) => r.path.startsWith("outputSchema") && r.clients), witness: outputWitness });
  });
  return { verdicts, typedCalls, untypedCalls };
}

function surfaceOf(name: string, schema: Schema): Surface {
  const tool = { name, inputSchema: schema, outputSchema: schema } as unknown as JsonObject;
  return { source: "x", tools: [tool], resources: [], resourceTemplates: [], prompts: [] };
}

const SAMPLE = propertyParameters(150, 20261228);
const CASES = SAMPLE.numRuns;

describe("diff says breaking for clients exactly when a typed client breaks", () => {
  it(`on ${CASES} random tool schemas and edits, as inputs and as outputs`, async () => {
    const pairs = fc.sample(fc.tuple(object, node, fc.integer()), SAMPLE);
    const cases: Case[] = pairs.map(([before, fresh, seed]) => {
      const clean = JSON.parse(JSON.stringify([before, fresh])) as [Schema, Schema];
      return { before: clean[0], after: edit(clean[0], seeded(seed), clean[1]) };
    });
    const { verdicts, typedCalls, untypedCalls } = await judge(cases);
    const wrong = verdicts
      .filter((v) => v.said !== (v.witness !== undefined))
      .map((v) => {
        const c = cases[v.case]!;
        const rows = classify(surfaceOf("t", c.before), surfaceOf("t", c.after)).filter((r) => r.path.startsWith(`${v.side}Schema`));
        return {
          side: v.side,
          before: JSON.stringify(c.before),
          after: JSON.stringify(c.after),
          diff: rows.map((r) => `${r.clients ? "BREAKING" : "ok"} ${r.change} ${r.path} ${r.message}`),
          typed: v.witness ?? "no typed client breaks",
        };
      });
    expect(wrong).toEqual([]);
    // Not vacuous: both answers occur often on both sides (about 60% breaking), and every value
    // the old schema accepts is a call its type compiles (mcpgen's types are exact on these schemas).
    for (const side of ["input", "output"]) {
      expect(verdicts.filter((v) => v.side === side && v.said).length).toBeGreaterThan(CASES / 4);
      expect(verdicts.filter((v) => v.side === side && !v.said).length).toBeGreaterThan(CASES / 4);
    }
    expect(typedCalls).toBeGreaterThan(CASES * 10);
    expect(untypedCalls).toBe(0);
  }, 120_000);
});
