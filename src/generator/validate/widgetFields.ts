/** The field table of a widget (an MCP Apps view built by mcpgen): what `widgets:` entries may contain. */
import { cacheHint, meta, type FieldSpec, type Fields } from "./fields.js";

const permission = (what: string) => ({ kind: "json", object: true, doc: `\`{}\` asks for ${what}.` }) as const satisfies FieldSpec;

const WIDGET_NAME = /^[A-Za-z][A-Za-z0-9_-]*$/;

/** A widget: an MCP Apps view (`ui://` resource, HTML) built from its entry source by mcpgen. */
export const widgetFields = {
  name: {
    kind: "string",
    required: true,
    pattern: WIDGET_NAME,
    patternHint: "a letter, then letters, digits, '_' or '-'",
    doc: "The widget's name: tools name it in `widget:`, and it names the generated `create<Name>Widget`.",
  },
  uri: {
    kind: "string",
    required: true,
    pattern: /^ui:\/\/[^\s]+$/,
    patternHint: "a ui:// URI, such as ui://gift-server/gifts.html",
    doc: "The `ui://` URI the widget is served under, as a resource.",
  },
  entry: {
    kind: "string",
    required: true,
    doc: "The view's code: a TypeScript or JavaScript file inside the manifest's folder, bundled with what it imports (CSS included) into the resource's HTML.",
  },
  title: { kind: "string", doc: "Served on the resource; also the HTML's title." },
  description: { kind: "string", doc: "Served on the resource." },
  sdk: {
    kind: "string",
    oneOf: ["mcpgen", "ext-apps"],
    doc: "mcpgen: the bridge the widget's client is built on. `mcpgen` (default): mcpgen's own MCP Apps bridge, a few KB, no zod. `ext-apps`: the official `App` of @modelcontextprotocol/ext-apps (about 100 KB gzip more), for what the small bridge lacks, such as tools the view offers the host (`widget.app`). Not served.",
  },
  csp: {
    kind: "record",
    doc: "The origins the view may reach; its Content-Security-Policy refuses everything else. Origins only (`https://cdn.example.com`, `https://*.example.com`, `wss://host:8443`): anything else is `invalid-csp`.",
    fields: {
      connectDomains: { kind: "stringList", doc: "fetch and WebSocket." },
      resourceDomains: { kind: "stringList", doc: "Scripts, styles, images, fonts, media." },
      frameDomains: { kind: "stringList", doc: "Frames inside the view." },
      baseUriDomains: { kind: "stringList", doc: "The document's base URI." },
    },
  },
  permissions: {
    kind: "record",
    doc: "MCP Apps permissions the view asks the host for, each as `{}`.",
    fields: {
      camera: permission("the camera"),
      microphone: permission("the microphone"),
      geolocation: permission("the location"),
      clipboardWrite: permission("writing to the clipboard"),
    },
  },
  domain: { kind: "string", doc: "The view's dedicated origin (host-specific)." },
  prefersBorder: { kind: "boolean", doc: "Whether the host draws a border around the view." },
  chatgpt: {
    kind: "record",
    doc: "Set (even `{}`) to serve ChatGPT's `openai/*` alias keys besides MCP Apps': on the tool `openai/outputTemplate`, `openai/toolInvocation/invoking` and `/invoked` (every tool's `openai/widgetAccessible` and `openai/visibility` are written from its visibility on any server with widgets); on the resource `openai/widgetDescription`, `openai/widgetPrefersBorder`, `openai/widgetCSP` (`connect_domains`, `resource_domains`, `frame_domains`), `openai/widgetDomain`.",
    fields: {
      widgetDescription: { kind: "string", doc: "`openai/widgetDescription` (default: the widget's description)." },
      invoking: { kind: "string", pattern: /^.{1,64}$/s, patternHint: "at most 64 characters", doc: "What ChatGPT shows while the tool runs." },
      invoked: { kind: "string", pattern: /^.{1,64}$/s, patternHint: "at most 64 characters", doc: "What ChatGPT shows once the tool has answered." },
    },
  },
  _meta: { ...meta, doc: "More `_meta` keys for the resource." },
  cache: { ...cacheHint, doc: "mcpgen: the cache hint of this widget's resources/read (2026-07-28). Not served." },
} as const satisfies Fields;
