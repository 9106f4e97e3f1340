/**
 * JSON-RPC 2.0 over `postMessage`, as MCP Apps frames it between a view and its host: requests
 * with ids and a time limit, notifications, answers to the host's requests. Messages from any
 * other window than the host's, or that are no JSON-RPC, are ignored.
 */
import { RpcError } from "../shared/errors.js";
import { isRecord } from "./guards.js";

/** A JSON-RPC message as it crosses the frame boundary. */
export type JsonRpcMessage =
  | { jsonrpc: "2.0"; id: number | string; method: string; params?: unknown }
  | { jsonrpc: "2.0"; method: string; params?: unknown }
  | { jsonrpc: "2.0"; id: number | string; result: unknown }
  | { jsonrpc: "2.0"; id: number | string | null; error: { code: number; message: string; data?: unknown } };

/** What a host request handler answers: a result, or throws (an RpcError keeps its code). */
export type RequestHandler = (params: unknown) => unknown;
export type NotificationHandler = (params: unknown) => void;

/** The two ends the channel needs: posting to the host, and hearing every `message` event. */
export interface WireEnds {
  /** The host's window (`window.parent`): only its messages are read. */
  peer: unknown;
  post(message: JsonRpcMessage): void;
  listen(listener: (event: { source?: unknown; data?: unknown }) => void): () => void;
}

export interface Wire {
  /** Sends a request; rejects on an error answer (RpcError) or after `timeoutMs` without one. */
  request(method: string, params: unknown, timeoutMs?: number): Promise<unknown>;
  notify(method: string, params?: unknown): void;
  onRequest(method: string, handler: RequestHandler): void;
  onNotification(method: string, handler: NotificationHandler): void;
  /** Stops listening; pending requests reject. */
  close(): void;
}

/** JSON-RPC's "method not found". */
const METHOD_NOT_FOUND = -32601;
const INTERNAL_ERROR = -32603;

/** Classifies a message from the host, or undefined when it is not JSON-RPC 2.0. */
export function parseMessage(
  data: unknown,
):
  | { kind: "request"; id: number | string; method: string; params: unknown }
  | { kind: "notification"; method: string; params: unknown }
  | { kind: "response"; id: number | string; result: unknown }
  | { kind: "error"; id: number | string | null; error: { code: number; message: string; data?: unknown } }
  | undefined {
  if (!isRecord(data) || data["jsonrpc"] !== "2.0") return undefined;
  const id = data["id"];
  const validId = typeof id === "number" || typeof id === "string";
  if (typeof data["method"] === "string")
    return validId
      ? { kind: "request", id, method: data["method"], params: data["params"] }
      : id === undefined
        ? { kind: "notification", method: data["method"], params: data["params"] }
        : undefined;
  if (validId && "result" in data) return { kind: "response", id, result: data["result"] };
  const error = data["error"];
  if ((validId || id === null) && isRecord(error) && typeof error["code"] === "number" && typeof error["message"] === "string")
    return { kind: "error", id, error: { code: error["code"], message: error["message"], ...("data" in error ? { data: error["data"] } : {}) } };
  return undefined;
}

/** Opens the channel; `defaultTimeoutMs` limits requests that name no limit of their own. */
export function openWire(ends: WireEnds, defaultTimeoutMs: number): Wire {
  let nextId = 1;
  const pending = new Map<number | string, { resolve(value: unknown): void; reject(error: Error): void; timer: ReturnType<typeof setTimeout> }>();
  const requests = new Map<string, RequestHandler>();
  const notifications = new Map<string, NotificationHandler>();

  const answer = async (id: number | string, method: string, params: unknown) => {
    const handler = requests.get(method);
    if (!handler) {
      ends.post({ jsonrpc: "2.0", id, error: { code: METHOD_NOT_FOUND, message: `Method not found: ${method}` } });
      return;
    }
    try {
      ends.post({ jsonrpc: "2.0", id, result: (await handler(params)) ?? {} });
    } catch (error) {
      const code = error instanceof RpcError ? error.code : INTERNAL_ERROR;
      ends.post({ jsonrpc: "2.0", id, error: { code, message: error instanceof Error ? error.message : String(error) } });
    }
  };

  const stop = ends.listen((event) => {
    if (event.source !== ends.peer) return;
    const message = parseMessage(event.data);
    if (!message) return;
    switch (message.kind) {
      case "request":
        void answer(message.id, message.method, message.params);
        return;
      case "notification":
        notifications.get(message.method)?.(message.params);
        return;
      default: {
        if (message.id === null) return;
        const waiting = pending.get(message.id);
        if (!waiting) return;
        pending.delete(message.id);
        clearTimeout(waiting.timer);
        if (message.kind === "response") waiting.resolve(message.result);
        else waiting.reject(new RpcError(message.error.code, message.error.message, message.error.data));
      }
    }
  });

  return {
    request(method, params, timeoutMs = defaultTimeoutMs) {
      const id = nextId++;
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          pending.delete(id);
          reject(new Error(`${method}: the host did not answer within ${timeoutMs} ms`));
        }, timeoutMs);
        pending.set(id, { resolve, reject, timer });
        ends.post({ jsonrpc: "2.0", id, method, ...(params === undefined ? {} : { params }) });
      });
    },
    notify(method, params) {
      ends.post({ jsonrpc: "2.0", method, ...(params === undefined ? {} : { params }) });
    },
    onRequest(method, handler) {
      requests.set(method, handler);
    },
    onNotification(method, handler) {
      notifications.set(method, handler);
    },
    close() {
      stop();
      for (const [id, waiting] of pending) {
        clearTimeout(waiting.timer);
        waiting.reject(new Error("the connection to the host is closed"));
        pending.delete(id);
      }
    },
  };
}
