/**
 * resources/list, resources/templates/list, resources/read (static content, a resource's handler,
 * or the first template that matches the URI), and 2025-era resources/subscribe and unsubscribe.
 */
import type { CacheHint, JsonObject, StaticContent } from "../../shared/definition.js";
import { ErrorCodes, rpcError } from "../../shared/errors.js";
import { expectedFields, handlerContext, isObject, ownFunction, schemaProblems, type Call, type EngineCore, type MethodEntry } from "../engine/engineCore.js";
import { handlerFailure } from "../engine/handlerErrors.js";
import type { AnyFunction, ResourceContext } from "../engine/handlerTypes.js";
import { authorized, listMethod, shown } from "../engine/lists.js";
import { runRound } from "../engine/round.js";
import { ReadResourceResultSchema } from "../engine/sdk.js";
import { parseUriTemplate, type UriTemplate } from "../../shared/uriTemplate.js";

/** The rows of the method table for resources (none without the capability). */
export function resourceMethods(core: EngineCore): MethodEntry[] {
  const caps = core.definition.capabilities;
  if (!caps.resources) return [];
  const reads = new ResourceReads(core);
  const table: MethodEntry[] = [
    listMethod(core, "resources"),
    listMethod(core, "resourceTemplates"),
    { method: "resources/read", handle: (params, call) => reads.readResource(params, call) },
  ];
  if (caps.resources.subscribe) table.push(subscription(reads, "resources/subscribe", true), subscription(reads, "resources/unsubscribe", false));
  return table;
}

/**
 * 2025-era subscriptions, kept per connection (2026-07-28 has subscriptions/listen, the SDK's). A
 * URI is subscribed to as it would be read: served by an entry switched on, shown to the caller,
 * whose rule the caller's token meets; else it is not found, as a read of it would be.
 */
function subscription(reads: ResourceReads, method: string, on: boolean): MethodEntry {
  return {
    method,
    era: "legacy",
    handle: (params, call, subscriptions) => {
      if (typeof params["uri"] !== "string") throw rpcError(ErrorCodes.InvalidParams, expectedFields(method, params, "'uri' (string)"));
      const uri = params["uri"];
      if (on) {
        const entry = reads.resolve(uri, call);
        if (entry === undefined) throw rpcError(ErrorCodes.InvalidParams, "Resource not found", { uri });
        reads.authorize(call, entry, uri);
        subscriptions.add(uri);
      } else subscriptions.delete(uri);
      return {};
    },
  };
}

/** The entry that serves a URI for one caller. */
type Resolved =
  | { kind: "resources"; name: string; content?: StaticContent; mimeType?: string }
  | { kind: "resourceTemplates"; template: TemplateEntry; variables: Record<string, string> };

interface TemplateEntry {
  name: string;
  mimeType?: string;
  matcher: UriTemplate;
}

class ResourceReads {
  private readonly resources = new Map<string, { name: string; mimeType?: string; content?: StaticContent }>();
  private readonly templates: TemplateEntry[] = [];

  constructor(private readonly core: EngineCore) {
    for (const { resource, content } of core.definition.resources) {
      this.resources.set(resource.uri, {
        name: resource.name,
        ...(resource.mimeType === undefined ? {} : { mimeType: resource.mimeType }),
        ...(content === undefined ? {} : { content }),
      });
    }
    for (const t of core.definition.resourceTemplates) {
      this.templates.push({ name: t.name, matcher: parseUriTemplate(t.uriTemplate), ...(t.mimeType === undefined ? {} : { mimeType: t.mimeType }) });
    }
  }

  private readCache(uri: string, template: string | undefined): CacheHint | object {
    const cache = this.core.definition.cache;
    const own = template === undefined ? cache?.resources?.[uri] : cache?.resourceTemplates?.[template];
    return own ?? cache?.["resources/read"] ?? {};
  }

