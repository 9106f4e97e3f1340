/**
 * How a JSON Schema changed, as findings that say whether the new schema accepts less than the
 * old one (it narrows: some value valid before is refused now) or more (it widens: some value
 * refused before is valid now), or neither (an annotation: description, title, examples...).
 *
 * The rules are sound and conservative: "does not narrow" is said only when every value the old
 * schema accepts is accepted by the new one (and likewise for widening). Where compatibility is
 * not proven by a rule (a changed anyOf, an unknown keyword, a changed pattern) the finding says
 * both. The property tests (test/unit/diff/schema-diff.test.ts) check these claims with ajv on random
 * schema pairs and values.
 */
import { classifyRef } from "../model/refs.js";
import { isPlainObject, jsonEqual } from "../util/objects.js";
import { alignDialects } from "./dialect.js";
import { foldIntoTypes } from "./fold.js";
import { ANNOTATIONS, typeSet } from "./keywords.js";

export type Schema = boolean | { [key: string]: unknown };

export interface Finding {
  /** Where, as a dotted path in the schema: `properties.budget`, `items`, `` (the root). */
  path: string;
  message: string;
  /** The new schema refuses something the old one accepted. */
  narrows: boolean;
  /** The new schema accepts something the old one refused. */
  widens: boolean;
  /**
   * It narrows only values holding a property the old schema did not declare (a property added
   * where `additionalProperties` was left open): no typed caller sends those.
   */
  undeclared?: boolean;
  /** The root `$schema` names another dialect (informative: what changed meaning has its own findings). */
  dialect?: true;
}

/** Keywords the rules below understand. */
const HANDLED = new Set([
  "type",
  "enum",
  "const",
  "required",
  "properties",
  "additionalProperties",
  "items",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "minLength",
  "maxLength",
  "minItems",
  "maxItems",
  "minProperties",
  "maxProperties",
  "uniqueItems",
  "$ref",
  "$defs",
  "definitions",
  "multipleOf",
  "pattern",
]);

interface Root {
  schema: Schema;
  /** Whether both roots hold the same definitions, so equal `$ref`s mean equal targets. */
  sameDefs?: boolean;
}

/**
 * The findings between two schemas (each with its own `$defs`/`definitions` for `$ref`s). Schemas
 * in different dialects are compared by meaning (see dialect.ts).
 */
export function diffSchemas(original: Schema, changed: Schema): Finding[] {
  const aligned = alignDialects(original, changed);
  const { before, after } = aligned;
  const out: Finding[] = [];
  const defs = (s: Schema) => (isPlainObject(s) ? [s.$defs, s.definitions] : []);
  const sameDefs = jsonEqual(defs(before), defs(after));
  compare(before, after, "", { schema: before, sameDefs }, { schema: after, sameDefs }, out, new Set());
  return aligned.finish(out);
}

function compare(a: Schema, b: Schema, at: string, rootA: Root, rootB: Root, out: Finding[], seen: Set<string>): void {
  const ref = (s: Schema) => (isPlainObject(s) && typeof s.$ref === "string" ? s.$ref : undefined);
  if (ref(a) === undefined && ref(b) === undefined) return compareResolved(a, b, at, rootA, rootB, out, seen);
  // Recursive schemas: the same pair met again below itself is taken as compatible
  // (co-inductively; values are finite, and what differs is reported at the first meeting). An
  // inline side is itself, not its text: another inline schema against the same $ref is new.
  const key = `${ref(a) ?? `#${identity(a)}`}\0${ref(b) ?? `#${identity(b)}`}`;
  if (seen.has(key)) return;
  if (seen.size >= 64) return both(out, at, "$refs nested too deeply to compare");
  seen.add(key);
  try {
    compareResolved(a, b, at, rootA, rootB, out, seen);
  } finally {
    seen.delete(key);
  }
}

