/**
 * The manifest's JSON Schema (draft-07, what yaml-language-server and most editors understand),
 * derived from the same field tables the validator uses, so the two cannot disagree.
 * Written to schema/manifest.schema.json by `npm run schema`; a test checks it is current.
 */
import { contentFields, DEF_NAME, manifestFields, SERVER_NAME, type FieldSpec } from "../validate/fields.js";

type Schema = Record<string, unknown>;

export function manifestJsonSchema(): Schema {
  return {
    $schema: "http://json-schema.org/draft-07/schema#",
    title: "mcpgen manifest (format v1)",
    description: "One MCP server: its tools, resources, resource templates and prompts. Field names are MCP's wire names (2025-11-25, kept by 2026-07-28).",
    ...record(manifestFields),
    definitions: {
      jsonSchema: { description: "A JSON Schema (2020-12 unless $schema says draft-07). $ref: '#/defs/Name' names a shared def.", type: ["object", "boolean"] },
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

/** `open`: an MCP object, whose other fields mcpgen serves as they are (a warning there, allowed here). */
function record(fields: Record<string, FieldSpec>, open = false): Schema {
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
  switch (spec.kind) {
    case "string":
      return { type: "string", ...(spec.oneOf ? { enum: [...spec.oneOf] } : {}), ...(spec.pattern && spec.pattern.source !== "^.+$" && !spec.patternIsAdvice ? { pattern: spec.pattern.source } : {}) };
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
      return { type: "array", items: field(spec.item, key) };
    case "stringList":
      return { type: "array", items: { type: "string" } };
    case "schema":
      return { $ref: "#/definitions/jsonSchema" };
    case "content":
      return { $ref: "#/definitions/content" };
  }
}
