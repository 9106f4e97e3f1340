/**
 * Keys of a tool example that its schema does not declare. JSON Schema lets an object without
 * `additionalProperties` carry any key, but the generated types name only the declared ones (as
 * openapi-typescript does), so an example with another key is one no typed caller could write
 * (arguments) or read (result): most often a typo, or text YAML cut at a comma.
 */
import type { DocPath } from "../diagnostics.js";
import { classifyRef, type JsonSchema } from "../model/refs.js";
import { didYouMean } from "../util/didYouMean.js";
import { isPlainObject } from "../util/objects.js";

export interface UndeclaredKey {
  /** Path of the key inside the example value. */
  path: DocPath;
  key: string;
  /** The names the schema declares there. */
  declared: string[];
  near?: string;
  /** The object holding the key (for the quoting hint when YAML made the key from text). */
  holder: Record<string, unknown>;
}

/** Keywords after which an object's keys depend on more than its `properties`: those nodes are left alone. */
const OPEN_ENDED = [
  "additionalProperties",
  "patternProperties",
  "unevaluatedProperties",
  "allOf",
  "anyOf",
  "oneOf",
  "not",
  "if",
  "then",
  "else",
  "dependentSchemas",
  "dependencies",
  "$dynamicRef",
];

/** Undeclared keys of `value` under `schema` (`$ref: '#/defs/Name'` followed through `defs`). */
export function undeclaredKeys(schema: JsonSchema, value: unknown, defs: ReadonlyMap<string, unknown>): UndeclaredKey[] {
  const out: UndeclaredKey[] = [];
  // Each node is visited once per example: a schema that refers to itself ends with the value.
  const stack: { schema: unknown; value: unknown; path: DocPath; hops: number }[] = [{ schema, value, path: [], hops: 0 }];
  while (stack.length > 0) {
    const next = stack.pop()!;
    let node = next.schema;
    let hops = next.hops;
    while (isPlainObject(node) && typeof node.$ref === "string" && Object.keys(node).length === 1 && hops < 32) {
      const target = classifyRef(node.$ref);
      if (target.kind !== "def") break;
      node = defs.get(target.name);
      hops++;
    }
    if (!isPlainObject(node)) continue;
    const { value, path } = next;
    if (Array.isArray(value)) {
      if (isPlainObject(node.items)) value.forEach((item, i) => stack.push({ schema: node.items, value: item, path: [...path, i], hops }));
      continue;
    }
    if (!isPlainObject(value) || !isPlainObject(node.properties)) continue;
    const properties = node.properties;
    const open = OPEN_ENDED.some((k) => node[k] !== undefined) || typeof node.$ref === "string";
    const declared = Object.keys(properties);
    for (const key of Object.keys(value)) {
      if (Object.hasOwn(properties, key)) {
        stack.push({ schema: properties[key], value: value[key], path: [...path, key], hops });
      } else if (!open) {
        const near = didYouMean(key, declared);
        out.push({ path: [...path, key], key, declared, ...(near ? { near } : {}), holder: value });
      }
    }
  }
  return out.sort((a, b) => String(a.path).localeCompare(String(b.path)));
}
