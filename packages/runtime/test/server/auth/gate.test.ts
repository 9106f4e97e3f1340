/**
 * The gate's decisions without HTTP: a 2025-era batch decided as a whole (every scope any of its
 * requests lacks in one 403), completions and subscriptions under their entry's rule, an entry the
 * rules do not name needing a token, and stdio, where nothing is checked or hidden.
 */
import { describe, expect, it } from "vitest";
import { openAuthGate } from "../../../src/server/auth/gate.js";
import { createManifestServerFactory, type RequestContext } from "../../../../../test/helpers/runtime.js";
import type { ServerDefinition } from "../../../src/shared/definition.js";
import { rawSession } from "../../../../../test/helpers/wire.js";

const definition: ServerDefinition = {
  serverInfo: { name: "gifts", version: "1.0.0" },
  capabilities: { tools: {}, resources: {}, prompts: {}, completions: {} },
  tools: ["public_hello", "suggest_gifts", "buy_gift", "unlisted"].map((name) => ({ name, inputSchema: { type: "object" } })),
  resources: [],
  resourceTemplates: [{ uriTemplate: "gift://{id}", name: "gift" }],
  prompts: [{ prompt: { name: "advice" }, messages: [] }],
  auth: {
    resource: "https://gifts.example.test/mcp",
    authorizationServers: ["https://auth.example.test"],
    verifier: { kind: "handler" },
    hideUnauthorized: true,
    tools: { public_hello: "none", suggest_gifts: ["gifts.read"], buy_gift: ["gifts.read", "gifts.write"] },
    resources: {},
    resourceTemplates: { gift: ["gifts.read"] },
    prompts: { advice: ["gifts.admin"] },
  },
};
const READER = { subject: "alice", clientId: "app", scopes: ["gifts.read"], claims: {} };
const gateOf = async () => (await openAuthGate(definition, "/mcp", {}, async (t) => (t === "reader" ? READER : undefined), {}))!;
const call = (id: number, method: string, params: object) => ({ jsonrpc: "2.0", id, method, params });

describe("the auth gate", () => {
  it("decides a batch as a whole: one 403 naming every scope its requests lack", async () => {
    const gate = await gateOf();
    expect(gate.mixed).toBe(true);
    const info = await gate.authenticate("Bearer reader");
    if (info instanceof Response) throw new Error("reader refused");
    const batch = [call(1, "tools/call", { name: "suggest_gifts" }), call(2, "tools/call", { name: "buy_gift" }), call(3, "prompts/get", { name: "advice" })];
    const refused = await gate.admit(batch, "Bearer reader", info);
    expect(refused).toBeInstanceOf(Response);
    if (!(refused instanceof Response)) return;
    expect(refused.status).toBe(403);
    expect(refused.headers.get("www-authenticate")).toContain('scope="gifts.read gifts.write gifts.admin"');
    expect(await gate.admit([batch[0], { jsonrpc: "2.0", method: "notifications/initialized" }], "Bearer reader", info)).toBe(info);
  });

  it("applies an entry's rule to its completions and reads, and asks a token for entries the rules do not name", async () => {
    const gate = await gateOf();
    const status = async (body: object, authorization?: string) => {
      const got = await gate.admit(body, authorization, undefined);
      return got instanceof Response ? got.status : got === undefined ? "anonymous" : "ok";
    };
    expect(await status(call(1, "resources/read", { uri: "gift://42" }))).toBe(401);
    expect(await status(call(1, "resources/read", { uri: "gift://42" }), "Bearer reader")).toBe("ok");
    expect(await status(call(1, "completion/complete", { ref: { type: "ref/resource", uri: "gift://{id}" }, argument: { name: "id", value: "" } }))).toBe(401);
    expect(
      await status(call(1, "completion/complete", { ref: { type: "ref/prompt", name: "advice" }, argument: { name: "x", value: "" } }), "Bearer reader"),
    ).toBe(403);
    // Lists and unknown names: decided by the engine (anonymous here).
    expect(await status(call(1, "tools/list", {}))).toBe("anonymous");
    // `unlisted` has no rule: it needs a token, anonymous tools/call goes to the engine's tool-error form.
    expect(await status(call(1, "tools/call", { name: "unlisted" }))).toBe("anonymous");
    expect(await status(call(1, "tools/call", { name: "unlisted" }), "Bearer reader")).toBe("ok");
    expect(await status(call(1, "tools/call", { name: "public_hello" }), "Bearer forged")).toBe(401);
  });
});

describe("auth.jwt and jose", () => {
  const jwt: ServerDefinition = {
    ...definition,
    auth: {
      ...definition.auth!,
      verifier: { kind: "jwt", issuer: "https://auth.example.test", jwksUri: "https://auth.example.test/jwks", algorithms: ["RS256"] },
    },
  };

  it("refuses to open without the part that loads jose, and says how to get it", async () => {
    await expect(openAuthGate(jwt, "/mcp", {}, undefined, {})).rejects.toThrow(
      "auth.jwt is served with the jwtAuthGate part of @mcpgen/runtime/server/auth/jwt, which loads jose: regenerate the server (its generated code passes it)",
    );
  });

  it("names the package when jose cannot be loaded, or is not jose 6", async () => {
    const missing = () => Promise.reject(new Error("Cannot find package 'jose'"));
    await expect(openAuthGate(jwt, "/mcp", {}, undefined, {}, missing)).rejects.toThrow(
      'auth.jwt needs the "jose" package to verify access tokens: run npm install jose',
    );
    await expect(openAuthGate(jwt, "/mcp", {}, undefined, {}, async () => ({ jwtVerify: () => {} }))).rejects.toThrow(
      'auth.jwt needs the "jose" package 6 or later: its createRemoteJWKSet or jwtVerify is missing',
    );
    expect(await openAuthGate(jwt, "/mcp", {}, undefined, {}, () => import("jose"))).toBeDefined();
  });
});

describe("stdio", () => {
  it("checks nothing and hides nothing: every entry listed and callable, ctx.auth undefined", async () => {
    const seen: unknown[] = [];
    const tool = async (_: object, ctx: RequestContext) => {
      seen.push(ctx.auth);
      return "ok";
    };
    const factory = createManifestServerFactory(definition, { tools: { public_hello: tool, suggest_gifts: tool, buy_gift: tool, unlisted: tool } });
    for (const era of ["legacy", "modern"] as const) {
      const session = await rawSession(factory, { era });
      const list = await session.request("tools/list", {});
      expect((list.result!["tools"] as unknown[]).length, era).toBe(4);
      const result = await session.request("tools/call", { name: "buy_gift", arguments: {} });
      expect(result.result, era).toMatchObject({ content: [{ type: "text", text: "ok" }] });
      await session.close();
    }
    expect(seen).toEqual([undefined, undefined]);
  });
});
