/**
 * Small hand-written checks of what a host sends a view (MCP Apps' postMessage JSON-RPC and
 * ChatGPT's `window.openai` answers): the view trusts no shape it has not looked at, and carries
 * no schema library for it (zod's probe of `new Function` breaks a view's Content-Security-Policy).
 */
import type { CallToolResult } from "../shared/mcp.js";

/** A plain object (not null, not an array). */
export function isRecord(value: unknown): value is { [key: string]: unknown } {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** `{arguments?: object}`: the params of `ui/notifications/tool-input` and `tool-input-partial`. */
export function isToolInputParams(value: unknown): value is { arguments?: { [key: string]: unknown } } {
  return isRecord(value) && (value["arguments"] === undefined || isRecord(value["arguments"]));
}

/** A CallToolResult as the view reads it: `content` an array of typed blocks, `structuredContent` an object, `isError` a boolean. */
export function isCallToolResult(value: unknown): value is CallToolResult {
  if (!isRecord(value)) return false;
  const { content, structuredContent, isError } = value;
  if (!Array.isArray(content) || !content.every((block) => isRecord(block) && typeof block["type"] === "string")) return false;
  if (structuredContent !== undefined && !isRecord(structuredContent)) return false;
  return isError === undefined || typeof isError === "boolean";
}

/** `{reason?: string}`: the params of `ui/notifications/tool-cancelled`. */
export function isCancelledParams(value: unknown): value is { reason?: string } {
  return value === undefined || (isRecord(value) && (value["reason"] === undefined || typeof value["reason"] === "string"));
}

/** The result of `ui/initialize`: the negotiated version, the host's name, capabilities and context. */
export interface InitializeResult {
  protocolVersion: string;
  hostInfo: { name: string; version: string };
  hostCapabilities: { [key: string]: unknown };
  hostContext: { [key: string]: unknown };
}

export function isInitializeResult(value: unknown): value is InitializeResult {
  if (!isRecord(value) || typeof value["protocolVersion"] !== "string") return false;
  const info = value["hostInfo"];
  if (!isRecord(info) || typeof info["name"] !== "string" || typeof info["version"] !== "string") return false;
  return isRecord(value["hostCapabilities"]) && (value["hostContext"] === undefined || isRecord(value["hostContext"]));
}

/** `{mode: string}`: the result of `ui/request-display-mode` (and of `window.openai.requestDisplayMode`). */
export function isDisplayModeResult(value: unknown): value is { mode: string } {
  return isRecord(value) && typeof value["mode"] === "string";
}