  /**
   * The entry that serves `uri` for this caller: the resource of that URI, else the first template
   * that matches it; an entry switched off (or hidden from the caller) serves nothing, and a
   * resource switched off hides the templates too. Undefined: not found.
   */
  resolve(uri: string, call: Call): Resolved | undefined {
    const resource = this.resources.get(uri);
    if (resource) return shown(this.core, call, "resources", uri) ? { kind: "resources", ...resource } : undefined;
    for (const template of this.templates) {
      if (!shown(this.core, call, "resourceTemplates", template.name)) continue;
      const variables = template.matcher.match(uri);
      if (variables) return { kind: "resourceTemplates", template, variables };
    }
    return undefined;
  }

  /**
   * Refuses a caller whose token does not meet the rule of the entry picked. The HTTP gate has
   * refused such callers with 401/403 already, unless the caller's `visible` filter made the
   * engine pick a later template than the gate could know: then this answers, before any handler.
   */
  authorize(call: Call, entry: Resolved, uri: string): void {
    const key = entry.kind === "resources" ? uri : entry.template.name;
    if (!authorized(this.core, call, entry.kind, key))
      throw rpcError(ErrorCodes.InvalidRequest, `Resource ${uri} needs authorization: sign in to this server with the scopes it needs, then ask again`, {
        uri,
      });
  }

  async readResource(params: JsonObject, call: Call): Promise<object> {
    if (typeof params["uri"] !== "string") throw rpcError(ErrorCodes.InvalidParams, expectedFields("resources/read", params, "'uri' (string)"));
    const uri = params["uri"];
    const cache = (template?: string) => (call.era === "modern" ? this.readCache(uri, template) : {});
    const entry = this.resolve(uri, call);
    // -32602 with the URI, as 2026-07-28 requires (2025-11-25 said -32002; the SDK sends -32602 in both eras).
    if (entry === undefined) throw rpcError(ErrorCodes.InvalidParams, "Resource not found", { uri });
    this.authorize(call, entry, uri);
    if (entry.kind === "resources") {
      if (entry.content) return { contents: [{ uri, ...(entry.mimeType === undefined ? {} : { mimeType: entry.mimeType }), ...entry.content }], ...cache() };
      const handler = ownFunction(this.core.handlers.resources, entry.name);
      return this.runResourceHandler(handler, undefined, call, uri, entry.mimeType, entry.name, cache());
    }
    const { template, variables } = entry;
    const handler = ownFunction(this.core.handlers.resourceTemplates, template.name);
    return this.runResourceHandler(handler, variables, call, uri, template.mimeType, template.name, cache(template.name));
  }

  private async runResourceHandler(
    handler: AnyFunction | undefined,
    variables: Record<string, string> | undefined,
    call: Call,
    uri: string,
    mimeType: string | undefined,
    name: string,
    cache: object,
  ): Promise<object> {
    if (!handler) throw rpcError(ErrorCodes.InternalError, `Resource ${name} has no handler on this server`);
    const outcome = await runRound(this.core, "resources/read", uri, variables ?? {}, call, undefined, (channel, signal) => {
      const ctx: ResourceContext = { ...handlerContext(call, channel, signal), uri };
      return Promise.resolve((handler as (...a: unknown[]) => unknown)(...(variables ? [variables, ctx] : [ctx])));
    });
    if ("inputRequired" in outcome) return outcome.inputRequired;
    if ("error" in outcome) throw handlerFailure(outcome.error, "resources/read", name, call.era, this.core.onError);
    const result = "value" in outcome ? outcome.value : undefined;
    const mime = mimeType === undefined ? {} : { mimeType };
    let answer: unknown = result;
    if (typeof result === "string") answer = { contents: [{ uri, ...mime, text: result }] };
    else if (isObject(result) && !Array.isArray(result["contents"]) && typeof result["blob"] === "string")
      answer = { contents: [{ uri, ...mime, blob: result["blob"] }] };
    // The SDK's own schema, which also checks that blobs are base64.
    const why = schemaProblems(ReadResourceResultSchema, answer);
    if (why === undefined) return { ...(answer as object), ...cache };
    this.core.onError(new Error(`resources/read ${name}: ${why}`), { method: "resources/read", name });
    throw rpcError(ErrorCodes.InternalError, `Resource ${name}: the handler returned neither text, { blob: base64 } nor a valid ReadResourceResult (${why})`);
  }
}
