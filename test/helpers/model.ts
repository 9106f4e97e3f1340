/** Builds a model from inline YAML through the real load/validate/model stages. */
import { parseManifestText } from "../../src/load/loadManifest.js";
import { buildModel } from "../../src/model/build.js";
import type { ServerModel } from "../../src/model/types.js";
import { validateManifest } from "../../src/validate/validate.js";
import { formatDiagnostic } from "../../src/diagnostics.js";

export async function modelOf(yaml: string): Promise<ServerModel> {
  const loaded = parseManifestText(yaml, "/nowhere/m.yaml", "m.yaml");
  if (!loaded.ok) throw new Error(loaded.diagnostics.map(formatDiagnostic).join("\n"));
  const { diagnostics: problems, valid } = await validateManifest(loaded.manifest);
  if (!valid)
    throw new Error(
      problems
        .filter((d) => d.severity === "error")
        .map(formatDiagnostic)
        .join("\n"),
    );
  const { model, diagnostics } = await buildModel(valid);
  if (!model) throw new Error(diagnostics.map(formatDiagnostic).join("\n"));
  return model;
}
