/** Builds a model from inline YAML through the real load/validate/model stages. */
import { parseManifestText } from "../../src/load/loadManifest.js";
import { buildModel } from "../../src/model/build.js";
import type { ServerModel } from "../../src/model/types.js";
import { validateSchemas } from "../../src/validate/schemas.js";
import { validateSemantics } from "../../src/validate/semantics.js";
import { validateShape } from "../../src/validate/shape.js";
import { formatDiagnostic } from "../../src/diagnostics.js";

export async function modelOf(yaml: string): Promise<ServerModel> {
  const loaded = parseManifestText(yaml, "/nowhere/m.yaml", "m.yaml");
  if (!loaded.ok) throw new Error(loaded.diagnostics.map(formatDiagnostic).join("\n"));
  const problems = [...validateShape(loaded.manifest), ...(await validateSchemas(loaded.manifest)), ...validateSemantics(loaded.manifest)];
  const errors = problems.filter((d) => d.severity === "error");
  if (errors.length) throw new Error(errors.map(formatDiagnostic).join("\n"));
  const { model, diagnostics } = await buildModel(loaded.manifest);
  if (!model) throw new Error(diagnostics.map(formatDiagnostic).join("\n"));
  return model;
}
