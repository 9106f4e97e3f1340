/**
 * The generated server's engine: answers MCP requests from a ServerDefinition and the user's
 * handlers, on the official SDK's low-level Server, so list answers are the manifest's JSON as is.
 */
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { CallToolResult, CreateMessageRequestParams, CreateMessageResult, ElicitRequestFormParams, ElicitResult, GetPromptResult, LoggingLevel, ReadResourceResult } from "./mcp.js";
import {
  CallToolResultSchema,
  CreateMessageResultSchema,
  ElicitResultSchema,
  GetPromptResultSchema,
  ReadResourceResultSchema,
  SdkServerClass,
  SetLevelRequestSchema,
  type JsonRpcRequest,
  type RequestExtra,
  type ResultSchema,
  type SdkServer,
} from "./sdk.js";
import type { CompletionEntry, ServerDefinition, JsonObject, StaticContent, WireTool, WirePrompt } from "./definition.js";
import { ErrorCodes, ToolError, rpcError } from "./errors.js";
import { fillPlaceholders } from "./placeholders.js";
import { parseUriTemplate, type UriTemplate } from "./uriTemplate.js";
import { SchemaValidators } from "./validation.js";

/** What every handler gets besides its arguments. */
export interface RequestContext {
  /** Aborted when the client cancels the request or the connection closes. */
  signal: AbortSignal;
  /** The JSON-RPC id of the request being answered. */
  requestId: string | number;
  /** The transport's session, for Streamable HTTP with sessions. */
  sessionId?: string;
  /** The request's `params._meta`, if any (progressToken and vendor keys). */
  meta?: JsonObject;
  /**
   * Sends `notifications/message` for this request, unless the client's `logging/setLevel` asks
   * for a higher level. Needs `capabilities: {logging: {}}` in the manifest (a no-op otherwise).
   */
  log(level: LoggingLevel, data: unknown, logger?: string): Promise<void>;
  /**
   * Sends `notifications/progress` when the request carried a progressToken (a no-op otherwise).
   * `progress` must increase from call to call.
   */
  progress(progress: number, total?: number, message?: string): Promise<void>;
  /** Asks the client's model for a completion (sampling/createMessage). */
  sample(params: CreateMessageRequestParams): Promise<CreateMessageResult>;
  /** Asks the user for input through the client (elicitation/create, form mode). */
  elicit(params: Omit<ElicitRequestFormParams, "mode"> & { mode?: "form" }): Promise<ElicitResult>;
  /** Sends `notifications/resources/updated` if the client subscribed to `uri`. */
  notifyResourceUpdated(uri: string): Promise<void>;
  /**
   * Streamable HTTP with an event store: closes this request's SSE stream so the client polls for
   * the answer (SEP-1699). A no-op on other transports.
   */
  closeSSEStream(): void;
}

export interface ToolContext extends RequestContext {
  /** The tool's MCP name. */
  tool: string;
}

export interface ResourceContext extends RequestContext {
  /** The URI being read. */
  uri: string;
}

export type PromptContext = RequestContext;

/** A resource handler answers the text, `{ blob: base64 }`, or a full ReadResourceResult. */
export type ResourceHandlerResult = string | { blob: string } | ReadResourceResult;

/** A tool without outputSchema answers a string (one text block) or a full CallToolResult. */
export type ToolTextResult = string | CallToolResult;

type Awaitable<T> = T | Promise<T>;
type AnyFunction = (...args: never[]) => Awaitable<unknown>;

/** A completion handler: the values that start (or match) what the user typed so far. */
export type CompletionHandler = (
  value: string,
  ctx: RequestContext & { arguments: Record<string, string> },
) => Awaitable<readonly string[] | { values: readonly string[]; total?: number; hasMore?: boolean }>;

/** The untyped view of the generated `Handlers` type. */
export interface RuntimeHandlers {
  tools?: { [name: string]: AnyFunction };
  resources?: { [name: string]: AnyFunction };
  resourceTemplates?: { [name: string]: AnyFunction };
  prompts?: { [name: string]: AnyFunction };
  completions?: {
    prompts?: { [name: string]: { [argument: string]: AnyFunction } };
    resourceTemplates?: { [name: string]: { [variable: string]: AnyFunction } };
  };
}

