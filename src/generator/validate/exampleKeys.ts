/**
 * Keys of a tool example that its schema does not declare. JSON Schema lets an object without
 * `additionalProperties` carry any key, but the generated types name only the declared ones (as
 * openapi-typescript does), so an example with another key is one no typed caller could write
 * (arguments) or read (result): most often a typo, or text YAML cut at a comma.
 */
import type { DocPath } from "../../common/diagnostics.js";
import { classifyRef, type JsonSchema } from "../../jsonSchema/refs.js";
import { didYouMean } from "../../common/didYouMean.js";
import { isPlainObject } from "../../common/objects.js";
import { quoteHint } from "./flowText.js";

export interface UndeclaredKey {
  /** Path of the key inside the example value. */
  path: DocPath;
  /** What is wrong and the fix: a did-you-mean, the quoted text YAML cut, or the names declared. */
  message: string;
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

/** Undeclared keys of `value` (an example's arguments or result) under `schema` (`$ref: '#/defs/Name'` followed through `defs`). */
export function undeclaredKeys(schema: JsonSchema, value: unknown, key: "inputSchema" | "outputSchema", defs: ReadonlyMap<string, unknown>): UndeclaredKey[] {
  const side = key === "inputSchema" ? "arguments" : "result";
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
    for (const name of Object.keys(value)) {
      if (Object.hasOwn(properties, name)) {
        stack.push({ schema: properties[name], value: value[name], path: [...path, name], hops });
        continue;
      }
      if (open) continue;
      const near = didYouMean(name, declared);
      const fix = near
        ? `did you mean \`${near}\`?`
        : value[name] === null
          ? quoteHint(value, name)
          : `remove it, or declare it under \`properties\` (declared: ${declared.join(", ") || "none"})`;
      const verb = side === "arguments" ? "send" : "read";
      out.push({
        path: [...path, name],
        message: `example ${side} key \`${name}\` is not declared by ${key}: the generated types have no such field, so no typed caller could ${verb} it; ${fix}`,
      });
    }
  }
  return out.sort((a, b) => String(a.path).localeCompare(String(b.path)));
}
