/**
 * What mcpgen knows about JSON Schema keywords, in one place: every keyword and the dialects that
 * have it (the suspicious-key check in generator/validate/schemas.ts, the keyword typo check in
 * generator/validate/schemaKeys.ts, lint's unknown-keyword rule) and how each holds subschemas
 * (every walk over a schema: $ref collection and bundling in refs.ts, schema paths in
 * generator/validate/schemas.ts, the diff's dialect reading in commands/diff/dialect.ts). The
 * diff's own facts (annotations, which type a keyword applies to) are in commands/diff/keywords.ts;
 * test/unit/jsonSchema/keywords.test.ts checks every keyword named there is known here.
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

/** The dialects mcpgen reads: 2020-12, MCP's default, and draft-07 when a schema's `$schema` says so. */
export type Dialect = "2020-12" | "draft-07";

/**
 * The keywords of KEYWORDS a dialect does not have: its validators ignore them (`prefixItems` in
 * draft-07, `additionalItems` in 2020-12). `$defs` and `definitions` are in both: a `$ref` reaches
 * either by its JSON pointer, and ajv reads both in every dialect; 2020-12's meta-schema keeps
 * `definitions` and `dependencies` for compatibility.
 */
const NOT_IN: Readonly<Record<Dialect, ReadonlySet<string>>> = {
  "2020-12": new Set(["additionalItems"]),
  "draft-07": new Set([
    "$anchor",
    "$dynamicRef",
    "$dynamicAnchor",
    "$vocabulary",
    "dependentRequired",
    "dependentSchemas",
    "prefixItems",
    "unevaluatedItems",
    "unevaluatedProperties",
    "minContains",
    "maxContains",
    "deprecated",
    "contentSchema",
  ]),
};

const BY_DIALECT: Readonly<Record<Dialect, readonly string[]>> = {
  "2020-12": [...KEYWORDS].filter((k) => !NOT_IN["2020-12"].has(k)),
  "draft-07": [...KEYWORDS].filter((k) => !NOT_IN["draft-07"].has(k)),
};

/** The keywords of a dialect, in the order of KEYWORDS (the order of its did-you-mean ties). */
export function keywordsOf(dialect: Dialect): readonly string[] {
  return BY_DIALECT[dialect];
}

/** The `x-` extensions mcpgen reads in schemas: `x-mcp-header` (MCP 2026-07-28, packages/runtime/src/server/http/paramHeaders.ts). */
export const EXTENSIONS: readonly string[] = ["x-mcp-header"];

/** Keywords whose value may be null. */
export const NULL_ALLOWED = new Set(["const", "default"]);

/** How a keyword holds subschemas: one schema, a list of schemas, or a map of names to schemas. */
export type SubschemaForm = "one" | "list" | "map";

/**
 * The keywords that hold subschemas, 2020-12 and draft-07 (whose `items` may also be a list, like
 * prefixItems: walkers check for that form), every one ajv applies in either dialect
 * (test/unit/jsonSchema/keywords.test.ts compiles a pattern under each keyword ajv knows and
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
