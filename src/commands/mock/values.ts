/**
 * Values from JSON Schemas, for the mock's answers: a seeded walk of the schema that builds a
 * value meant to validate. What it supports: types, enum/const, properties/required,
 * additionalProperties, items/prefixItems (draft-07's tuple `items` too), min/max of lengths,
 * items, properties and numbers, multipleOf, patterns, formats, `$ref` to `$defs`/`definitions`,
 * allOf (merged), anyOf/oneOf (one branch, one compatible with the rest). It does not prove the
 * value valid: the caller checks it with the server's own validator and falls back when not.
 */
import type { Random } from "./random.js";
import { formatString, patternString, plainString, UnmockablePattern } from "./strings.js";

type Schema = { [key: string]: unknown };

/** How big a generated value may get. */
export interface ValueLimits {
  /** Objects and arrays nested deeper than this get only what they require (required properties, minItems). */
  maxDepth: number;
  /** Items of an array beyond its minItems (the array never exceeds maxItems of its schema). */
  maxItems: number;
  /** Optional properties of an object, at most. */
  maxProperties: number;
  /** Characters of a plain string beyond its minLength. */
  maxStringLength: number;
  /** Repetitions of an open quantifier (`*`, `+`, `{2,}`) in a pattern beyond its minimum. */
  maxRepeat: number;
}

/** The caps of `mcpgen mock` (docs/reference/limits.md). */
export const DEFAULT_LIMITS: ValueLimits = { maxDepth: 6, maxItems: 3, maxProperties: 8, maxStringLength: 24, maxRepeat: 4 };

/** The caps of the "smaller value" fallback: only what the schema requires. */
export const MINIMAL_LIMITS: ValueLimits = { maxDepth: 0, maxItems: 0, maxProperties: 0, maxStringLength: 0, maxRepeat: 0 };

/** The schema cannot be satisfied by this generator (a pattern it cannot build, contradicting keywords, a ref it cannot follow). */
export class Unmockable extends Error {}

/** Merged `$ref` / allOf / anyOf steps of one schema, at most: a bound on self-referencing compositions. */
const MAX_MERGES = 64;
/** Levels past maxDepth that required properties and minItems may still ask for. */
const HARD_DEPTH = 32;

/** A value for `schema` (its `$ref`s resolved against `root`, by default the schema itself). Throws Unmockable. */
export function generateValue(schema: unknown, random: Random, limits: ValueLimits = DEFAULT_LIMITS, root: unknown = schema): unknown {
  return new Generator(root, random, limits).value(schema, 0);
}

class Generator {
  constructor(
    private readonly root: unknown,
    private readonly random: Random,
    private readonly limits: ValueLimits,
  ) {}

  value(schema: unknown, depth: number): unknown {
    // Past the cap only required parts are made; a schema that requires itself still ends here.
    if (depth > this.limits.maxDepth + HARD_DEPTH)
      throw new Unmockable(`the schema requires values nested deeper than ${this.limits.maxDepth + HARD_DEPTH} levels`);
    const s = this.flatten(schema);
    if (Object.hasOwn(s, "const")) return s["const"];
    if (Array.isArray(s["enum"])) {
      const allowed = s["enum"].filter((v) => typeFits(s, v));
      if (allowed.length === 0) throw new Unmockable("no enum value has the schema's type");
      return this.random.pick(allowed);
    }
    switch (this.typeOf(s)) {
      case "null":
        return null;
      case "boolean":
        return this.random.chance(0.5);
      case "integer":
        return this.number(s, true);
      case "number":
        return this.number(s, false);
      case "string":
        return this.string(s);
      case "array":
        return this.array(s, depth);
      case "object":
        return this.object(s, depth);
    }
  }

  /** `$ref`, allOf and one branch of each anyOf/oneOf merged into one schema without them. */
  private flatten(schema: unknown): Schema {
    const merged: Schema = {};
    const work: unknown[] = [schema];
    for (let steps = 0; work.length > 0; steps++) {
      if (steps > MAX_MERGES) throw new Unmockable("the schema's $refs and compositions go deeper than the mock follows");
      const next = work.shift();
      if (next === true || next === undefined) continue;
      if (next === false) throw new Unmockable("a `false` schema admits no value");
      if (!isSchema(next)) continue;
      const { $ref, allOf, anyOf, oneOf, ...rest } = next;
      mergeInto(merged, rest);
      if (typeof $ref === "string") work.push(this.resolve($ref));
      if (Array.isArray(allOf)) work.push(...allOf);
      for (const branches of [anyOf, oneOf]) if (Array.isArray(branches) && branches.length > 0) work.push(this.branch(branches, merged));
    }
    return merged;
  }

