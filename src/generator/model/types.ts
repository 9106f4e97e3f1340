/**
 * The normalized model: everything emitters need, decided once. Emitters read only this, never
 * the YAML: identifiers are chosen, refs are resolved, wire JSON is built.
 */
import type { AccessRule } from "@mcpgen/runtime/shared";
import type { PatternTable } from "@mcpgen/runtime/codegen";
import type { Json, JsonObject } from "../../common/objects.js";
import type { RuntimeMode } from "./modules.js";
import type { JsonSchema } from "../../jsonSchema/refs.js";

export interface ServerModel {
  /** Manifest path relative to the project root (forward slashes), for headers and messages. */
  manifestFile: string;
  /** The output folder: `server.folder`, or `server.name`. */
  name: string;
  /** serverInfo on the wire (Implementation: name, version, title, ...). */
  serverInfo: JsonObject;
  instructions?: string;
  capabilities: JsonObject;
  /** PascalCase of the server name: `GiftServer`. */
  typePrefix: string;
  /** The generated client interface: `GiftServerClient` (claimed before any manifest name). */
  clientTypeName: string;
  /** Some tool, resource, template or prompt is served by a handler of the user's, or tokens are checked by one (else the serve functions default `handlers` to `{}`). */
  needsHandlers: boolean;
  /** Some tool runs as a task (`execution.taskSupport` optional or required): the server needs the runtime's tasks part. */
  runsTasks: boolean;
  /**
   * Replicas of the server share state (its tasks, lists that change, resource subscriptions):
   * serving gets the runtime's Redis part, used when REDIS_URL is set.
   */
  sharesState: boolean;
  defs: DefModel[];
  tools: ToolModel[];
  resources: ResourceModel[];
  resourceTemplates: ResourceTemplateModel[];
  prompts: PromptModel[];
  /** Completion sources for prompt arguments and template variables (manifest `complete:`). */
  completions: CompletionModel[];
  /** 2026-07-28 cache hints, resolved (the definition's `cache`). */
  cache: JsonObject;
  /** MCP Apps views (`widgets:`), each served as one of `resources` (its HTML built by src/generator/bundle). */
  widgets: WidgetModel[];
  /**
   * The linear-time plan of every `pattern` and `patternProperties` key in the tools' schemas, by
   * pattern source, in manifest order (the definition's `patterns`; see packages/runtime/src/server/engine/patternPlans.ts).
   */
  patterns: PatternTable;
  /** The manifest's `auth:`, resolved; absent when the server asks for no token. Each entry's rule is its `access`. */
  auth?: AuthModel;
  options: GenerationOptions;
  /** Files besides the manifest that the model was built from (`file:` resources), absolute. */
  sourceFiles: string[];
}

/** The manifest's `auth:` with its defaults (the definition's `auth`, but for the entries' rules). */
export interface AuthModel {
  /** `new URL(resource).href`. */
  resource: string;
  authorizationServers: string[];
  scopesSupported?: string[];
  defaultScopes?: string[];
  /** The manifest's `resourceName`, else the server's title, else its name. */
  resourceName: string;
  resourceDocumentation?: string;
  verifier:
    | { kind: "jwt"; issuer: string; jwksUri: string; algorithms: string[] }
    | { kind: "introspection"; endpoint: string; clientId: string; clientSecretEnv: string }
    | { kind: "handler" };
  /** `strict`: hidden entries also answer as unknown names. */
  hideUnauthorized: boolean | "strict";
}

export interface CompletionModel {
  ref: "prompt" | "resourceTemplate";
  name: string;
  argument: string;
  values?: string[];
  handler?: true;
}

export interface DefModel {
  name: string;
  /** The TypeScript type name. */
  typeName: string;
  schema: JsonSchema;
}

/** A schema as written in the manifest (refs as `#/defs/X`), with the names of its own types. */
export interface SchemaModel {
  schema: JsonSchema;
  typeName: string;
  /**
   * Type names of the schema's own `$defs`/`definitions` entries that its types use, keyed
   * `$defs/Name`: its own (`<typeName><Name>`), or one shared with other schemas where the entry is
   * the same (see model/localDefs.ts). Unused entries have none.
   */
  localTypeNames: Map<string, string>;
  /** The keys of `localTypeNames` declared with this schema: its own, and shared ones it is the first to use. */
  declares: string[];
}

/** An entry's `enabled` and `tags`: where the run-time lists start (docs/guides/lists.md). */
export interface ListSwitchModel {
  /** Listed at start. */
  enabled: boolean;
  /** Its tags, in order, without repeats. */
  tags: readonly string[];
}

