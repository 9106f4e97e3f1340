/**
 * The generated client's engine: typed calls over any connected SDK Client, with outputs checked
 * against the manifest's outputSchemas.
 */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { RequestOptions } from "@modelcontextprotocol/sdk/shared/protocol.js";
import type { CallToolResult, GetPromptResult, ReadResourceResult } from "@modelcontextprotocol/sdk/types.js";
import type { ServerDefinition, WireTool } from "./definition.js";
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

  constructor(
    readonly sdk: Client,
    definition: ServerDefinition,
    private readonly options: ClientOptions = {},
  ) {
    for (const tool of definition.tools) this.tools.set(tool.name, tool);
  }

  /** tools/call, answering the raw CallToolResult (isError results included). */
  async callTool(name: string, args: object | undefined, options?: RequestOptions): Promise<CallToolResult> {
    const result = await this.sdk.callTool({ name, arguments: (args ?? {}) as Record<string, unknown> }, undefined, options);
    return result as CallToolResult;
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
    return this.sdk.readResource({ uri }, options);
  }

  /** Reads a resource template's URI built from its variables. */
  readTemplate(template: string, variables: Readonly<Record<string, string>>, options?: RequestOptions): Promise<ReadResourceResult> {
    return this.readResource(parseUriTemplate(template).expand(variables), options);
  }

  getPrompt(name: string, args: Readonly<Record<string, string>> | undefined, options?: RequestOptions): Promise<GetPromptResult> {
    return this.sdk.getPrompt({ name, ...(args === undefined ? {} : { arguments: { ...args } }) }, options);
  }
}

function resultText(result: CallToolResult): string {
  return result.content
    .filter((block): block is { type: "text"; text: string } => block.type === "text")
    .map((block) => block.text)
    .join("\n");
}
