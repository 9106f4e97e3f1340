/**
 * A protected server over Streamable HTTP, in process, with a hand-written definition: the
 * Protected Resource Metadata at both well-known paths, the 401 and 403 answers (no handler
 * runs), ctx.auth as a handler sees it in both eras, a mixed server's anonymous calls (the
 * tool-error form for tools, 401 for resources and prompts), hidden lists with cacheScope
 * "private", 2025-era sessions bound to their principal, and the JWT verifier behind HTTP (a
 * JWKS that is down is a 500).
 */
import { afterAll, afterEach, describe, expect, it } from "vitest";
import type { AccessRule, AuthDefinition, ServerDefinition } from "../../../src/shared/definition.js";
import { createManifestServerFactory, type AuthContext, type RequestContext, type TokenVerifier } from "../../../../../test/helpers/runtime.js";
import { serveHttpWith, type HttpOptions } from "../../../../../test/helpers/runtime.js";
import { envelope, modernHeaders } from "../../../../../test/helpers/wire.js";
import { bodyMessages } from "../../../../../test/helpers/sse.js";
import { sleep } from "../../../../../test/helpers/wait.js";
import { sign, signingKey, startJwks } from "./jwks-server.js";

const RESOURCE = "https://gifts.example.test/mcp";
const PRM_URL = "https://gifts.example.test/.well-known/oauth-protected-resource/mcp";

function definitionWith(rules: { tools: Record<string, AccessRule> }, extra: Partial<AuthDefinition> = {}): ServerDefinition {
  return {
    serverInfo: { name: "gifts", version: "1.0.0", title: "Gift ideas" },
    capabilities: { tools: {}, resources: {}, prompts: {} },
    tools: Object.keys(rules.tools).map((name) => ({ name, inputSchema: { type: "object" } })),
    resources: [{ resource: { uri: "gift://catalog", name: "catalog" }, content: { text: "catalog" } }],
    resourceTemplates: [],
    prompts: [{ prompt: { name: "advice" }, messages: [{ role: "user", content: { type: "text", text: "advice" } }] }],
    cache: { "tools/list": { ttlMs: 60_000, cacheScope: "public" } },
    auth: {
      resource: RESOURCE,
      authorizationServers: ["https://auth.example.test"],
      scopesSupported: ["gifts.read", "gifts.write", "offline_access"],
      defaultScopes: ["gifts.read"],
      verifier: { kind: "handler" },
      tools: rules.tools,
      resources: { "gift://catalog": ["gifts.read"] },
      resourceTemplates: {},
      prompts: { advice: ["gifts.read"] },
      ...extra,
    },
  };
}

const TOKENS: Record<string, AuthContext> = {
  "tok-read": { subject: "alice", clientId: "app", scopes: ["gifts.read"], claims: { role: "reader" } },
  "tok-all": { subject: "alice", clientId: "app", scopes: ["gifts.read", "gifts.write"], claims: {} },
  "tok-bob": { subject: "bob", clientId: "app", scopes: ["gifts.read", "gifts.write"], claims: {} },
};
const verifyToken: TokenVerifier = async (token) => TOKENS[token];

let calls: { tool: string; auth: AuthContext | undefined }[] = [];
const tool = (name: string) => async (_args: object, ctx: RequestContext) => {
  calls.push({ tool: name, auth: ctx.auth });
  return JSON.stringify(ctx.auth ?? null);
};
const handlers = {
  verifyToken,
  tools: { public_hello: tool("public_hello"), suggest_gifts: tool("suggest_gifts"), buy_gift: tool("buy_gift") },
};

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  calls = [];
  while (closers.length) await closers.pop()!();
});

async function serve(definition: ServerDefinition, options: HttpOptions = {}, h: object = handlers) {
  const handle = await serveHttpWith(createManifestServerFactory(definition, h), definition, { port: 0, ...options });
  closers.push(handle.close);
  return handle.url;
}

const PROTECTED = definitionWith({ tools: { suggest_gifts: ["gifts.read"], buy_gift: ["gifts.read", "gifts.write"] } });
const JWT = definitionWith(
  { tools: { suggest_gifts: ["gifts.read"] } },
  { verifier: { kind: "jwt", issuer: "https://auth.example.test", jwksUri: "https://auth.example.test/jwks", algorithms: ["ES256"] } },
);
const MIXED = definitionWith({ tools: { public_hello: "none", suggest_gifts: ["gifts.read"], buy_gift: ["gifts.read", "gifts.write"] } });

