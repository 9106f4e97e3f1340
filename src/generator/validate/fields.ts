/**
 * Field tables: what each manifest object may contain. Field names are MCP's wire names
 * (2025-11-25, which 2026-07-28 keeps), so a real server's tools/list entry can be pasted in as
 * it is.
 */

export type FieldSpec = FieldKind & {
  /** What the field is for: the JSON Schema's description. */
  doc?: string;
};

/**
 * `expected`: what the value must be, in the user's terms, for the message of a wrong one
 * (`a path (a non-empty string)`); the kind's own words otherwise.
 */
type FieldKind =
  /** `patternIsAdvice`: a value that breaks the pattern is a warning (MCP says SHOULD), not an error. */
  | {
      kind: "string";
      pattern?: RegExp;
      patternHint?: string;
      patternIsAdvice?: boolean;
      oneOf?: readonly string[];
      /** Said after the allowed values when a value is not one of them: why the others are refused. */
      oneOfHint?: string;
      required?: boolean;
      nonEmpty?: boolean;
      expected?: string;
    }
  | { kind: "boolean"; required?: boolean }
  | { kind: "number"; min?: number; max?: number; integer?: boolean; required?: boolean }
  /** Any JSON value; `object: true` requires a mapping. Contents are not checked here. */
  | { kind: "json"; object?: boolean; required?: boolean; expected?: string }
  /**
   * A mapping with these fields. `open`: an MCP object, where a field mcpgen does not know is
   * served as it is with a warning (real servers send such fields), unless it looks like a typo
   * of a known one (then it is an error with its "did you mean").
   */
  | { kind: "record"; fields: Record<string, FieldSpec>; required?: boolean; open?: boolean }
  | { kind: "list"; item: FieldSpec; required?: boolean; nonEmpty?: boolean }
  | { kind: "stringList"; required?: boolean }
  /** A JSON Schema; checked by the schema stage. */
  | { kind: "schema"; required?: boolean }
  /** A content block, discriminated by `type`. */
  | { kind: "content"; required?: boolean }
  /** Any one of these (`a path or a list of paths`); a value that fits none is `expected`. */
  | { kind: "anyOf"; of: readonly FieldSpec[]; expected: string; required?: boolean };

/** A table of fields. The tables below keep their literal types (`as const`): validate/manifestTypes.ts derives the validated manifest's type from them. */
export type Fields = Readonly<Record<string, FieldSpec>>;

/** `scopes` on a tool, resource, resource template or prompt (mcpgen's key, not served as such). */
const entryScopes = (what: string) =>
  ({
    kind: "stringList",
    doc: `mcpgen: the OAuth scopes a token needs to ${what} on a server with \`auth:\` (all of them; \`[]\`: any valid token). Without it, \`auth.defaultScopes\` (or \`[]\`). Every one must be in \`auth.scopesSupported\` when that is set.`,
  }) as const satisfies FieldSpec;

/** `auth: none` on a tool, resource, resource template or prompt (mcpgen's key, not served as such). */
const entryAuth = (what: string) =>
  ({
    kind: "string",
    oneOf: ["none"],
    doc: `mcpgen: \`none\` lets a caller without a token ${what} on a server with \`auth:\` (a server mixing public and protected entries). Not together with \`scopes\`.`,
  }) as const satisfies FieldSpec;

export const meta = {
  kind: "json",
  object: true,
  doc: "Served as written (vendor keys such as `openai/outputTemplate` included).",
} as const satisfies FieldSpec;

/** An MCP Icon; the reference (src/reference/docs) documents it once, as a shared object. */
export const icon = {
  kind: "record",
  open: true,
  doc: "An icon clients may show (MCP `Icon`), served as written.",
  fields: {
    src: { kind: "string", required: true, doc: "The image's URL (`https:` or a `data:` URI)." },
    mimeType: { kind: "string", doc: "Its MIME type, when the URL does not say." },
    sizes: { kind: "stringList", doc: "The sizes it is drawn for (`48x48`, `any`)." },
    theme: { kind: "string", oneOf: ["light", "dark"], doc: "The background it is made for." },
  },
} as const satisfies FieldSpec;
const icons = { kind: "list", item: icon, doc: "Icons clients may show, served as written." } as const satisfies FieldSpec;

