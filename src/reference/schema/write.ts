/**
 * `npm run schema`: writes the files derived from mcpgen's own tables and dependencies:
 * schema/manifest.schema.json, schema/config.schema.json and src/generator/validate/metaSchemas.generated.ts.
 */
import { writeFileSync } from "node:fs";
import { configJsonSchema } from "./configSchema.js";
import { manifestJsonSchema } from "./manifestSchema.js";
import { metaValidatorsSource } from "./metaValidators.js";

writeFileSync(new URL("../../../schema/manifest.schema.json", import.meta.url), `${JSON.stringify(manifestJsonSchema(), null, 2)}\n`);
writeFileSync(new URL("../../../schema/config.schema.json", import.meta.url), `${JSON.stringify(configJsonSchema(), null, 2)}\n`);
writeFileSync(new URL("../../generator/validate/metaSchemas.generated.ts", import.meta.url), metaValidatorsSource());
