/**
 * The authorization server the authorization tests run against (test/helpers/authServer.ts), on
 * its own: tokens bound to the resource, JWKS served and counted, rotation on the same port, the
 * authorization-code grant with PKCE and registration answered without a browser, introspection of
 * opaque tokens; and every bad token of test/helpers/badTokens.ts refused by a reference jose
 * verification (issuer, audience, ES256 only, exp required) for its own reason, while the forged
 * control passes: so a server that accepts one of them has a bug, not the token maker.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLocalJWKSet, decodeJwt, decodeProtectedHeader, jwtVerify, type JSONWebKeySet } from "jose";
import {
  discoverAuthorizationServerMetadata,
  exchangeAuthorization,
  registerClient,
  startAuthorization,
  type AuthorizationServerMetadata,
} from "@modelcontextprotocol/client";
import { basic, INTROSPECTION_CLIENT, providerNotices, SERVICE_CLIENT, startAuthServer, type AuthServer } from "../helpers/authServer.js";
import { BAD_TOKEN_KINDS, badTokens, OTHER_RESOURCE } from "../helpers/badTokens.js";
import { HeadlessUser, REDIRECT_URI } from "../helpers/oauthClient.js";

const RESOURCE = "http://127.0.0.1:1/mcp";
const OPAQUE = "http://127.0.0.1:2/mcp";
const SCOPES = ["gifts.read", "gifts.write"];

let as: AuthServer;
beforeAll(async () => {
  as = await startAuthServer();
  as.addResource(RESOURCE, { scopes: SCOPES });
  as.addResource(OPAQUE, { scopes: SCOPES, format: "opaque" });
});
afterAll(() => as.close());

const jwks = async () => (await (await fetch(as.jwksUri)).json()) as JSONWebKeySet;
const verify = async (token: string) =>
  jwtVerify(token, createLocalJWKSet(await jwks()), { issuer: as.issuer, audience: RESOURCE, algorithms: ["ES256"], requiredClaims: ["exp"] });

describe("the test authorization server", () => {
  it("issues ES256 JWT access tokens bound to the resource through client credentials, and serves its JWKS", async () => {
    const before = as.jwksFetches;
    const token = await as.clientCredentials(RESOURCE, ["gifts.read"]);
    expect(decodeProtectedHeader(token)).toEqual({ alg: "ES256", typ: "at+jwt", kid: as.keys[0]!.kid });
    const { payload } = await verify(token);
    expect(payload).toMatchObject({ iss: as.issuer, aud: RESOURCE, client_id: SERVICE_CLIENT.id, scope: "gifts.read" });
    expect(as.jwksFetches).toBe(before + 1);
    // The published set holds public keys only.
    expect((await jwks()).keys.every((k) => !("d" in k))).toBe(true);
    // A scope the resource does not have is dropped, not refused; an unknown resource is refused.
    expect(decodeJwt(await as.clientCredentials(RESOURCE, ["gifts.read", "admin"])).scope).toBe("gifts.read");
    await expect(as.clientCredentials("https://unknown.example.com/mcp")).rejects.toThrow(/invalid_target/);
    // The Node 20 warning is kept off the console, not lost.
    if (Number(process.versions.node.split(".")[0]) < 22) expect(providerNotices.join("\n")).toMatch(/Unsupported runtime/);
  });

  it("rotates its signing key on the same port: new tokens carry the new kid, the old key stays published", async () => {
    const old = await as.clientCredentials(RESOURCE, ["gifts.read"]);
    const oldKid = as.keys[0]!.kid;
    const kid = await as.rotate();
    const fresh = await as.clientCredentials(RESOURCE, ["gifts.read"]);
    expect(decodeProtectedHeader(fresh).kid).toBe(kid);
    expect((await jwks()).keys.map((k) => k.kid)).toEqual([kid, oldKid]);
    await verify(fresh);
    await verify(old);
  });

  it("runs the authorization-code grant with PKCE for a registered client, consent answered over HTTP", async () => {
    const metadata = (await discoverAuthorizationServerMetadata(as.issuer)) as AuthorizationServerMetadata;
    expect(metadata.code_challenge_methods_supported).toEqual(["S256"]);
    const user = new HeadlessUser();
    const clientMetadata = { redirect_uris: [REDIRECT_URI], grant_types: ["authorization_code"], response_types: ["code"], token_endpoint_auth_method: "none" };
    // Registered with a scope, which the server drops (so a later step-up is not refused).
    const clientInformation = await registerClient(as.issuer, { metadata, clientMetadata, scope: "gifts.read" });
    const { authorizationUrl, codeVerifier } = await startAuthorization(as.issuer, {
      metadata,
      clientInformation,
      redirectUrl: REDIRECT_URI,
      scope: "gifts.read gifts.write",
      state: "s1",
      resource: RESOURCE,
    });
    const callback = await user.authorize(authorizationUrl, REDIRECT_URI);
    expect(callback.searchParams.get("state")).toBe("s1");
    expect(callback.searchParams.get("iss")).toBe(as.issuer);
    expect(user.steps.filter((s) => s.startsWith("form:"))).toEqual(["form: login", "form: consent"]);
    const tokens = await exchangeAuthorization(as.issuer, {
      metadata,
      clientInformation,
      authorizationCode: callback.searchParams.get("code")!,
      iss: as.issuer,
      codeVerifier,
      redirectUri: REDIRECT_URI,
      resource: RESOURCE,
    });
    const { payload } = await verify(tokens.access_token);
    expect(payload).toMatchObject({ sub: "alice", client_id: clientInformation.client_id, aud: RESOURCE, scope: "gifts.read gifts.write" });
  });

  it("introspects opaque tokens for the resource server's client, and says inactive for unknown ones", async () => {
    const token = await as.clientCredentials(OPAQUE, ["gifts.read"]);
    expect(token.split(".")).toHaveLength(1);
    const introspect = async (t: string) =>
      (await (
        await fetch(as.introspectionEndpoint, {
          method: "POST",
          headers: { authorization: basic(INTROSPECTION_CLIENT.id, INTROSPECTION_CLIENT.secret) },
          body: new URLSearchParams({ token: t, token_type_hint: "access_token" }),
        })
      ).json()) as Record<string, unknown>;
    expect(await introspect(token)).toMatchObject({ active: true, aud: OPAQUE, client_id: SERVICE_CLIENT.id, scope: "gifts.read", token_type: "Bearer" });
    expect(await introspect("nope")).toEqual({ active: false });
  });

  it("makes bad tokens that a reference jose verification refuses, each for its own reason", async () => {
    const { forgedValid, bad } = await badTokens(as, RESOURCE, SCOPES);
    expect((await verify(forgedValid)).payload.scope).toBe("gifts.read gifts.write");
    expect(decodeJwt(bad.otherResource).aud).toBe(OTHER_RESOURCE);
    const reasons: Record<string, string> = {};
    for (const kind of BAD_TOKEN_KINDS)
      reasons[kind] = await verify(bad[kind]).then(
        () => "accepted",
        (e: { code?: string; claim?: string }) => `${e.code}${e.claim ? ` ${e.claim}` : ""}`,
      );
    expect(reasons).toEqual({
      wrongAudience: "ERR_JWT_CLAIM_VALIDATION_FAILED aud",
      wrongIssuer: "ERR_JWT_CLAIM_VALIDATION_FAILED iss",
      expired: "ERR_JWT_EXPIRED exp",
      notYetValid: "ERR_JWT_CLAIM_VALIDATION_FAILED nbf",
      algNone: "ERR_JOSE_ALG_NOT_ALLOWED",
      hs256WithPublicKey: "ERR_JOSE_ALG_NOT_ALLOWED",
      tamperedSignature: "ERR_JWS_SIGNATURE_VERIFICATION_FAILED",
      tamperedPayload: "ERR_JWS_SIGNATURE_VERIFICATION_FAILED",
      unknownKid: "ERR_JWKS_NO_MATCHING_KEY",
      otherResource: "ERR_JWT_CLAIM_VALIDATION_FAILED aud",
      notAJwt: "ERR_JWS_INVALID",
    });
  });
});
