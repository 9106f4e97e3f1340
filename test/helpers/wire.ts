/**
 * A raw JSON-RPC peer in memory: sends exactly the messages a test writes and returns exactly
 * what the server answered, with no SDK client parsing in between. In the 2025 era it opens with
 * initialize; in the 2026-07-28 era every request carries the `_meta` envelope (or what the test
 * gives instead).
 */
import { InMemoryTransport } from "@modelcontextprotocol/server";
import { serveStdio } from "@modelcontextprotocol/server/stdio";
import type { Era, Factory } from "./connect.js";
import { readSse, rpcAnswer } from "./sse.js";

export interface RawResponse {
  jsonrpc: "2.0";
  id: string | number;
  result?: Record<string, unknown>;
  error?: { code: number; message: string; data?: unknown };
}

export type RawMessage = { jsonrpc: "2.0"; id?: string | number | null; method?: string; params?: any; result?: any; error?: any };

/** The 2026-07-28 request envelope, with these client capabilities. */
export function envelope(capabilities: Record<string, unknown> = {}, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientInfo": { name: "raw-test", version: "1.0.0" },
    "io.modelcontextprotocol/clientCapabilities": capabilities,
    ...extra,
  };
}

export interface RawSessionOptions {
  era?: Era;
  capabilities?: Record<string, unknown>;
}

export async function rawSession(factory: Factory, options: RawSessionOptions = {}) {
  const era = options.era ?? "legacy";
  const capabilities = options.capabilities ?? {};
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const handle = serveStdio(factory as never, { transport: serverSide, onerror: () => {} });
  const pending = new Map<string | number, (message: RawResponse) => void>();
  const received: RawMessage[] = [];
  const notifications: RawMessage[] = [];
  clientSide.onmessage = (message) => {
    const m = message as unknown as RawMessage;
    received.push(m);
    if (m.id !== undefined && m.id !== null && ("result" in m || "error" in m)) {
      pending.get(m.id)?.(m as RawResponse);
      pending.delete(m.id);
    } else notifications.push(m);
  };
  await clientSide.start();
  let nextId = 1;
  /** Sends a message as written (no envelope added). */
  const send = (message: object) => clientSide.send(message as never);
  const request = (method: string, params?: Record<string, unknown>, id: string | number = nextId++): Promise<RawResponse> =>
    new Promise((resolve) => {
      pending.set(id, resolve);
      const withMeta = era === "modern" ? { ...params, _meta: { ...envelope(capabilities), ...(params?._meta as object | undefined) } } : params;
      void send({ jsonrpc: "2.0", id, method, ...(withMeta === undefined ? {} : { params: withMeta }) });
    });
  let init: RawResponse | undefined;
  if (era === "legacy") {
    init = await request("initialize", { protocolVersion: "2025-11-25", capabilities, clientInfo: { name: "raw-test", version: "1.0.0" } }, "init");
    await send({ jsonrpc: "2.0", method: "notifications/initialized" });
  }
  return {
    era,
    request,
    send,
    init,
    received,
    notifications,
    close: async () => {
      await clientSide.close();
      await handle.close();
    },
  };
}

/** The headers of a 2026-07-28 request over Streamable HTTP (Mcp-Name when the method names a target). */
export function modernHeaders(method: string, name?: string): Record<string, string> {
  return {
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    "mcp-protocol-version": "2026-07-28",
    "mcp-method": method,
    ...(name === undefined ? {} : { "mcp-name": name }),
  };
}

let modernIds = 0;

/** One 2026-07-28 request over Streamable HTTP with the `_meta` envelope of these client capabilities; its JSON-RPC answer. */
export async function postModern(
  url: string,
  method: string,
  params: Record<string, unknown>,
  options: { name?: string; capabilities?: Record<string, unknown> } = {},
): Promise<{ result?: Record<string, any>; error?: { code: number; message: string; data?: unknown } }> {
  const response = await fetch(url, {
    method: "POST",
    headers: modernHeaders(method, options.name),
    body: JSON.stringify({ jsonrpc: "2.0", id: ++modernIds, method, params: { ...params, _meta: envelope(options.capabilities) } }),
  });
  return rpcAnswer(await response.text());
}

/** A message of a listen stream. */
export type ListenMessage = { jsonrpc: "2.0"; id?: string | number; method?: string; params?: any; result?: any; error?: any };

/** A 2026-07-28 subscriptions/listen stream over Streamable HTTP, read message by message as they arrive. */
export async function openListen(
  url: string,
  id: string | number,
  notifications: Record<string, unknown>,
  capabilities: Record<string, unknown> = {},
  extraHeaders: Record<string, string> = {},
  /** What sends the request (a handler's own fetch face, for one that listens on no port). */
  fetcher: (url: string, init: RequestInit) => Promise<Response> = fetch,
) {
  const aborter = new AbortController();
  const response = await fetcher(url, {
    method: "POST",
    headers: { ...modernHeaders("subscriptions/listen"), ...extraHeaders },
    body: JSON.stringify({ jsonrpc: "2.0", id, method: "subscriptions/listen", params: { notifications, _meta: envelope(capabilities) } }),
    signal: aborter.signal,
  });
  const received: ListenMessage[] = [];
  let ended = false;
  if (response.headers.get("content-type")?.startsWith("text/event-stream"))
    // Read until the server ends the stream or the test aborts it (either is an end here).
    void readSse(response.body!, (data) => received.push(JSON.parse(data) as ListenMessage))
      .catch(() => undefined)
      .finally(() => {
        ended = true;
      });
  return {
    response,
    received,
    ended: () => ended,
    /** The params of the notifications of one method received so far. */
    of: (method: string) => received.filter((m) => m.method === method).map((m) => m.params),
    tasks: () => received.filter((m) => m.method === "notifications/tasks").map((m) => m.params),
    close: () => aborter.abort(),
  };
}
