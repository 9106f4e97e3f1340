/**
 * The config's JSON Schema (draft-07), from the same field table the config loader checks with
 * (config/fields.ts). Written to schema/config.schema.json by `npm run schema`; a test checks it
 * is current.
 */
import { configFields } from "../../config/fields.js";
import { record } from "./manifestSchema.js";

export function configJsonSchema(): Record<string, unknown> {
  return {
    $schema: "http://json-schema.org/draft-07/schema#",
    title: "mcpgen config",
    description: "mcpgen.config.json, mcpgen.config.yaml, or the mcpgen key of package.json. Paths are relative to the file that holds them.",
    ...record(configFields),
  };
}
