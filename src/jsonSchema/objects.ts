/**
 * What an object schema admits: every JSON object (a published server's tool schema may carry no
 * `type` at all, `{"$schema": "...draft-07..."}`, and its arguments are then any object), and
 * the properties it does not declare (the index signature of its type).
 */
import { isPlainObject } from "../common/objects.js";
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

/**
 * The index signature of the type mcpgen writes for an object schema (generator/emit/schemaType.ts
 * objectMembers writes it so; the diff property test compiles both with TypeScript): `values` when it admits a value,
 * so that typed code may send or read properties the schema does not declare
 * (`additionalProperties: true` or a schema, patternProperties, or no declared property at all);
 * `never` for no declared property and additionalProperties false (an undeclared property reads
 * as `undefined` and cannot be written); none otherwise. `mcpgen diff` judges changes to
 * undeclared properties by it.
 */
export function indexSignature(schema: { [key: string]: unknown }): "values" | "never" | undefined {
  const extra = schema.additionalProperties;
  if (extra === true || isPlainObject(extra)) return "values";
  if (isPlainObject(schema.patternProperties) && Object.keys(schema.patternProperties).length > 0) return "values";
  const properties = isPlainObject(schema.properties) ? schema.properties : {};
  if (Object.keys(properties).length > 0) return undefined;
  return extra === false ? "never" : "values";
}
