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

const meta = { kind: "json", object: true } as const satisfies FieldSpec;

const icon = {
  kind: "record",
  open: true,
  fields: {
    src: { kind: "string", required: true },
    mimeType: { kind: "string" },
    sizes: { kind: "stringList" },
    theme: { kind: "string", oneOf: ["light", "dark"] },
  },
} as const satisfies FieldSpec;
const icons = { kind: "list", item: icon } as const satisfies FieldSpec;

/** Annotations on resources, templates and content blocks. */
const annotations = {
  kind: "record",
  open: true,
  fields: {
    audience: { kind: "list", item: { kind: "string", oneOf: ["user", "assistant"] } },
    priority: { kind: "number", min: 0, max: 1 },
    lastModified: { kind: "string" },
  },
} as const satisfies FieldSpec;

/** A 2026-07-28 cache hint: `ttlMs` and `cacheScope` on list and read results. */
export const cacheHint = {
  kind: "record",
  fields: {
    ttlMs: { kind: "number", min: 0, max: Number.MAX_SAFE_INTEGER, integer: true },
    cacheScope: { kind: "string", oneOf: ["public", "private"] },
  },
} as const satisfies FieldSpec;

export const SERVER_NAME = /^[a-z0-9][a-z0-9-]*$/;
const TOOL_NAME = /^[A-Za-z0-9._-]{1,128}$/;
export const DEF_NAME = /^[A-Za-z_][A-Za-z0-9_.-]*$/;

export const serverFields = {
  /** Checked against SERVER_NAME in shape.ts when there is no `folder` (it names the output folder then). */
  name: { kind: "string", required: true },
  /** mcpgen: the output folder, for a server whose name is not a folder name (`mcp-servers/everything`). Not served. */
  folder: {
    kind: "string",
    pattern: SERVER_NAME,
    patternHint: "lowercase letters, digits and '-', starting with a letter or digit",
  },
  version: { kind: "string", required: true },
  title: { kind: "string" },
  description: { kind: "string" },
  websiteUrl: { kind: "string" },
  icons,
  instructions: { kind: "string" },
} as const satisfies Fields;

export const toolFields = {
  name: {
    kind: "string",
    required: true,
    pattern: TOOL_NAME,
    patternHint: "1 to 128 characters among A-Z a-z 0-9 _ - . (MCP tool names SHOULD be; some clients refuse others)",
    patternIsAdvice: true,
  },
  title: { kind: "string" },
  description: { kind: "string" },
  inputSchema: { kind: "schema", required: true },
  outputSchema: { kind: "schema" },
  annotations: {
    kind: "record",
    open: true,
    fields: {
      title: { kind: "string" },
      readOnlyHint: { kind: "boolean" },
      destructiveHint: { kind: "boolean" },
      idempotentHint: { kind: "boolean" },
      openWorldHint: { kind: "boolean" },
    },
  },
  execution: { kind: "record", open: true, fields: { taskSupport: { kind: "string", oneOf: ["forbidden", "optional", "required"] } } },
  icons,
  _meta: meta,
  examples: {
    kind: "list",
    item: { kind: "record", fields: { arguments: { kind: "json", object: true, required: true }, result: { kind: "json" } } },
  },
  /** mcpgen: the `name` of the widget (MCP Apps view) that shows this tool's result; served as `_meta.ui.resourceUri`. */
  widget: { kind: "string" },
  /** mcpgen: who may call this tool, `model` and/or `app` (default both); served as `_meta.ui.visibility`. */
  visibility: { kind: "list", item: { kind: "string", oneOf: ["model", "app"] } },
} as const satisfies Fields;

const WIDGET_NAME = /^[A-Za-z][A-Za-z0-9_-]*$/;

/** A widget: an MCP Apps view (`ui://` resource, HTML) built from its entry source by mcpgen. */
export const widgetFields = {
  name: { kind: "string", required: true, pattern: WIDGET_NAME, patternHint: "a letter, then letters, digits, '_' or '-'" },
  uri: { kind: "string", required: true, pattern: /^ui:\/\/[^\s]+$/, patternHint: "a ui:// URI, such as ui://gift-server/gifts.html" },
  /**
   * A TypeScript or JavaScript file next to the manifest: the view's code, bundled with what it
   * imports (CSS included) into the resource's HTML.
   */
  entry: { kind: "string", required: true },
  title: { kind: "string" },
  description: { kind: "string" },
  csp: {
    kind: "record",
    fields: {
      connectDomains: { kind: "stringList" },
      resourceDomains: { kind: "stringList" },
      frameDomains: { kind: "stringList" },
      baseUriDomains: { kind: "stringList" },
    },
  },
  permissions: {
    kind: "record",
    fields: { camera: meta, microphone: meta, geolocation: meta, clipboardWrite: meta },
  },
  domain: { kind: "string" },
  prefersBorder: { kind: "boolean" },
  /** ChatGPT's own keys besides MCP Apps': set (even `{}`) to serve the `openai/*` aliases too. */
  chatgpt: {
    kind: "record",
    fields: {
      widgetDescription: { kind: "string" },
      invoking: { kind: "string", pattern: /^.{1,64}$/s, patternHint: "at most 64 characters" },
      invoked: { kind: "string", pattern: /^.{1,64}$/s, patternHint: "at most 64 characters" },
    },
  },
  _meta: meta,
  /** mcpgen: the cache hint of this widget's resources/read (2026-07-28). Not served. */
  cache: cacheHint,
} as const satisfies Fields;

