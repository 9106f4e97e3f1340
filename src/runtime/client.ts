/**
 * The generated client's engine: typed calls over any connected SDK Client (SDK v2's, in either
 * protocol era, or SDK 1.x's), with outputs checked against the manifest's outputSchemas.
 */
import type { JsonObject, ServerDefinition, WireTool } from "./definition.js";
import type { CallToolResult, GetPromptResult, ReadResourceResult } from "./mcp.js";
import { OutputValidationError, ToolError } from "./errors.js";
import { parseUriTemplate } from "./uriTemplate.js";
import { SchemaValidators } from "./validation.js";

/** Per-call options, passed to the SDK Client (both SDK lines take these). */
export interface RequestOptions {
  /** Aborts the call (the client sends the cancellation). */
  signal?: AbortSignal;
  /** Milliseconds before the call fails (the SDK's default is 60 s). */
  timeout?: number;
  /** Called with each notifications/progress of the call. */
  onprogress?: (progress: { progress: number; total?: number; message?: string }) => void;
  resetTimeoutOnProgress?: boolean;
  maxTotalTimeout?: number;
}

/**
 * An SDK 1.x Client (@modelcontextprotocol/sdk), seen through the calls made here. It has no
 * getProtocolEra, which tells it apart: its callTool takes a result schema before the options.
 */
export interface SdkClientV1 {
  getProtocolEra?: undefined;
  callTool(params: { name: string; arguments: JsonObject }, resultSchema: undefined, options?: RequestOptions): Promise<unknown>;
  readResource(params: { uri: string }, options?: RequestOptions): Promise<unknown>;
  getPrompt(params: { name: string; arguments?: Record<string, string> }, options?: RequestOptions): Promise<unknown>;
}

/** An SDK v2 Client (@modelcontextprotocol/client), seen through the calls made here. */
export interface SdkClientV2 {
  getProtocolEra(): "legacy" | "modern" | undefined;
  callTool(params: { name: string; arguments: JsonObject }, options?: RequestOptions & { toolDefinition?: JsonObject }): Promise<unknown>;
  readResource(params: { uri: string }, options?: RequestOptions): Promise<unknown>;
  getPrompt(params: { name: string; arguments?: Record<string, string> }, options?: RequestOptions): Promise<unknown>;
}

/** A connected SDK Client of either line. */
export type SdkClient = SdkClientV1 | SdkClientV2;

export interface ClientOptions {
  /** Check structured outputs against outputSchema (default true). */
  validate?: boolean;
}

export class ManifestClient {
  private readonly tools = new Map<string, WireTool>();
  /** What the SDK v2 Client gets as `toolDefinition`: the tool without its outputSchema. */
  private readonly definitions = new Map<string, JsonObject>();
  private readonly validators: SchemaValidators;

  constructor(
    readonly sdk: SdkClient,
    definition: ServerDefinition,
    private readonly options: ClientOptions = {},
  ) {
    this.validators = new SchemaValidators(definition.patterns);
    for (const tool of definition.tools) {
      this.tools.set(tool.name, tool);
      const { outputSchema: _, ...rest } = tool;
      this.definitions.set(tool.name, rest);
    }
  }

  /** tools/call, answering the raw CallToolResult (isError results included). */
  async callTool(name: string, args: object | undefined, options?: RequestOptions): Promise<CallToolResult> {
    const params = { name, arguments: (args ?? {}) as JsonObject };
    const sdk = this.sdk;
    // The SDK checks the answer against its CallToolResult schema before resolving.
    if (typeof sdk.getProtocolEra !== "function") return (await (sdk as SdkClientV1).callTool(params, undefined, options)) as CallToolResult;
    // SDK v2: the manifest's tool definition, so that 2026-07-28 Streamable HTTP mirrors its
    // x-mcp-header arguments without a tools/list first. Without outputSchema: this client checks
    // outputs itself (the same check and errors on every SDK), and the SDK's own check would
    // use whatever schema a tools/list by the host happened to cache.
    const toolDefinition = this.definitions.get(name);
    return (await sdk.callTool(params, { ...options, ...(toolDefinition ? { toolDefinition } : {}) })) as CallToolResult;
  }

  /**
   * tools/call for a generated tool method: rejects with ToolError on `isError`, resolves to the
   * checked `structuredContent` for tools with outputSchema, else to the CallToolResult.
   */
  async callToolOutput(name: string, args: object | undefined, options?: RequestOptions): Promise<unknown> {
    const result = await this.callTool(name, args, options);
    if (result.isError) throw new ToolError(resultText(result) || `Tool ${name} failed`, { result });
    const outputSchema = this.tools.get(name)?.outputSchema;
    if (outputSchema === undefined) return result;
    const output = result.structuredContent;
    if (output === undefined) throw new OutputValidationError(name, "the result has no structuredContent", result);
    if (this.options.validate !== false) {
      const problems = this.validators.check(outputSchema, output);
      if (problems !== undefined) throw new OutputValidationError(name, problems, result);
    }
    return output;
  }

  readResource(uri: string, options?: RequestOptions): Promise<ReadResourceResult> {
    return this.sdk.readResource({ uri }, options) as Promise<ReadResourceResult>;
  }

  /** Reads a resource template's URI built from its variables. */
  readTemplate(template: string, variables: Readonly<Record<string, string>>, options?: RequestOptions): Promise<ReadResourceResult> {
    return this.readResource(parseUriTemplate(template).expand(variables), options);
  }

  getPrompt(name: string, args: Readonly<Record<string, string>> | undefined, options?: RequestOptions): Promise<GetPromptResult> {
    return this.sdk.getPrompt({ name, ...(args === undefined ? {} : { arguments: { ...args } }) }, options) as Promise<GetPromptResult>;
  }
}

/**
 * Names of a generated client's methods and what each calls: a tool's name, a resource's URI, a
 * resource template. A table the runtime turns into methods, rather than an object literal of
 * hundreds of functions in the generated code: that would cost the compiler a check per method.
 */
export interface ClientMethods {
  tools: { readonly [method: string]: string };
  resources: { readonly [method: string]: string };
  templates: { readonly [method: string]: string };
}

/**
 * The object behind a generated client interface: `sdk`, the generic calls, and one method per
 * entry of `methods`. Typed by the generated code, which declares the interface it implements.
 */
export function clientObject(engine: ManifestClient, methods: ClientMethods): unknown {
  const client: Record<string, unknown> = {};
  const define = (name: string, value: unknown) => Object.defineProperty(client, name, { value, enumerable: true, writable: true, configurable: true });
  define("sdk", engine.sdk);
  for (const [method, tool] of Object.entries(methods.tools)) define(method, (args: object | undefined, options?: RequestOptions) => engine.callToolOutput(tool, args, options));
  define("callTool", (name: string, args: object | undefined, options?: RequestOptions) => engine.callTool(name, args, options));
  define("readResource", (uri: string, options?: RequestOptions) => engine.readResource(uri, options));
  for (const [method, uri] of Object.entries(methods.resources)) define(method, (options?: RequestOptions) => engine.readResource(uri, options));
  for (const [method, template] of Object.entries(methods.templates)) define(method, (variables: Readonly<Record<string, string>>, options?: RequestOptions) => engine.readTemplate(template, { ...variables }, options));
  define("getPrompt", (name: string, args?: Readonly<Record<string, string>>, options?: RequestOptions) => engine.getPrompt(name, args, options));
  return client;
}

function resultText(result: CallToolResult): string {
  return result.content
    .filter((block): block is { type: "text"; text: string } => block.type === "text")
    .map((block) => block.text)
    .join("\n");
}