/** Annotations on resources, templates and content blocks. */
export const annotations = {
  kind: "record",
  open: true,
  doc: "Hints for clients about the content (MCP `Annotations`), served as written.",
  fields: {
    audience: { kind: "list", item: { kind: "string", oneOf: ["user", "assistant"] }, doc: "Who the content is for." },
    priority: { kind: "number", min: 0, max: 1, doc: "How important it is, from 0 (least) to 1 (most)." },
    lastModified: { kind: "string", doc: "When it last changed (ISO 8601)." },
  },
} as const satisfies FieldSpec;

/** A 2026-07-28 cache hint: `ttlMs` and `cacheScope` on list and read results. */
export const cacheHint = {
  kind: "record",
  doc: "A 2026-07-28 cache hint (mcpgen's key, not served as such): sent as `ttlMs` and `cacheScope` on the answer; never sent to 2025-era clients.",
  fields: {
    ttlMs: { kind: "number", min: 0, max: Number.MAX_SAFE_INTEGER, integer: true, doc: "How long a client may reuse the answer, in whole milliseconds." },
    cacheScope: { kind: "string", oneOf: ["public", "private"], doc: "`public`: the same for every user; `private`: for this user only." },
  },
} as const satisfies FieldSpec;

/** `enabled` and `tags` of a tool, resource, template or prompt: mcpgen's keys, never served (docs/guides/lists.md). */
const switchFields = (what: string, by: string) =>
  ({
    enabled: {
      kind: "boolean",
      doc: `mcpgen: \`false\` leaves the ${what} out of its list at start (default true); the server switches it on with \`lists.enable\`. A disabled ${what} answers as unknown; ${by}. Not served. Writing it declares \`listChanged\`.`,
    },
    tags: {
      kind: "list",
      item: { kind: "string", nonEmpty: true, expected: "a tag (a non-empty string)" },
      doc: `mcpgen: names of groups the ${what} belongs to, switched together with \`lists.enableTag\` / \`lists.disableTag\`. Not served. Writing it declares \`listChanged\`.`,
    },
  }) as const satisfies Fields;

export const SERVER_NAME = /^[a-z0-9][a-z0-9-]*$/;
const TOOL_NAME = /^[A-Za-z0-9._-]{1,128}$/;
export const DEF_NAME = /^[A-Za-z_][A-Za-z0-9_.-]*$/;

export const serverFields = {
  /** Checked against SERVER_NAME in shape.ts when there is no `folder` (it names the output folder then). */
  name: {
    kind: "string",
    required: true,
    doc: "The server's name, served in serverInfo. Without `folder` it names the output folder (`<out>/<name>/`) and the type prefix, so it must match `[a-z0-9][a-z0-9-]*`; with `folder` it may be anything (`mcp-servers/everything`).",
  },
  folder: {
    kind: "string",
    pattern: SERVER_NAME,
    patternHint: "lowercase letters, digits and '-', starting with a letter or digit",
    doc: "mcpgen's key, not served: the output folder (and type prefix) of a server whose `name` is not a folder name. `mcpgen pull` writes one for such servers.",
  },
  version: { kind: "string", required: true, doc: "The server's version, served in serverInfo." },
  title: { kind: "string", doc: "A name for people, served in serverInfo." },
  description: { kind: "string", doc: "What the server is, served in serverInfo." },
  websiteUrl: { kind: "string", doc: "Its website, served in serverInfo." },
  icons,
  instructions: {
    kind: "string",
    doc: "How to use the server, for the model: `instructions` of the 2025-era initialize result and of 2026-07-28 `server/discover`. Not part of serverInfo.",
  },
} as const satisfies Fields;

