/**
 * Raw JSON-RPC over Streamable HTTP for the benchmarks: node:http on keep-alive connections (a
 * lighter client than fetch, since client and server share the process), in the 2026-07-28 era
 * (the `_meta` envelope and the Mcp-* headers on every request) and the 2025 era (initialize, then
 * requests in its session). Each call answers the JSON-RPC message, read from a JSON body or the
 * last `data:` line of an SSE stream.
 */
import { Agent, request } from "node:http";

export type Answer = { result?: Record<string, any>; error?: { code: number; message: string } };
export type Call = (method: string, params: Record<string, unknown>, name?: string) => Promise<Answer>;

const TASKS = "io.modelcontextprotocol/tasks";

/** The 2026-07-28 envelope of a client that declares the tasks extension. */
const envelope = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientInfo": { name: "bench", version: "1.0.0" },
  "io.modelcontextprotocol/clientCapabilities": { extensions: { [TASKS]: {} } },
};

function post(
  agent: Agent,
  url: URL,
  headers: Record<string, string>,
  body: unknown,
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; text: string }> {
  const payload = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: "POST",
        agent,
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          "content-length": Buffer.byteLength(payload),
          ...headers,
        },
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => (text += chunk));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end(payload);
  });
}

function answer(text: string): Answer {
  const data = text.trim().startsWith("{")
    ? text
    : text
        .split("\n")
        .filter((l) => l.startsWith("data: "))
        .pop()
        ?.slice(6);
  if (data === undefined) throw new Error(`no JSON-RPC answer in ${JSON.stringify(text.slice(0, 200))}`);
  return JSON.parse(data) as Answer;
}

/** An HTTP client for one endpoint, at most `sockets` connections kept alive; `extra` headers on every request (e.g. Authorization). */
export function client(endpoint: string, sockets: number, extra: Record<string, string> = {}) {
  const agent = new Agent({ keepAlive: true, maxSockets: sockets });
  const url = new URL(endpoint);
  let id = 0;

  const modern: Call = async (method, params, name) => {
    const headers: Record<string, string> = {
      ...extra,
      "mcp-protocol-version": "2026-07-28",
      "mcp-method": method,
      ...(name === undefined ? {} : { "mcp-name": name }),
    };
    return answer((await post(agent, url, headers, { jsonrpc: "2.0", id: ++id, method, params: { ...params, _meta: envelope } })).text);
  };

  /** Opens a 2025-11-25 session (initialize, notifications/initialized); its requests carry the session id. */
  const legacy = async (): Promise<Call> => {
    const init = await post(agent, url, extra, {
      jsonrpc: "2.0",
      id: ++id,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "bench", version: "1.0.0" } },
    });
    const session = init.headers["mcp-session-id"];
    if (typeof session !== "string" || answer(init.text).error) throw new Error(`initialize failed (${init.status}): ${init.text.slice(0, 200)}`);
    const headers = { ...extra, "mcp-protocol-version": "2025-11-25", "mcp-session-id": session };
    await post(agent, url, headers, { jsonrpc: "2.0", method: "notifications/initialized" });
    return async (method, params) => answer((await post(agent, url, headers, { jsonrpc: "2.0", id: ++id, method, params })).text);
  };

  return { modern, legacy, close: () => agent.destroy() };
}