  /** A branch whose type and values can agree with what is merged so far (any one if none seems to). */
  private branch(branches: readonly unknown[], merged: Schema): unknown {
    const order = this.random.shuffle(branches);
    return order.find((b) => compatible(merged, b === true || b === undefined ? {} : this.peek(b))) ?? order[0];
  }

  /** The branch's own keywords, its top-level $ref followed (for the compatibility check only). */
  private peek(branch: unknown): Schema {
    if (!isSchema(branch)) return {};
    if (typeof branch["$ref"] !== "string") return branch;
    try {
      const target = this.resolve(branch["$ref"]);
      return isSchema(target) ? { ...target, ...branch } : branch;
    } catch {
      return branch;
    }
  }

  /** A local reference: `#`, `#/$defs/X`, `#/definitions/X` (any JSON pointer into the root), or `#anchor`. */
  private resolve(ref: string): unknown {
    if (!ref.startsWith("#")) throw new Unmockable(`$ref ${ref} is not local`);
    if (ref.length > 1 && ref[1] !== "/") {
      const anchor = findAnchor(this.root, ref.slice(1), 0);
      if (anchor === undefined) throw new Unmockable(`$ref ${ref} names no $anchor`);
      return anchor;
    }
    let at: unknown = this.root;
    for (const raw of ref.slice(2).split("/")) {
      if (ref.length <= 1) break;
      const key = decodeURIComponent(raw).replace(/~1/g, "/").replace(/~0/g, "~");
      if (typeof at !== "object" || at === null || !Object.hasOwn(at, key)) throw new Unmockable(`$ref ${ref} points nowhere`);
      at = (at as Record<string, unknown>)[key];
    }
    return at;
  }

  private typeOf(s: Schema): JsonType {
    const declared = typesOf(s);
    if (declared) {
      // Something rather than null, when there is a choice: a client renders a value.
      const choices = declared.length > 1 ? declared.filter((t) => t !== "null") : declared;
      if (choices.length === 0) throw new Unmockable("the merged schemas allow no type");
      return this.random.pick(choices);
    }
    if (["properties", "required", "additionalProperties", "patternProperties", "minProperties"].some((k) => Object.hasOwn(s, k))) return "object";
    if (["items", "prefixItems", "minItems", "maxItems", "contains"].some((k) => Object.hasOwn(s, k))) return "array";
    if (["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"].some((k) => Object.hasOwn(s, k))) return "number";
    return "string";
  }

  private number(s: Schema, integer: boolean): number {
    const num = (key: string) => (typeof s[key] === "number" ? (s[key] as number) : undefined);
    const exMin = typeof s["exclusiveMinimum"] === "boolean" ? (s["exclusiveMinimum"] ? num("minimum") : undefined) : num("exclusiveMinimum");
    const exMax = typeof s["exclusiveMaximum"] === "boolean" ? (s["exclusiveMaximum"] ? num("maximum") : undefined) : num("exclusiveMaximum");
    const min = typeof s["exclusiveMinimum"] === "boolean" && s["exclusiveMinimum"] ? undefined : num("minimum");
    const max = typeof s["exclusiveMaximum"] === "boolean" && s["exclusiveMaximum"] ? undefined : num("maximum");
    const step = integer ? 1 : 0.01;
    let lo = Math.max(min ?? -Infinity, exMin === undefined ? -Infinity : exMin + step);
    let hi = Math.min(max ?? Infinity, exMax === undefined ? Infinity : exMax - step);
    if (lo === -Infinity && hi === Infinity) [lo, hi] = [0, 100];
    else if (lo === -Infinity) lo = hi - 100;
    else if (hi === Infinity) hi = lo + 100;
    if (integer) [lo, hi] = [Math.ceil(lo), Math.floor(hi)];
    if (lo > hi) throw new Unmockable(`no ${integer ? "integer" : "number"} lies between the schema's bounds`);
    const multipleOf = num("multipleOf");
    if (multipleOf !== undefined && multipleOf > 0) {
      const first = Math.ceil(lo / multipleOf);
      const last = Math.floor(hi / multipleOf);
      // Each candidate is checked the way validators check it (value / multipleOf is a whole number).
      for (let tries = 0; tries < 8 && first <= last; tries++) {
        const value = this.random.int(first, Math.min(last, first + 1000)) * multipleOf;
        if (Number.isInteger(value / multipleOf) && (!integer || Number.isInteger(value)) && value >= lo && value <= hi) return value;
      }
      if (lo <= 0 && hi >= 0) return 0;
      throw new Unmockable(`no ${integer ? "integer" : "number"} multiple of ${multipleOf} lies between the schema's bounds`);
    }
    if (integer) return this.random.int(Math.max(lo, -1e9), Math.min(hi, Math.max(lo, -1e9) + 1000));
    const value = Math.round((lo + this.random.next() * Math.min(hi - lo, 1000)) * 100) / 100;
    return Math.min(Math.max(value, lo), hi);
  }