let ids = 0;
interface Answer {
  status: number;
  www: string | null;
  headers: Headers;
  json: Record<string, any>;
}
async function answerOf(response: Response): Promise<Answer> {
  const text = await response.text();
  return {
    status: response.status,
    www: response.headers.get("www-authenticate"),
    headers: response.headers,
    // The body's last message (JSON, or an SSE stream's last event); {} for an empty body.
    json: bodyMessages<Record<string, any>>(text).at(-1) ?? {},
  };
}

/** One 2026-07-28 request (with a bearer token when given). */
async function modern(url: string, method: string, params: Record<string, unknown>, token?: string, name?: string): Promise<Answer> {
  const response = await fetch(url, {
    method: "POST",
    headers: { ...modernHeaders(method, name), ...(token === undefined ? {} : { authorization: `Bearer ${token}` }) },
    body: JSON.stringify({ jsonrpc: "2.0", id: ++ids, method, params: { ...params, _meta: envelope() } }),
  });
  return answerOf(response);
}

/** A 2025-era session: initialize with `token`, then requests with any token. */
async function legacySession(url: string, token?: string) {
  const headers = (t?: string, sid?: string) => ({
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    "mcp-protocol-version": "2025-11-25",
    ...(t === undefined ? {} : { authorization: `Bearer ${t}` }),
    ...(sid === undefined ? {} : { "mcp-session-id": sid }),
  });
  const init = await fetch(url, {
    method: "POST",
    headers: headers(token),
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } },
    }),
  });
  const sid = init.headers.get("mcp-session-id") ?? undefined;
  const initAnswer = await answerOf(init);
  if (sid !== undefined)
    await fetch(url, { method: "POST", headers: headers(token, sid), body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }) });
  return {
    init: initAnswer,
    sid,
    request: async (method: string, params: Record<string, unknown>, t: string | undefined = token) =>
      answerOf(await fetch(url, { method: "POST", headers: headers(t, sid), body: JSON.stringify({ jsonrpc: "2.0", id: ++ids, method, params }) })),
  };
}

describe("Protected Resource Metadata", () => {
  it("is served at the path-aware and the root well-known URL, from the manifest, with CORS", async () => {
    const url = await serve(PROTECTED);
    const want = {
      resource: RESOURCE,
      authorization_servers: ["https://auth.example.test"],
      scopes_supported: ["gifts.read", "gifts.write"],
      bearer_methods_supported: ["header"],
      resource_name: "Gift ideas",
    };
    for (const path of ["/.well-known/oauth-protected-resource/mcp", "/.well-known/oauth-protected-resource"]) {
      const got = await fetch(new URL(path, url));
      expect(got.status, path).toBe(200);
      expect(got.headers.get("access-control-allow-origin")).toBe("*");
      expect(await got.json(), path).toEqual(want);
    }
    const head = await fetch(new URL("/.well-known/oauth-protected-resource", url), { method: "HEAD" });
    expect([head.status, await head.text()]).toEqual([200, ""]);
    expect((await fetch(new URL("/.well-known/oauth-protected-resource", url), { method: "OPTIONS" })).status).toBe(204);
    const post = await fetch(new URL("/.well-known/oauth-protected-resource", url), { method: "POST" });
    expect([post.status, post.headers.get("allow")]).toEqual([405, "GET, HEAD, OPTIONS"]);
  });

  it("names MCP_AUTH_RESOURCE (normalized) instead of the manifest's resource when set", async () => {
    process.env["MCP_AUTH_RESOURCE"] = "https://PUBLIC.example.test/api/mcp";
    let url: string;
    try {
      url = await serve(PROTECTED);
    } finally {
      delete process.env["MCP_AUTH_RESOURCE"];
    }
    const doc = (await (await fetch(new URL("/.well-known/oauth-protected-resource/api/mcp", url))).json()) as { resource: string };
    expect(doc.resource).toBe("https://public.example.test/api/mcp");
    const refused = await modern(url, "tools/list", {});
    expect(refused.www).toContain('resource_metadata="https://public.example.test/.well-known/oauth-protected-resource/api/mcp"');
  });
  it("names MCP_AUTH_ISSUER as its one authorization server with MCP_AUTH_JWKS_URI; refuses one without the other, or a bad URL", async () => {
    const set = (vars: Record<string, string>) => Object.assign(process.env, vars);
    const unset = () => {
      delete process.env["MCP_AUTH_ISSUER"];
      delete process.env["MCP_AUTH_JWKS_URI"];
    };
    let url: string;
    try {
      set({ MCP_AUTH_ISSUER: "http://127.0.0.1:9000", MCP_AUTH_JWKS_URI: "http://127.0.0.1:9000/jwks" });
      url = await serve(JWT);
    } finally {
      unset();
    }
    const doc = (await (await fetch(new URL("/.well-known/oauth-protected-resource/mcp", url))).json()) as { authorization_servers: string[] };
    expect(doc.authorization_servers).toEqual(["http://127.0.0.1:9000"]);
    for (const [definition, vars, message] of [
      [
        JWT,
        { MCP_AUTH_ISSUER: "http://127.0.0.1:9000" },
        "MCP_AUTH_ISSUER and MCP_AUTH_JWKS_URI go together (the issuer's tokens and the keys that sign them): set both, or neither",
      ],
      [
        JWT,
        { MCP_AUTH_ISSUER: "auth", MCP_AUTH_JWKS_URI: "http://127.0.0.1:9000/jwks" },
        'MCP_AUTH_ISSUER must be an absolute URL such as https://auth.example.com, not "auth"',
      ],
      [
        PROTECTED,
        { MCP_AUTH_ISSUER: "http://127.0.0.1:9000", MCP_AUTH_JWKS_URI: "http://127.0.0.1:9000/jwks" },
        "MCP_AUTH_ISSUER and MCP_AUTH_JWKS_URI apply to auth.jwt; this server's auth uses verifier: handler",
      ],
    ] as const) {
      try {
        set(vars);
        await expect(serve(definition)).rejects.toThrow(message);
      } finally {
        unset();
      }
    }
  });
});

