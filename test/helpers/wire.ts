/**
 * A raw JSON-RPC peer over InMemoryTransport: sends exactly the messages a test writes and returns
 * exactly what the server answered, with no SDK client parsing in between.
 */
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";

export interface RawResponse {
  jsonrpc: "2.0";
  id: string | number;
  result?: Record<string, unknown>;
  error?: { code: number; message: string; data?: unknown };
}

export async function rawSession(server: Server) {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const pending = new Map<string | number, (message: RawResponse) => void>();
  const notifications: JSONRPCMessage[] = [];
  clientSide.onmessage = (message) => {
    const m = message as unknown as RawResponse;
    if (m.id !== undefined && ("result" in m || "error" in m)) pending.get(m.id)?.(m);
    else notifications.push(message);
  };
  await server.connect(serverSide);
  await clientSide.start();
  let nextId = 1;
  const request = (method: string, params?: unknown): Promise<RawResponse> =>
    new Promise((resolve) => {
      const id = nextId++;
      pending.set(id, resolve);
      void clientSide.send({ jsonrpc: "2.0", id, method, ...(params === undefined ? {} : { params }) } as JSONRPCMessage);
    });
  const init = await request("initialize", { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw-test", version: "1.0.0" } });
  await clientSide.send({ jsonrpc: "2.0", method: "notifications/initialized" });
  return { request, init, notifications, close: () => clientSide.close() };
}
