/**
 * Argument names a schema does not name, at every depth: `tag` where the tool's inputSchema has
 * `tags`, `birth` in a nested object that has `born`. A schema that allows other properties lets
 * a misspelled optional argument through silently, so the name is judged even there; only where
 * the schema says extra names are meant (`additionalProperties` or `patternProperties` given as
 * a schema: a map) are they not. Names are followed through `properties`, `items`, the branches
 * of `allOf`/`anyOf`/`oneOf`/`if`/`then`/`else`, and local `$ref`s.
 */
import { didYouMean } from "../../../common/didYouMean.js";
import { isRecord } from "../model.js";

/** How deep arguments are followed, and how many unknown names one call reports. */
const MAX_DEPTH = 32;
const MAX_FOUND = 20;
/** Array items followed per array. */
const MAX_ITEMS = 100;

export interface UnknownName {
  /** JSON Pointer of the argument. */
  at: string;
  name: string;
  near?: string;
}

/** The schema a local `$ref` points to (`#/$defs/x`, `#/definitions/x`), or undefined. */
function resolve(schema: unknown, root: unknown): Record<string, unknown> | undefined {
  let current = schema;
  for (let hops = 0; hops < 8 && isRecord(current) && typeof current["$ref"] === "string"; hops++) {
    const ref = current["$ref"];
    if (!ref.startsWith("#")) return undefined;
    let target: unknown = root;
    for (const raw of ref.slice(1).split("/").slice(1)) {
      const key = decodeURIComponent(raw).replace(/~1/g, "/").replace(/~0/g, "~");
      target = isRecord(target) && Object.hasOwn(target, key) ? target[key] : undefined;
    }
    current = target;
  }
  return isRecord(current) ? current : undefined;
}

/** The schema and every branch of it that applies at the same level. */
function levels(schema: Record<string, unknown>, root: unknown, depth = 0): Record<string, unknown>[] {
  const found = [schema];
  if (depth > 8) return found;
  for (const key of ["allOf", "anyOf", "oneOf"]) {
    const branches = schema[key];
    if (Array.isArray(branches))
      for (const branch of branches) {
        const resolved = resolve(branch, root);
        if (resolved) found.push(...levels(resolved, root, depth + 1));
      }
  }
  for (const key of ["if", "then", "else"]) {
    const resolved = resolve(schema[key], root);
    if (resolved) found.push(...levels(resolved, root, depth + 1));
  }
  return found;
}

/** Unknown argument names in `value` against `schema` (whose `$ref`s resolve in `root`). */
export function unknownNames(schema: unknown, value: unknown, root: unknown = schema): UnknownName[] {
  const found: UnknownName[] = [];
  walk(schema, value, root, "", 0, found);
  return found;
}

/** What a schema level says of names, worked out once per schema object (every call of a tool walks the same schema). */
interface Level {
  items?: Record<string, unknown>;
  /** The `properties` objects of the level and its branches; undefined when names are not judged here. */
  properties?: Record<string, unknown>[];
  names: string[];
}

const LEVELS = new WeakMap<object, Level>();

function levelOf(resolved: Record<string, unknown>, root: unknown): Level {
  let level = LEVELS.get(resolved);
  if (level) return level;
  const all = levels(resolved, root);
  const items = all.map((s) => s["items"]).find((i) => isRecord(i));
  const properties = all.map((s) => s["properties"]).filter(isRecord);
  // No names at this level (a free-form object), or a schema that means other names (a map): nothing to judge.
  const judged = properties.length > 0 && !all.some((s) => isRecord(s["additionalProperties"]) || isRecord(s["patternProperties"]));
  level = {
    ...(isRecord(items) ? { items } : {}),
    ...(judged ? { properties } : {}),
    names: judged ? [...new Set(properties.flatMap((p) => Object.keys(p)))] : [],
  };
  LEVELS.set(resolved, level);
  return level;
}

function walk(schema: unknown, value: unknown, root: unknown, at: string, depth: number, found: UnknownName[]): void {
  const resolved = resolve(schema, root);
  if (!resolved || depth > MAX_DEPTH || found.length >= MAX_FOUND) return;
  const level = levelOf(resolved, root);
  if (Array.isArray(value)) {
    const items = level.items;
    if (items) value.slice(0, MAX_ITEMS).forEach((item, i) => walk(items, item, root, `${at}/${i}`, depth + 1, found));
    return;
  }
  const { properties, names } = level;
  if (!isRecord(value) || !properties) return;
  for (const key of Object.keys(value)) {
    if (found.length >= MAX_FOUND) return;
    const pointer = `${at}/${key.replace(/~/g, "~0").replace(/\//g, "~1")}`;
    const sub = properties.find((p) => Object.hasOwn(p, key));
    if (sub) walk(sub[key], value[key], root, pointer, depth + 1, found);
    else {
      const near = didYouMean(key, names);
      found.push({ at: pointer, name: key, ...(near === undefined ? {} : { near }) });
    }
  }
}
