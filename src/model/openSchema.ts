/**
 * Whether a schema admits every JSON object: a published server's tool schema may carry no `type`
 * at all (`{"$schema": "...draft-07..."}`), and its arguments are then any object.
 */
import type { JsonSchema } from "./refs.js";

/** Keywords that can refuse an object (the others only annotate, or apply to other types). */
const CONSTRAINS_OBJECTS = new Set([
  "type",
  "enum",
  "const",
  "properties",
  "patternProperties",
  "additionalProperties",
  "unevaluatedProperties",
  "required",
  "propertyNames",
  "minProperties",
  "maxProperties",
  "dependentRequired",
  "dependentSchemas",
  "dependencies",
  "allOf",
  "anyOf",
  "oneOf",
  "not",
  "if",
  "then",
  "else",
  "$ref",
  "$dynamicRef",
  "$recursiveRef",
]);

/** True when no keyword of `schema` can refuse an object: `true`, `{}`, `{"$schema": ..., "description": ...}`. */
export function admitsAnyObject(schema: JsonSchema): boolean {
  if (typeof schema === "boolean") return schema;
  return Object.keys(schema).every((key) => !CONSTRAINS_OBJECTS.has(key));
}
