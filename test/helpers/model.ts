/** Builds a model, or one entity of it, from inline YAML through the real load/validate/model stages. */
import * as path from "node:path";
import { parseManifestText, PULLED_MARK } from "../../src/generator/load/loadManifest.js";
import { buildModel } from "../../src/generator/model/build.js";
import { IdentifierClaims } from "../../src/generator/model/claims.js";
import type { ModelContext } from "../../src/generator/model/context.js";
import type { ServerModel } from "../../src/generator/model/types.js";
import type { ValidManifest } from "../../src/generator/validate/manifestTypes.js";
import { validateManifest } from "../../src/generator/validate/validate.js";
import { formatDiagnostic, type Diagnostic } from "../../src/common/diagnostics.js";

/** The model of a manifest that must have one (an error fails the test with its diagnostics). */
export async function modelOf(yaml: string): Promise<ServerModel> {
  const { model, diagnostics } = await buildModel(await validOf(yaml));
  if (!model) throw new Error(diagnostics.map(formatDiagnostic).join("\n"));
  return model;
}

/** buildModel's answer for a valid manifest: its model, or the model's diagnostics (`m.yaml:line:col: ...`), formatted. */
export async function buildOf(yaml: string, dir?: string): Promise<{ model?: ServerModel; diagnostics: string[] }> {
  const { model, diagnostics } = await buildModel(await validOf(yaml, dir));
  return { ...(model ? { model } : {}), diagnostics: diagnostics.map(formatDiagnostic) };
}

/**
 * What one entity builder takes, for a valid manifest: fresh identifier claims (the client type
 * `SClient` for server `s`), nothing claimed yet. `dir`: the manifest's folder (`file:`, widgets).
 */
export async function contextOf(yaml: string, dir?: string): Promise<ModelContext> {
  const manifest = await validOf(yaml, dir);
  const diagnostics: Diagnostic[] = [];
  return { manifest, diagnostics, claims: new IdentifierClaims(manifest, diagnostics, "SClient") };
}

async function validOf(yaml: string, dir = "/nowhere"): Promise<ValidManifest> {
  const loaded = parseManifestText(yaml, path.join(dir, "m.yaml"), "m.yaml");
  if (!loaded.ok) throw new Error(loaded.diagnostics.map(formatDiagnostic).join("\n"));
  // As compile() does: a manifest `mcpgen pull` wrote has its schema problems as warnings.
  const { diagnostics: problems, valid } = await validateManifest(loaded.manifest, { pulled: yaml.startsWith(PULLED_MARK) });
  if (!valid)
    throw new Error(
      problems
        .filter((d) => d.severity === "error")
        .map(formatDiagnostic)
        .join("\n"),
    );
  return valid;
}
