/**
 * mcpgen's own MCP Apps bridge (protocol 2026-01-26): the view's half of the postMessage JSON-RPC
 * a host speaks (the ext-apps specification), in a few KB where the official `App` brings zod
 * and the MCP client along. Handshake (`ui/initialize`, then `ui/notifications/initialized`), the
 * host's notifications and requests, the view's requests, and `size-changed` from a ResizeObserver.
 */
import type { ContentBlock } from "../shared/mcp.js";
import { isCallToolResult, isCancelledParams, isDisplayModeResult, isInitializeResult, isRecord, isToolInputParams } from "./guards.js";
import type { AppsConnector, DisplayMode, HostContext } from "./types.js";
import { openWire, type JsonRpcMessage, type WireEnds } from "./wire.js";

/** The protocol version the view asks for, and those it accepts from a host (newest first). */
export const PROTOCOL_VERSION = "2026-01-26";
const SUPPORTED_PROTOCOL_VERSIONS: readonly string[] = [PROTOCOL_VERSION, "2025-11-21"];

/** The browser's members used here (this file compiles without the DOM library). */
interface Element {
  style: { height: string };
  getBoundingClientRect(): { width: number; height: number };
}
const view = globalThis as unknown as {
  parent?: { postMessage(message: unknown, targetOrigin: string): void };
  addEventListener?(type: "message", listener: (event: { source?: unknown; data?: unknown }) => void): void;
  removeEventListener?(type: "message", listener: (event: { source?: unknown; data?: unknown }) => void): void;
  document?: { documentElement: Element };
  ResizeObserver?: new (callback: () => void) => { observe(target: Element): void; disconnect(): void };
};

/** The host's frame and this window's `message` events: the ends of the wire. */
function windowEnds(): WireEnds {
  const parent = view.parent;
  if (parent === undefined || parent === (globalThis as unknown) || !view.addEventListener || !view.removeEventListener)
    throw new Error("no host frame: the view is not inside an MCP Apps host's iframe");
  const add = view.addEventListener.bind(globalThis);
  const remove = view.removeEventListener.bind(globalThis);
  return {
    peer: parent,
    // The host's origin is unknown to a sandboxed view; the host checks the source of what it reads.
    post: (message: JsonRpcMessage) => parent.postMessage(message, "*"),
    listen: (listener) => {
      add("message", listener);
      return () => remove("message", listener);
    },
  };
}

/** Connects over `window.parent`: resolves once the host answered the handshake with a version the view speaks. */
export const connectAppsBridge: AppsConnector = async (events, settings) => {
  const wire = openWire(windowEnds(), settings.timeoutMs);
  let context: HostContext | undefined;
  let resize: (() => void) | undefined;

  wire.onNotification("ui/notifications/tool-input", (params) => {
    if (isToolInputParams(params)) events.input(params.arguments ?? {}, false);
  });
  wire.onNotification("ui/notifications/tool-input-partial", (params) => {
    if (isToolInputParams(params)) events.input(params.arguments ?? {}, true);
  });
  wire.onNotification("ui/notifications/tool-result", (params) => {
    if (isCallToolResult(params)) events.result(params);
  });
  wire.onNotification("ui/notifications/tool-cancelled", (params) => {
    if (isCancelledParams(params)) events.cancelled(params?.reason);
  });
  wire.onNotification("ui/notifications/host-context-changed", (params) => {
    if (!isRecord(params)) return;
    // The host sends the keys that changed.
    context = { ...context, ...params };
    events.context(context);
  });
  wire.onRequest("ping", () => ({}));
  wire.onRequest("ui/resource-teardown", () => {
    resize?.();
    return {};
  });

  let answer: unknown;
  try {
    answer = await wire.request(
      "ui/initialize",
      { appInfo: { name: settings.name, version: settings.version }, appCapabilities: {}, protocolVersion: PROTOCOL_VERSION },
      settings.handshakeTimeoutMs,
    );
    if (!isInitializeResult(answer)) throw new Error("the host answered ui/initialize with no initialize result");
    if (!SUPPORTED_PROTOCOL_VERSIONS.includes(answer.protocolVersion))
      throw new Error(`the host speaks MCP Apps ${answer.protocolVersion}; this view speaks ${SUPPORTED_PROTOCOL_VERSIONS.join(", ")}`);
  } catch (error) {
    wire.close();
    throw error;
  }
  context = answer.hostContext;
  wire.notify("ui/notifications/initialized", {});
  if (settings.autoResize) resize = observeSize((size) => wire.notify("ui/notifications/size-changed", size));

  const ask = async (method: string, params: unknown) => {
    const result = await wire.request(method, params);
    if (isRecord(result) && result["isError"] === true) throw new Error(`the host refused ${method}`);
    return result;
  };
  return {
    kind: "mcp-apps",
    async callTool(name, args) {
      const result = await wire.request("tools/call", { name, arguments: args });
      if (!isCallToolResult(result)) throw new Error(`the host answered tools/call ${name} with no CallToolResult`);
      return result;
    },
    async sendMessage(text) {
      await ask("ui/message", { role: "user", content: [{ type: "text", text }] });
    },
    async openLink(url) {
      await ask("ui/open-link", { url });
    },
    async updateModelContext(content: readonly ContentBlock[]) {
      await ask("ui/update-model-context", { content });
    },
    async requestDisplayMode(mode) {
      const result = await wire.request("ui/request-display-mode", { mode });
      if (!isDisplayModeResult(result)) throw new Error("the host answered ui/request-display-mode with no mode");
      return result.mode as DisplayMode;
    },
    hostContext: () => context,
  };
};

/** Reports the document's size whenever it changes; returns the function that stops. */
function observeSize(report: (size: { width: number; height: number }) => void): (() => void) | undefined {
  const root = view.document?.documentElement;
  if (!root || !view.ResizeObserver) return undefined;
  let last = "";
  const measure = () => {
    // The content's own height, not the frame's: the host sizes the frame from it.
    const before = root.style.height;
    root.style.height = "max-content";
    const rect = root.getBoundingClientRect();
    root.style.height = before;
    const size = { width: Math.ceil(rect.width), height: Math.ceil(rect.height) };
    const key = `${size.width}x${size.height}`;
    if (key === last) return;
    last = key;
    report(size);
  };
  const observer = new view.ResizeObserver(measure);
  observer.observe(root);
  measure();
  return () => observer.disconnect();
}
