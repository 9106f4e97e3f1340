/**
 * Stage 2c, validate what only makes sense across fields: URI templates and prompt placeholders.
 */
import type { Diagnostic } from "../diagnostics.js";
import { diagnosticAt, type LoadedManifest } from "../load/loadManifest.js";
import { uriTemplateProblems } from "../runtime/uriTemplate.js";
import { isPlainObject } from "./shape.js";

const PLACEHOLDER = /\{\{\s*([^{}\s]+)\s*\}\}/g;

export function validateSemantics(manifest: LoadedManifest): Diagnostic[] {
  const out: Diagnostic[] = [];
  const root = manifest.value as Record<string, unknown>;

  (Array.isArray(root.tools) ? root.tools : []).forEach((tool, i) => {
    const support = isPlainObject(tool) && isPlainObject(tool.execution) ? tool.execution.taskSupport : undefined;
    if (support === "optional" || support === "required") {
      out.push(diagnosticAt(manifest, ["tools", i, "execution", "taskSupport"], "invalid-value", `taskSupport ${JSON.stringify(support)} needs task-augmented execution (tasks/*), which mcpgen servers do not offer yet; use "forbidden" or leave execution out`));
    }
  });

  (Array.isArray(root.resourceTemplates) ? root.resourceTemplates : []).forEach((template, i) => {
    if (!isPlainObject(template) || typeof template.uriTemplate !== "string") return;
    for (const problem of uriTemplateProblems(template.uriTemplate)) {
      out.push(diagnosticAt(manifest, ["resourceTemplates", i, "uriTemplate"], "invalid-uri-template", `uriTemplate ${JSON.stringify(template.uriTemplate)}: ${problem}`));
    }
  });

  (Array.isArray(root.prompts) ? root.prompts : []).forEach((prompt, i) => {
    if (!isPlainObject(prompt) || !Array.isArray(prompt.messages)) return;
    const declared = new Set(
      (Array.isArray(prompt.arguments) ? prompt.arguments : []).flatMap((a) => (isPlainObject(a) && typeof a.name === "string" ? [a.name] : [])),
    );
    prompt.messages.forEach((message, j) => {
      if (!isPlainObject(message) || !isPlainObject(message.content)) return;
      const content = message.content;
      const texts: [string[], unknown][] = [
        [["content", "text"], content.text],
        [["content", "resource", "text"], isPlainObject(content.resource) ? content.resource.text : undefined],
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
