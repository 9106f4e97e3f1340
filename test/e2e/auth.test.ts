/**
 * Issue 26's proof on a protected server (test/fixtures/auth/protected.yaml), against a real
 * authorization server (oidc-provider on loopback, test/helpers/authServer.ts), through raw HTTP,
 * the SDK v2 Client in both eras (2025-11-25 sessions and 2026-07-28) and the generated client:
 * no token → 401 and the protected resource metadata; every bad token → 401 without a handler
 * call; JWKS rotation without restart, JWKS fetched once; a missing scope → 403 naming the scopes,
 * then the SDK client's step-up; the authorization-code grant with PKCE end to end; ctx.auth as
 * the handler sees it; a 2025 session bound to its principal; the AS down → 500, not 401.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decodeJwt } from "jose";
import { Client, ClientCredentialsProvider, InsufficientScopeError, StreamableHTTPClientTransport, UnauthorizedError } from "@modelcontextprotocol/client";
import { SERVICE_CLIENT, startAuthServer, type AuthServer } from "../helpers/authServer.js";
import { BAD_TOKEN_KINDS, badTokens, forgeToken, type ForgedTokens } from "../helpers/badTokens.js";
import {
  allScopes,
  generateServers,
  methodOf,
  pointedAt,
  readFixture,
  ruleOf,
  scopedTools,
  serveGenerated,
  type ScopedTool,
  type ServedServer,
} from "../helpers/authFixtures.js";
import { challengeParams, legacyInitialize, legacySession, modernCall, modernRequest } from "../helpers/authRequests.js";
import { MemoryOAuthProvider } from "../helpers/oauthClient.js";
import { sleep } from "../helpers/wait.js";

/**
 * A short JWKS refetch cooldown, so a rotation is seen within the test (the default is 5 s), and a
 * clock skew of 1 s (default 30 s), so a token's expiry is seen within it.
 */
const HTTP_OPTIONS = { auth: { jwksCooldownMs: 100, clockSkewSeconds: 1 } };

let as: AuthServer;
let server: ServedServer;
let narrow: ScopedTool;
let wide: ScopedTool;
let forged: ForgedTokens;
const MODES = ["legacy", "auto"] as const;

beforeAll(async () => {
  const fixture = readFixture("protected");
  as = await startAuthServer({ scopes: allScopes(fixture) });
  const manifest = pointedAt(fixture, as);
  const folders = generateServers([manifest]);
  server = await serveGenerated(folders[manifest.server.name]!, manifest, as, { httpOptions: HTTP_OPTIONS });
  ({ narrow, wide } = scopedTools(manifest));
  forged = await badTokens(as, server.url, allScopes(manifest));
}, 120_000);
afterAll(async () => {
  await server?.close();
  await as?.close();
});

const text = (result: unknown) => (result as { content: { text: string }[] }).content[0]!.text;
const sameSet = (a: readonly string[], b: readonly string[]) => expect([...a].sort()).toEqual([...b].sort());