export const toolFields = {
  name: {
    kind: "string",
    required: true,
    pattern: TOOL_NAME,
    patternHint: "1 to 128 characters among A-Z a-z 0-9 _ - . (MCP tool names SHOULD be; some clients refuse others)",
    patternIsAdvice: true,
    doc: "The name clients call the tool by. Outside `^[A-Za-z0-9._-]{1,128}$` (MCP's SHOULD) it is a warning, not an error. It also names the tool's types and client method: `suggest_gifts` gives `SuggestGiftsInput` and `client.suggestGifts`.",
  },
  title: { kind: "string", doc: "A name for people." },
  description: { kind: "string", doc: "What the tool does, for the model." },
  inputSchema: {
    kind: "schema",
    required: true,
    doc: "The JSON Schema of the arguments, `type: object` at the root. Every call is checked against it; its type is `<Tool>Input`.",
  },
  outputSchema: {
    kind: "schema",
    doc: "The JSON Schema of the structured result, `type: object` at the root. With it the handler returns the typed `<Tool>Output`, checked, then sent as `structuredContent` plus a text block with its JSON; without it, a string or a full CallToolResult.",
  },
  annotations: {
    kind: "record",
    open: true,
    doc: "Hints for clients (MCP `ToolAnnotations`), served as written; vendor keys are kept with an `unknown-field` warning.",
    fields: {
      title: { kind: "string", doc: "A name for people (older than the tool's own `title`)." },
      readOnlyHint: { kind: "boolean", doc: "The tool changes nothing (default false). Many clients run read-only tools without asking for approval." },
      destructiveHint: { kind: "boolean", doc: "A tool that is not read-only may destroy or overwrite (default true)." },
      idempotentHint: { kind: "boolean", doc: "Calling it again with the same arguments has no further effect (default false)." },
      openWorldHint: { kind: "boolean", doc: "It reaches an open world, such as the web, rather than a closed domain (default true)." },
    },
  },
  execution: {
    kind: "record",
    open: true,
    doc: "How the tool runs. Served in 2025-era tools/list; 2026-07-28 lists leave it out (the tasks extension replaced it).",
    fields: {
      taskSupport: {
        kind: "string",
        oneOf: ["forbidden", "optional", "required"],
        doc: "`optional` or `required` makes the tool task-capable: a call may (or must) run as a task, polled for its result. `forbidden` (the default): never.",
      },
    },
  },
  icons,
  _meta: meta,
  examples: {
    kind: "list",
    doc: "mcpgen's key, never served: calls checked against the schemas at generate time, and the scenarios the widget harness opens a tool's widget with.",
    item: {
      kind: "record",
      fields: {
        arguments: { kind: "json", object: true, required: true, doc: "Arguments that inputSchema accepts." },
        result: { kind: "json", doc: "A structured result that outputSchema accepts (without one, the harness calls the tool)." },
      },
    },
  },
  widget: { kind: "string", doc: "mcpgen: the `name` of the widget (MCP Apps view) that shows this tool's result; served as `_meta.ui.resourceUri`." },
  visibility: {
    kind: "list",
    item: { kind: "string", oneOf: ["model", "app"] },
    doc: "mcpgen: who may call this tool, `model` and/or `app` (default both); served as `_meta.ui.visibility`, and on a server with widgets as ChatGPT's `openai/widgetAccessible` (includes `app`) and `openai/visibility` (`private` without `model`). Hosts hide `[app]` tools from the model and refuse views' calls to `[model]` ones.",
  },
  scopes: entryScopes("call it"),
  auth: entryAuth("call it"),
  ...switchFields("tool", "its definition, validators and types stay"),
  securitySchemes: {
    kind: "list",
    item: { kind: "json", object: true },
    doc: "How a caller authenticates (OpenAI Apps SDK: `[{type: noauth}]`, `[{type: oauth2, scopes: [...]}]`), served as written, as `mcpgen pull` keeps it. On a server with `auth:` mcpgen writes it from `scopes` and `auth: none` (top level and `_meta.securitySchemes`), so it cannot be written by hand there.",
  },
} as const satisfies Fields;

