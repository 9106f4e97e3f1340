/** The field table of a whole manifest: its top-level keys, over the tables of each entity. */
import { authFields } from "./authFields.js";
import { cacheHint, promptFields, resourceFields, resourceTemplateFields, serverFields, toolFields, type Fields } from "./fields.js";
import { widgetFields } from "./widgetFields.js";

const listHint = (method: string) => ({ ...cacheHint, doc: `The cache hint of ${method} (default: 5 minutes, public).` }) as const;

export const manifestFields = {
  server: {
    kind: "record",
    required: true,
    open: true,
    fields: serverFields,
    doc: "Who the server is. All its fields but `instructions` and `folder` form serverInfo (2025-11-25) and the `io.modelcontextprotocol/serverInfo` stamp on every 2026-07-28 result.",
  },
  capabilities: {
    kind: "record",
    doc: "Optional capabilities the server opts into; `tools`, `resources`, `prompts`, `completions` and task support are declared from the manifest. `listChanged` is declared for tools, resources or prompts when an entry of that kind writes `enabled` or `tags`, or when opted into here (docs/guides/lists.md).",
    fields: {
      logging: { kind: "json", object: true, doc: "`{}` declares `logging`: handlers send log messages with `ctx.log`." },
      tools: {
        kind: "record",
        doc: "Tools capabilities beyond the lists.",
        fields: {
          listChanged: {
            kind: "boolean",
            doc: "Declares `tools.listChanged` even when no entry writes `enabled` or `tags`: the server switches entries with `lists` at run time and announces it.",
          },
        },
      },
      resources: {
        kind: "record",
        doc: "Resource capabilities beyond the lists.",
        fields: {
          subscribe: {
            kind: "boolean",
            doc: "Declares `resources.subscribe`: handlers tell subscribed clients of a change with `ctx.notifyResourceUpdated(uri)`.",
          },
          listChanged: {
            kind: "boolean",
            doc: "Declares `resources.listChanged` even when no resource or template writes `enabled` or `tags`: the server switches entries with `lists` at run time and announces it.",
          },
        },
      },
      prompts: {
        kind: "record",
        doc: "Prompts capabilities beyond the lists.",
        fields: {
          listChanged: {
            kind: "boolean",
            doc: "Declares `prompts.listChanged` even when no entry writes `enabled` or `tags`: the server switches entries with `lists` at run time and announces it.",
          },
        },
      },
      experimental: { kind: "json", object: true, doc: "Served as the `experimental` capability, as written." },
    },
  },
  cache: {
    kind: "record",
    doc: "2026-07-28 cache hints per method (mcpgen's key, not served as such); each list answer and `resources/read` carries one. `cache:` on a resource or template overrides the reads of that one.",
    fields: {
      "server/discover": listHint("server/discover"),
      "tools/list": listHint("tools/list"),
      "prompts/list": listHint("prompts/list"),
      "resources/list": listHint("resources/list"),
      "resources/templates/list": listHint("resources/templates/list"),
      "resources/read": {
        ...cacheHint,
        doc: "The cache hint of every resources/read (default: 5 minutes, public, for content from the manifest; 0, private, from a handler).",
      },
    },
  },
  auth: {
    kind: "record",
    fields: authFields,
    doc: 'Who may call what: the server becomes an OAuth 2.1 resource server over HTTP (MCP "Authorization"), serving Protected Resource Metadata and checking a bearer token on every request, with per-entry `scopes` (and `auth: none` for public ones). Absent: no token is asked for. stdio ignores it (credentials come from the environment there).',
  },
  defs: {
    kind: "json",
    object: true,
    doc: "Shared JSON Schemas by name (`[A-Za-z_][A-Za-z0-9_.-]*`), each one TypeScript type; refer to one as `$ref: '#/defs/Name'`, in defs too.",
  },
  tools: { kind: "list", item: { kind: "record", open: true, fields: toolFields }, doc: "The tools, one handler each." },
  resources: {
    kind: "list",
    item: { kind: "record", open: true, fields: resourceFields },
    doc: "The resources: served from the manifest (`text`, `blob`, `file`), or by a handler.",
  },
  resourceTemplates: {
    kind: "list",
    item: { kind: "record", open: true, fields: resourceTemplateFields },
    doc: "The resource templates, each served by a handler.",
  },
  prompts: {
    kind: "list",
    item: { kind: "record", open: true, fields: promptFields },
    doc: "The prompts: served from the manifest (`messages`), or by a handler.",
  },
  widgets: { kind: "list", item: { kind: "record", fields: widgetFields }, doc: "MCP Apps views, built from their entry source and served as resources." },
} as const satisfies Fields;