function compareResolved(a: Schema, b: Schema, at: string, rootA: Root, rootB: Root, out: Finding[], seen: Set<string>): void {
  const resolvedA = resolve(a, rootA);
  const resolvedB = resolve(b, rootB);
  if (resolvedA === undefined || resolvedB === undefined) {
    // A $ref with siblings, into a pointer deeper than a definition, or elsewhere: equal text is
    // equal meaning only when the definitions it may point into are equal too.
    if (!jsonEqual(a, b) || !rootA.sameDefs)
      both(
        out,
        at,
        "a $ref that is not followed (siblings, a deep pointer, or not local) changed or points into changed definitions; compatibility is not proven",
      );
    return;
  }
  a = resolvedA;
  b = resolvedB;
  // Equal text is equal meaning unless a `$ref` in it points into definitions that differ.
  if (jsonEqual(a, b) && (rootA.sameDefs || !hasRef(a))) return;

  if (a === true || isEmpty(a)) {
    if (!(b === true || isEmpty(b))) out.push({ path: at, message: "was unconstrained, now constrained", narrows: true, widens: false });
    return;
  }
  if (b === true || isEmpty(b)) {
    out.push({ path: at, message: "was constrained, now unconstrained", narrows: false, widens: true });
    return;
  }
  if (a === false || b === false) {
    if (a === false) out.push({ path: at, message: "accepted nothing, now accepts values", narrows: false, widens: true });
    else out.push({ path: at, message: "now accepts nothing", narrows: true, widens: false });
    return;
  }
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  const local: Finding[] = [];
  compareKeywords(x, y, at, rootA, rootB, local, seen);
  out.push(...foldIntoTypes(x, y, at, local));
}

function compareKeywords(
  x: Record<string, unknown>,
  y: Record<string, unknown>,
  at: string,
  rootA: Root,
  rootB: Root,
  out: Finding[],
  seen: Set<string>,
): void {
  // Keywords no rule understands: any change is unproven both ways.
  for (const k of new Set([...Object.keys(x), ...Object.keys(y)])) {
    if (HANDLED.has(k) || ANNOTATIONS.has(k)) continue;
    if (!jsonEqual(x[k], y[k])) both(out, join(at, k), `\`${k}\` changed; compatibility is not proven`);
    else if (!rootA.sameDefs && hasRef(x[k])) both(out, join(at, k), `a definition \`${k}\` refers to changed; compatibility is not proven`);
  }
  for (const k of ANNOTATIONS) {
    if (jsonEqual(x[k], y[k])) continue;
    if (k === "$schema") both(out, join(at, k), "the JSON Schema dialect changed");
    // They change what a $ref resolves to.
    else if (k === "$id" || k === "$anchor") both(out, join(at, k), `${k} changed; compatibility is not proven`);
    else if (k === "format") formatChange(x.format, y.format, join(at, k), out);
    else out.push({ path: join(at, k), message: `${k} changed`, narrows: false, widens: false });
  }
  // unevaluatedProperties/Items depend on every keyword that evaluates (properties,
  // additionalProperties: true, items, composition...): any other change there is not reasoned about.
  for (const k of ["unevaluatedProperties", "unevaluatedItems"]) {
    if ((x[k] !== undefined || y[k] !== undefined) && jsonEqual(x[k], y[k]) && !jsonEqual(withoutAnnotations(x), withoutAnnotations(y))) {
      both(out, join(at, k), `the keywords around \`${k}\` changed; compatibility is not proven`);
    }
  }

  types(x, y, at, out);
  values(x, y, at, out);
  bounds(x, y, at, out);
  if (!jsonEqual(x.pattern, y.pattern)) {
    if (x.pattern === undefined) out.push({ path: join(at, "pattern"), message: `pattern ${JSON.stringify(y.pattern)} added`, narrows: true, widens: false });
    else if (y.pattern === undefined) out.push({ path: join(at, "pattern"), message: "pattern removed", narrows: false, widens: true });
    else both(out, join(at, "pattern"), `pattern changed from ${JSON.stringify(x.pattern)} to ${JSON.stringify(y.pattern)}`);
  }
  if (!jsonEqual(x.multipleOf, y.multipleOf)) {
    if (x.multipleOf === undefined) out.push({ path: join(at, "multipleOf"), message: "multipleOf added", narrows: true, widens: false });
    else if (y.multipleOf === undefined) out.push({ path: join(at, "multipleOf"), message: "multipleOf removed", narrows: false, widens: true });
    else both(out, join(at, "multipleOf"), "multipleOf changed");
  }
  if (x.uniqueItems !== y.uniqueItems) {
    const was = x.uniqueItems === true;
    const now = y.uniqueItems === true;
    if (now && !was) out.push({ path: join(at, "uniqueItems"), message: "items must now be unique", narrows: true, widens: false });
    if (was && !now) out.push({ path: join(at, "uniqueItems"), message: "items need no longer be unique", narrows: false, widens: true });
  }
  objects(x, y, at, rootA, rootB, out, seen);
  if (x.items !== undefined || y.items !== undefined) {
    if (Array.isArray(x.items) || Array.isArray(y.items)) {
      if (!jsonEqual(x.items, y.items) || (!rootA.sameDefs && hasRef(x.items)))
        both(out, join(at, "items"), "tuple items changed; compatibility is not proven");
    } else compare((x.items ?? true) as Schema, (y.items ?? true) as Schema, join(at, "items"), rootA, rootB, out, seen);
  }
}

