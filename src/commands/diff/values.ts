/**
 * The rules for what a value itself may be, at one schema node: its type, the values `enum` and
 * `const` allow, bounds, `pattern`, `multipleOf`, `uniqueItems`.
 *
 * Keyword by keyword, a rule cannot see that another keyword already decides: `{const: 1}` ->
 * `{type: integer, maximum: 3}` adds a type and a bound, and refuses nothing. Where one side allows
 * a list of values, what the other side's keywords do to them is checked value by value, and a
 * finding is kept only when some value of the list is affected.
 */
import { isPlainObject, jsonEqual } from "../../common/objects.js";
import { typeSet } from "./keywords.js";
import type { Finding } from "./difference.js";

type Node = Record<string, unknown>;

export function valueFindings(x: Node, y: Node, at: string): Finding[] {
  const listA = allowed(x);
  const listB = allowed(y);
  const out: Finding[] = [];
  types(x, y, listA, listB, at, out);
  values(listA, listB, at, out);
  bounds(x, y, at, out);
  if (!jsonEqual(x.pattern, y.pattern)) {
    if (x.pattern === undefined) out.push({ path: join(at, "pattern"), message: `pattern ${JSON.stringify(y.pattern)} added`, narrows: true, widens: false });
    else if (y.pattern === undefined) out.push({ path: join(at, "pattern"), message: "pattern removed", narrows: false, widens: true });
    else out.push(both(join(at, "pattern"), `pattern changed from ${JSON.stringify(x.pattern)} to ${JSON.stringify(y.pattern)}`));
  }
  if (!jsonEqual(x.multipleOf, y.multipleOf)) {
    if (x.multipleOf === undefined) out.push({ path: join(at, "multipleOf"), message: `multipleOf ${show(y.multipleOf)} added`, narrows: true, widens: false });
    else if (y.multipleOf === undefined)
      out.push({ path: join(at, "multipleOf"), message: `multipleOf ${show(x.multipleOf)} removed`, narrows: false, widens: true });
    else out.push(both(join(at, "multipleOf"), `multipleOf ${show(x.multipleOf)} -> ${show(y.multipleOf)}`));
  }
  if (x.uniqueItems !== y.uniqueItems) {
    const was = x.uniqueItems === true;
    const now = y.uniqueItems === true;
    if (now && !was) out.push({ path: join(at, "uniqueItems"), message: "items must now be unique", narrows: true, widens: false });
    if (was && !now) out.push({ path: join(at, "uniqueItems"), message: "items need no longer be unique", narrows: false, widens: true });
  }
  return out.map((f) => byValues(f, at, x, y, listA, listB));
}

/**
 * A finding on one keyword, checked against the values a list allows: it narrows only if a value
 * the old list allows fails the new keyword, and widens only if one the new list allows failed the old.
 */
function byValues(f: Finding, at: string, x: Node, y: Node, listA: unknown[] | undefined, listB: unknown[] | undefined): Finding {
  const keyword = at === "" ? f.path : f.path.slice(at.length + 1);
  if (!CHECKED.has(keyword) || (listA === undefined && listB === undefined)) return f;
  const narrows = f.narrows && (listA === undefined || listA.some((v) => !meets(v, keyword, y)));
  const widens = f.widens && (listB === undefined || listB.some((v) => !meets(v, keyword, x)));
  if (narrows === f.narrows && widens === f.widens) return f;
  return { ...f, narrows, widens, ...(narrows || widens ? {} : { message: `${f.message} (no value the list allows is affected)` }) };
}

const LOWER = ["minimum", "exclusiveMinimum", "minLength", "minItems", "minProperties"];
const UPPER = ["maximum", "exclusiveMaximum", "maxLength", "maxItems", "maxProperties"];
const NUMERIC_BOUNDS = new Set(["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"]);
const CHECKED = new Set(["type", ...LOWER, ...UPPER, "pattern", "multipleOf", "uniqueItems"]);

/** Whether `value` meets `keyword` of `schema` (draft-04 boolean exclusive bounds are taken as not met). */
function meets(value: unknown, keyword: string, schema: Node): boolean {
  const limit = schema[keyword];
  if (limit === undefined) return true;
  switch (keyword) {
    case "type": {
      const types = typeSet(limit);
      return types === undefined || types.has(jsonType(value)) || (jsonType(value) === "integer" && types.has("number"));
    }
    case "pattern":
      if (typeof value !== "string") return true;
      try {
        return typeof limit === "string" && new RegExp(limit, "u").test(value);
      } catch {
        return false;
      }
    case "multipleOf":
      return typeof value !== "number" || (typeof limit === "number" && Number.isInteger(value / limit));
    case "uniqueItems":
      return !Array.isArray(value) || limit !== true || value.every((v, i) => value.findIndex((w) => jsonEqual(v, w)) === i);
  }
  const size = measure(value, keyword);
  if (size === undefined) return true;
  if (typeof limit !== "number") return false;
  if (keyword === "exclusiveMinimum") return size > limit;
  if (keyword === "exclusiveMaximum") return size < limit;
  return LOWER.includes(keyword) ? size >= limit : size <= limit;
}

/** What a bound measures of a value (its number, length, item or property count), if it applies to it. */
function measure(value: unknown, keyword: string): number | undefined {
  if (NUMERIC_BOUNDS.has(keyword)) return typeof value === "number" ? value : undefined;
  if (keyword.endsWith("Length")) return typeof value === "string" ? [...value].length : undefined;
  if (keyword.endsWith("Items")) return Array.isArray(value) ? value.length : undefined;
  return isPlainObject(value) ? Object.keys(value).length : undefined;
}