describe("a server whose every entry needs a token", () => {
  it("answers 401 with the challenge and the OAuth body to no token and to a bad one, in both eras, and runs nothing", async () => {
    const url = await serve(PROTECTED);
    for (const token of [undefined, "nope"]) {
      const got = await modern(url, "tools/call", { name: "suggest_gifts", arguments: {} }, token, "suggest_gifts");
      expect(got.status).toBe(401);
      const description = token === undefined ? "Missing Authorization header" : "The access token is not accepted";
      expect(got.www).toBe(`Bearer error="invalid_token", error_description="${description}", scope="gifts.read", resource_metadata="${PRM_URL}"`);
      expect(got.json).toEqual({ error: "invalid_token", error_description: description });
      const legacy = await legacySession(url, token);
      expect([legacy.init.status, legacy.sid]).toEqual([401, undefined]);
    }
    expect(calls).toEqual([]);
  });

  it("answers 403 insufficient_scope naming every scope the tool needs, before the handler, in both eras", async () => {
    const url = await serve(PROTECTED);
    const want = `Bearer error="insufficient_scope", error_description="Tool buy_gift needs the scopes gifts.read gifts.write", scope="gifts.read gifts.write", resource_metadata="${PRM_URL}"`;
    const got = await modern(url, "tools/call", { name: "buy_gift", arguments: {} }, "tok-read", "buy_gift");
    expect([got.status, got.www]).toEqual([403, want]);
    const session = await legacySession(url, "tok-read");
    expect(session.init.status).toBe(200);
    const legacy = await session.request("tools/call", { name: "buy_gift", arguments: {} });
    expect([legacy.status, legacy.www]).toEqual([403, want]);
    // A resource and a prompt need their scopes too.
    expect((await session.request("resources/read", { uri: "gift://catalog" }, "tok-bob")).status).toBe(404); // another principal's session
    expect(calls).toEqual([]);
  });

  it("gives the handler ctx.auth (principal, scopes, claims; never the token) in both eras", async () => {
    const url = await serve(PROTECTED);
    const want = { subject: "alice", clientId: "app", scopes: ["gifts.read"], claims: { role: "reader" } };
    const got = await modern(url, "tools/call", { name: "suggest_gifts", arguments: {} }, "tok-read", "suggest_gifts");
    expect(got.status).toBe(200);
    expect(JSON.parse(got.json["result"].content[0].text)).toEqual(want);
    const session = await legacySession(url, "tok-read");
    const legacy = await session.request("tools/call", { name: "suggest_gifts", arguments: {} });
    expect(JSON.parse(legacy.json["result"].content[0].text)).toEqual(want);
    expect(calls.map((c) => c.auth)).toEqual([want, want]);
    expect(JSON.stringify(calls)).not.toContain("tok-read");
  });

  it("binds a 2025-era session to the principal of its initialize: another principal's token gets 404", async () => {
    const url = await serve(PROTECTED);
    const session = await legacySession(url, "tok-read");
    // The same principal with another token (wider scopes): the same session.
    expect((await session.request("tools/call", { name: "buy_gift", arguments: {} }, "tok-all")).status).toBe(200);
    const stolen = await session.request("tools/call", { name: "suggest_gifts", arguments: {} }, "tok-bob");
    expect(stolen.status).toBe(404);
    expect(stolen.json).toEqual({ jsonrpc: "2.0", id: null, error: { code: -32001, message: "Session not found" } });
    expect(calls.map((c) => c.auth?.subject)).toEqual(["alice"]);
  });

  it("verifies a token once for many requests (the verified-token cache), and serves stateless 2025 requests with ctx.auth", async () => {
    let verifications = 0;
    const counting: TokenVerifier = async (token) => {
      verifications++;
      return TOKENS[token];
    };
    const url = await serve(PROTECTED, { stateless: true }, { ...handlers, verifyToken: counting });
    for (let i = 0; i < 5; i++)
      expect((await modern(url, "tools/call", { name: "suggest_gifts", arguments: {} }, "tok-read", "suggest_gifts")).status).toBe(200);
    expect(verifications).toBe(1);
    const stateless = await fetch(url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": "2025-11-25",
        authorization: "Bearer tok-all",
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "buy_gift", arguments: {} } }),
    });
    const answer = await answerOf(stateless);
    expect(JSON.parse(answer.json["result"].content[0].text)).toMatchObject({ subject: "alice", scopes: ["gifts.read", "gifts.write"] });
    expect(verifications).toBe(2);
  });

  it("refuses to start when verifier is handler and no verifyToken is given", async () => {
    await expect(serve(PROTECTED, {}, { tools: handlers.tools })).rejects.toThrow(/auth\.verifier is "handler" but the server's handlers have no verifyToken/);
  });
});

