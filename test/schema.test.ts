/** The published manifest JSON Schema: current with the field tables, and agreeing with the validator. */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Ajv } from "ajv";
import { parse } from "yaml";
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { createAjv } from "../packages/runtime/src/shared/ajv.js";
import { configJsonSchema } from "../src/reference/schema/configSchema.js";
import { manifestJsonSchema } from "../src/reference/schema/manifestSchema.js";
import { metaValidatorsSource } from "../src/reference/schema/metaValidators.js";
import { validateDraft07, validateDraft2020 } from "../src/generator/validate/metaSchemas.generated.js";
import { propertyParameters } from "./helpers/properties.js";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const committed = JSON.parse(readFileSync(`${ROOT}/schema/manifest.schema.json`, "utf8"));

describe("schema/manifest.schema.json", () => {
  it("is what the field tables produce (run npm run schema if this fails)", () => {
    expect(committed).toEqual(manifestJsonSchema());
  });

  it("accepts the bundled manifests and rejects the classic mistakes", () => {
    const validate = new Ajv({ strict: false }).compile(committed);
    for (const file of ["examples/gift-server/manifests/gift-server.yaml", "manifests/notes-server.yaml", "test/fixtures/manifests/tricky.yaml"]) {
      expect(validate(parse(readFileSync(`${ROOT}/${file}`, "utf8"))), file).toBe(true);
    }
    const server = { name: "s", version: "1" };
    // A tool is an MCP object: other fields are allowed (mcpgen warns and serves them); a missing name is not.
    expect(validate({ server, tools: [{ toolName: "x", inputSchema: { type: "object" } }] })).toBe(false);
    expect(validate({ server, tools: [{ name: "x", inputSchema: { type: "object" }, vendorField: 1 }] })).toBe(true);
    expect(validate({ server, tool: [] })).toBe(false);
    // The JSON Schemas inside are checked too, as far as an editor needs: `type: obj` is flagged.
    const tool = (inputSchema: unknown) => ({ server, tools: [{ name: "x", inputSchema }] });
    expect(validate(tool({ type: "object", properties: { n: { type: "obj" } } }))).toBe(false);
    expect(validate(tool({ type: "object", properties: { n: { type: "string", minLength: -1 } } }))).toBe(false);
    expect(validate(tool({ type: "object", required: "n" }))).toBe(false);
    expect(validate({ server, defs: { Id: { type: ["string", "nul"] } } })).toBe(false);
    expect(validate(tool({ type: "object", properties: { n: { type: ["string", "null"], "x-vendor": 1 }, m: { anyOf: [{ type: "integer" }, true] } } }))).toBe(
      true,
    );
    expect(validate(parse(readFileSync(`${ROOT}/manifests/conformance.yaml`, "utf8")))).toBe(true);
    expect(validate({ server: { name: "mcp-servers/everything", folder: "everything", version: "1" } })).toBe(true);
    expect(validate({ server, prompts: [{ name: "p", messages: [{ role: "system", content: { type: "text", text: "x" } }] }] })).toBe(false);
    expect(validate({ server: { name: "Bad Name", version: "1" } })).toBe(false);
  });
});

