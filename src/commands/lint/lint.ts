/**
 * `mcpgen lint`: the manifests are validated as `generate` would, then each valid one is checked
 * by the portability rules, the authorization one (lint/access.ts) and the schema keys one
 * (lint/keywords.ts), each finding a diagnostic at its file:line:col.
 */
import { readFile } from "node:fs/promises";
import * as path from "node:path";
import { applyLevels, sortDiagnostics, type Diagnostic, type DiagnosticLevels } from "../../common/diagnostics.js";
import { displayPath, resolveManifests } from "../../generator/load/manifestPaths.js";
import { compile } from "../../generator/compile.js";
import { diagnosticAt, unreadableManifest } from "../../generator/load/loadManifest.js";
import { lintTool } from "./rules.js";
import { lintAccess } from "./access.js";
import { lintSchemaKeys } from "./keywords.js";
import { lintTags, projectSources } from "./tags.js";
import { toPosix } from "../../common/paths.js";
import { isPlainObject } from "../../common/objects.js";

export interface LintResult {
  diagnostics: Diagnostic[];
  /** Manifests checked (valid ones). */
  checked: number;
}

/**
 * Every rule fires as a warning; `levels` (the config's, then `--rule`) turn codes off or into
 * errors, the validation warnings' codes as well as the rules'.
 */
export async function lintManifests(manifests: string[], cwd: string, levels: DiagnosticLevels = []): Promise<LintResult> {
  const { files, diagnostics } = await resolveManifests(manifests, cwd);
  let checked = 0;
  // Read once, when a manifest has tags: undefined past the bounds (the rule then says nothing).
  let sources: Promise<string[] | undefined> | undefined;
  for (const absPath of files) {
    const file = toPosix(path.relative(cwd, absPath));
    let text: string;
    try {
      text = await readFile(absPath, "utf8");
    } catch (error) {
      diagnostics.push(unreadableManifest(file, error));
      continue;
    }
    const { diagnostics: found, manifest, model, pulled } = await compile({ absPath, file, display: displayPath(absPath), text });
    diagnostics.push(...found);
    if (!model || !manifest) continue;
    checked++;
    const root = manifest.value as Record<string, unknown>;
    const tools = Array.isArray(root.tools) ? (root.tools as Record<string, unknown>[]) : [];
    const findings = [...tools.flatMap((tool, i) => lintTool(tool, i, model.name, pulled)), ...lintAccess(root), ...lintSchemaKeys(root, pulled)];
    // A pulled manifest's tags are mcpgen's own keys it never carries; only written ones are checked.
    if (!pulled && hasTags(root)) {
      const read = await (sources ??= projectSources(cwd));
      if (read) findings.push(...lintTags(root, read));
    }
    for (const finding of findings) diagnostics.push(diagnosticAt(manifest, finding.path, finding.rule, finding.message, { at: "key", severity: "warning" }));
  }
  return { diagnostics: sortDiagnostics(applyLevels(diagnostics, levels, cwd)), checked };
}

function hasTags(root: Record<string, unknown>): boolean {
  return ["tools", "resources", "resourceTemplates", "prompts"].some(
    (list) => Array.isArray(root[list]) && root[list].some((entry) => isPlainObject(entry) && Array.isArray(entry.tags) && entry.tags.length > 0),
  );
}