describe("a server mixing auth: none entries with protected ones", () => {
  it("serves the public tool without a token (ctx.auth undefined) and answers a protected tool with the tool-error form", async () => {
    const url = await serve(MIXED);
    const hello = await modern(url, "tools/call", { name: "public_hello", arguments: {} }, undefined, "public_hello");
    expect([hello.status, hello.json["result"].content[0].text]).toEqual([200, "null"]);
    const buy = await modern(url, "tools/call", { name: "buy_gift", arguments: {} }, undefined, "buy_gift");
    expect(buy.status).toBe(200);
    expect(buy.json["result"]).toMatchObject({
      isError: true,
      content: [{ type: "text", text: "Tool buy_gift needs authorization: sign in to this server, then call it again" }],
      _meta: {
        "mcp/www_authenticate": [
          `Bearer error="insufficient_scope", error_description="Tool buy_gift needs authorization", scope="gifts.read gifts.write", resource_metadata="${PRM_URL}"`,
        ],
      },
    });
    const session = await legacySession(url);
    expect(session.init.status).toBe(200);
    const legacy = await session.request("tools/call", { name: "suggest_gifts", arguments: {} });
    expect(legacy.json["result"]).toMatchObject({ isError: true, _meta: { "mcp/www_authenticate": [expect.stringContaining('scope="gifts.read"')] } });
    expect(calls.map((c) => c.tool)).toEqual(["public_hello"]);
  });

  it("answers 401 to a protected resource or prompt without a token, and 401 to a bad token even for a public tool", async () => {
    const url = await serve(MIXED);
    const read = await modern(url, "resources/read", { uri: "gift://catalog" }, undefined, "gift://catalog");
    expect([read.status, read.www]).toEqual([
      401,
      `Bearer error="invalid_token", error_description="Resource gift://catalog needs an access token", scope="gifts.read", resource_metadata="${PRM_URL}"`,
    ]);
    expect((await modern(url, "prompts/get", { name: "advice" }, undefined, "advice")).status).toBe(401);
    expect((await modern(url, "prompts/get", { name: "advice" }, "tok-read", "advice")).status).toBe(200);
    expect((await modern(url, "tools/call", { name: "public_hello", arguments: {} }, "nope", "public_hello")).status).toBe(401);
    // With a token, the public tool sees who called.
    const hello = await modern(url, "tools/call", { name: "public_hello", arguments: {} }, "tok-read", "public_hello");
    expect(JSON.parse(hello.json["result"].content[0].text)).toMatchObject({ subject: "alice" });
  });

  it("binds a session that began without a token to the first principal that uses one on it", async () => {
    const url = await serve(MIXED);
    const session = await legacySession(url);
    expect((await session.request("tools/call", { name: "suggest_gifts", arguments: {} }, "tok-read")).status).toBe(200);
    expect((await session.request("tools/call", { name: "public_hello", arguments: {} }, "tok-bob")).status).toBe(404);
    expect((await session.request("tools/call", { name: "public_hello", arguments: {} }, undefined)).status).toBe(404);
  });
});

