/**
 * The servers' definitions from manifests, for `check --manifests`: generate's own pipeline in
 * validate mode (nothing written), and each model's definition as generate writes it
 * (generator/model/definition.ts), so check names and validates exactly what the generated server would.
 *
 * When every manifest was written by `pull`, `pulledWith` is the client capabilities pull declared
 * (its header says them): what the manifests list is what the server showed such a client.
 */
import { readFileSync } from "node:fs";
import * as path from "node:path";
import type { Diagnostic } from "../../common/diagnostics.js";
import { pulledClientCapabilities } from "../../generator/load/loadManifest.js";
import { definitionValue } from "../../generator/model/definition.js";
import { runPipeline } from "../../generator/pipeline.js";
import type { ServerDefinition } from "@mcpgen/runtime/shared";

export interface LoadedDefinitions {
  definitions: ServerDefinition[];
  diagnostics: Diagnostic[];
  pulledWith?: Record<string, unknown>;
}

export async function loadDefinitions(manifests: readonly string[], cwd: string): Promise<LoadedDefinitions> {
  const run = await runPipeline({
    manifests: manifests.map((m) => path.resolve(cwd, m)),
    cwd,
    out: path.join(cwd, "generated"),
    mode: "validate",
    cache: false,
  });
  const definitions = run.models.map((model) => JSON.parse(JSON.stringify(definitionValue(model))) as ServerDefinition);
  const pulledWith = pulledCapabilities(manifests.map((m) => path.resolve(cwd, m)));
  return { definitions, diagnostics: run.diagnostics, ...(pulledWith ? { pulledWith } : {}) };
}

/** The capabilities every one of `files` was pulled with (those all declared), or undefined when one was not pulled. */
function pulledCapabilities(files: readonly string[]): Record<string, unknown> | undefined {
  let common: Record<string, unknown> | undefined;
  for (const file of files) {
    let text: string;
    try {
      text = readFileSync(file, "utf8");
    } catch {
      return undefined;
    }
    const declared = pulledClientCapabilities(text);
    if (!declared) return undefined;
    common = common ? Object.fromEntries(Object.entries(common).filter(([key]) => Object.hasOwn(declared, key))) : declared;
  }
  return common;
}
