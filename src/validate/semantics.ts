/**
 * Stage 2c, validate what only makes sense across fields: URI templates, prompt placeholders, and
 * x-mcp-header annotations.
 */
import type { Diagnostic } from "../diagnostics.js";
import { diagnosticAt, type LoadedManifest } from "../load/loadManifest.js";
import { scanParamHeaders } from "../runtime/paramHeaders.js";
import { PLACEHOLDER } from "../runtime/placeholders.js";
import { uriTemplateProblems } from "../runtime/uriTemplate.js";
import { isPlainObject } from "./shape.js";

export function validateSemantics(manifest: LoadedManifest): Diagnostic[] {
  const out: Diagnostic[] = [];
  const root = manifest.value as Record<string, unknown>;

  // x-mcp-header (2026-07-28): an invalid annotation makes HTTP clients drop the whole tool.
  (Array.isArray(root.tools) ? root.tools : []).forEach((tool, i) => {
    if (!isPlainObject(tool)) return;
    for (const problem of scanParamHeaders(tool.inputSchema).problems) out.push(diagnosticAt(manifest, ["tools", i, "inputSchema", ...problem.at], "invalid-value", problem.message));
    // Wrapped under a key other than `properties`, every annotation inside counts as misplaced.
    for (const problem of scanParamHeaders({ output: tool.outputSchema }).problems) out.push(diagnosticAt(manifest, ["tools", i, "outputSchema", ...problem.at.slice(1)], "invalid-value", "x-mcp-header marks tool arguments: it has no meaning in an outputSchema"));
  });
  if (isPlainObject(root.defs)) {
    for (const [name, def] of Object.entries(root.defs)) {
      // Defs are reached through $ref, where x-mcp-header is never valid.
      for (const problem of scanParamHeaders({ def }).problems) out.push(diagnosticAt(manifest, ["defs", name, ...problem.at.slice(1)], "invalid-value", "x-mcp-header cannot be in a def: a property reached through $ref cannot be mirrored in a header; put the property in the tool's inputSchema"));
    }
  }

  const checkComplete = (value: unknown, at: (string | number)[]) => {
    if (value === "handler") return;
    if (Array.isArray(value) && value.every((v) => typeof v === "string")) return;
    out.push(diagnosticAt(manifest, at, "invalid-value", '`complete` is a list of strings (the values offered) or "handler" (a completion handler answers)'));
  };
  (Array.isArray(root.resourceTemplates) ? root.resourceTemplates : []).forEach((template, i) => {
    if (!isPlainObject(template) || typeof template.uriTemplate !== "string") return;
    const problems = uriTemplateProblems(template.uriTemplate);
    for (const problem of problems) {
      out.push(diagnosticAt(manifest, ["resourceTemplates", i, "uriTemplate"], "invalid-uri-template", `uriTemplate ${JSON.stringify(template.uriTemplate)}: ${problem}`));
    }
    if (isPlainObject(template.complete) && problems.length === 0) {
      const variables = [...template.uriTemplate.matchAll(/\{([A-Za-z0-9_]+)\}/g)].map((m) => m[1]!);
      for (const [name, value] of Object.entries(template.complete)) {
        if (!variables.includes(name)) out.push(diagnosticAt(manifest, ["resourceTemplates", i, "complete", name], "invalid-value", `\`complete\` names ${JSON.stringify(name)}, which is not a variable of ${template.uriTemplate} (variables: ${variables.join(", ")})`, { at: "key" }));
        else checkComplete(value, ["resourceTemplates", i, "complete", name]);
      }
    }
  });
  (Array.isArray(root.prompts) ? root.prompts : []).forEach((prompt, i) => {
    if (!isPlainObject(prompt) || !Array.isArray(prompt.arguments)) return;
    prompt.arguments.forEach((argument, j) => {
      if (isPlainObject(argument) && argument.complete !== undefined) checkComplete(argument.complete, ["prompts", i, "arguments", j, "complete"]);
    });
  });

  (Array.isArray(root.prompts) ? root.prompts : []).forEach((prompt, i) => {
    if (!isPlainObject(prompt) || !Array.isArray(prompt.messages)) return;
    const declared = new Set(
      (Array.isArray(prompt.arguments) ? prompt.arguments : []).flatMap((a) => (isPlainObject(a) && typeof a.name === "string" ? [a.name] : [])),
    );
    prompt.messages.forEach((message, j) => {
      if (!isPlainObject(message) || !isPlainObject(message.content)) return;
      const content = message.content;
      const resource = isPlainObject(content.resource) ? content.resource : {};
      const texts: [string[], unknown][] = [
        [["content", "text"], content.text],
        [["content", "uri"], content.type === "resource_link" ? content.uri : undefined],
        [["content", "resource", "text"], resource.text],
        [["content", "resource", "uri"], resource.uri],
      ];
      for (const [path, text] of texts) {
        if (typeof text !== "string") continue;
        for (const m of text.matchAll(PLACEHOLDER)) {
          const name = m[1]!;
          if (!declared.has(name)) {
            out.push(diagnosticAt(manifest, ["prompts", i, "messages", j, ...path], "unknown-placeholder", `placeholder {{${name}}} names no argument of prompt ${JSON.stringify(prompt.name)}; ${declared.size ? `declared: ${[...declared].join(", ")}` : "declare it under `arguments:`"}`));
          }
        }
      }
    });
  });
  return out;
}
