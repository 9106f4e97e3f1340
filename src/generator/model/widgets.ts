/**
 * The widgets of the model (MCP Apps views), each served as a resource too, and what they put on
 * the wire: the `_meta` of a widget's resource and of the tools that open or may call it, in MCP
 * Apps' form and, when asked, ChatGPT's aliases.
 */
import type { DocPath } from "../../common/diagnostics.js";
import { setOwn } from "../../common/objects.js";
import type { WidgetEntry } from "../validate/manifestTypes.js";
import type { AccessRule } from "@mcpgen/runtime/shared";
import { accessRule } from "./auth.js";
import type { IdentifierClaims } from "./claims.js";
import { optionalString, type ModelContext } from "./context.js";
import { toIdentifier } from "./identifiers.js";
import { resolveInManifestFolder } from "./manifestFiles.js";
import { accessAliases } from "../validate/semantics.js";
import type { ResourceModel, WidgetModel } from "./types.js";
import type { JsonObject } from "../../common/objects.js";

/** MCP Apps' MIME type for a view's HTML. */
const WIDGET_MIME_TYPE = "text/html;profile=mcp-app";

/**
 * The manifest's `widgets:`, in order, and the resource each is served as: its HTML is built later
 * (src/generator/bundle), its `_meta.ui` is here. A widget whose entry cannot be resolved is a diagnostic.
 */
export async function buildWidgets(ctx: ModelContext): Promise<{ widgets: WidgetModel[]; resources: ResourceModel[] }> {
  const tools = ctx.manifest.value.tools ?? [];
  const widgets: WidgetModel[] = [];
  const resources: ResourceModel[] = [];
  for (const [i, widget] of (ctx.manifest.value.widgets ?? []).entries()) {
    const name = widget.name;
    const at: DocPath = ["widgets", i];
    // Claimed first, so a clash is reported in the same run as a missing entry.
    const { typeName, readerName } = claimWidget(ctx.claims, name, i);
    const entry = await resolveInManifestFolder(ctx.manifest, widget.entry, [...at, "entry"], "widget-build");
    if ("diagnostic" in entry) {
      ctx.diagnostics.push(entry.diagnostic);
      continue;
    }
    const csp = widget.csp ?? {};
    widgets.push({
      name,
      uri: widget.uri,
      entry: entry.path,
      ...optionalString("title", widget.title),
      sdk: widget.sdk ?? "mcpgen",
      typeName,
      fileName: toIdentifier(name, "camel"),
      tools: tools.flatMap((t) => (t.widget === name ? [t.name] : [])),
      csp: {
        connectDomains: csp.connectDomains ?? [],
        resourceDomains: csp.resourceDomains ?? [],
        frameDomains: csp.frameDomains ?? [],
        baseUriDomains: csp.baseUriDomains ?? [],
      },
      ...(widget.chatgpt ? { chatgpt: widget.chatgpt } : {}),
    });
    const wire: JsonObject = {};
    setOwn(wire, "uri", widget.uri);
    setOwn(wire, "name", name);
    for (const key of ["title", "description"] as const) if (widget[key] !== undefined) setOwn(wire, key, widget[key]);
    setOwn(wire, "mimeType", WIDGET_MIME_TYPE);
    setOwn(wire, "_meta", widgetResourceMeta(widget));
    const access = widgetAccess(ctx, name);
    resources.push({
      name,
      uri: widget.uri,
      ...optionalString("description", widget.description),
      wire,
      widget: name,
      needsHandler: false,
      readerName,
      handlerName: toIdentifier(name, "camel"),
      ...(access === undefined ? {} : { access }),
    });
  }
  return { widgets, resources };
}

/** Claims the client type and the reader method of `widgets[i]`, named `name` (also run on a manifest with errors: modelProblems.ts). */
export function claimWidget(claims: IdentifierClaims, name: string, i: number): { typeName: string; readerName: string } {
  const typeName = toIdentifier(name, "pascal");
  claims.type(`${typeName}Widget`, `widget "${name}" (its client type)`, ["widgets", i, "name"]);
  const readerName = claims.member(`read${typeName}`, `widget "${name}"`, ["widgets", i, "name"]);
  return { typeName, readerName };
}

