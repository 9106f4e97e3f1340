/** What a JSON-RPC message is, by its members (JSON-RPC 2.0 §4-5): request, notification, response. */
import { isRecord } from "../model.js";

export type Shape =
  | { kind: "request"; id: unknown; method: string; params: unknown }
  /** `id` is set on a notification method that carries one (`notifications/...` with an id). */
  | { kind: "notification"; method: string; params: unknown; id?: unknown }
  | { kind: "response"; id: unknown; result?: unknown; error?: unknown; hasResult: boolean; hasError: boolean }
  | { kind: "invalid"; why: string };

export function classify(message: unknown): Shape {
  if (!isRecord(message)) return { kind: "invalid", why: Array.isArray(message) ? "an empty batch or a nested array" : "not a JSON object" };
  const method = message["method"];
  if (typeof method === "string") {
    const params = message["params"];
    if (!Object.hasOwn(message, "id")) return { kind: "notification", method, params };
    if (method.startsWith("notifications/")) return { kind: "notification", method, params, id: message["id"] };
    return { kind: "request", id: message["id"], method, params };
  }
  const hasResult = Object.hasOwn(message, "result");
  const hasError = Object.hasOwn(message, "error");
  if (hasResult || hasError || Object.hasOwn(message, "id"))
    return {
      kind: "response",
      id: message["id"],
      hasResult,
      hasError,
      ...(hasResult ? { result: message["result"] } : {}),
      ...(hasError ? { error: message["error"] } : {}),
    };
  return { kind: "invalid", why: method === undefined ? "neither a method nor a result or error" : "`method` is not a string" };
}

/** The id as the log shows it: `3`, `"a1"`. */
export function showId(id: unknown): string {
  return typeof id === "number" ? String(id) : (JSON.stringify(id) ?? "undefined");
}