export interface ServerOptions {
  /**
   * How arguments that break a tool's inputSchema are answered: `"tool-error"` (default) is a
   * result with `isError: true` that the model can read and correct, as MCP 2025-11-25 advises;
   * `"protocol-error"` is a JSON-RPC error -32602 with the same message.
   */
  invalidArguments?: "tool-error" | "protocol-error";
  /** Where unexpected handler failures are reported. Default: a line on stderr. */
  onError?: (error: unknown, context: { method: string; name?: string }) => void;
  /** Items per page of every list method (default: all in one page). */
  pageSize?: number;
}

/** A resource template with its compiled matcher. */
interface TemplateEntry {
  name: string;
  mimeType?: string;
  matcher: UriTemplate;
}

/**
 * Builds the SDK Server for a manifest. Every MCP method the manifest serves goes through
 * `fallbackRequestHandler`, so request params are checked here and answered with -32602 in words
 * (the SDK's own schema parse would answer -32603 with a zod dump).
 */
export function createManifestServer(definition: ServerDefinition, handlers: RuntimeHandlers, options: ServerOptions = {}): Server {
  const server = new SdkServerClass(definition.serverInfo, {
    capabilities: definition.capabilities,
    ...(definition.instructions === undefined ? {} : { instructions: definition.instructions }),
  });
  const engine = new Engine(definition, handlers, options);
  if (definition.capabilities.logging) {
    // Keep the level per connection here, where ctx.log reads it.
    server.setRequestHandler(SetLevelRequestSchema, (request) => {
      engine.logLevel = request.params.level as LoggingLevel;
      return {};
    });
  }
  server.fallbackRequestHandler = (request, extra) => engine.handle(request, engine.context(server, extra));
  // The SDK's Server, typed as the SDK declares it for the caller (connect, close, notifications).
  return server as unknown as Server;
}

const LEVELS: readonly LoggingLevel[] = ["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"];

class Engine {
  private readonly validators = new SchemaValidators();
  private readonly tools = new Map<string, WireTool>();
  private readonly resources = new Map<string, { name: string; mimeType?: string; content?: StaticContent }>();
  private readonly templates: TemplateEntry[] = [];
  private readonly prompts = new Map<string, { prompt: WirePrompt; messages?: readonly JsonObject[] }>();
  private readonly lists: { tools: readonly object[]; resources: readonly object[]; resourceTemplates: readonly object[]; prompts: readonly object[] };
  private readonly onError: NonNullable<ServerOptions["onError"]>;
  private readonly subscriptions = new Set<string>();
  private readonly completions = new Map<string, CompletionEntry>();
  /** Set by logging/setLevel; messages below it are not sent. */
  logLevel: LoggingLevel | undefined;

  constructor(
    private readonly definition: ServerDefinition,
    private readonly handlers: RuntimeHandlers,
    private readonly options: ServerOptions,
  ) {
    for (const tool of definition.tools) this.tools.set(tool.name, tool);
    for (const { resource, content } of definition.resources) {
      this.resources.set(resource.uri, { name: resource.name, ...(resource.mimeType === undefined ? {} : { mimeType: resource.mimeType }), ...(content === undefined ? {} : { content }) });
    }
    for (const t of definition.resourceTemplates) {
      this.templates.push({ name: t.name, matcher: parseUriTemplate(t.uriTemplate), ...(t.mimeType === undefined ? {} : { mimeType: t.mimeType }) });
    }
    for (const entry of definition.prompts) this.prompts.set(entry.prompt.name, entry);
    this.lists = deepFreeze({
      tools: definition.tools,
      resources: definition.resources.map((r) => r.resource),
      resourceTemplates: definition.resourceTemplates,
      prompts: definition.prompts.map((p) => p.prompt),
    });
    for (const entry of definition.completions ?? []) this.completions.set(completionKey(entry.ref, entry.name, entry.argument), entry);
    this.onError = options.onError ?? ((error, where) => console.error(`[mcpgen] ${where.method}${where.name ? ` ${where.name}` : ""} failed:`, error));
  }

