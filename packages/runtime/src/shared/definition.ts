/**
 * The shape of a generated `definition.ts`: the manifest's wire JSON, served verbatim, plus what
 * the runtime needs to answer reads and prompts without a handler.
 */
import type { PatternTable } from "./patterns.js";

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
  /** 2025-11-25 task-augmented execution (declared when a tool has `execution.taskSupport`). */
  tasks?: JsonObject;
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

/**
 * Content of a resource declared with `text`, `blob` or `file` in the manifest, or a widget's
 * HTML; `_meta` goes on the resources/read content item (a widget's `ui`).
 */
export type StaticContent = ({ text: string } | { blob: string }) & { _meta?: JsonObject };

/** A 2026-07-28 cache hint, sent as `ttlMs` and `cacheScope` on list and read results. */
export interface CacheHint {
  ttlMs: number;
  cacheScope: "public" | "private";
}

/** The cache hints of a server, resolved by mcpgen from the manifest and its defaults. */
export interface CacheHints {
  "server/discover"?: CacheHint;
  "tools/list"?: CacheHint;
  "prompts/list"?: CacheHint;
  "resources/list"?: CacheHint;
  "resources/templates/list"?: CacheHint;
  /** resources/read of a URI no entry below names. */
  "resources/read"?: CacheHint;
  /** resources/read per resource URI. */
  resources?: { [uri: string]: CacheHint };
  /** resources/read per resource template name. */
  resourceTemplates?: { [name: string]: CacheHint };
}

export interface ServerDefinition {
  serverInfo: Implementation;
  instructions?: string;
  capabilities: ServerCapabilities;
  tools: readonly WireTool[];
  /**
   * How the tools that can run as a task run, by name: their `execution.taskSupport` as mcpgen
   * resolved it. A tool not named here is never a task; absent when no tool can be one.
   */
  taskSupport?: { readonly [tool: string]: "optional" | "required" };
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
  /** Cache hints for the 2026-07-28 era (never sent to 2025-era clients). */
  cache?: CacheHints;
  /** How each `pattern` / `patternProperties` key of the tools' schemas runs in linear time (see patterns.ts). */
  patterns?: PatternTable;
  /** The manifest's `auth:`: the server is an OAuth 2.1 resource server over HTTP. Absent: no token is asked for. */
  auth?: AuthDefinition;
  /**
   * `enabled` and `tags` of the entries that write either, by kind and name (resources by URI):
   * where the run-time lists start. An entry not named is enabled and untagged; absent when none writes them.
   */
  switches?: ListSwitches;
}

/** One entry's `enabled` (listed at start) and `tags` (the groups it is switched with). */
export interface EntrySwitch {
  enabled: boolean;
  tags: readonly string[];
}

/** The definition's `switches`: per kind, the entries that write `enabled` or `tags`. */
export interface ListSwitches {
  tools?: { readonly [name: string]: EntrySwitch };
  resources?: { readonly [uri: string]: EntrySwitch };
  resourceTemplates?: { readonly [name: string]: EntrySwitch };
  prompts?: { readonly [name: string]: EntrySwitch };
}

/** What one tool, resource, template or prompt needs: these scopes (maybe none: any valid token), or no token at all. */
export type AccessRule = readonly string[] | "none";

/** The manifest's `auth:` as mcpgen resolved it (defaults applied, `resource` normalized). */
export interface AuthDefinition {
  /** `new URL(resource).href` of the manifest's `resource`: the audience every token must name (MCP_AUTH_RESOURCE overrides it at run time). */
  resource: string;
  /** Issuer URLs, as written (Protected Resource Metadata `authorization_servers`). */
  authorizationServers: readonly string[];
  scopesSupported?: readonly string[];
  /** The scopes of entries that name none, and the `scope=` of a 401 (absent: no `scope=` on a 401). */
  defaultScopes?: readonly string[];
  /** PRM `resource_name`: the manifest's, else the server's title, else its name. */
  resourceName?: string;
  resourceDocumentation?: string;
  verifier:
    | { kind: "jwt"; issuer: string; jwksUri: string; algorithms: readonly string[] }
    | { kind: "introspection"; endpoint: string; clientId: string; clientSecretEnv: string }
    | { kind: "handler" };
  /** Lists show a caller only the entries its token may use; `strict`: hidden entries also answer as unknown names. */
  hideUnauthorized?: true | "strict";
  /** Every tool, resource (by URI), template (by name) and prompt, with defaultScopes already applied. */
  tools: { readonly [name: string]: AccessRule };
  resources: { readonly [uri: string]: AccessRule };
  resourceTemplates: { readonly [name: string]: AccessRule };
  prompts: { readonly [name: string]: AccessRule };
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