/**
 * `format` is an annotation in 2020-12 (mcpgen's server does not assert it), but validators
 * that assert formats (the SDK Client's, for structuredContent) refuse what breaks one: taken
 * as an assertion, to be safe on both sides.
 */
function formatChange(before: unknown, after: unknown, at: string, out: Finding[]): void {
  if (before === undefined)
    out.push({ path: at, message: `format ${JSON.stringify(after)} added (asserted by some validators)`, narrows: true, widens: false });
  else if (after === undefined) out.push({ path: at, message: `format ${JSON.stringify(before)} removed`, narrows: false, widens: true });
  else both(out, at, `format changed from ${JSON.stringify(before)} to ${JSON.stringify(after)}`);
}

function withoutAnnotations(schema: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(schema).filter(([k]) => !ANNOTATIONS.has(k) || k === "format" || k === "$id" || k === "$anchor" || k === "$schema"));
}

function types(x: Record<string, unknown>, y: Record<string, unknown>, at: string, out: Finding[]): void {
  const before = typeSet(x.type);
  const after = typeSet(y.type);
  if (before === undefined && after === undefined) return;
  if (before === undefined) return void out.push({ path: join(at, "type"), message: `now only ${[...after!].join(" or ")}`, narrows: true, widens: false });
  if (after === undefined)
    return void out.push({ path: join(at, "type"), message: `no longer only ${[...before].join(" or ")}`, narrows: false, widens: true });
  // integer is part of number.
  const covers = (set: Set<string>, t: string) => set.has(t) || (t === "integer" && set.has("number"));
  const lost = [...before].filter((t) => !covers(after, t));
  const gained = [...after].filter((t) => !covers(before, t));
  if (lost.length) out.push({ path: join(at, "type"), message: `no longer accepts ${lost.join(", ")}`, narrows: true, widens: false });
  if (gained.length) out.push({ path: join(at, "type"), message: `now accepts ${gained.join(", ")}`, narrows: false, widens: true });
}

function values(x: Record<string, unknown>, y: Record<string, unknown>, at: string, out: Finding[]): void {
  const before = allowed(x);
  const after = allowed(y);
  if (before === undefined && after === undefined) return;
  if (before === undefined)
    return void out.push({ path: join(at, "enum"), message: `now one of ${after!.map(show).join(", ")}`, narrows: true, widens: false });
  if (after === undefined) return void out.push({ path: join(at, "enum"), message: "no longer restricted to a list of values", narrows: false, widens: true });
  const removed = before.filter((v) => !after.some((w) => jsonEqual(v, w)));
  const added = after.filter((v) => !before.some((w) => jsonEqual(v, w)));
  if (removed.length)
    out.push({
      path: join(at, "enum"),
      message: `value${removed.length > 1 ? "s" : ""} ${removed.map(show).join(", ")} removed`,
      narrows: true,
      widens: false,
    });
  if (added.length)
    out.push({ path: join(at, "enum"), message: `value${added.length > 1 ? "s" : ""} ${added.map(show).join(", ")} added`, narrows: false, widens: true });
}