  private string(s: Schema): string {
    const minLength = typeof s["minLength"] === "number" ? s["minLength"] : 0;
    const maxLength = typeof s["maxLength"] === "number" ? s["maxLength"] : Infinity;
    if (minLength > maxLength) throw new Unmockable("minLength is over maxLength");
    if (typeof s["pattern"] === "string") {
      // Patterns are unanchored: a match padded to minLength still matches, unless the pattern is anchored.
      let match: string;
      try {
        match = patternString(s["pattern"], this.random, this.limits.maxRepeat);
      } catch (error) {
        if (error instanceof UnmockablePattern) throw new Unmockable(`pattern ${s["pattern"]}: ${error.message}`);
        throw error;
      }
      return match.length >= minLength ? match : match + "x".repeat(minLength - match.length);
    }
    const formatted = typeof s["format"] === "string" ? formatString(s["format"], this.random) : undefined;
    if (formatted !== undefined) return formatted;
    return plainString(this.random, minLength, Math.min(maxLength, minLength + this.limits.maxStringLength));
  }

  private array(s: Schema, depth: number): unknown[] {
    // 2020-12: prefixItems then items; draft-07: items as a list, then additionalItems.
    const prefix = Array.isArray(s["prefixItems"]) ? s["prefixItems"] : Array.isArray(s["items"]) ? s["items"] : [];
    const rest = Array.isArray(s["items"]) ? s["additionalItems"] : s["items"];
    const minItems = typeof s["minItems"] === "number" ? s["minItems"] : 0;
    const maxItems = typeof s["maxItems"] === "number" ? s["maxItems"] : Infinity;
    const extra = depth >= this.limits.maxDepth ? 0 : this.limits.maxItems;
    let length = this.random.int(minItems, Math.min(maxItems, minItems + extra));
    if (rest === false) length = Math.min(length, prefix.length);
    if (length < minItems) throw new Unmockable("minItems asks for more items than the array admits");
    const out: unknown[] = [];
    const unique = s["uniqueItems"] === true;
    for (let i = 0; i < length; i++) {
      const itemSchema = i < prefix.length ? prefix[i] : rest;
      let item = this.value(itemSchema, depth + 1);
      for (let tries = 0; unique && tries < 8 && out.some((o) => sameJson(o, item)); tries++) item = this.value(itemSchema, depth + 1);
      if (unique && out.some((o) => sameJson(o, item))) {
        if (out.length >= minItems) break;
        throw new Unmockable("uniqueItems: not enough distinct values");
      }
      out.push(item);
    }
    return out;
  }

  private object(s: Schema, depth: number): Record<string, unknown> {
    const properties = isSchema(s["properties"]) ? s["properties"] : {};
    const required = Array.isArray(s["required"]) ? s["required"].filter((r): r is string => typeof r === "string") : [];
    const additional = s["additionalProperties"];
    const minProperties = typeof s["minProperties"] === "number" ? s["minProperties"] : 0;
    const maxProperties = typeof s["maxProperties"] === "number" ? s["maxProperties"] : Infinity;
    const out: Record<string, unknown> = {};
    const set = (key: string, value: unknown) => Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
    for (const key of required) set(key, this.value(this.propertySchema(s, key), depth + 1));
    let optional = depth >= this.limits.maxDepth ? 0 : this.limits.maxProperties;
    for (const key of Object.keys(properties)) {
      if (Object.hasOwn(out, key) || optional <= 0 || Object.keys(out).length >= maxProperties) continue;
      if (!this.random.chance(0.6)) continue;
      optional--;
      set(key, this.value(properties[key], depth + 1));
    }
    // minProperties beyond the declared ones: extra keys, where the schema admits them.
    for (let i = 1; Object.keys(out).length < minProperties && i <= minProperties + Object.keys(properties).length; i++) {
      const key = Object.hasOwn(properties, `extra${i}`) ? undefined : `extra${i}`;
      if (key === undefined || Object.hasOwn(out, key)) continue;
      if (additional === false) break;
      set(key, this.value(isSchema(additional) ? additional : {}, depth + 1));
    }
    for (const key of Object.keys(properties)) {
      if (Object.keys(out).length >= minProperties) break;
      if (!Object.hasOwn(out, key)) set(key, this.value(properties[key], depth + 1));
    }
    return out;
  }

  /** The schema of a property: its `properties` entry, a matching `patternProperties` entry, or `additionalProperties`. */
  private propertySchema(s: Schema, key: string): unknown {
    const properties = isSchema(s["properties"]) ? s["properties"] : {};
    if (Object.hasOwn(properties, key)) return properties[key];
    const patterns = isSchema(s["patternProperties"]) ? s["patternProperties"] : {};
    for (const [pattern, schema] of Object.entries(patterns)) {
      try {
        if (new RegExp(pattern, "u").test(key)) return schema;
      } catch {
        continue;
      }
    }
    if (s["additionalProperties"] === false) throw new Unmockable(`required property ${key} is not admitted by additionalProperties: false`);
    return isSchema(s["additionalProperties"]) ? s["additionalProperties"] : {};
  }
}

