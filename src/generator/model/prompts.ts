/** The prompts of the model: their prompts/list entries (without mcpgen's `complete`), arguments types and static messages. */
import { setOwn } from "../../common/objects.js";
import type { PromptEntry } from "../validate/manifestTypes.js";
import { accessRule, ACCESS_KEYS } from "./auth.js";
import { SWITCH_KEYS, switchField } from "./switches.js";
import type { IdentifierClaims } from "./claims.js";
import { omit, optionalString, type ModelContext } from "./context.js";
import { toIdentifier } from "./identifiers.js";
import type { PromptModel } from "./types.js";
import type { JsonObject } from "../../common/objects.js";

/** The manifest's `prompts:`, in order. */
export function buildPrompts(ctx: ModelContext): PromptModel[] {
  return (ctx.manifest.value.prompts ?? []).map((prompt, i) => buildPrompt(ctx, prompt, i));
}

/** Claims the arguments type of `prompts[i]`, named `name`, and returns it (also run on a manifest with errors: modelProblems.ts). */
export function claimPrompt(claims: IdentifierClaims, name: string, i: number): string {
  const argumentsTypeName = `${toIdentifier(name, "pascal")}Arguments`;
  claims.type(argumentsTypeName, `prompt "${name}" (its arguments type)`, ["prompts", i, "name"]);
  return argumentsTypeName;
}

function buildPrompt(ctx: ModelContext, prompt: PromptEntry, i: number): PromptModel {
  const name = prompt.name;
  const argumentsTypeName = claimPrompt(ctx.claims, name, i);
  const wire: JsonObject = omit(prompt, ["messages", ...ACCESS_KEYS, ...SWITCH_KEYS]);
  const access = accessRule(ctx.manifest.value, prompt);
  // `complete` is mcpgen's, not MCP's: never on the wire.
  if (prompt.arguments !== undefined)
    setOwn(
      wire,
      "arguments",
      prompt.arguments.map((a) => omit(a, ["complete"])),
    );
  return {
    name,
    ...optionalString("description", prompt.description),
    wire,
    arguments: (prompt.arguments ?? []).map((a) => ({ name: a.name, required: a.required === true, ...optionalString("description", a.description) })),
    argumentsTypeName,
    ...(prompt.messages ? { messages: prompt.messages } : {}),
    needsHandler: prompt.messages === undefined,
    handlerName: toIdentifier(name, "camel"),
    ...(access === undefined ? {} : { access }),
    ...switchField(prompt),
  };
}
