/**
 * Raw HTTP to a protected server, with or without a bearer token, in either era: exactly the
 * request a test writes, the status, WWW-Authenticate and JSON-RPC answer as they came back.
 */
import { envelope, modernHeaders } from "./wire.js";
import { rpcAnswer } from "./sse.js";

export interface AuthAnswer {
  status: number;
  /** The WWW-Authenticate header, or null. */
  challenge: string | null;
  headers: Headers;
  body: string;
  /** The JSON-RPC answer when the body has one. */
  rpc?: { result?: Record<string, any>; error?: { code: number; message: string; data?: unknown } };
}

const bearer = (token: string | undefined): Record<string, string> => (token === undefined ? {} : { authorization: `Bearer ${token}` });

async function send(url: string, headers: Record<string, string>, body: unknown): Promise<AuthAnswer> {
  const res = await fetch(url, { method: "POST", headers, body: JSON.stringify(body) });
  const text = await res.text();
  let rpc: AuthAnswer["rpc"];
  try {
    rpc = text ? rpcAnswer(text) : undefined;
  } catch {
    rpc = undefined;
  }
  return { status: res.status, challenge: res.headers.get("www-authenticate"), headers: res.headers, body: text, ...(rpc ? { rpc } : {}) };
}

let ids = 0;

/** One 2026-07-28 request (envelope, Mcp-* headers) with this token. */
export function modernRequest(
  url: string,
  token: string | undefined,
  method: string,
  params: Record<string, unknown> = {},
  name?: string,
): Promise<AuthAnswer> {
  return send(url, { ...modernHeaders(method, name), ...bearer(token) }, { jsonrpc: "2.0", id: ++ids, method, params: { ...params, _meta: envelope() } });
}

/** A 2026-07-28 tools/call. */
export const modernCall = (url: string, token: string | undefined, tool: string, args: Record<string, unknown> = {}) =>
  modernRequest(url, token, "tools/call", { name: tool, arguments: args }, tool);

/** A 2025-11-25 initialize with this token (the session id, when one was opened, in `session`). */
export async function legacyInitialize(url: string, token: string | undefined): Promise<AuthAnswer & { session: string | null }> {
  const answer = await send(
    url,
    { "content-type": "application/json", accept: "application/json, text/event-stream", ...bearer(token) },
    {
      jsonrpc: "2.0",
      id: ++ids,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw-auth", version: "1" } },
    },
  );
  return { ...answer, session: answer.headers.get("mcp-session-id") };
}

/** A 2025-11-25 session opened with `token`: initialize, notifications/initialized; then requests in it with any token. */
export async function legacySession(url: string, token: string | undefined) {
  const init = await legacyInitialize(url, token);
  if (init.status !== 200 || !init.session) throw new Error(`initialize: ${init.status} ${init.body}`);
  const headers = (t: string | undefined) => ({
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    "mcp-session-id": init.session!,
    "mcp-protocol-version": "2025-11-25",
    ...bearer(t),
  });
  await send(url, headers(token), { jsonrpc: "2.0", method: "notifications/initialized" });
  return {
    session: init.session,
    request: (method: string, params: Record<string, unknown> = {}, as: string | undefined = token) =>
      send(url, headers(as), { jsonrpc: "2.0", id: ++ids, method, params }),
    call: (tool: string, args: Record<string, unknown> = {}, as: string | undefined = token) =>
      send(url, headers(as), { jsonrpc: "2.0", id: ++ids, method: "tools/call", params: { name: tool, arguments: args } }),
  };
}

/** The auth-params of a Bearer challenge: `Bearer a="x", b="y"` → {a: "x", b: "y"}. */
export function challengeParams(challenge: string | null): Record<string, string> {
  if (!challenge?.startsWith("Bearer")) throw new Error(`not a Bearer challenge: ${challenge}`);
  return Object.fromEntries([...challenge.matchAll(/([a-z_]+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1]!, m[2]!]));
}
