/**
 * What mcpgen knows about JSON Schema keywords, in one place: every keyword (the suspicious-key
 * check, schemas.ts) and how each holds subschemas (every walk over a schema: $ref collection and
 * bundling in model/refs.ts, schema paths in schemas.ts, the diff's dialect reading in
 * diff/dialect.ts). The diff's own facts (annotations, which type a keyword applies to) are in
 * diff/keywords.ts; test/unit/validate/schema-keywords.test.ts checks every keyword named there is
 * known here.
 */

/** JSON Schema keywords (2020-12 and draft-07): a null there is the meta-schema's to report. */
export const KEYWORDS = new Set([
  "$schema",
  "$id",
  "$ref",
  "$defs",
  "$anchor",
  "$dynamicRef",
  "$dynamicAnchor",
  "$comment",
  "$vocabulary",
  "definitions",
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
  "items",
  "prefixItems",
  "additionalItems",
  "unevaluatedItems",
  "contains",
  "minContains",
  "maxContains",
  "minItems",
  "maxItems",
  "uniqueItems",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "multipleOf",
  "minLength",
  "maxLength",
  "pattern",
  "format",
  "allOf",
  "anyOf",
  "oneOf",
  "not",
  "if",
  "then",
  "else",
  "title",
  "description",
  "default",
  "examples",
  "deprecated",
  "readOnly",
  "writeOnly",
  "contentMediaType",
  "contentEncoding",
  "contentSchema",
]);

/** Keywords whose value may be null. */
export const NULL_ALLOWED = new Set(["const", "default"]);

/** How a keyword holds subschemas: one schema, a list of schemas, or a map of names to schemas. */
export type SubschemaForm = "one" | "list" | "map";

/**
 * The keywords that hold subschemas, 2020-12 and draft-07 (whose `items` may also be a list, like
 * prefixItems: walkers check for that form), every one ajv applies in either dialect
 * (test/unit/validate/schema-keywords.test.ts compiles a pattern under each keyword ajv knows and
 * checks the walk finds it). `dependencies` is a map whose values are schemas or lists of names
 * (draft-07; ajv applies it under 2020-12 too): walkers take the schemas and skip the lists. No
 * prototype: `SUBSCHEMAS[key]` is undefined for any other key, `constructor` included.
 */
export const SUBSCHEMAS: Readonly<Record<string, SubschemaForm | undefined>> = Object.assign(
  Object.create(null) as Record<string, SubschemaForm>,
  {
    additionalProperties: "one",
    items: "one",
    contains: "one",
    not: "one",
    if: "one",
    then: "one",
    else: "one",
    propertyNames: "one",
    unevaluatedItems: "one",
    unevaluatedProperties: "one",
    additionalItems: "one",
    contentSchema: "one",
    allOf: "list",
    anyOf: "list",
    oneOf: "list",
    prefixItems: "list",
    properties: "map",
    patternProperties: "map",
    $defs: "map",
    definitions: "map",
    dependentSchemas: "map",
    dependencies: "map",
  } as const,
);
