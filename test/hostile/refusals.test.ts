/**
 * Requests and settings a generated server must refuse: an absolute-form HTTP request target, a
 * requestStateSecret too short to be a key, and a multi round-trip answer for a capability the
 * client did not declare.
 */
import { afterEach, describe, expect, it } from "vitest";
import type { ServerDefinition } from "../../packages/runtime/src/shared/definition.js";
import { serveHttpWith } from "../helpers/runtime.js";
import { createManifestServerFactory, type ToolContext } from "../helpers/runtime.js";
import { post } from "../helpers/http.js";
import { rawSession } from "../helpers/wire.js";

const definition: ServerDefinition = {
  serverInfo: { name: "refusals", version: "1" },
  capabilities: { tools: {} },
  tools: [{ name: "ask", inputSchema: { type: "object" } }],
  resources: [],
  resourceTemplates: [],
  prompts: [],
};
let seen: unknown;
const handlers = {
  tools: {
    ask: async (_args: object, ctx: ToolContext) => {
      const answer = await ctx.elicit({ message: "Name?", requestedSchema: { type: "object", properties: { name: { type: "string" } } } }, { key: "q" });
      seen = answer;
      return JSON.stringify(answer);
    },
  },
};

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (closers.length) await closers.pop()!();
});

describe("refusals", () => {
  it("answers an absolute-form request target (POST http://evil.example/mcp) with 400, not 500, and keeps serving", async () => {
    const handle = await serveHttpWith(createManifestServerFactory(definition, handlers as never), definition, { port: 0 });
    closers.push(handle.close);
    const INIT = JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } },
    });
    const errors: unknown[] = [];
    const original = console.error;
    console.error = (...args: unknown[]) => void errors.push(args);
    try {
      for (const target of ["http://evil.example/mcp", "*"]) {
        const refused = await post(handle.url, INIT, {}, target);
        expect(refused.status, target).toBe(400);
        expect(JSON.parse(refused.body)).toEqual({
          jsonrpc: "2.0",
          id: null,
          error: { code: -32600, message: "Bad Request: the request target must be a path such as /mcp" },
        });
      }
    } finally {
      console.error = original;
    }
    // No stack trace, nothing logged: a bad request is not a server failure.
    expect(errors).toEqual([]);
    expect((await post(handle.url, INIT)).status).toBe(200);
  });

  it.each([[""], ["short"], ["x".repeat(31)], [new Uint8Array(16)]])("refuses requestStateSecret %j: an HMAC key must have 32 bytes", (secret) => {
    expect(() => createManifestServerFactory(definition, handlers as never, { requestStateSecret: secret })).toThrow(
      /^requestStateSecret must be at least 32 bytes \(got \d+\)/,
    );
  });

  it("refuses a requestStateSecret of one repeated character, accepts 32 random bytes", () => {
    expect(() => createManifestServerFactory(definition, handlers as never, { requestStateSecret: "k".repeat(32) })).toThrow(
      /^requestStateSecret has 1 distinct byte value/,
    );
    expect(() => createManifestServerFactory(definition, handlers as never, { requestStateSecret: crypto.getRandomValues(new Uint8Array(32)) })).not.toThrow();
  });

  it("2026-07-28: an answer for a capability the client did not declare never reaches the handler (-32021)", async () => {
    seen = undefined;
    const s = await rawSession(createManifestServerFactory(definition, handlers as never, { onError: () => {} }), { era: "modern", capabilities: {} });
    closers.push(s.close);
    const answered = await s.request("tools/call", { name: "ask", arguments: {}, inputResponses: { q: { action: "accept", content: { name: "Ada" } } } });
    expect(answered.error).toMatchObject({ code: -32021, data: { requiredCapabilities: { elicitation: {} } } });
    expect(seen).toBeUndefined();
    // Declared, the same answer goes through.
    const declared = await rawSession(createManifestServerFactory(definition, handlers as never), { era: "modern", capabilities: { elicitation: {} } });
    closers.push(declared.close);
    const ok = await declared.request("tools/call", { name: "ask", arguments: {}, inputResponses: { q: { action: "accept", content: { name: "Ada" } } } });
    expect(ok.result).toMatchObject({ content: [{ type: "text", text: '{"action":"accept","content":{"name":"Ada"}}' }] });
  });
});
