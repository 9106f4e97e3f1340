/**
 * completion/complete: a prompt argument's or template variable's values from the manifest's
 * static list (those that start with what the user typed), or from its completion handler.
 */
import type { CompletionEntry, JsonObject } from "../../shared/definition.js";
import { ErrorCodes, rpcError } from "../../shared/errors.js";
import type { InputChannel } from "../engine/context.js";
import { expectedFields, handlerContext, isObject, ownFunction, type Call, type EngineCore, type MethodEntry } from "../engine/engineCore.js";
import { handlerFailure } from "../engine/handlerErrors.js";
import type { CompletionHandler } from "../engine/handlerTypes.js";
import { authorized, shown } from "../engine/lists.js";

/** The rows of the method table for completion (none without the capability). */
export function completionMethods(core: EngineCore): MethodEntry[] {
  if (!core.definition.capabilities.completions) return [];
  const completions = new Completions(core);
  return [{ method: "completion/complete", handle: (params, call) => completions.complete(params, call) }];
}

function needsAuthorization(what: string): Error {
  return rpcError(ErrorCodes.InvalidRequest, `${what} needs authorization: sign in to this server with the scopes it needs, then ask again`);
}

/** A channel for handlers that cannot ask anything (completion on 2026-07-28). */
const noInput: InputChannel = {
  ask: (request) => Promise.reject(new Error(`${request.method} cannot be asked while answering completion/complete on MCP 2026-07-28`)),
};

class Completions {
  private readonly completions = new Map<string, CompletionEntry>();
  private readonly prompts: ReadonlySet<string>;
  private readonly resources: ReadonlySet<string>;

  constructor(private readonly core: EngineCore) {
    for (const entry of core.definition.completions ?? []) this.completions.set(completionKey(entry.ref, entry.name, entry.argument), entry);
    this.prompts = new Set(core.definition.prompts.map((p) => p.prompt.name));
    this.resources = new Set(core.definition.resources.map((r) => r.resource.uri));
  }

  async complete(params: JsonObject, call: Call): Promise<object> {
    const ref = params["ref"];
    const argument = params["argument"];
    if (!isObject(ref) || !isObject(argument) || typeof argument["name"] !== "string" || typeof argument["value"] !== "string") {
      throw rpcError(
        ErrorCodes.InvalidParams,
        expectedFields("completion/complete", params, "'ref' ({type, name} or {type, uri}) and 'argument' ({name, value})"),
      );
    }
    let entry: CompletionEntry | undefined;
    // An entry switched off or hidden from the caller is unknown to it, as in its lists; one whose
    // rule the caller's token does not meet is refused before its completion handler runs.
    if (ref["type"] === "ref/prompt" && typeof ref["name"] === "string") {
      const name = ref["name"];
      if (!this.prompts.has(name) || !shown(this.core, call, "prompts", name)) throw rpcError(ErrorCodes.InvalidParams, `Unknown prompt: ${name}`);
      if (!authorized(this.core, call, "prompts", name)) throw needsAuthorization(`Prompt ${name}`);
      entry = this.completions.get(completionKey("prompt", name, argument["name"]));
    } else if (ref["type"] === "ref/resource" && typeof ref["uri"] === "string") {
      const uri = ref["uri"];
      const template = this.core.definition.resourceTemplates.find((t) => t.uriTemplate === uri);
      if (template) {
        if (!shown(this.core, call, "resourceTemplates", template.name)) throw rpcError(ErrorCodes.InvalidParams, `Unknown resource: ${uri}`);
        if (!authorized(this.core, call, "resourceTemplates", template.name)) throw needsAuthorization(`Resource template ${template.name}`);
        entry = this.completions.get(completionKey("resourceTemplate", template.name, argument["name"]));
      } else if (!this.resources.has(uri) || !shown(this.core, call, "resources", uri)) throw rpcError(ErrorCodes.InvalidParams, `Unknown resource: ${uri}`);
    } else {
      throw rpcError(ErrorCodes.InvalidParams, "Invalid params for completion/complete: ref.type must be ref/prompt (with name) or ref/resource (with uri)");
    }
    const value = argument["value"];
    let values: readonly string[] = [];
    let total: number | undefined;
    let hasMore: boolean | undefined;
    if (entry?.values) values = entry.values.filter((v) => v.startsWith(value));
    else if (entry?.handler) {
      const group = entry.ref === "prompt" ? this.core.handlers.completions?.prompts : this.core.handlers.completions?.resourceTemplates;
      const table = group && Object.hasOwn(group, entry.name) ? group[entry.name] : undefined;
      const handler = ownFunction(table, entry.argument);
      const context = isObject(params["context"]) && isObject(params["context"]["arguments"]) ? (params["context"]["arguments"] as Record<string, string>) : {};
      try {
        // Completion has no input_required in 2026-07-28: questions fail (on 2025-era connections they are asked).
        const ctx = handlerContext(call, call.era === "legacy" ? call.legacyChannel(undefined, call.sdk.mcpReq.signal) : noInput, call.sdk.mcpReq.signal);
        const answer = handler ? await (handler as CompletionHandler)(value, { ...ctx, arguments: context }) : [];
        if (Array.isArray(answer)) values = answer as string[];
        else {
          const a = answer as { values: readonly string[]; total?: number; hasMore?: boolean };
          values = a.values;
          total = a.total;
          hasMore = a.hasMore;
        }
      } catch (error) {
        throw handlerFailure(error, "completion/complete", `${entry.name}.${entry.argument}`, call.era, this.core.onError);
      }
    }
    // The spec caps one answer at 100 values.
    const kept = values.slice(0, 100);
    return { completion: { values: kept, total: total ?? values.length, hasMore: hasMore ?? values.length > kept.length } };
  }
}

function completionKey(ref: string, name: string, argument: string): string {
  return JSON.stringify([ref, name, argument]);
}
