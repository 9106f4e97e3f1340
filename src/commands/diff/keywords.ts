/**
 * What the schema comparison knows about JSON Schema keywords, shared by its rules. Which keywords
 * hold subschemas is mcpgen's one table, jsonSchema/keywords.ts SUBSCHEMAS.
 */

/** Keywords that never change which values are valid (2020-12 and draft-07 annotations). */
export const ANNOTATIONS: ReadonlySet<string> = new Set([
  "title",
  "description",
  "examples",
  "default",
  "$comment",
  "deprecated",
  "readOnly",
  "writeOnly",
  "format",
  "contentMediaType",
  "contentEncoding",
  "$schema",
  "$id",
  "$anchor",
]);

/** The kind of value a keyword constrains; values of other kinds pass it untouched. */
export type ValueKind = "array" | "object" | "string" | "number";

/** Keywords that apply to one kind of value only (a minItems says nothing about a string). */
export const APPLIES_TO: Readonly<Record<string, ValueKind>> = {
  items: "array",
  prefixItems: "array",
  additionalItems: "array",
  contains: "array",
  minContains: "array",
  maxContains: "array",
  minItems: "array",
  maxItems: "array",
  uniqueItems: "array",
  unevaluatedItems: "array",
  properties: "object",
  required: "object",
  additionalProperties: "object",
  patternProperties: "object",
  propertyNames: "object",
  minProperties: "object",
  maxProperties: "object",
  dependentRequired: "object",
  dependentSchemas: "object",
  dependencies: "object",
  unevaluatedProperties: "object",
  minLength: "string",
  maxLength: "string",
  pattern: "string",
  minimum: "number",
  maximum: "number",
  exclusiveMinimum: "number",
  exclusiveMaximum: "number",
  multipleOf: "number",
};

const TYPES = ["null", "boolean", "object", "array", "number", "integer", "string"];

/** The types a `type` keyword allows, or undefined when it allows any. */
export function typeSet(type: unknown): Set<string> | undefined {
  if (typeof type === "string") return new Set([type]);
  if (Array.isArray(type)) return new Set(type.filter((t): t is string => typeof t === "string" && TYPES.includes(t)));
  return undefined;
}
