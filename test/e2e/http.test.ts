/** serveHttp: sessions, stateless mode, DNS-rebinding protection, and bad requests answered in JSON-RPC. */
import { request } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { serveHttp } from "../../generated/gift-server/serve.js";
import { giftHandlers } from "../servers/gift.js";

let stop: (() => Promise<void>) | undefined;
afterEach(async () => {
  await stop?.();
  stop = undefined;
});

function post(url: string, body: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: "POST", headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers } }, (res) => {
      let text = "";
      res.on("data", (d) => (text += d));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.on("error", reject);
    req.end(body);
  });
}

const INIT = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } } });

describe("serveHttp", () => {
  it("answers a body over the size limit with 413 instead of reading it into memory", async () => {
    const handle = await serveHttp(giftHandlers, { port: 0, maxMessageBytes: 1000 });
    stop = handle.close;
    const big = await post(handle.url, JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { pad: "x".repeat(5000) } }));
    expect(big.status).toBe(413);
    expect(JSON.parse(big.body)).toEqual({ jsonrpc: "2.0", id: null, error: { code: -32600, message: "Invalid Request: body larger than 1000 bytes" } });
    expect((await post(handle.url, INIT)).status).toBe(200);
  });

  for (const stateless of [false, true]) {
    it(`serves the SDK Client over Streamable HTTP (${stateless ? "stateless" : "sessions"})`, async () => {
      const handle = await serveHttp(giftHandlers, { port: 0, stateless });
      stop = handle.close;
      expect(handle.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
      const sdk = new Client({ name: "http", version: "1" });
      const transport = new StreamableHTTPClientTransport(new URL(handle.url));
      await sdk.connect(transport);
      expect(transport.sessionId === undefined).toBe(stateless);
      const result = await sdk.callTool({ name: "suggest_gifts", arguments: { occasion: "x", budget: 20 } });
      expect(result.structuredContent).toEqual({ gifts: [{ name: "Dice set", price: 20 }, { name: "Book: The Hobbit", price: 15 }] });
      await sdk.close();
    });
  }

  it("refuses a foreign Host or Origin with 403, and accepts loopback ones", async () => {
    const handle = await serveHttp(giftHandlers, { port: 0 });
    stop = handle.close;
    const port = new URL(handle.url).port;
    expect((await post(handle.url, INIT, { host: "evil.example.com" })).status).toBe(403);
    expect((await post(handle.url, INIT, { origin: "http://evil.example.com" })).status).toBe(403);
    expect((await post(handle.url, INIT, { host: `localhost:${port}`, origin: `http://localhost:${port}` })).status).toBe(200);
  });

  it("answers bad requests with a JSON-RPC error and a 4xx, and keeps serving", async () => {
    const handle = await serveHttp(giftHandlers, { port: 0 });
    stop = handle.close;
    const notJson = await post(handle.url, "{not json");
    expect(notJson.status).toBe(400);
    expect(JSON.parse(notJson.body)).toEqual({ jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error: the body is not JSON" } });
    const wrongType = await post(handle.url, INIT, { "content-type": "text/plain" });
    expect(wrongType.status).toBe(415);
    expect(JSON.parse(wrongType.body).error.code).toBe(-32000);
    const unknownSession = await post(handle.url, INIT, { "mcp-session-id": "nope" });
    expect(unknownSession.status).toBe(404);
    const wrongPath = await post(handle.url.replace("/mcp", "/other"), INIT);
    expect(wrongPath.status).toBe(404);
    expect((await post(handle.url, INIT)).status).toBe(200);
  });
});
