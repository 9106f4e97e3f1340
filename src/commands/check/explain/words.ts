/** Short words for values and codes, shared by explain's descriptions. */
import { isRecord } from "../model.js";

/** `{gifts: 2 items, total: 65}`: an object's members in a few words. */
export function summarize(value: unknown, depth = 0): string {
  if (Array.isArray(value)) return value.length === 1 ? "1 item" : `${value.length} items`;
  if (isRecord(value)) {
    if (depth > 0) return "{…}";
    const keys = Object.keys(value);
    const shown = keys.slice(0, 6).map((k) => `${k}: ${summarize(value[k], depth + 1)}`);
    return `{${shown.join(", ")}${keys.length > 6 ? ", …" : ""}}`;
  }
  if (typeof value === "string") return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  return String(value);
}

/** What a JSON-RPC error code means. */
export function codeMeaning(code: unknown): string {
  switch (code) {
    case -32700:
      return "parse error (the message was not JSON)";
    case -32600:
      return "invalid request (not a JSON-RPC request)";
    case -32601:
      return "method not found";
    case -32602:
      return "protocol error (the request was malformed)";
    case -32603:
      return "internal error (the server failed)";
    case -32002:
      return "resource not found";
    case -32020:
      return "HTTP headers disagree with the body";
    default:
      return typeof code === "number" ? "the server's own error code" : "no integer code";
  }
}

export function firstText(content: unknown): string | undefined {
  if (!Array.isArray(content)) return undefined;
  const block = content.find((b) => isRecord(b) && b["type"] === "text" && typeof b["text"] === "string");
  return isRecord(block) ? (block["text"] as string) : undefined;
}

export function quote(text: string, max = 80): string {
  return JSON.stringify(text.length > max ? `${text.slice(0, max)}…` : text);
}

/** A scalar as written; anything else in a few words; `fallback` when absent. */
export function text(value: unknown, fallback = "?"): string {
  if (value === undefined || value === null) return fallback;
  return typeof value === "string" || typeof value === "number" || typeof value === "boolean" ? String(value) : summarize(value);
}
