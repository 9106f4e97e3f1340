/**
 * Stage 2, validate a loaded manifest: its shape (shape.ts), its JSON Schemas (schemas.ts), then
 * what only makes sense across fields (semantics.ts, and auth.ts for `auth:` and `scopes`), and keys YAML made
 * from text in the data (dataKeys.ts). Every problem is reported; the manifest is
 * handed on, typed, only when none is an error.
 */
import type { Diagnostic } from "../../common/diagnostics.js";
import type { LoadedManifest } from "../load/loadManifest.js";
import { isPlainObject } from "../../common/objects.js";
import { validateAuth } from "./auth.js";
import { checkBareKeys } from "./dataKeys.js";
import { validManifest, type ValidManifest } from "./manifestTypes.js";
import { validateSchemas, type SchemaCheckOptions } from "./schemas.js";
import { validateSemantics } from "./semantics.js";
import { validateShape } from "./shape.js";

export async function validateManifest(
  manifest: LoadedManifest,
  options: SchemaCheckOptions = {},
): Promise<{ diagnostics: Diagnostic[]; valid?: ValidManifest }> {
  const diagnostics = validateShape(manifest, options);
  if (!isPlainObject(manifest.value)) return { diagnostics };
  // The later checks run even when the shape has errors (each guards the values it reads), so a
  // problem in one part never hides another's, as tsc and buf report all they find.
  diagnostics.push(...(await validateSchemas(manifest, options)), ...validateSemantics(manifest), ...validateAuth(manifest));
  diagnostics.push(...checkBareKeys(manifest, diagnostics));
  const valid = validManifest(manifest, diagnostics);
  return valid ? { diagnostics, valid } : { diagnostics };
}