export const resourceFields = {
  uri: { kind: "string", required: true },
  name: { kind: "string", required: true },
  title: { kind: "string" },
  description: { kind: "string" },
  mimeType: { kind: "string" },
  size: { kind: "number", min: 0 },
  annotations,
  icons,
  _meta: meta,
  text: { kind: "string" },
  blob: { kind: "string" },
  file: { kind: "string" },
  /** mcpgen: the cache hint of this resource's resources/read (2026-07-28). Not served. */
  cache: cacheHint,
} as const satisfies Fields;

export const resourceTemplateFields = {
  uriTemplate: { kind: "string", required: true },
  name: { kind: "string", required: true },
  title: { kind: "string" },
  description: { kind: "string" },
  mimeType: { kind: "string" },
  annotations,
  icons,
  _meta: meta,
  /** mcpgen: per variable, values for completion/complete, or "handler". Not served. */
  complete: { kind: "json", object: true },
  /** mcpgen: the cache hint of resources/read of this template's URIs (2026-07-28). Not served. */
  cache: cacheHint,
} as const satisfies Fields;

export const promptFields = {
  name: { kind: "string", required: true },
  title: { kind: "string" },
  description: { kind: "string" },
  arguments: {
    kind: "list",
    item: {
      kind: "record",
      open: true,
      fields: {
        name: { kind: "string", required: true, pattern: /^.+$/s, patternHint: "a non-empty string" },
        title: { kind: "string" },
        description: { kind: "string" },
        required: { kind: "boolean" },
        /** mcpgen: values for completion/complete, or "handler". Not served. */
        complete: { kind: "json" },
      },
    },
  },
  icons,
  _meta: meta,
  messages: {
    kind: "list",
    item: {
      kind: "record",
      fields: {
        role: { kind: "string", required: true, oneOf: ["user", "assistant"] },
        content: { kind: "content", required: true },
      },
    },
  },
} as const satisfies Fields;

const blockCommon: Record<string, FieldSpec> = { annotations, _meta: meta };

/** Content blocks (MCP ContentBlock), keyed by their `type`. */
export const contentFields: Record<string, Record<string, FieldSpec>> = {
  text: { type: { kind: "string", required: true }, text: { kind: "string", required: true }, ...blockCommon },
  image: {
    type: { kind: "string", required: true },
    data: { kind: "string", required: true },
    mimeType: { kind: "string", required: true },
    ...blockCommon,
  },
  audio: {
    type: { kind: "string", required: true },
    data: { kind: "string", required: true },
    mimeType: { kind: "string", required: true },
    ...blockCommon,
  },
  resource_link: {
    type: { kind: "string", required: true },
    ...Object.fromEntries(Object.entries(resourceFields).filter(([k]) => !["text", "blob", "file", "cache"].includes(k))),
  },
  resource: {
    type: { kind: "string", required: true },
    resource: {
      kind: "record",
      required: true,
      fields: {
        uri: { kind: "string", required: true },
        mimeType: { kind: "string" },
        text: { kind: "string" },
        blob: { kind: "string" },
        _meta: meta,
      },
    },
    ...blockCommon,
  },
};

export const manifestFields = {
  server: { kind: "record", required: true, open: true, fields: serverFields },
  /** Optional capabilities the server opts into; tools, resources, prompts and completions are derived. */
  capabilities: {
    kind: "record",
    fields: {
      logging: { kind: "json", object: true },
      resources: { kind: "record", fields: { subscribe: { kind: "boolean" } } },
      experimental: { kind: "json", object: true },
    },
  },
  /** 2026-07-28 cache hints per method (defaults: lists and static contents 5 minutes, public). */
  cache: {
    kind: "record",
    fields: {
      "server/discover": cacheHint,
      "tools/list": cacheHint,
      "prompts/list": cacheHint,
      "resources/list": cacheHint,
      "resources/templates/list": cacheHint,
      "resources/read": cacheHint,
    },
  },
  defs: { kind: "json", object: true },
  tools: { kind: "list", item: { kind: "record", open: true, fields: toolFields } },
  resources: { kind: "list", item: { kind: "record", open: true, fields: resourceFields } },
  resourceTemplates: { kind: "list", item: { kind: "record", open: true, fields: resourceTemplateFields } },
  prompts: { kind: "list", item: { kind: "record", open: true, fields: promptFields } },
  widgets: { kind: "list", item: { kind: "record", fields: widgetFields } },
} as const satisfies Fields;