export interface ToolModel {
  name: string;
  description?: string;
  /** The tools/list entry, verbatim but with manifest defs bundled into each schema. */
  wire: JsonObject;
  input: SchemaModel;
  output?: SchemaModel;
  /** Client method name (camelCase). */
  methodName: string;
  /**
   * How it runs as a task: its `execution.taskSupport`, `forbidden` when absent. An `optional` or
   * `required` tool makes the server declare tasks and gives the client `tasks`.
   */
  taskSupport: "forbidden" | "optional" | "required";
  /** Its arguments may be omitted (its input schema lists no `required` property): the client method's `args?`. */
  argumentsOptional: boolean;
  /** Name of the user's handler function in a stub file. */
  handlerName: string;
  examples: { arguments: Json; result?: Json }[];
  /** Who may call it (MCP Apps `visibility`): the model, views (`app`), or both (the default). */
  visibility: ("model" | "app")[];
  /** The widget that shows its result, by name. */
  widget?: string;
  /** On a server with `auth:`: what a caller needs (`none`, or scopes with defaultScopes applied). */
  access?: AccessRule;
  /** Its `enabled` and `tags`, when it writes either (absent: enabled at start, no tags). */
  switch?: ListSwitchModel;
}

/** A widget: an MCP Apps view, built from its entry source into one HTML document. */
export interface WidgetModel {
  /** The manifest's `name`. */
  name: string;
  uri: string;
  /** The absolute path of its entry source (inside the manifest's folder). */
  entry: string;
  /** Its `title`, for the HTML document. */
  title?: string;
  /** The bridge its client is built on: mcpgen's own (default) or the official App of ext-apps. */
  sdk: "mcpgen" | "ext-apps";
  /** `Gifts` for `gifts`: GiftsWidget, createGiftsWidget. */
  typeName: string;
  /** The generated client's module: `widgets/<fileName>.ts`. */
  fileName: string;
  /** Tools that open it (MCP names), in manifest order. */
  tools: string[];
  /** Its Content-Security-Policy origins (MCP Apps' `csp`), every list present. */
  csp: { connectDomains: string[]; resourceDomains: string[]; frameDomains: string[]; baseUriDomains: string[] };
  /** What the ChatGPT aliases need: set when the manifest asks for them. */
  chatgpt?: { widgetDescription?: string; invoking?: string; invoked?: string };
}

export interface ResourceModel {
  name: string;
  uri: string;
  description?: string;
  wire: JsonObject;
  /** Served from the manifest (a widget's: its HTML and `_meta.ui`); absent when a handler serves it. */
  content?: ({ text: string } | { blob: string }) & { _meta?: JsonObject };
  /** Set for a widget's resource: the widget's name. */
  widget?: string;
  /** Served by a handler of the user's: neither content in the manifest nor a widget. */
  needsHandler: boolean;
  /** Client reader method name: `readGiftCatalog`. */
  readerName: string;
  /** Name of the user's handler function in a stub file (resources without content). */
  handlerName: string;
  /** On a server with `auth:`: what a caller needs (`none`, or scopes with defaultScopes applied). */
  access?: AccessRule;
  /** Its `enabled` and `tags`, when it writes either (absent: enabled at start, no tags). */
  switch?: ListSwitchModel;
}

export interface ResourceTemplateModel {
  name: string;
  uriTemplate: string;
  description?: string;
  wire: JsonObject;
  variables: string[];
  variablesTypeName: string;
  readerName: string;
  handlerName: string;
  /** On a server with `auth:`: what a caller needs (`none`, or scopes with defaultScopes applied). */
  access?: AccessRule;
  /** Its `enabled` and `tags`, when it writes either (absent: enabled at start, no tags). */
  switch?: ListSwitchModel;
}

export interface PromptModel {
  name: string;
  description?: string;
  wire: JsonObject;
  arguments: { name: string; required: boolean; description?: string }[];
  argumentsTypeName: string;
  /** Messages with `{{arg}}` placeholders; absent when a handler builds them. */
  messages?: JsonObject[];
  /** Served by a handler of the user's: the manifest gives no messages. */
  needsHandler: boolean;
  handlerName: string;
  /** On a server with `auth:`: what a caller needs (`none`, or scopes with defaultScopes applied). */
  access?: AccessRule;
  /** Its `enabled` and `tags`, when it writes either (absent: enabled at start, no tags). */
  switch?: ListSwitchModel;
}

/** How this run generates, from the config: the same for every server. */
export interface GenerationOptions {
  /** Default of the generated createServer's `invalidArguments` option. */
  invalidArguments?: "tool-error" | "protocol-error";
  /** Comment lines added under the standard header. */
  headerLines: string[];
  /** The command that regenerates the output, named in headers (default `mcpgen generate`). */
  command?: string;
  /** Set when handler stubs are on: the stub folder as imported from `<out>/<server>/`. */
  stubs?: { importBase: string };
  /** Types, client and fixtures only: no server files, no stubs (a server you only consume). */
  clientOnly?: boolean;
  /** Where generated code imports the runtime from: the package (default) or the copy in `<out>/_runtime/`. */
  runtime?: RuntimeMode;
}