describe("hideUnauthorized", () => {
  const HIDDEN = definitionWith(
    { tools: { public_hello: "none", suggest_gifts: ["gifts.read"], buy_gift: ["gifts.read", "gifts.write"] } },
    { hideUnauthorized: true },
  );

  it("lists only what the token (or no token) may use, with cacheScope private on 2026-07-28 lists", async () => {
    const url = await serve(HIDDEN);
    const names = (a: Answer) => a.json["result"].tools.map((t: { name: string }) => t.name);
    const anonymous = await modern(url, "tools/list", {});
    expect(names(anonymous)).toEqual(["public_hello"]);
    expect(anonymous.json["result"]).toMatchObject({ ttlMs: 60_000, cacheScope: "private" });
    expect(names(await modern(url, "tools/list", {}, "tok-read"))).toEqual(["public_hello", "suggest_gifts"]);
    expect(names(await modern(url, "tools/list", {}, "tok-all"))).toEqual(["public_hello", "suggest_gifts", "buy_gift"]);
    const resources = await modern(url, "resources/list", {});
    expect(resources.json["result"].resources).toEqual([]);
    const session = await legacySession(url, "tok-read");
    expect(names(await session.request("tools/list", {}))).toEqual(["public_hello", "suggest_gifts"]);
  });

  it("lists everything without hideUnauthorized, whatever the token", async () => {
    const url = await serve(MIXED);
    const anonymous = await modern(url, "tools/list", {});
    expect(anonymous.json["result"].tools).toHaveLength(3);
    expect(anonymous.json["result"]).toMatchObject({ cacheScope: "public" });
  });
});

describe("auth.jwt and auth.introspection behind HTTP", () => {
  const jwksReady = (async () => {
    const key = await signingKey("k1");
    return { key, jwks: await startJwks([key]) };
  })();
  afterAll(async () => (await jwksReady).jwks.close());

  it("accepts a signed token for this resource, and answers 500 (not 401) while the JWKS cannot be fetched", async () => {
    const { key, jwks } = await jwksReady;
    const definition = definitionWith(
      { tools: { suggest_gifts: ["gifts.read"] } },
      { verifier: { kind: "jwt", issuer: "https://auth.example.test", jwksUri: jwks.url, algorithms: ["ES256"] } },
    );
    const url = await serve(definition, { auth: { jwksTimeoutMs: 300, jwksCooldownMs: 100 } });
    const claims = { iss: "https://auth.example.test", aud: RESOURCE, sub: "alice", client_id: "app", scope: "gifts.read" };
    const ok = await modern(url, "tools/call", { name: "suggest_gifts", arguments: {} }, await sign(key, claims), "suggest_gifts");
    expect(ok.status).toBe(200);
    expect(JSON.parse(ok.json["result"].content[0].text)).toMatchObject({ subject: "alice", scopes: ["gifts.read"] });
    const other = await modern(url, "tools/list", {}, await sign(key, { ...claims, aud: "https://other.example.test/mcp" }));
    expect(other.status).toBe(401);
    jwks.mode = "500";
    // Past jwksCooldownMs (100): the unknown kid below makes the verifier fetch the JWKS again.
    await sleep(150);
    const rotated = await signingKey("k2");
    const down = await modern(url, "tools/list", {}, await sign(rotated, claims));
    jwks.mode = "up";
    expect([down.status, down.www, down.json["error"]]).toEqual([500, null, "server_error"]);
  });

  it("refuses to start without the introspection secret in the environment", async () => {
    const definition = definitionWith(
      { tools: { suggest_gifts: ["gifts.read"] } },
      {
        verifier: {
          kind: "introspection",
          endpoint: "https://auth.example.test/introspect",
          clientId: "mcp-rs",
          clientSecretEnv: "MCPGEN_TEST_NO_SUCH_SECRET",
        },
      },
    );
    await expect(serve(definition)).rejects.toThrow(/environment variable MCPGEN_TEST_NO_SUCH_SECRET/);
  });
});
