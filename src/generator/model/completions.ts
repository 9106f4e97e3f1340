/** The completion sources of the model: prompt arguments and template variables with `complete:`, in manifest order. */
import type { CompletionSource, Manifest } from "../validate/manifestTypes.js";
import type { CompletionModel } from "./types.js";

export function buildCompletions(root: Manifest): CompletionModel[] {
  const completions: CompletionModel[] = [];
  const source = (value: CompletionSource) => (value === "handler" ? { handler: true as const } : { values: value });
  for (const prompt of root.prompts ?? []) {
    for (const a of prompt.arguments ?? []) {
      if (a.complete !== undefined) completions.push({ ref: "prompt", name: prompt.name, argument: a.name, ...source(a.complete) });
    }
  }
  for (const template of root.resourceTemplates ?? []) {
    for (const [variable, value] of Object.entries(template.complete ?? {}))
      completions.push({ ref: "resourceTemplate", name: template.name, argument: variable, ...source(value) });
  }
  return completions;
}