  /** The handler context of one request: its signal, ids, and the ways to talk back. */
  context(server: SdkServer, extra: RequestExtra): RequestContext {
    const meta = extra._meta;
    const progressToken = meta?.progressToken;
    return {
      signal: extra.signal,
      requestId: extra.requestId,
      ...(extra.sessionId === undefined ? {} : { sessionId: extra.sessionId }),
      ...(meta === undefined ? {} : { meta }),
      log: async (level, data, logger) => {
        if (!this.definition.capabilities.logging) return;
        if (this.logLevel !== undefined && LEVELS.indexOf(level) < LEVELS.indexOf(this.logLevel)) return;
        await extra.sendNotification({ method: "notifications/message", params: { level, data, ...(logger === undefined ? {} : { logger }) } });
      },
      progress: async (progress, total, message) => {
        if (typeof progressToken !== "string" && typeof progressToken !== "number") return;
        await extra.sendNotification({
          method: "notifications/progress",
          params: { progressToken, progress, ...(total === undefined ? {} : { total }), ...(message === undefined ? {} : { message }) },
        });
      },
      // The SDK checks the client's answer against its schema before resolving.
      sample: (params) => extra.sendRequest({ method: "sampling/createMessage", params }, CreateMessageResultSchema) as Promise<CreateMessageResult>,
      elicit: (params) => extra.sendRequest({ method: "elicitation/create", params: { mode: "form", ...params } }, ElicitResultSchema) as Promise<ElicitResult>,
      notifyResourceUpdated: async (uri) => {
        if (this.subscriptions.has(uri)) await server.sendResourceUpdated({ uri });
      },
      closeSSEStream: () => extra.closeSSEStream?.(),
    };
  }

  /** Ids of requests being answered: JSON-RPC ids must be unique among requests in flight. */
  private readonly inFlight = new Set<string>();

  async handle(request: JsonRpcRequest, ctx: RequestContext): Promise<object> {
    const key = `${typeof request.id}:${String(request.id)}`;
    if (this.inFlight.has(key)) {
      throw rpcError(ErrorCodes.InvalidRequest, `Invalid Request: id ${JSON.stringify(request.id)} is already used by a request in flight`);
    }
    this.inFlight.add(key);
    try {
      return await this.dispatch(request, ctx);
    } finally {
      this.inFlight.delete(key);
    }
  }

  private async dispatch(request: JsonRpcRequest, ctx: RequestContext): Promise<object> {
    const caps = this.definition.capabilities;
    const params = (request.params ?? {}) as JsonObject;
    switch (request.method) {
      case "tools/list":
        if (!caps.tools) break;
        return this.page("tools", params);
      case "tools/call":
        if (!caps.tools) break;
        return this.callTool(params, ctx);
      case "resources/list":
        if (!caps.resources) break;
        return this.page("resources", params);
      case "resources/templates/list":
        if (!caps.resources) break;
        return this.page("resourceTemplates", params);
      case "resources/read":
        if (!caps.resources) break;
        return this.readResource(params, ctx);
      case "resources/subscribe":
      case "resources/unsubscribe":
        if (!caps.resources?.subscribe) break;
        if (typeof params.uri !== "string") throw rpcError(ErrorCodes.InvalidParams, expectedFields(request.method, params, "'uri' (string)"));
        if (request.method === "resources/subscribe") this.subscriptions.add(params.uri);
        else this.subscriptions.delete(params.uri);
        return {};
      case "prompts/list":
        if (!caps.prompts) break;
        return this.page("prompts", params);
      case "prompts/get":
        if (!caps.prompts) break;
        return this.getPrompt(params, ctx);
      case "completion/complete":
        if (!caps.completions) break;
        return this.complete(params, ctx);
    }
    throw rpcError(ErrorCodes.MethodNotFound, "Method not found");
  }

  /**
   * One page of a list. Without pageSize, everything in one page (the fixture, verbatim). With it,
   * an opaque cursor (base64 of the next offset) in nextCursor; a cursor this server did not issue
   * is -32602.
   */
  private page(kind: keyof Engine["lists"], params: JsonObject): object {
    const items = this.lists[kind];
    const size = this.options.pageSize;
    let start = 0;
    if (params.cursor !== undefined && params.cursor !== null) {
      const offset = typeof params.cursor === "string" ? decodeCursor(params.cursor, kind) : undefined;
      if (offset === undefined || offset > items.length || size === undefined) throw rpcError(ErrorCodes.InvalidParams, "Invalid cursor: pass the nextCursor of the previous page, or none for the first page");
      start = offset;
    }
    if (size === undefined) return { [kind]: items };
    const end = start + size;
    return { [kind]: items.slice(start, end), ...(end < items.length ? { nextCursor: encodeCursor(end, kind) } : {}) };
  }