type JsonType = "null" | "boolean" | "integer" | "number" | "string" | "array" | "object";
const TYPES: readonly JsonType[] = ["null", "boolean", "integer", "number", "string", "array", "object"];

function isSchema(value: unknown): value is Schema {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The schema's `type` as a list of known types, or undefined when it names none. */
function typesOf(s: Schema): JsonType[] | undefined {
  const t = s["type"];
  const list = typeof t === "string" ? [t] : Array.isArray(t) ? t : undefined;
  return list?.filter((x): x is JsonType => TYPES.includes(x as JsonType));
}

function jsonTypeOf(value: unknown): JsonType {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  if (typeof value === "string" || typeof value === "boolean" || typeof value === "object") return typeof value as JsonType;
  return "null";
}

/** The value has one of the schema's types (any, when it names none); an integer is a number. */
function typeFits(s: Schema, value: unknown): boolean {
  const types = typesOf(s);
  if (!types) return true;
  const type = jsonTypeOf(value);
  return (
    types.includes(type) || (type === "integer" && types.includes("number")) || (type === "number" && types.includes("integer") && Number.isInteger(value))
  );
}

/** Could a value meet both `merged` and `branch`? (types that meet, a const or enum of the right type) */
function compatible(merged: Schema, branch: Schema): boolean {
  const a = typesOf(merged);
  const b = typesOf(branch);
  if (a && b && !a.some((t) => b.includes(t) || (t === "number" && b.includes("integer")) || (t === "integer" && b.includes("number")))) return false;
  if (Object.hasOwn(branch, "const") && !typeFits(merged, branch["const"])) return false;
  if (Object.hasOwn(merged, "const") && Object.hasOwn(branch, "const") && !sameJson(merged["const"], branch["const"])) return false;
  if (Array.isArray(branch["enum"]) && !branch["enum"].some((v) => typeFits(merged, v))) return false;
  return true;
}

const LOWER_BOUNDS = new Set(["minimum", "exclusiveMinimum", "minLength", "minItems", "minProperties", "minContains"]);
const UPPER_BOUNDS = new Set(["maximum", "exclusiveMaximum", "maxLength", "maxItems", "maxProperties", "maxContains"]);

/** Adds one schema's keywords (without $ref and compositions) to `target`: both must hold. */
function mergeInto(target: Schema, source: Schema): void {
  for (const [key, value] of Object.entries(source)) {
    if (!Object.hasOwn(target, key)) {
      Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
      continue;
    }
    const old = target[key];
    if (key === "type") {
      const a = typesOf(target) ?? [];
      const b = typesOf(source) ?? [];
      target[key] = a
        .filter((t) => b.includes(t) || (t === "integer" && b.includes("number")))
        .concat(b.filter((t) => t === "integer" && a.includes("number")));
    } else if (key === "required" && Array.isArray(old) && Array.isArray(value)) target[key] = [...new Set([...old, ...value])];
    else if (key === "enum" && Array.isArray(old) && Array.isArray(value)) target[key] = old.filter((v) => value.some((w) => sameJson(v, w)));
    else if ((key === "properties" || key === "patternProperties") && isSchema(old) && isSchema(value)) {
      const both: Schema = { ...old };
      for (const [name, schema] of Object.entries(value))
        Object.defineProperty(both, name, {
          value: Object.hasOwn(old, name) ? { allOf: [old[name], schema] } : schema,
          enumerable: true,
          configurable: true,
          writable: true,
        });
      target[key] = both;
    } else if ((key === "items" || key === "additionalProperties") && isSchema(old) && isSchema(value)) target[key] = { allOf: [old, value] };
    else if ((key === "items" || key === "additionalProperties") && (old === false || value === false)) target[key] = false;
    else if (LOWER_BOUNDS.has(key) && typeof old === "number" && typeof value === "number") target[key] = Math.max(old, value);
    else if (UPPER_BOUNDS.has(key) && typeof old === "number" && typeof value === "number") target[key] = Math.min(old, value);
  }
}

function findAnchor(node: unknown, anchor: string, depth: number): unknown {
  if (depth > 64 || typeof node !== "object" || node === null) return undefined;
  if (!Array.isArray(node) && (node as Schema)["$anchor"] === anchor) return node;
  for (const child of Object.values(node)) {
    const found = findAnchor(child, anchor, depth + 1);
    if (found !== undefined) return found;
  }
  return undefined;
}

function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
