/** The published manifest JSON Schema: current with the field tables, and agreeing with the validator. */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Ajv } from "ajv";
import { parse } from "yaml";
import { describe, expect, it } from "vitest";
import { manifestJsonSchema } from "../src/schema/manifestSchema.js";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const committed = JSON.parse(readFileSync(`${ROOT}/schema/manifest.schema.json`, "utf8"));

describe("schema/manifest.schema.json", () => {
  it("is what the field tables produce (run npm run schema if this fails)", () => {
    expect(committed).toEqual(manifestJsonSchema());
  });

  it("accepts the bundled manifests and rejects the classic mistakes", () => {
    const validate = new Ajv({ strict: false }).compile(committed);
    for (const file of ["manifests/gift-server.yaml", "manifests/notes-server.yaml", "test/fixtures/manifests/tricky.yaml"]) {
      expect(validate(parse(readFileSync(`${ROOT}/${file}`, "utf8"))), file).toBe(true);
    }
    const server = { name: "s", version: "1" };
    expect(validate({ server, tools: [{ toolName: "x", inputSchema: { type: "object" } }] })).toBe(false);
    expect(validate({ server, prompts: [{ name: "p", messages: [{ role: "system", content: { type: "text", text: "x" } }] }] })).toBe(false);
    expect(validate({ server: { name: "Bad Name", version: "1" } })).toBe(false);
  });
});
