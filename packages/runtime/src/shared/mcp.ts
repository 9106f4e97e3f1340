/**
 * The MCP result and content types (2025-11-25 and 2026-07-28 share them) the generated code names, declared here as plain
 * interfaces after the specification's schema.ts. The SDK's own are inferred from its zod schemas
 * and cost the compiler about a second for a server, on every build of every project using the
 * generated code; values of the SDK's types are assignable to these (their extra members land in
 * the index signatures). Only the members the runtime and generated code use are spelled out in
 * detail; the rest stays open.
 */

/** `_meta`, on results and content. */
export type Meta = { [key: string]: unknown };

export type Role = "user" | "assistant";

export type LoggingLevel = "debug" | "info" | "notice" | "warning" | "error" | "critical" | "alert" | "emergency";

/** Hints for the client on how to use a piece of content. */
export interface Annotations {
  audience?: Role[];
  priority?: number;
  lastModified?: string;
}

export interface TextContent {
  type: "text";
  text: string;
  annotations?: Annotations;
  _meta?: Meta;
}

export interface ImageContent {
  type: "image";
  /** Base64. */
  data: string;
  mimeType: string;
  annotations?: Annotations;
  _meta?: Meta;
}

export interface AudioContent {
  type: "audio";
  /** Base64. */
  data: string;
  mimeType: string;
  annotations?: Annotations;
  _meta?: Meta;
}

/** A link to a resource (which need not appear in resources/list). */
export interface ResourceLink {
  type: "resource_link";
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  size?: number;
  annotations?: Annotations;
  icons?: { src: string; mimeType?: string; sizes?: string[]; theme?: "light" | "dark" }[];
  _meta?: Meta;
}

export interface TextResourceContents {
  uri: string;
  mimeType?: string;
  text: string;
  _meta?: Meta;
}

export interface BlobResourceContents {
  uri: string;
  mimeType?: string;
  /** Base64. */
  blob: string;
  _meta?: Meta;
}

export interface EmbeddedResource {
  type: "resource";
  resource: TextResourceContents | BlobResourceContents;
  annotations?: Annotations;
  _meta?: Meta;
}

export type ContentBlock = TextContent | ImageContent | AudioContent | ResourceLink | EmbeddedResource;

/** The answer of tools/call. */
export interface CallToolResult {
  content: ContentBlock[];
  /** The tool's output, for tools with an outputSchema. */
  structuredContent?: { [key: string]: unknown };
  /** The call failed in a way the model should see. */
  isError?: boolean;
  _meta?: Meta;
  [key: string]: unknown;
}

/** The answer of resources/read. */
export interface ReadResourceResult {
  contents: (TextResourceContents | BlobResourceContents)[];
  _meta?: Meta;
  [key: string]: unknown;
}

export interface PromptMessage {
  role: Role;
  content: ContentBlock;
}

/** The answer of prompts/get. */
export interface GetPromptResult {
  description?: string;
  messages: PromptMessage[];
  _meta?: Meta;
  [key: string]: unknown;
}

/** Sampling content: text, image or audio, and in 2025-11-25 tool use and tool results. */
export type SamplingContent =
  | TextContent
  | ImageContent
  | AudioContent
  | { type: "tool_use"; id: string; name: string; input: { [key: string]: unknown }; _meta?: Meta }
  | { type: "tool_result"; toolUseId: string; content: ContentBlock[]; structuredContent?: { [key: string]: unknown }; isError?: boolean; _meta?: Meta };

export interface SamplingMessage {
  role: Role;
  content: SamplingContent | SamplingContent[];
  _meta?: Meta;
}

/** What ctx.sample sends (sampling/createMessage). */
export interface CreateMessageRequestParams {
  messages: SamplingMessage[];
  maxTokens: number;
  systemPrompt?: string;
  includeContext?: "none" | "thisServer" | "allServers";
  temperature?: number;
  stopSequences?: string[];
  modelPreferences?: { hints?: { name?: string }[]; costPriority?: number; speedPriority?: number; intelligencePriority?: number };
  metadata?: object;
  /** Tools the model may use (MCP Tool objects) and how. */
  tools?: { name: string; inputSchema: { type: "object"; [key: string]: unknown }; [key: string]: unknown }[];
  toolChoice?: { mode?: "auto" | "required" | "none" };
  _meta?: Meta;
  [key: string]: unknown;
}

/** The client's answer to sampling/createMessage. */
export interface CreateMessageResult extends SamplingMessage {
  model: string;
  stopReason?: "endTurn" | "stopSequence" | "maxTokens" | "toolUse" | (string & {});
  [key: string]: unknown;
}

/** A field of an elicitation form: a string, number, boolean or enum schema. */
export type ElicitationField = { type: "string" | "number" | "integer" | "boolean" | "array"; title?: string; description?: string; [key: string]: unknown };

/** What ctx.elicit sends (elicitation/create, form mode). */
export interface ElicitRequestFormParams {
  mode?: "form";
  message: string;
  requestedSchema: { $schema?: string; type: "object"; properties: { [key: string]: ElicitationField }; required?: string[] };
  _meta?: Meta;
  [key: string]: unknown;
}

/** The client's answer to elicitation/create. */
export interface ElicitResult {
  action: "accept" | "decline" | "cancel";
  content?: { [key: string]: string | number | boolean | string[] };
  _meta?: Meta;
  [key: string]: unknown;
}

/** A root the client exposes (roots/list). */
export interface Root {
  uri: string;
  name?: string;
  _meta?: Meta;
}

/** The client's answer to roots/list. */
export interface ListRootsResult {
  roots: Root[];
  [key: string]: unknown;
}

/** The states of a task, in both eras. */
export type TaskStatus = "working" | "input_required" | "completed" | "failed" | "cancelled";
