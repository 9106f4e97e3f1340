/**
 * The shape of a generated `definition.ts`: the manifest's wire JSON, served verbatim, plus what
 * the runtime needs to answer reads and prompts without a handler.
 */
export type JsonObject = { [key: string]: unknown };

/**
 * serverInfo and capabilities as the SDK's Server takes them. Declared here rather than imported
 * from the SDK's types (zod-inferred, costly to type-check) so definition.ts stays cheap.
 */
export interface Implementation extends JsonObject {
  name: string;
  version: string;
}

export interface ServerCapabilities extends JsonObject {
  tools?: JsonObject;
  resources?: JsonObject & { subscribe?: boolean };
  prompts?: JsonObject;
  completions?: JsonObject;
  logging?: JsonObject;
}

export interface WireTool extends JsonObject {
  name: string;
  inputSchema: JsonObject;
  outputSchema?: JsonObject;
}

export interface WireResource extends JsonObject {
  uri: string;
  name: string;
  mimeType?: string;
}

export interface WireResourceTemplate extends JsonObject {
  uriTemplate: string;
  name: string;
  mimeType?: string;
}

export interface WirePrompt extends JsonObject {
  name: string;
  arguments?: { name: string; required?: boolean; [key: string]: unknown }[];
}

/** Content of a resource declared with `text`, `blob` or `file` in the manifest. */
export type StaticContent = { text: string } | { blob: string };

export interface ServerDefinition {
  serverInfo: Implementation;
  instructions?: string;
  capabilities: ServerCapabilities;
  tools: readonly WireTool[];
  /** `content` is set for resources served from the manifest, absent for those with a handler. */
  resources: readonly { resource: WireResource; content?: StaticContent }[];
  resourceTemplates: readonly WireResourceTemplate[];
  /** `messages` is set for prompts with messages in the manifest, absent for those with a handler. */
  prompts: readonly { prompt: WirePrompt; messages?: readonly JsonObject[] }[];
  /**
   * Completions for prompt arguments and template variables: a static list of values, or
   * `handler: true` when a completion handler answers.
   */
  completions?: readonly CompletionEntry[];
}

export interface CompletionEntry {
  ref: "prompt" | "resourceTemplate";
  /** Prompt name or template name. */
  name: string;
  /** Argument or variable name. */
  argument: string;
  values?: readonly string[];
  handler?: true;
}