describe("a protected server, raw HTTP", () => {
  it("answers no token with 401 in both eras, and serves the protected resource metadata at both well-known paths", async () => {
    const { auth, server: info } = server.manifest;
    const expected = {
      resource: server.url,
      authorization_servers: [as.issuer],
      ...(auth.scopesSupported ? { scopes_supported: auth.scopesSupported } : {}),
      bearer_methods_supported: ["header"],
      resource_name: auth.resourceName ?? info.title ?? info.name,
      ...(auth.resourceDocumentation ? { resource_documentation: auth.resourceDocumentation } : {}),
    };
    for (const url of [server.prmUrl, new URL("/.well-known/oauth-protected-resource", server.url).href]) {
      const res = await fetch(url);
      expect(res.status, url).toBe(200);
      expect(res.headers.get("access-control-allow-origin")).toBe("*");
      expect(await res.json()).toEqual(expected);
    }
    const wanted = { resource_metadata: server.prmUrl, ...(auth.defaultScopes ? { scope: auth.defaultScopes.join(" ") } : {}) };
    const legacy = await legacyInitialize(server.url, undefined);
    expect(legacy.status).toBe(401);
    expect(legacy.session).toBeNull();
    expect(challengeParams(legacy.challenge)).toMatchObject(wanted);
    const modern = await modernCall(server.url, undefined, narrow.tool, narrow.args);
    expect(modern.status).toBe(401);
    expect(challengeParams(modern.challenge)).toMatchObject(wanted);
    if (!auth.defaultScopes) expect(challengeParams(modern.challenge).scope).toBeUndefined();
    // The token is checked before the body is read: a body that is not even JSON gets the 401.
    const garbage = await fetch(server.url, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: "{not json",
    });
    expect(garbage.status).toBe(401);
    // A browser client's preflight for the metadata.
    const preflight = await fetch(server.prmUrl, { method: "OPTIONS", headers: { origin: "https://app.example.com", "access-control-request-method": "GET" } });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-origin")).toBe("*");
    expect(server.seen).toEqual([]);
  });

  it("refuses every bad token with 401 invalid_token in both eras, and never runs a handler", async () => {
    const before = server.seen.length;
    for (const kind of BAD_TOKEN_KINDS) {
      const token = forged.bad[kind];
      const modern = await modernCall(server.url, token, narrow.tool, narrow.args);
      expect([kind, modern.status]).toEqual([kind, 401]);
      expect(challengeParams(modern.challenge), kind).toMatchObject({ error: "invalid_token", resource_metadata: server.prmUrl });
      const legacy = await legacyInitialize(server.url, token);
      expect([kind, legacy.status, legacy.session]).toEqual([kind, 401, null]);
    }
    expect(server.seen.length).toBe(before);
    // The control: the same recipe with nothing wrong is accepted, so each refusal was for its flaw.
    const control = await modernCall(server.url, forged.forgedValid, narrow.tool, narrow.args);
    expect(control.status).toBe(200);
    expect(control.rpc?.result?.isError).toBeFalsy();
    expect(server.seen.length).toBe(before + 1);
  });

  it("fetches the JWKS once for many tokens, and accepts a rotated key without a restart", async () => {
    const tokens = await Promise.all(Array.from({ length: 8 }, () => as.clientCredentials(server.url, narrow.scopes)));
    await modernCall(server.url, tokens[0], narrow.tool, narrow.args);
    const fetches = as.jwksFetches;
    const answers = await Promise.all(tokens.map((t) => modernCall(server.url, t, narrow.tool, narrow.args)));
    expect(answers.map((a) => a.status)).toEqual(tokens.map(() => 200));
    expect(as.jwksFetches).toBe(fetches);

    const kid = await as.rotate();
    await sleep(150); // past the JWKS cooldown of HTTP_OPTIONS
    const rotated = await as.clientCredentials(server.url, narrow.scopes);
    expect(JSON.parse(Buffer.from(rotated.split(".")[0]!, "base64url").toString()).kid).toBe(kid);
    const answer = await modernCall(server.url, rotated, narrow.tool, narrow.args);
    expect(answer.status).toBe(200);
    expect(answer.rpc?.result?.isError).toBeFalsy();
    expect(as.jwksFetches).toBe(fetches + 1);
    // Tokens signed with the old key stay good while the old key is published.
    expect((await modernCall(server.url, tokens[1], narrow.tool, narrow.args)).status).toBe(200);
    expect(as.jwksFetches).toBe(fetches + 1);
  });

  it("refuses a token once it expires, though it was verified and cached while it was valid", async () => {
    const token = await forgeToken(as, server.url, narrow.scopes, { exp: Math.floor(Date.now() / 1000) + 2 });
    expect((await modernCall(server.url, token, narrow.tool, narrow.args)).status).toBe(200);
    await sleep(3_200); // past exp and the 1 s skew of HTTP_OPTIONS
    const before = server.seen.length;
    const late = await modernCall(server.url, token, narrow.tool, narrow.args);
    expect(late.status).toBe(401);
    expect(challengeParams(late.challenge).error).toBe("invalid_token");
    expect(server.seen.length).toBe(before);
  });

  it("answers a missing scope with 403 insufficient_scope naming every scope the tool needs, before its handler", async () => {
    const token = await as.clientCredentials(server.url, narrow.scopes);
    const before = server.seen.length;
    const modern = await modernCall(server.url, token, wide.tool, wide.args);
    const session = await legacySession(server.url, token);
    const legacy = await session.call(wide.tool, wide.args);
    for (const answer of [modern, legacy]) {
      expect(answer.status).toBe(403);
      const params = challengeParams(answer.challenge);
      expect(params).toMatchObject({ error: "insufficient_scope", resource_metadata: server.prmUrl });
      sameSet(params.scope!.split(" "), wide.scopes);
      expect(params.scope).not.toMatch(/offline_access/);
    }
    expect(server.seen.length).toBe(before);
  });

  it("checks resources, templates (by the URI read) and prompts the same way, and gives resource handlers ctx.auth", async () => {
    const m = server.manifest;
    const all = await as.clientCredentials(server.url, allScopes(m));
    const none = await as.clientCredentials(server.url, []);
    expect(decodeJwt(none).scope).toBeUndefined();
    const reads: [string, string, Record<string, unknown>, readonly string[] | "none"][] = [
      ...(m.resources ?? []).map(
        (r) => ["resources/read", r.uri!, { uri: r.uri! }, ruleOf(m, r)] as [string, string, Record<string, unknown>, readonly string[] | "none"],
      ),
      ...(m.resourceTemplates ?? []).map((t) => {
        const uri = t.uriTemplate!.replace(/\{[^}]+\}/g, "42");
        return ["resources/read", uri, { uri }, ruleOf(m, t)] as [string, string, Record<string, unknown>, readonly string[] | "none"];
      }),
      ...(m.prompts ?? []).map(
        (p) => ["prompts/get", p.name, { name: p.name }, ruleOf(m, p)] as [string, string, Record<string, unknown>, readonly string[] | "none"],
      ),
    ];
    expect(reads.length).toBeGreaterThan(2);
    for (const [method, name, params, rule] of reads) {
      if (rule === "none" || rule.length === 0) continue;
      const before = server.seen.length;
      const refused = await modernRequest(server.url, none, method, params, name);
      expect([name, refused.status]).toEqual([name, 403]);
      sameSet(challengeParams(refused.challenge).scope!.split(" "), rule);
      expect(server.seen.length).toBe(before);
      const served = await modernRequest(server.url, all, method, params, name);
      expect([name, served.status, served.rpc?.error]).toEqual([name, 200, undefined]);
    }
    const resource = server.seen.find((s) => s.kind === "resource" || s.kind === "template");
    expect(resource?.auth).toMatchObject({ clientId: SERVICE_CLIENT.id, scopes: allScopes(m) });
  });

  it("binds a 2025 session to the principal that opened it", async () => {
    const scopes = allScopes(server.manifest);
    const owner = await as.clientCredentials(server.url, scopes);
    const session = await legacySession(server.url, owner);
    expect((await session.call(narrow.tool, narrow.args)).status).toBe(200);
    // Another token of the same principal (a refreshed one) may go on with the session.
    expect((await session.call(narrow.tool, narrow.args, await as.clientCredentials(server.url, scopes))).status).toBe(200);
    const before = server.seen.length;
    const stranger = await forgeToken(as, server.url, scopes, { sub: "mallory", client_id: "mallory-app" });
    // Answered as a session that does not exist (the runtime's choice): nothing about it leaks.
    const refused = await session.call(narrow.tool, narrow.args, stranger);
    expect(refused.status).toBe(404);
    expect(server.seen.length).toBe(before);
    // The stranger's token itself is good: it opens a session of its own.
    expect((await legacyInitialize(server.url, stranger)).status).toBe(200);
  });
});

