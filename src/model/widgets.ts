/**
 * What widgets (MCP Apps views) put on the wire: the `_meta` of a widget's resource and of the
 * tools that open or may call it, in MCP Apps' form and, when asked, ChatGPT's aliases.
 */
import { isPlainObject, setOwn } from "../util/objects.js";
import type { Json, JsonObject } from "./types.js";

/** MCP Apps' MIME type for a view's HTML. */
export const WIDGET_MIME_TYPE = "text/html;profile=mcp-app";

/**
 * A widget resource's `_meta`: the manifest's own keys, MCP Apps' `ui` (csp, permissions, domain,
 * prefersBorder), and with `chatgpt:` ChatGPT's `openai/*` aliases. The same on the resources/list
 * entry and on the resources/read content item, where hosts read it first.
 */
export function widgetResourceMeta(widget: Record<string, Json>): JsonObject {
  const meta: JsonObject = {};
  if (isPlainObject(widget._meta)) for (const [k, v] of Object.entries(widget._meta)) setOwn(meta, k, v as Json);
  const ui: JsonObject = {};
  if (isPlainObject(widget.csp)) ui.csp = widget.csp as JsonObject;
  if (isPlainObject(widget.permissions)) ui.permissions = widget.permissions as JsonObject;
  if (typeof widget.domain === "string") ui.domain = widget.domain;
  if (typeof widget.prefersBorder === "boolean") ui.prefersBorder = widget.prefersBorder;
  setOwn(meta, "ui", ui);
  if (isPlainObject(widget.chatgpt)) {
    const csp = isPlainObject(widget.csp) ? (widget.csp as Record<string, string[] | undefined>) : {};
    const description = (widget.chatgpt as JsonObject).widgetDescription ?? widget.description;
    if (typeof description === "string") setOwn(meta, "openai/widgetDescription", description);
    if (typeof widget.prefersBorder === "boolean") setOwn(meta, "openai/widgetPrefersBorder", widget.prefersBorder);
    setOwn(meta, "openai/widgetCSP", {
      connect_domains: csp.connectDomains ?? [],
      resource_domains: csp.resourceDomains ?? [],
      ...(csp.frameDomains?.length ? { frame_domains: csp.frameDomains } : {}),
    });
    if (typeof widget.domain === "string") setOwn(meta, "openai/widgetDomain", widget.domain);
  }
  return meta;
}

/** A tool's `_meta` with MCP Apps' `ui` (the widget's URI, the visibility) and, for a ChatGPT widget, the `openai/*` aliases. */
export function toolUiMeta(own: Json | undefined, widget: Record<string, Json> | undefined, visibility: ("model" | "app")[]): JsonObject {
  const meta: JsonObject = {};
  if (isPlainObject(own)) for (const [k, v] of Object.entries(own)) setOwn(meta, k, v as Json);
  setOwn(meta, "ui", { ...(widget ? { resourceUri: widget.uri as string } : {}), visibility });
  if (widget && isPlainObject(widget.chatgpt)) {
    const chatgpt = widget.chatgpt as JsonObject;
    setOwn(meta, "openai/outputTemplate", widget.uri as string);
    setOwn(meta, "openai/widgetAccessible", visibility.includes("app"));
    if (!visibility.includes("model")) setOwn(meta, "openai/visibility", "private");
    if (typeof chatgpt.invoking === "string") setOwn(meta, "openai/toolInvocation/invoking", chatgpt.invoking);
    if (typeof chatgpt.invoked === "string") setOwn(meta, "openai/toolInvocation/invoked", chatgpt.invoked);
  }
  return meta;
}
