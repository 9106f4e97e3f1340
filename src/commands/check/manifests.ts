/**
 * The servers' definitions from manifests, for `check --manifests`: generate's own pipeline in
 * validate mode (nothing written), and each model's definition as generate writes it
 * (generator/model/definition.ts), so check names and validates exactly what the generated server would.
 */
import * as path from "node:path";
import type { Diagnostic } from "../../common/diagnostics.js";
import { definitionValue } from "../../generator/model/definition.js";
import { runPipeline } from "../../generator/pipeline.js";
import type { ServerDefinition } from "@mcpgen/runtime/shared";

export async function loadDefinitions(manifests: readonly string[], cwd: string): Promise<{ definitions: ServerDefinition[]; diagnostics: Diagnostic[] }> {
  const run = await runPipeline({
    manifests: manifests.map((m) => path.resolve(cwd, m)),
    cwd,
    out: path.join(cwd, "generated"),
    mode: "validate",
    cache: false,
  });
  const definitions = run.models.map((model) => JSON.parse(JSON.stringify(definitionValue(model))) as ServerDefinition);
  return { definitions, diagnostics: run.diagnostics };
}
