/** `npm run schema`: writes schema/manifest.schema.json. */
import { writeFileSync } from "node:fs";
import { manifestJsonSchema } from "./manifestSchema.js";

writeFileSync(new URL("../../schema/manifest.schema.json", import.meta.url), `${JSON.stringify(manifestJsonSchema(), null, 2)}\n`);