function jsonType(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  return typeof value;
}

/**
 * Type rows. Where a side allows a list of values, its types are those of its values; a type the
 * list side lacks is said by the list's own row ("now one of ...", "no longer restricted").
 */
function types(x: Node, y: Node, listA: unknown[] | undefined, listB: unknown[] | undefined, at: string, out: Finding[]): void {
  const of = (s: Node, list: unknown[] | undefined) => (list === undefined ? typeSet(s.type) : new Set(list.map(jsonType)));
  const before = of(x, listA);
  const after = of(y, listB);
  if (before === undefined && after === undefined) return;
  const path = join(at, "type");
  if (before === undefined) {
    if (listB === undefined) out.push({ path, message: `now only ${[...after!].join(" or ")}`, narrows: true, widens: false });
    return;
  }
  if (after === undefined) {
    if (listA === undefined) out.push({ path, message: `no longer only ${[...before].join(" or ")}`, narrows: false, widens: true });
    return;
  }
  // integer is part of number.
  const covers = (set: Set<string>, t: string) => set.has(t) || (t === "integer" && set.has("number"));
  const lost = listB === undefined ? [...before].filter((t) => !covers(after, t)) : [];
  const gained = listA === undefined ? [...after].filter((t) => !covers(before, t)) : [];
  if (lost.length) {
    // number -> integer refuses only the numbers with a fraction.
    const fractions = lost.includes("number") && after.has("integer");
    const others = lost.filter((t) => !(fractions && t === "number"));
    const parts = [...(others.length ? [`no longer accepts ${others.join(", ")}`] : []), ...(fractions ? ["accepts only integers now"] : [])];
    out.push({ path, message: parts.join("; "), narrows: true, widens: false });
  }
  if (gained.length) out.push({ path, message: `now accepts ${gained.join(", ")}`, narrows: false, widens: true });
}

function values(before: unknown[] | undefined, after: unknown[] | undefined, at: string, out: Finding[]): void {
  if (before === undefined && after === undefined) return;
  const path = join(at, "enum");
  if (before === undefined) return void out.push({ path, message: `now one of ${after!.map(show).join(", ")}`, narrows: true, widens: false });
  if (after === undefined) return void out.push({ path, message: "no longer restricted to a list of values", narrows: false, widens: true });
  const removed = before.filter((v) => !after.some((w) => jsonEqual(v, w)));
  const added = after.filter((v) => !before.some((w) => jsonEqual(v, w)));
  if (removed.length)
    out.push({ path, message: `value${removed.length > 1 ? "s" : ""} ${removed.map(show).join(", ")} removed`, narrows: true, widens: false });
  if (added.length) out.push({ path, message: `value${added.length > 1 ? "s" : ""} ${added.map(show).join(", ")} added`, narrows: false, widens: true });
}

/** minimum-like keywords narrow when they rise, maximum-like when they fall. */
function bounds(x: Node, y: Node, at: string, out: Finding[]): void {
  for (const k of [...LOWER, ...UPPER]) {
    const p = bound(x, k);
    const q = bound(y, k);
    if (jsonEqual(p, q)) continue;
    const isLower = LOWER.includes(k);
    // draft-04 style boolean exclusive bounds: not reasoned about.
    if ((p !== undefined && typeof p !== "number") || (q !== undefined && typeof q !== "number")) {
      out.push(both(join(at, k), `${k} changed`));
      continue;
    }
    if (p === undefined) out.push({ path: join(at, k), message: `${k} ${q} added`, narrows: true, widens: false });
    else if (q === undefined) out.push({ path: join(at, k), message: `${k} ${p} removed`, narrows: false, widens: true });
    else if ((isLower && q > p) || (!isLower && q < p)) out.push({ path: join(at, k), message: `${k} ${p} -> ${q}`, narrows: true, widens: false });
    else out.push({ path: join(at, k), message: `${k} ${p} -> ${q}`, narrows: false, widens: true });
  }
}

/**
 * A bound's value; none for a bound that bounds nothing: a minimum length, item or property count
 * of 0, and -(2^53-1) below or 2^53-1 above an integer (schema libraries, zod, add them to every
 * integer, and no integer past them survives a JavaScript number anyway). Taking the last as no
 * bound is the one place these rules are not exact: adding one refuses 2^60.
 */
function bound(schema: Node, k: string): unknown {
  const value = schema[k];
  if (value === 0 && (k === "minLength" || k === "minItems" || k === "minProperties")) return undefined;
  if (typeof value !== "number" || Math.abs(value) !== Number.MAX_SAFE_INTEGER || value < 0 !== LOWER.includes(k)) return value;
  const types = typeSet(schema.type);
  return types !== undefined && types.has("integer") && !types.has("number") && NUMERIC_BOUNDS.has(k) ? undefined : value;
}

/**
 * The values `enum` and `const` allow together (both must hold) and `type` lets through, or
 * undefined when neither enum nor const is set.
 */
function allowed(schema: Node): unknown[] | undefined {
  let list = Array.isArray(schema.enum) ? schema.enum : undefined;
  if (Object.hasOwn(schema, "const")) list = list === undefined || list.some((v) => jsonEqual(v, schema.const)) ? [schema.const] : [];
  return list?.filter((v) => meets(v, "type", schema));
}

function both(path: string, message: string): Finding {
  return { path, message, narrows: true, widens: true };
}

function join(at: string, key: string): string {
  return at === "" ? key : `${at}.${key}`;
}

function show(value: unknown): string {
  return JSON.stringify(value);
}