const LOWER = ["minimum", "exclusiveMinimum", "minLength", "minItems", "minProperties"];
const UPPER = ["maximum", "exclusiveMaximum", "maxLength", "maxItems", "maxProperties"];
const NUMERIC_BOUNDS = new Set(["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"]);

/** minimum-like keywords narrow when they rise, maximum-like when they fall. */
function bounds(x: Record<string, unknown>, y: Record<string, unknown>, at: string, out: Finding[]): void {
  for (const k of [...LOWER, ...UPPER]) {
    const p = bound(x, k);
    const q = bound(y, k);
    if (jsonEqual(p, q)) continue;
    const isLower = LOWER.includes(k);
    // draft-04 style boolean exclusive bounds: not reasoned about.
    if ((p !== undefined && typeof p !== "number") || (q !== undefined && typeof q !== "number")) {
      both(out, join(at, k), `${k} changed`);
      continue;
    }
    if (p === undefined) out.push({ path: join(at, k), message: `${k} ${q} added`, narrows: true, widens: false });
    else if (q === undefined) out.push({ path: join(at, k), message: `${k} ${p} removed`, narrows: false, widens: true });
    else if ((isLower && q > p) || (!isLower && q < p)) out.push({ path: join(at, k), message: `${k} ${p} -> ${q}`, narrows: true, widens: false });
    else out.push({ path: join(at, k), message: `${k} ${p} -> ${q}`, narrows: false, widens: true });
  }
}

/**
 * A bound's value; none for a bound of -(2^53-1) below or 2^53-1 above an integer: schema libraries
 * (zod) add them to every integer, and no integer past them survives a JavaScript number anyway.
 * Taking them as no bound is the one place these rules are not exact: adding one refuses 2^60.
 */
function bound(schema: Record<string, unknown>, k: string): unknown {
  const value = schema[k];
  if (typeof value !== "number" || Math.abs(value) !== Number.MAX_SAFE_INTEGER || value < 0 !== LOWER.includes(k)) return value;
  const types = typeSet(schema.type);
  return types !== undefined && types.has("integer") && !types.has("number") && NUMERIC_BOUNDS.has(k) ? undefined : value;
}

function objects(x: Record<string, unknown>, y: Record<string, unknown>, at: string, rootA: Root, rootB: Root, out: Finding[], seen: Set<string>): void {
  const reqA = new Set(Array.isArray(x.required) ? (x.required as string[]) : []);
  const reqB = new Set(Array.isArray(y.required) ? (y.required as string[]) : []);
  for (const name of reqB)
    if (!reqA.has(name)) out.push({ path: join(at, `properties.${name}`), message: `${name} is now required`, narrows: true, widens: false });
  for (const name of reqA)
    if (!reqB.has(name)) out.push({ path: join(at, `properties.${name}`), message: `${name} is no longer required`, narrows: false, widens: true });

  const propsA = isPlainObject(x.properties) ? x.properties : {};
  const propsB = isPlainObject(y.properties) ? y.properties : {};
  const extraA = (x.additionalProperties ?? true) as Schema;
  const extraB = (y.additionalProperties ?? true) as Schema;
  const names = new Set([...Object.keys(propsA), ...Object.keys(propsB)]);
  // Where patternProperties or unevaluatedProperties also decide what an undeclared property may
  // hold, adding or removing a declared one is not reasoned about.
  const tangled = ["patternProperties", "unevaluatedProperties"].some((k) => x[k] !== undefined || y[k] !== undefined);
  for (const name of names) {
    const inA = Object.hasOwn(propsA, name);
    const inB = Object.hasOwn(propsB, name);
    const where = join(at, `properties.${name}`);
    if (inA && inB) {
      compare(propsA[name] as Schema, propsB[name] as Schema, where, rootA, rootB, out, seen);
    } else if (tangled) {
      both(out, where, `property ${name} ${inA ? "removed" : "added"} next to patternProperties or unevaluatedProperties; compatibility is not proven`);
    } else if (inA) {
      // Its values are now checked against additionalProperties.
      if (extraB === false) out.push({ path: where, message: `property ${name} removed (no longer accepted)`, narrows: true, widens: false });
      else {
        const sub: Finding[] = [];
        compare(propsA[name] as Schema, extraB, where, rootA, rootB, sub, seen);
        out.push(...(sub.length ? sub.map((f) => ({ ...f, message: `property ${name} removed: ${f.message}` })) : []));
        if (!sub.length && !jsonEqual(propsA[name], extraB)) out.push({ path: where, message: `property ${name} removed`, narrows: false, widens: false });
      }
    } else {
      if (extraA === false) out.push({ path: where, message: `property ${name} added`, narrows: false, widens: true });
      else {
        const sub: Finding[] = [];
        compare(extraA, propsB[name] as Schema, where, rootA, rootB, sub, seen);
        const undeclared = x.additionalProperties === undefined && x.patternProperties === undefined;
        out.push(...sub.map((f) => ({ ...f, message: `property ${name} added: ${f.message}`, ...(undeclared && !f.widens ? { undeclared: true } : {}) })));
      }
    }
  }
  if (x.additionalProperties !== undefined || y.additionalProperties !== undefined) {
    compare(extraA, extraB, join(at, "additionalProperties"), rootA, rootB, out, seen);
  }
}