  private async complete(params: JsonObject, base: RequestContext): Promise<object> {
    const ref = params.ref;
    const argument = params.argument;
    if (!isObject(ref) || !isObject(argument) || typeof argument.name !== "string" || typeof argument.value !== "string") {
      throw rpcError(ErrorCodes.InvalidParams, expectedFields("completion/complete", params, "'ref' ({type, name} or {type, uri}) and 'argument' ({name, value})"));
    }
    let entry: CompletionEntry | undefined;
    if (ref.type === "ref/prompt" && typeof ref.name === "string") {
      if (!this.prompts.has(ref.name)) throw rpcError(ErrorCodes.InvalidParams, `Unknown prompt: ${ref.name}`);
      entry = this.completions.get(completionKey("prompt", ref.name, argument.name));
    } else if (ref.type === "ref/resource" && typeof ref.uri === "string") {
      const template = this.definition.resourceTemplates.find((t) => t.uriTemplate === ref.uri);
      if (template) entry = this.completions.get(completionKey("resourceTemplate", template.name, argument.name));
      else if (!this.resources.has(ref.uri)) throw rpcError(ErrorCodes.InvalidParams, `Unknown resource: ${ref.uri}`);
    } else {
      throw rpcError(ErrorCodes.InvalidParams, "Invalid params for completion/complete: ref.type must be ref/prompt (with name) or ref/resource (with uri)");
    }
    const value = argument.value;
    let values: readonly string[] = [];
    let total: number | undefined;
    let hasMore: boolean | undefined;
    if (entry?.values) values = entry.values.filter((v) => v.startsWith(value));
    else if (entry?.handler) {
      const group = entry.ref === "prompt" ? this.handlers.completions?.prompts : this.handlers.completions?.resourceTemplates;
      const table = group && Object.hasOwn(group, entry.name) ? group[entry.name] : undefined;
      const handler = ownFunction(table, entry.argument);
      const context = isObject(params.context) && isObject(params.context.arguments) ? (params.context.arguments as Record<string, string>) : {};
      try {
        const answer = handler ? await (handler as CompletionHandler)(value, { ...base, arguments: context }) : [];
        if (Array.isArray(answer)) values = answer as string[];
        else {
          const a = answer as { values: readonly string[]; total?: number; hasMore?: boolean };
          values = a.values;
          total = a.total;
          hasMore = a.hasMore;
        }
      } catch (error) {
        throw this.passThrough(error, "completion/complete", `${entry.name}.${entry.argument}`);
      }
    }
    // The spec caps one answer at 100 values.
    const shown = values.slice(0, 100);
    return { completion: { values: shown, total: total ?? values.length, hasMore: hasMore ?? values.length > shown.length } };
  }

