/**
 * prompts/list and prompts/get: arguments checked (strings, the required ones present), then the
 * manifest's messages with their placeholders filled, or the prompt's handler run in a round.
 */
import type { JsonObject, WirePrompt } from "../../shared/definition.js";
import { ErrorCodes, rpcError } from "../../shared/errors.js";
import { expectedFields, handlerContext, isObject, ownFunction, schemaProblems, type Call, type EngineCore, type MethodEntry } from "../engine/engineCore.js";
import { handlerFailure } from "../engine/handlerErrors.js";
import type { PromptContext } from "../engine/handlerTypes.js";
import { listMethod, shown } from "../engine/lists.js";
import type { GetPromptResult } from "../../shared/mcp.js";
import { fillPlaceholders } from "./placeholders.js";
import { runRound } from "../engine/round.js";
import { GetPromptResultSchema } from "../engine/sdk.js";

/** The rows of the method table for prompts (none without the capability). */
export function promptMethods(core: EngineCore): MethodEntry[] {
  if (!core.definition.capabilities.prompts) return [];
  const prompts = new PromptGets(core);
  return [listMethod(core, "prompts"), { method: "prompts/get", handle: (params, call) => prompts.getPrompt(params, call) }];
}

class PromptGets {
  private readonly prompts = new Map<string, { prompt: WirePrompt; messages?: readonly JsonObject[] }>();

  constructor(private readonly core: EngineCore) {
    for (const entry of core.definition.prompts) this.prompts.set(entry.prompt.name, entry);
  }

  async getPrompt(params: JsonObject, call: Call): Promise<object> {
    if (typeof params["name"] !== "string")
      throw rpcError(ErrorCodes.InvalidParams, expectedFields("prompts/get", params, "'name' (string) and optional 'arguments' (object of strings)"));
    const name = params["name"];
    const entry = this.prompts.get(name);
    if (!entry || !shown(this.core, call, "prompts", name)) throw rpcError(ErrorCodes.InvalidParams, `Unknown prompt: ${name}`);
    const args = params["arguments"] ?? {};
    if (!isObject(args)) throw rpcError(ErrorCodes.InvalidParams, `Invalid params: 'arguments' of prompts/get must be an object of strings`);
    for (const [key, value] of Object.entries(args)) {
      if (typeof value !== "string") throw rpcError(ErrorCodes.InvalidParams, `Argument '${key}' of prompt ${name} must be a string`);
    }
    for (const argument of entry.prompt.arguments ?? []) {
      if (argument.required && !Object.hasOwn(args, argument.name))
        throw rpcError(ErrorCodes.InvalidParams, `Missing required argument '${argument.name}' for prompt ${name}`);
    }
    const values = args as Record<string, string>;
    if (entry.messages) {
      const description = entry.prompt["description"];
      return {
        ...(typeof description === "string" ? { description } : {}),
        // The manifest's messages, checked against PromptMessage at generate time; the definition
        // carries them as JSON, so their type is restated here.
        messages: entry.messages.map((m) => fillPlaceholders(m, values)) as unknown as GetPromptResult["messages"],
      };
    }
    const handler = ownFunction(this.core.handlers.prompts, name);
    if (!handler) throw rpcError(ErrorCodes.InternalError, `Prompt ${name} has no handler on this server`);
    const outcome = await runRound(this.core, "prompts/get", name, values, call, undefined, (channel, signal) =>
      Promise.resolve((handler as (a: unknown, c: PromptContext) => unknown)(values, handlerContext(call, channel, signal))),
    );
    if ("inputRequired" in outcome) return outcome.inputRequired;
    if ("error" in outcome) throw handlerFailure(outcome.error, "prompts/get", name, call.era, this.core.onError);
    const result = "value" in outcome ? outcome.value : undefined;
    const why = schemaProblems(GetPromptResultSchema, result);
    if (why === undefined) return result as GetPromptResult;
    this.core.onError(new Error(`prompts/get ${name}: ${why}`), { method: "prompts/get", name });
    throw rpcError(ErrorCodes.InternalError, `Prompt ${name}: the handler did not return a valid GetPromptResult (${why})`);
  }
}
