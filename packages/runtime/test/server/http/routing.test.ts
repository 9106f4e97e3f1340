/**
 * The endpoint routes a POST whose body claims 2026-07-28 (claimsModern) to the SDK's modern path
 * without asking the SDK's classification. That is sound only if the SDK never calls such a body
 * legacy: checked here against `isLegacyRequest` itself, on hand-picked edges and on generated
 * JSON-RPC-like bodies (with and without the claim, with `initialize`, responses, batches, a claim
 * of any type, and a version header that agrees, disagrees or is absent).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { claimsModern } from "../../../src/server/http/endpoint.js";
import { isLegacyRequest, PROTOCOL_VERSION_META_KEY } from "../../../src/server/engine/sdk.js";

const KEY = PROTOCOL_VERSION_META_KEY;

/** The SDK's verdict on `body` POSTed with these headers. */
function sdkSaysLegacy(body: unknown, headers: Record<string, string> = {}): Promise<boolean> {
  const request = new Request("http://127.0.0.1/mcp", {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
    body: JSON.stringify(body),
  });
  return isLegacyRequest(request, body);
}

const envelope = { [KEY]: "2026-07-28", "io.modelcontextprotocol/clientInfo": { name: "c", version: "1" }, "io.modelcontextprotocol/clientCapabilities": {} };

describe("claimsModern", () => {
  it("is the SDK's modern verdict on the bodies 2026-07-28 clients send, and leaves every other body to the SDK", async () => {
    const modern = [
      { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "greet", arguments: {}, _meta: envelope } },
      { jsonrpc: "2.0", id: 2, method: "tools/list", params: { _meta: envelope } },
      { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 1, _meta: { [KEY]: "2026-07-28" } } },
      // A claim the SDK refuses on its modern path (an unknown revision, a claim that is not a string).
      { jsonrpc: "2.0", id: 3, method: "tools/list", params: { _meta: { [KEY]: "2099-01-01" } } },
      { jsonrpc: "2.0", id: 4, method: "tools/list", params: { _meta: { [KEY]: 7 } } },
    ];
    for (const body of modern) {
      expect(claimsModern(body), JSON.stringify(body)).toBe(true);
      expect(await sdkSaysLegacy(body), JSON.stringify(body)).toBe(false);
    }
    const others = [
      { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "c", version: "1" } } },
      { jsonrpc: "2.0", id: 1, method: "initialize", params: { _meta: { [KEY]: 7 } } },
      { jsonrpc: "2.0", id: 2, method: "tools/list" },
      { jsonrpc: "2.0", id: 2, method: "tools/list", params: { _meta: {} } },
      { jsonrpc: "2.0", id: 2, result: {}, method: "tools/list", params: { _meta: envelope } },
      [{ jsonrpc: "2.0", id: 2, method: "tools/list", params: { _meta: envelope } }],
      "tools/list",
      null,
    ];
    for (const body of others) expect(claimsModern(body), JSON.stringify(body)).toBe(false);
  });

  it("never claims a body the SDK would serve as 2025-era", async () => {
    const meta = fc.oneof(
      fc.constant(undefined),
      fc.constant({}),
      fc.record({ [KEY]: fc.oneof(fc.constantFrom("2026-07-28", "2025-11-25", ""), fc.integer(), fc.constant(null)) }),
      fc.constant(envelope),
    );
    const params = fc.oneof(
      { weight: 1, arbitrary: fc.constantFrom(undefined, null, []) },
      { weight: 6, arbitrary: meta.map((m) => (m === undefined ? {} : { _meta: m })) },
    );
    // Mostly well-formed messages with a claim of some kind, so that the rare edges (an initialize
    // whose claim is not valid, a response that names a method) come up in every run.
    const message = fc
      .record({
        jsonrpc: fc.constantFrom("2.0", "2.0", "2.0", "1.0", undefined),
        id: fc.oneof(fc.integer(), fc.string({ maxLength: 3 }), fc.constant(null), fc.constant(undefined)),
        method: fc.oneof(fc.constantFrom("initialize", "tools/list", "tools/call", "ping", "notifications/initialized"), fc.integer()),
        params,
        result: fc.constantFrom(undefined, undefined, undefined, {}),
        error: fc.constantFrom(undefined, undefined, undefined, { code: -1, message: "x" }),
      })
      .map((m) => Object.fromEntries(Object.entries(m).filter(([, value]) => value !== undefined)));
    const body = fc.oneof({ weight: 5, arbitrary: message }, { weight: 1, arbitrary: fc.array(message, { maxLength: 2 }) });
    const header = fc.oneof(fc.constant(undefined), fc.constantFrom("2026-07-28", "2025-11-25", "2099-01-01"));
    await fc.assert(
      fc.asyncProperty(body, header, async (b, version) => {
        if (!claimsModern(b)) return;
        expect(await sdkSaysLegacy(b, version === undefined ? {} : { "mcp-protocol-version": version })).toBe(false);
      }),
      { numRuns: 5000, seed: 41 },
    );
  });
});