  private async callTool(params: JsonObject, base: RequestContext): Promise<CallToolResult> {
    if (typeof params.name !== "string") throw rpcError(ErrorCodes.InvalidParams, expectedFields("tools/call", params, "'name' (string) and optional 'arguments' (object)"));
    const name = params.name;
    const tool = this.tools.get(name);
    if (!tool) throw rpcError(ErrorCodes.InvalidParams, `Unknown tool: ${name}`);
    const args = params.arguments ?? {};
    if (!isObject(args)) throw rpcError(ErrorCodes.InvalidParams, `Invalid params: 'arguments' of tools/call must be an object`);

    let problems: string | undefined;
    try {
      problems = this.validators.check(tool.inputSchema, args);
    } catch (error) {
      // A recursive schema walks the data as deep as it goes: a hostile nesting ends here.
      if (!(error instanceof RangeError)) throw error;
      problems = "Arguments are nested too deeply to check";
    }
    if (problems !== undefined) {
      const message = `Invalid arguments for tool ${name}: ${problems}`;
      if (this.options.invalidArguments === "protocol-error") throw rpcError(ErrorCodes.InvalidParams, message);
      return errorResult(message);
    }
    const handler = ownFunction(this.handlers.tools, name);
    if (!handler) return errorResult(`Tool ${name} has no handler on this server`);

    let output: unknown;
    try {
      output = await (handler as (a: unknown, c: ToolContext) => unknown)(args, { ...base, tool: name });
    } catch (error) {
      if (error instanceof ToolError) return errorResult(error.message);
      this.onError(error, { method: "tools/call", name });
      return errorResult(`Tool ${name} failed: ${error instanceof Error ? error.message : String(error)}`);
    }

    if (tool.outputSchema !== undefined) {
      // Check what will be on the wire: JSON turns NaN into null and drops undefined.
      let text: string | undefined;
      try {
        text = JSON.stringify(output);
      } catch (error) {
        return this.badOutput(name, `Tool ${name} returned output that is not JSON: ${error instanceof Error ? error.message : String(error)}`);
      }
      const wire: unknown = text === undefined ? undefined : JSON.parse(text);
      const outputProblems = isObject(wire) ? this.validators.check(tool.outputSchema, wire) : "Output must be an object";
      if (outputProblems !== undefined) return this.badOutput(name, `Tool ${name} returned output that does not match its outputSchema: ${outputProblems}`);
      return { content: [{ type: "text", text: text! }], structuredContent: wire as JsonObject };
    }
    if (typeof output === "string") return { content: [{ type: "text", text: output }] };
    const resultProblems = schemaProblems(CallToolResultSchema, output);
    if (isObject(output) && Array.isArray(output.content) && resultProblems === undefined) return output as CallToolResult;
    return this.badOutput(name, `Tool ${name} returned neither a string nor a valid CallToolResult${resultProblems === undefined ? "" : `: ${resultProblems}`}`);
  }

  /** Output a tool should never have returned: logged, and answered as an isError result. */
  private badOutput(name: string, message: string): CallToolResult {
    this.onError(new Error(message), { method: "tools/call", name });
    return errorResult(message);
  }

  private async readResource(params: JsonObject, base: RequestContext): Promise<ReadResourceResult> {
    if (typeof params.uri !== "string") throw rpcError(ErrorCodes.InvalidParams, expectedFields("resources/read", params, "'uri' (string)"));
    const uri = params.uri;
    const ctx: ResourceContext = { ...base, uri };
    const resource = this.resources.get(uri);
    if (resource) {
      if (resource.content) return { contents: [{ uri, ...(resource.mimeType === undefined ? {} : { mimeType: resource.mimeType }), ...resource.content }] };
      const handler = ownFunction(this.handlers.resources, resource.name);
      return this.runResourceHandler(handler, [ctx], uri, resource.mimeType, resource.name);
    }
    for (const template of this.templates) {
      const variables = template.matcher.match(uri);
      if (!variables) continue;
      const handler = ownFunction(this.handlers.resourceTemplates, template.name);
      return this.runResourceHandler(handler, [variables, ctx], uri, template.mimeType, template.name);
    }
    throw rpcError(ErrorCodes.ResourceNotFound, "Resource not found", { uri });
  }

  private async runResourceHandler(handler: AnyFunction | undefined, args: unknown[], uri: string, mimeType: string | undefined, name: string): Promise<ReadResourceResult> {
    if (!handler) throw rpcError(ErrorCodes.InternalError, `Resource ${name} has no handler on this server`);
    let result: unknown;
    try {
      result = await (handler as (...a: unknown[]) => unknown)(...args);
    } catch (error) {
      throw this.passThrough(error, "resources/read", name);
    }
    const mime = mimeType === undefined ? {} : { mimeType };
    let answer: unknown = result;
    if (typeof result === "string") answer = { contents: [{ uri, ...mime, text: result }] };
    else if (isObject(result) && !Array.isArray(result.contents) && typeof result.blob === "string") answer = { contents: [{ uri, ...mime, blob: result.blob }] };
    // The SDK's own schema, which also checks that blobs are base64.
    const why = schemaProblems(ReadResourceResultSchema, answer);
    if (why === undefined) return answer as ReadResourceResult;
    this.onError(new Error(`resources/read ${name}: ${why}`), { method: "resources/read", name });
    throw rpcError(ErrorCodes.InternalError, `Resource ${name}: the handler returned neither text, { blob: base64 } nor a valid ReadResourceResult (${why})`);
  }