/**
 * A widget resource's `_meta`: the manifest's own keys, MCP Apps' `ui` (csp, permissions, domain,
 * prefersBorder), and with `chatgpt:` ChatGPT's `openai/*` aliases. The same on the resources/list
 * entry and on the resources/read content item, where hosts read it first.
 */
function widgetResourceMeta(widget: WidgetEntry): JsonObject {
  const meta: JsonObject = {};
  for (const [k, v] of Object.entries(widget._meta ?? {})) setOwn(meta, k, v);
  const ui: JsonObject = {};
  if (widget.csp) ui.csp = widget.csp;
  if (widget.permissions) ui.permissions = widget.permissions;
  if (widget.domain !== undefined) ui.domain = widget.domain;
  if (widget.prefersBorder !== undefined) ui.prefersBorder = widget.prefersBorder;
  setOwn(meta, "ui", ui);
  if (widget.chatgpt) {
    const csp = widget.csp ?? {};
    const description = widget.chatgpt.widgetDescription ?? widget.description;
    if (description !== undefined) setOwn(meta, "openai/widgetDescription", description);
    if (widget.prefersBorder !== undefined) setOwn(meta, "openai/widgetPrefersBorder", widget.prefersBorder);
    setOwn(meta, "openai/widgetCSP", {
      connect_domains: csp.connectDomains ?? [],
      resource_domains: csp.resourceDomains ?? [],
      ...(csp.frameDomains?.length ? { frame_domains: csp.frameDomains } : {}),
    });
    if (widget.domain !== undefined) setOwn(meta, "openai/widgetDomain", widget.domain);
  }
  return meta;
}

/**
 * A tool's `_meta` with MCP Apps' `ui` (the widget's URI, the visibility), ChatGPT's access aliases
 * on a server with widgets, and for a ChatGPT widget the rest of the `openai/*` aliases.
 *
 * The access aliases go on every tool whose `ui.visibility` is written, opening a widget or not: a
 * host that reads only the aliases takes `openai/widgetAccessible` as false when it is absent (it
 * would refuse an app-only tool to the view that needs it) and shows a tool without
 * `openai/visibility: private` to the model. They are written from `visibility`, over any the
 * author wrote (validate/semantics.ts warns of one that says otherwise: `alias-contradiction`).
 */
export function toolUiMeta(
  own: JsonObject | undefined,
  widget: WidgetEntry | undefined,
  visibility: readonly ("model" | "app")[],
  serverHasWidgets: boolean,
): JsonObject {
  const meta: JsonObject = {};
  for (const [k, v] of Object.entries(own ?? {})) setOwn(meta, k, v);
  setOwn(meta, "ui", { ...(widget ? { resourceUri: widget.uri } : {}), visibility });
  if (widget?.chatgpt) setOwn(meta, "openai/outputTemplate", widget.uri);
  if (serverHasWidgets) for (const [key, value] of Object.entries(accessAliases(visibility))) setOwn(meta, key, value);
  if (widget?.chatgpt) {
    const chatgpt = widget.chatgpt;
    if (chatgpt.invoking !== undefined) setOwn(meta, "openai/toolInvocation/invoking", chatgpt.invoking);
    if (chatgpt.invoked !== undefined) setOwn(meta, "openai/toolInvocation/invoked", chatgpt.invoked);
  }
  return meta;
}

/**
 * Who may read a widget's HTML on a server with `auth:`: whoever may call a tool that opens it.
 * Without a token when one of them is `auth: none`; else the scopes all of them need (so a token
 * good for any of them reads it); the server's default when no tool opens it.
 */
function widgetAccess(ctx: ModelContext, widget: string): AccessRule | undefined {
  const root = ctx.manifest.value;
  const rules = (root.tools ?? []).filter((t) => t.widget === widget).map((t) => accessRule(root, t));
  if (rules.length === 0) return accessRule(root, {});
  let common: readonly string[] | undefined;
  for (const rule of rules) {
    if (rule === undefined) return undefined;
    if (rule === "none") return "none";
    common = common === undefined ? rule : common.filter((scope) => rule.includes(scope));
  }
  return common;
}
