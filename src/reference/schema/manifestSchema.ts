/**
 * The manifest's JSON Schema (draft-07, what yaml-language-server and most editors understand),
 * derived from the same field tables the validator uses, so the two cannot disagree.
 * Written to schema/manifest.schema.json by `npm run schema`; a test checks it is current.
 */
import { contentFields } from "../../generator/validate/contentFields.js";
import { DEF_NAME, SERVER_NAME, type FieldSpec } from "../../generator/validate/fields.js";
import { manifestFields } from "../../generator/validate/manifestFields.js";

type Schema = Record<string, unknown>;

export function manifestJsonSchema(): Schema {
  return {
    $schema: "http://json-schema.org/draft-07/schema#",
    title: "mcpgen manifest (format v1)",
    description: "One MCP server: its tools, resources, resource templates and prompts. Field names are MCP's wire names (2025-11-25, kept by 2026-07-28).",
    ...record(manifestFields),
    definitions: {
      jsonSchema: jsonSchemaShape(),
      content: {
        description: "An MCP content block.",
        oneOf: Object.entries(contentFields).map(([type, fields]) => {
          const schema = record(fields, true);
          (schema.properties as Schema).type = { const: type };
          return schema;
        }),
      },
    },
  };
}

/**
 * The JSON Schemas inside a manifest, checked keyword by keyword as far as an editor needs (the
 * types of the common keywords, `type` names): `type: obj` is flagged while typing. The full
 * meta-schema check is mcpgen's (validate/metaSchemas.generated.ts).
 */
function jsonSchemaShape(): Schema {
  const ref = { $ref: "#/definitions/jsonSchema" };
  const map = { type: "object", additionalProperties: ref };
  const list = { type: "array", items: ref };
  const types = ["array", "boolean", "integer", "null", "number", "object", "string"];
  const count = { type: "integer", minimum: 0 };
  return {
    description: "A JSON Schema (2020-12 unless $schema says draft-07). $ref: '#/defs/Name' names a shared def.",
    type: ["object", "boolean"],
    properties: {
      type: { anyOf: [{ enum: types }, { type: "array", items: { enum: types }, uniqueItems: true }] },
      properties: map,
      patternProperties: map,
      $defs: map,
      definitions: map,
      dependentSchemas: map,
      additionalProperties: ref,
      unevaluatedProperties: ref,
      unevaluatedItems: ref,
      propertyNames: ref,
      contains: ref,
      not: ref,
      if: ref,
      then: ref,
      else: ref,
      items: { anyOf: [ref, list] },
      prefixItems: list,
      allOf: list,
      anyOf: list,
      oneOf: list,
      required: { type: "array", items: { type: "string" }, uniqueItems: true },
      enum: { type: "array" },
      minimum: { type: "number" },
      maximum: { type: "number" },
      exclusiveMinimum: { type: "number" },
      exclusiveMaximum: { type: "number" },
      multipleOf: { type: "number", exclusiveMinimum: 0 },
      minLength: count,
      maxLength: count,
      minItems: count,
      maxItems: count,
      minProperties: count,
      maxProperties: count,
      uniqueItems: { type: "boolean" },
      pattern: { type: "string" },
      format: { type: "string" },
      title: { type: "string" },
      description: { type: "string" },
      $ref: { type: "string" },
      $schema: { type: "string" },
      $comment: { type: "string" },
    },
  };
}

/** `open`: an MCP object, whose other fields mcpgen serves as they are (a warning there, allowed here). */
export function record(fields: Record<string, FieldSpec>, open = false): Schema {
  const properties: Schema = {};
  const required: string[] = [];
  for (const [key, spec] of Object.entries(fields)) {
    properties[key] = field(spec, key);
    if (spec.required) required.push(key);
  }
  const schema: Schema = { type: "object", properties, ...(required.length ? { required } : {}), ...(open ? {} : { additionalProperties: false }) };
  // The server's name names the output folder unless `folder` does.
  if (Object.hasOwn(fields, "folder")) Object.assign(schema, { if: { not: { required: ["folder"] } }, then: { properties: { name: { pattern: SERVER_NAME.source } } } });
  return schema;
}

function field(spec: FieldSpec, key: string): Schema {
  const schema = kindSchema(spec, key);
  return spec.doc ? { description: spec.doc, ...schema } : schema;
}

function kindSchema(spec: FieldSpec, key: string): Schema {
  switch (spec.kind) {
    case "string":
      return { type: "string", ...(spec.nonEmpty ? { minLength: 1 } : {}), ...(spec.oneOf ? { enum: [...spec.oneOf] } : {}), ...(spec.pattern && spec.pattern.source !== "^.+$" && !spec.patternIsAdvice ? { pattern: spec.pattern.source } : {}) };
    case "boolean":
      return { type: "boolean" };
    case "number":
      return { type: spec.integer ? "integer" : "number", ...(spec.min !== undefined ? { minimum: spec.min } : {}), ...(spec.max !== undefined ? { maximum: spec.max } : {}) };
    case "json":
      if (key === "defs") return { type: "object", propertyNames: { pattern: DEF_NAME.source }, additionalProperties: { $ref: "#/definitions/jsonSchema" } };
      return spec.object ? { type: "object" } : {};
    case "record":
      return record(spec.fields, spec.open === true);
    case "list":
      return { type: "array", ...(spec.nonEmpty ? { minItems: 1 } : {}), items: field(spec.item, key) };
    case "stringList":
      return { type: "array", items: { type: "string" } };
    case "schema":
      return { $ref: "#/definitions/jsonSchema" };
    case "content":
      return { $ref: "#/definitions/content" };
    case "anyOf":
      return { anyOf: spec.of.map((kind) => field(kind, key)) };
  }
}