/** The values `const` and `enum` allow together (both must hold), or undefined when neither is set. */
function allowed(schema: Record<string, unknown>): unknown[] | undefined {
  const list = Array.isArray(schema.enum) ? schema.enum : undefined;
  if (!Object.hasOwn(schema, "const")) return list;
  return list === undefined || list.some((v) => jsonEqual(v, schema.const)) ? [schema.const] : [];
}

/** A local $ref followed (`#`, `#/$defs/X`, `#/definitions/X`); undefined when it cannot be. */
function resolve(schema: Schema, root: Root): Schema | undefined {
  let current = schema;
  for (let hops = 0; hops < 32 && isPlainObject(current) && typeof current.$ref === "string"; hops++) {
    const ref = current.$ref as string;
    const rest = Object.keys(current).filter((k) => k !== "$ref" && k !== "$defs" && k !== "definitions" && !ANNOTATIONS.has(k));
    if (rest.length > 0) return undefined;
    let target: unknown;
    const to = classifyRef(ref);
    if (to.kind === "root") target = root.schema;
    else if (to.kind === "local") {
      const container = isPlainObject(root.schema) ? root.schema[to.container] : undefined;
      target = isPlainObject(container) && Object.hasOwn(container, to.name) ? container[to.name] : undefined;
    }
    if (target === undefined) return undefined;
    current = target as Schema;
  }
  return isPlainObject(current) && typeof current.$ref === "string" ? undefined : current;
}

const ids = new WeakMap<object, number>();
let nextId = 0;

function identity(schema: Schema): string {
  if (typeof schema !== "object") return String(schema);
  let id = ids.get(schema);
  if (id === undefined) ids.set(schema, (id = nextId++));
  return String(id);
}

const refs = new WeakMap<object, boolean>();

function hasRef(schema: unknown): boolean {
  if (typeof schema !== "object" || schema === null) return false;
  let known = refs.get(schema);
  if (known === undefined) {
    known = Array.isArray(schema) ? schema.some(hasRef) : Object.hasOwn(schema, "$ref") || Object.values(schema).some(hasRef);
    refs.set(schema, known);
  }
  return known;
}

/** Keys that leave a schema unconstrained (format asserts for some validators; $id/$anchor re-base refs). */
const INERT = new Set([...ANNOTATIONS].filter((k) => k !== "format" && k !== "$id" && k !== "$anchor" && k !== "$schema"));

function isEmpty(schema: Schema): boolean {
  return isPlainObject(schema) && Object.keys(schema).every((k) => INERT.has(k) || k === "$defs" || k === "definitions");
}

function both(out: Finding[], path: string, message: string): void {
  out.push({ path, message, narrows: true, widens: true });
}

function join(at: string, key: string): string {
  return at === "" ? key : `${at}.${key}`;
}

function show(value: unknown): string {
  return JSON.stringify(value);
}