describe("a protected server, through the SDK v2 Client and the generated client", () => {
  for (const mode of MODES) {
    it(`ClientCredentialsProvider (${mode}): token from the 401, calls, then a 403 stepped up to a wider token`, async () => {
      const provider = new ClientCredentialsProvider({ clientId: SERVICE_CLIENT.id, clientSecret: SERVICE_CLIENT.secret, expectedIssuer: as.issuer });
      const sdk = new Client({ name: "cc", version: "1" }, { versionNegotiation: { mode } });
      await sdk.connect(new StreamableHTTPClientTransport(new URL(server.url), { authProvider: provider }));
      expect(sdk.getProtocolEra()).toBe(mode === "auto" ? "modern" : "legacy");
      const first = provider.tokens()!;
      expect(decodeJwt(first.access_token).aud).toBe(server.url);
      expect(JSON.parse(text(await sdk.callTool({ name: narrow.tool, arguments: narrow.args })))).toMatchObject({ name: narrow.tool });
      await sdk.close();

      // A client holding a token for the narrow tool only: the 403 makes it fetch a wider one and retry.
      const stepping = new ClientCredentialsProvider({ clientId: SERVICE_CLIENT.id, clientSecret: SERVICE_CLIENT.secret, expectedIssuer: as.issuer });
      stepping.saveTokens({ access_token: await as.clientCredentials(server.url, narrow.scopes), token_type: "Bearer", scope: narrow.scopes.join(" ") });
      const client = new Client({ name: "cc-step-up", version: "1" }, { versionNegotiation: { mode } });
      await client.connect(new StreamableHTTPClientTransport(new URL(server.url), { authProvider: stepping }));
      const tokenRequests = as.log.filter((l) => l.startsWith("POST /token")).length;
      const answer = JSON.parse(text(await client.callTool({ name: wide.tool, arguments: wide.args })));
      expect(answer).toMatchObject({ kind: "tool", name: wide.tool });
      for (const s of wide.scopes) expect(answer.auth.scopes).toContain(s);
      for (const s of wide.scopes) expect(stepping.tokens()!.scope!.split(" ")).toContain(s);
      expect(as.log.filter((l) => l.startsWith("POST /token")).length).toBe(tokenRequests + 1);

      // The generated client over the same SDK client.
      const generated = server.generated.createClient(client);
      const call = generated[methodOf(narrow.tool)]!;
      expect(JSON.stringify(await call(narrow.args))).toContain(narrow.tool);
      await client.close();
    });

    it(`onInsufficientScope: "throw" (${mode}): InsufficientScopeError naming the scopes and the metadata URL`, async () => {
      const provider = new ClientCredentialsProvider({ clientId: SERVICE_CLIENT.id, clientSecret: SERVICE_CLIENT.secret, expectedIssuer: as.issuer });
      provider.saveTokens({ access_token: await as.clientCredentials(server.url, narrow.scopes), token_type: "Bearer", scope: narrow.scopes.join(" ") });
      const client = new Client({ name: "cc-throw", version: "1" }, { versionNegotiation: { mode } });
      await client.connect(new StreamableHTTPClientTransport(new URL(server.url), { authProvider: provider, onInsufficientScope: "throw" }));
      const error = await client.callTool({ name: wide.tool, arguments: wide.args }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(InsufficientScopeError);
      const e = error as InsufficientScopeError;
      sameSet(e.requiredScope!.split(" "), wide.scopes);
      expect(e.resourceMetadataUrl?.href).toBe(server.prmUrl);
      await client.close();
    });

    it(`authorization code with PKCE through an OAuthClientProvider (${mode}): registration, login and consent over HTTP, then a step-up consent`, async () => {
      const provider = new MemoryOAuthProvider();
      const open = async () => {
        const transport = new StreamableHTTPClientTransport(new URL(server.url), { authProvider: provider });
        const client = new Client({ name: "auth-code", version: "1" }, { versionNegotiation: { mode } });
        await client.connect(transport);
        return { client, transport };
      };
      /** Runs `fn`; when the SDK sent the user to authorize (UnauthorizedError), completes it and runs `fn` again. */
      const authorized = async <T>(transport: StreamableHTTPClientTransport, fn: () => Promise<T>): Promise<T> => {
        try {
          return await fn();
        } catch (e) {
          if (!(e instanceof UnauthorizedError)) throw e;
          await transport.finishAuth(provider.takeCallback());
          return fn();
        }
      };
      let session: Awaited<ReturnType<typeof open>>;
      try {
        session = await open();
      } catch (e) {
        if (!(e instanceof UnauthorizedError)) throw e;
        await new StreamableHTTPClientTransport(new URL(server.url), { authProvider: provider }).finishAuth(provider.takeCallback());
        session = await open();
      }
      const { client, transport } = session;
      expect(provider.authorizations).toHaveLength(1);
      const asked = provider.authorizations[0]!.searchParams;
      expect(asked.get("resource")).toBe(server.url);
      expect(asked.get("code_challenge_method")).toBe("S256");
      expect(provider.user.steps.filter((s) => s.startsWith("form:"))).toEqual(["form: login", "form: consent"]);
      const token = decodeJwt(provider.tokens()!.access_token);
      expect(token).toMatchObject({ sub: "alice", client_id: provider.client!.client_id, aud: server.url, iss: as.issuer });

      const answer = JSON.parse(text(await client.callTool({ name: narrow.tool, arguments: narrow.args })));
      expect(answer.auth).toEqual({
        subject: "alice",
        clientId: provider.client!.client_id,
        scopes: String(token.scope).split(" "),
        expiresAt: token.exp,
        claims: token,
      });

      // The wide tool: 403, a second authorization for the union of scopes (consent only: the
      // user's session at the authorization server is still open), then the call succeeds.
      const stepped = JSON.parse(text(await authorized(transport, () => client.callTool({ name: wide.tool, arguments: wide.args }))));
      expect(provider.authorizations).toHaveLength(2);
      for (const s of wide.scopes) expect(provider.authorizations[1]!.searchParams.get("scope")!.split(" ")).toContain(s);
      expect(provider.user.steps.filter((s) => s.startsWith("form:"))).toEqual(["form: login", "form: consent", "form: consent"]);
      expect(stepped).toMatchObject({ name: wide.tool, auth: { subject: "alice" } });
      for (const s of wide.scopes) expect(stepped.auth.scopes).toContain(s);
      await client.close();
    });
  }

  it("ctx.auth as the handler sees it: subject, clientId, scopes, expiresAt and the token's claims", async () => {
    const token = await as.clientCredentials(server.url, narrow.scopes);
    const answer = await modernCall(server.url, token, narrow.tool, narrow.args);
    const claims = decodeJwt(token);
    const seen = server.seen.at(-1)!;
    expect(seen).toEqual({
      kind: "tool",
      name: narrow.tool,
      auth: { subject: SERVICE_CLIENT.id, clientId: SERVICE_CLIENT.id, scopes: [...narrow.scopes], expiresAt: claims.exp, claims },
    });
    expect(JSON.parse(answer.rpc!.result!.content[0].text).auth).toEqual(seen.auth);
  });
});

describe("when the authorization server is down", () => {
  it("answers a token it cannot check with 500, not 401 (the client is not sent to re-authenticate)", async () => {
    // A token signed with a key the server has not fetched: checking it needs the JWKS.
    await as.rotate();
    const token = await forgeToken(as, server.url, narrow.scopes);
    await as.close();
    await sleep(150); // past the JWKS cooldown of HTTP_OPTIONS, so that the server tries to fetch the new key
    const before = server.seen.length;
    const answer = await modernCall(server.url, token, narrow.tool, narrow.args);
    expect(answer.status).toBe(500);
    expect(answer.challenge).toBeNull();
    expect(server.seen.length).toBe(before);
  });
});