describe("src/generator/validate/metaSchemas.generated.ts (precompiled meta-schema checks)", () => {
  it("is what the installed ajv produces (run npm run schema if this fails)", () => {
    expect(readFileSync(`${ROOT}/src/generator/validate/metaSchemas.generated.ts`, "utf8")).toBe(metaValidatorsSource());
  });

  it("says what ajv's validateSchema says, errors included, for valid, broken and random schemas", () => {
    const ajv = { draft2020: createAjv(false), draft07: createAjv(true) };
    const pre = { draft2020: validateDraft2020, draft07: validateDraft07 };
    const agree = (given: unknown) => {
      // As the validator does: the dialect is chosen first, then the schema is checked without `$schema`.
      const schema =
        typeof given === "object" && given !== null && !Array.isArray(given)
          ? Object.fromEntries(Object.entries(given).filter(([key]) => key !== "$schema"))
          : given;
      for (const dialect of ["draft2020", "draft07"] as const) {
        const expected = ajv[dialect].validateSchema(schema as object);
        expect(pre[dialect](schema), JSON.stringify(schema)).toBe(expected);
        // (ajv leaves its previous errors in place for a boolean schema: compared when invalid.)
        if (!expected) expect(pre[dialect].errors, JSON.stringify(schema)).toEqual(ajv[dialect].errors);
      }
    };
    const schemas: unknown[] = [];
    for (const file of [
      "examples/gift-server/manifests/gift-server.yaml",
      "manifests/notes-server.yaml",
      "manifests/conformance.yaml",
      "test/fixtures/manifests/tricky.yaml",
    ]) {
      const manifest = parse(readFileSync(`${ROOT}/${file}`, "utf8")) as { tools?: Record<string, unknown>[]; defs?: Record<string, unknown> };
      for (const tool of manifest.tools ?? []) schemas.push(tool.inputSchema, tool.outputSchema);
      schemas.push(...Object.values(manifest.defs ?? {}));
    }
    schemas.push(
      { type: "strin" },
      { properties: { a: { type: "strin" } } },
      { properties: { a: { items: { minLength: -1 } } } },
      { $defs: { x: { enum: "no" } } },
      { allOf: [{}, { type: 5 }] },
      { required: "a" },
      { properties: { a: { unevaluatedProperties: { type: "q" } } } },
      { prefixItems: [{ type: "x" }] },
      { items: [{ type: "x" }], additionalItems: { type: 1 } },
      { dependentSchemas: { a: { type: "k" } } },
      { definitions: { a: { multipleOf: 0 } } },
      { $dynamicRef: 3, $anchor: "1bad" },
      true,
      "not a schema",
    );
    for (const schema of schemas.filter((s) => s !== undefined)) agree(schema);
    // Random objects made of schema keywords and JSON values, nested; as plain JSON (what YAML
    // and JSON parsers give: no null-prototype objects).
    const keyword = fc.constantFrom(
      "type",
      "properties",
      "items",
      "prefixItems",
      "required",
      "enum",
      "const",
      "minimum",
      "minLength",
      "pattern",
      "anyOf",
      "allOf",
      "not",
      "$defs",
      "definitions",
      "$ref",
      "additionalProperties",
      "format",
      "default",
      "title",
    );
    const { tree } = fc.letrec((tie) => ({
      tree: fc.oneof(
        { depthSize: "small" },
        fc.jsonValue({ maxDepth: 1 }),
        fc.dictionary(keyword, tie("tree"), { maxKeys: 4 }),
        fc.array(tie("tree"), { maxLength: 3 }),
      ),
    }));
    fc.assert(
      fc.property(fc.dictionary(keyword, tree, { maxKeys: 5 }), (schema) => agree(JSON.parse(JSON.stringify(schema)))),
      propertyParameters(300, 20261202),
    );
  });
});

describe("schema/config.schema.json", () => {
  const config = JSON.parse(readFileSync(`${ROOT}/schema/config.schema.json`, "utf8"));

  it("is what the config's field table produces (run npm run schema if this fails)", () => {
    expect(config).toEqual(configJsonSchema());
  });

  it("agrees with the config loader on the new project's config, a typo and a wrong type", () => {
    const validate = new Ajv({ strict: false }).compile(config);
    expect(validate(JSON.parse(readFileSync(`${ROOT}/templates/init/mcpgen.config.json.hbs`, "utf8")))).toBe(true);
    expect(validate({ manifests: ["m", "vendor"], header: "eslint-disable", clientOnly: ["tiny"], diagnostics: { "unknown-field": "off" } })).toBe(true);
    expect(validate({ stub: "src/handlers" })).toBe(false);
    expect(validate({ out: 3 })).toBe(false);
    expect(validate({ manifests: [] })).toBe(false);
    expect(validate({ invalidArguments: "loud" })).toBe(false);
  });
});