export const resourceFields = {
  uri: { kind: "string", required: true, doc: "The URI clients read the resource by." },
  name: { kind: "string", required: true, doc: "Its name; the client reads it with `read<Name>()`." },
  title: { kind: "string", doc: "A name for people." },
  description: { kind: "string", doc: "What it holds." },
  mimeType: { kind: "string", doc: "Its MIME type; also decides how a `file:` is read." },
  size: { kind: "number", min: 0, doc: "Its size in bytes, when known." },
  annotations,
  icons,
  _meta: meta,
  text: {
    kind: "string",
    doc: "The content as text, served by the server itself (no handler). At most one of `text`, `blob`, `file`; with none, you write a handler.",
  },
  blob: { kind: "string", doc: "The content as base64, served by the server itself (no handler)." },
  file: {
    kind: "string",
    doc: "A path next to the manifest (never outside its folder), read at generate time: as text for textual MIME types (or valid UTF-8 when there is no `mimeType`), as a base64 `blob` otherwise.",
  },
  cache: {
    ...cacheHint,
    doc: "mcpgen: the cache hint of this resource's resources/read (2026-07-28). Not served. Default: 5 minutes, public, with `text`/`blob`/`file`; 0, private, with a handler.",
  },
  scopes: entryScopes("read it"),
  auth: entryAuth("read it"),
  ...switchFields("resource", "reading it answers resource-not-found"),
} as const satisfies Fields;

export const resourceTemplateFields = {
  uriTemplate: {
    kind: "string",
    required: true,
    doc: "An RFC 6570 level-1 template (`notes://notes/{id}`) with at least one variable. Always served by a handler, which gets the decoded variables (`<Template>Variables`).",
  },
  name: { kind: "string", required: true, doc: "Its name; the client reads a URI with `read<Name>(variables)`." },
  title: { kind: "string", doc: "A name for people." },
  description: { kind: "string", doc: "What its resources hold." },
  mimeType: { kind: "string", doc: "The MIME type of its resources." },
  annotations,
  icons,
  _meta: meta,
  complete: {
    kind: "json",
    object: true,
    doc: "mcpgen's, not served: per variable, the values completion/complete offers (filtered by prefix), or `handler` for a completion handler.",
  },
  cache: { ...cacheHint, doc: "mcpgen: the cache hint of resources/read of this template's URIs (2026-07-28). Not served. Default: 0, private." },
  scopes: entryScopes("read its URIs"),
  auth: entryAuth("read its URIs"),
  ...switchFields("resource template", "reading its URIs answers resource-not-found"),
} as const satisfies Fields;

export const promptFields = {
  name: { kind: "string", required: true, doc: "The name clients get the prompt by." },
  title: { kind: "string", doc: "A name for people." },
  description: { kind: "string", doc: "What the prompt is for." },
  arguments: {
    kind: "list",
    doc: "The prompt's arguments (strings); their type is `<Prompt>Arguments`.",
    item: {
      kind: "record",
      open: true,
      fields: {
        name: { kind: "string", required: true, pattern: /^.+$/s, patternHint: "a non-empty string", doc: "The argument's name, as `{{name}}` in messages." },
        title: { kind: "string", doc: "A name for people." },
        description: { kind: "string", doc: "What to give." },
        required: { kind: "boolean", doc: "A prompts/get without it is refused (-32602)." },
        complete: {
          kind: "json",
          doc: "mcpgen's, not served: the values completion/complete offers (filtered by prefix), or `handler` for a completion handler.",
        },
      },
    },
  },
  icons,
  _meta: meta,
  messages: {
    kind: "list",
    doc: "The messages the server answers with, `{{arg}}` placeholders filled from the arguments (an absent optional one becomes empty) in text, in embedded resources' `uri` and `text`, and in resource links' `uri`. Without `messages`, you write a handler.",
    item: {
      kind: "record",
      fields: {
        role: { kind: "string", required: true, oneOf: ["user", "assistant"], doc: "Who says it." },
        content: { kind: "content", required: true, doc: "What is said: one content block." },
      },
    },
  },
  scopes: entryScopes("get it"),
  auth: entryAuth("get it"),
  ...switchFields("prompt", "prompts/get answers unknown prompt"),
} as const satisfies Fields;
