/**
 * The generated client's engine: typed calls over any connected SDK Client, with outputs checked
 * against the manifest's outputSchemas.
 */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { RequestOptions } from "@modelcontextprotocol/sdk/shared/protocol.js";
import type { JsonObject, ServerDefinition, WireTool } from "./definition.js";
import type { CallToolResult, GetPromptResult, ReadResourceResult } from "./mcp.js";
import type { SdkClient } from "./sdk.js";
import { OutputValidationError, ToolError } from "./errors.js";
import { parseUriTemplate } from "./uriTemplate.js";
import { SchemaValidators } from "./validation.js";

export type { RequestOptions };

export interface ClientOptions {
  /** Check structured outputs against outputSchema (default true). */
  validate?: boolean;
}

export class ManifestClient {
  private readonly tools = new Map<string, WireTool>();
  private readonly validators = new SchemaValidators();
  /** The same Client, seen through the calls made here (its own types are costly to check). */
  private readonly calls: SdkClient;

  constructor(
    readonly sdk: Client,
    definition: ServerDefinition,
    private readonly options: ClientOptions = {},
  ) {
    this.calls = sdk as unknown as SdkClient;
    for (const tool of definition.tools) this.tools.set(tool.name, tool);
  }

  /** tools/call, answering the raw CallToolResult (isError results included). */
  async callTool(name: string, args: object | undefined, options?: RequestOptions): Promise<CallToolResult> {
    // The SDK checks the answer against its CallToolResult schema before resolving.
    return (await this.calls.callTool({ name, arguments: (args ?? {}) as JsonObject }, undefined, options)) as CallToolResult;
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
    return this.calls.readResource({ uri }, options) as Promise<ReadResourceResult>;
  }

  /** Reads a resource template's URI built from its variables. */
  readTemplate(template: string, variables: Readonly<Record<string, string>>, options?: RequestOptions): Promise<ReadResourceResult> {
    return this.readResource(parseUriTemplate(template).expand(variables), options);
  }

  getPrompt(name: string, args: Readonly<Record<string, string>> | undefined, options?: RequestOptions): Promise<GetPromptResult> {
    return this.calls.getPrompt({ name, ...(args === undefined ? {} : { arguments: { ...args } }) }, options) as Promise<GetPromptResult>;
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