  private async getPrompt(params: JsonObject, base: RequestContext): Promise<GetPromptResult> {
    if (typeof params.name !== "string") throw rpcError(ErrorCodes.InvalidParams, expectedFields("prompts/get", params, "'name' (string) and optional 'arguments' (object of strings)"));
    const name = params.name;
    const entry = this.prompts.get(name);
    if (!entry) throw rpcError(ErrorCodes.InvalidParams, `Unknown prompt: ${name}`);
    const args = params.arguments ?? {};
    if (!isObject(args)) throw rpcError(ErrorCodes.InvalidParams, `Invalid params: 'arguments' of prompts/get must be an object of strings`);
    for (const [key, value] of Object.entries(args)) {
      if (typeof value !== "string") throw rpcError(ErrorCodes.InvalidParams, `Argument '${key}' of prompt ${name} must be a string`);
    }
    for (const argument of entry.prompt.arguments ?? []) {
      if (argument.required && !Object.hasOwn(args, argument.name)) throw rpcError(ErrorCodes.InvalidParams, `Missing required argument '${argument.name}' for prompt ${name}`);
    }
    const values = args as Record<string, string>;
    if (entry.messages) {
      const description = entry.prompt.description;
      return {
        ...(typeof description === "string" ? { description } : {}),
        messages: entry.messages.map((m) => fillPlaceholders(m, values)) as unknown as GetPromptResult["messages"],
      };
    }
    const handler = ownFunction(this.handlers.prompts, name);
    if (!handler) throw rpcError(ErrorCodes.InternalError, `Prompt ${name} has no handler on this server`);
    let result: unknown;
    try {
      result = await (handler as (a: unknown, c: PromptContext) => unknown)(values, base);
    } catch (error) {
      throw this.passThrough(error, "prompts/get", name);
    }
    const why = schemaProblems(GetPromptResultSchema, result);
    if (why === undefined) return result as GetPromptResult;
    this.onError(new Error(`prompts/get ${name}: ${why}`), { method: "prompts/get", name });
    throw rpcError(ErrorCodes.InternalError, `Prompt ${name}: the handler did not return a valid GetPromptResult (${why})`);
  }

  /**
   * Errors that carry a JSON-RPC error code (-32768 to -32000, e.g. -32002 Resource not found) go
   * out as they are; anything else is logged and answered -32603.
   */
  private passThrough(error: unknown, method: string, name: string): Error {
    const code = isObject(error) ? error.code : undefined;
    if (typeof code === "number" && Number.isInteger(code) && code >= -32768 && code <= -32000 && typeof (error as JsonObject).message === "string") return error as Error;
    this.onError(error, { method, name });
    return rpcError(ErrorCodes.InternalError, `${method} ${name} failed: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** Undefined when `value` matches one of the SDK's result schemas, else its first problems in words. */
function schemaProblems(schema: ResultSchema, value: unknown): string | undefined {
  const parsed = schema.safeParse(value);
  if (parsed.success) return undefined;
  return parsed.error.issues.slice(0, 3).map((i) => `${i.path.map(String).join(".") || "result"} ${i.message}`).join("; ");
}

function errorResult(text: string): CallToolResult {
  return { content: [{ type: "text", text }], isError: true };
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A handler the user defined on the object itself, never one inherited from Object.prototype. */
function ownFunction(table: { [name: string]: AnyFunction } | undefined, name: string): AnyFunction | undefined {
  if (!table || !Object.hasOwn(table, name)) return undefined;
  const fn = table[name];
  return typeof fn === "function" ? fn : undefined;
}

/** The seed's classic mistake (`tool`/`args` instead of `name`/`arguments`) gets named. */
function expectedFields(method: string, params: JsonObject, expected: string): string {
  const got = Object.keys(params).filter((k) => k !== "_meta");
  return `Invalid params for ${method}: expected ${expected}; got ${got.length ? got.map((k) => `'${k}'`).join(", ") : "no fields"}`;
}

/** Cursors are opaque to clients: the next offset and the list they belong to. */
function encodeCursor(offset: number, kind: string): string {
  return `${kind}.${offset.toString(36)}`;
}

function decodeCursor(cursor: string, kind: string): number | undefined {
  const m = /^([A-Za-z]+)\.([0-9a-z]{1,10})$/.exec(cursor);
  return m && m[1] === kind ? parseInt(m[2]!, 36) : undefined;
}

function completionKey(ref: string, name: string, argument: string): string {
  return JSON.stringify([ref, name, argument]);
}

function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key]);
  }
  return value;
}
