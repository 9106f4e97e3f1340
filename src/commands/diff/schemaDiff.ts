/**
 * How a JSON Schema changed, as findings that say whether the new schema accepts less than the
 * old one (it narrows: some value valid before is refused now) or more (it widens: some value
 * refused before is valid now), or neither (an annotation: description, title, examples...).
 *
 * The rules are sound and conservative: "does not narrow" is said only when every value the old
 * schema accepts is accepted by the new one (and likewise for widening). Where compatibility is
 * not proven by a rule (a changed anyOf, an unknown keyword, a changed pattern) the finding says
 * both. The property tests (test/unit/commands/diff/schema-diff.test.ts) check these claims with ajv on random
 * schema pairs and values.
 */
import { classifyRef } from "../../jsonSchema/refs.js";
import { isPlainObject, jsonEqual } from "../../common/objects.js";
import { alignDialects } from "./dialect.js";
import { foldIntoTypes } from "./fold.js";
import { propertyFindings } from "./properties.js";
import { valueFindings } from "./values.js";
import { ANNOTATIONS } from "./keywords.js";

import type { Finding, Schema } from "./difference.js";

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

  out.push(...valueFindings(x, y, at));
  out.push(
    ...propertyFindings(x, y, at, (a, b, path) => {
      const sub: Finding[] = [];
      compare(a, b, path, rootA, rootB, sub, seen);
      return sub;
    }),
  );
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
