/**
 * What the model stage finds in a manifest that has errors. The model is built from a valid
 * manifest only, so without this pass an identifier clash (`get_user` and `get-user`) or a missing
 * `file:` would show on the run after the errors are fixed, not with them.
 *
 * The identifier claims are buildModel's, made by the same functions in the same order (defs,
 * tools, resources, widgets, templates, prompts, then the schemas' own `$defs`), over every
 * declaration whose name can be read; one repeating an earlier one's name is left out (that is a
 * `duplicate-name` error already). The files are resolved as the model resolves them: a
 * resource's `file:`, a widget's `entry`.
 */
import type { Diagnostic } from "../../common/diagnostics.js";
import type { LoadedManifest } from "../load/loadManifest.js";
import { isPlainObject } from "../../common/objects.js";
import { IdentifierClaims } from "./claims.js";
import { claimDef } from "./defs.js";
import { resolveInManifestFolder } from "./manifestFiles.js";
import { toIdentifier } from "./identifiers.js";
import { claimPrompt } from "./prompts.js";
import type { JsonSchema } from "../../jsonSchema/refs.js";
import { claimResource, claimTemplate } from "./resources.js";
import { claimTool } from "./tools.js";
import { claimWidget } from "./widgets.js";

export async function modelProblems(manifest: LoadedManifest): Promise<Diagnostic[]> {
  const root = manifest.value;
  if (!isPlainObject(root)) return [];
  const diagnostics: Diagnostic[] = [];
  const server = isPlainObject(root.server) ? root.server : {};
  const folder = typeof server.folder === "string" ? server.folder : typeof server.name === "string" ? server.name : undefined;
  // buildModel takes the client interface's name first; without a server name there is none to take.
  const claims = new IdentifierClaims(manifest, diagnostics, folder === undefined ? "" : `${toIdentifier(folder, "pascal")}Client`);

  if (isPlainObject(root.defs)) for (const name of Object.keys(root.defs)) claimDef(claims, name);
  for (const [tool, i] of named(root.tools))
    claimTool(claims, { name: tool.name, inputSchema: schemaOrEmpty(tool.inputSchema), outputSchema: schemaOrUndefined(tool.outputSchema) }, i);
  for (const [resource, i] of named(root.resources)) claimResource(claims, resource.name, i);
  for (const [widget, i] of named(root.widgets)) claimWidget(claims, widget.name, i);
  for (const [template, i] of named(root.resourceTemplates)) claimTemplate(claims, template.name, i);
  for (const [prompt, i] of named(root.prompts)) claimPrompt(claims, prompt.name, i);
  claims.nameLocalDefs();

  const files: ReturnType<typeof resolveInManifestFolder>[] = [];
  const fileOf = (list: unknown, key: "file" | "entry", at: "resources" | "widgets", code: "file-content" | "widget-build") => {
    if (!Array.isArray(list)) return;
    list.forEach((entry: unknown, i) => {
      if (isPlainObject(entry) && typeof entry[key] === "string") files.push(resolveInManifestFolder(manifest, entry[key], [at, i, key], code));
    });
  };
  fileOf(root.resources, "file", "resources", "file-content");
  fileOf(root.widgets, "entry", "widgets", "widget-build");
  for (const file of await Promise.all(files)) if ("diagnostic" in file) diagnostics.push(file.diagnostic);
  return diagnostics;
}

/** The entries of a list that have a string name, with their index, each name once (the first). */
function named(list: unknown): [Record<string, unknown> & { name: string }, number][] {
  if (!Array.isArray(list)) return [];
  const seen = new Set<string>();
  const out: [Record<string, unknown> & { name: string }, number][] = [];
  list.forEach((entry: unknown, i) => {
    if (!isPlainObject(entry) || typeof entry.name !== "string" || seen.has(entry.name)) return;
    seen.add(entry.name);
    out.push([entry as Record<string, unknown> & { name: string }, i]);
  });
  return out;
}

/** A schema as the model reads one: a mapping or a boolean; anything else (an error already) reads as `{}`. */
function schemaOrEmpty(value: unknown): JsonSchema {
  return isPlainObject(value) || typeof value === "boolean" ? value : {};
}

function schemaOrUndefined(value: unknown): JsonSchema | undefined {
  return value === undefined ? undefined : schemaOrEmpty(value);
}
