/**
 * auth.jwt: real keys (jose), a loopback JWKS, and every way a token must fail: wrong audience or
 * issuer, expired, not yet valid, alg none, HS256 keyed with the public key, a tampered
 * signature, an unknown kid (then the rotation that makes it known), and a JWKS that is down (500,
 * not 401). Each goes through the SDK's verifyBearerToken and bearerAuthChallengeResponse as the
 * HTTP gate does.
 */
import { createHmac, createPublicKey } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { base64url } from "jose";
import { jwtVerifier, loadJose } from "../../../src/server/auth/jwtVerifier.js";
import { authLimits } from "../../../src/server/auth/options.js";
import { TokenCache } from "../../../src/server/auth/tokenCache.js";
import { authContextOf } from "../../../src/server/engine/authInfo.js";
import { bearerAuthChallengeResponse, verifyBearerToken } from "../../../src/server/engine/sdk.js";
import { sign, signingKey, startJwks, type Jwks, type SigningKey } from "./jwks-server.js";
import { sleep } from "../../../../../test/helpers/wait.js";

const ISSUER = "https://auth.example.test";
const RESOURCE = "https://gifts.example.test/mcp";
const PRM = "https://gifts.example.test/.well-known/oauth-protected-resource/mcp";

let jwks: Jwks;
let k1: SigningKey;
let verify: (token: string) => Promise<import("../../../src/server/engine/sdk.js").SdkAuthInfo>;

beforeAll(async () => {
  k1 = await signingKey("k1");
  jwks = await startJwks([k1]);
  const limits = authLimits({ jwksCooldownMs: 200, jwksTimeoutMs: 300 });
  verify = jwtVerifier(
    await loadJose(() => import("jose")),
    { issuer: ISSUER, jwksUri: jwks.url, algorithms: ["RS256", "ES256"], resource: RESOURCE, resourceMetadataUrl: PRM },
    limits,
  );
});
afterAll(() => jwks.close());

const base = () => ({ iss: ISSUER, aud: RESOURCE, sub: "alice", client_id: "app", scope: "gifts.read gifts.write" });

/** The HTTP answer the gate would give for this token: status, WWW-Authenticate, body. */
async function answer(token: string): Promise<{ status: number; www: string | null; body: Record<string, unknown> } | "ok"> {
  try {
    await verifyBearerToken(`Bearer ${token}`, { verifier: { verifyAccessToken: verify }, resourceMetadataUrl: PRM, expectedResource: new URL(RESOURCE) });
    return "ok";
  } catch (error) {
    const response = bearerAuthChallengeResponse(error, { resourceMetadataUrl: PRM });
    return { status: response.status, www: response.headers.get("www-authenticate"), body: (await response.json()) as Record<string, unknown> };
  }
}

async function expect401(token: string, description: RegExp): Promise<void> {
  const got = await answer(token);
  expect(got).not.toBe("ok");
  if (got === "ok") return;
  expect(got.status).toBe(401);
  expect(got.www).toMatch(
    /^Bearer error="invalid_token", error_description="[^"]*", resource_metadata="https:\/\/gifts\.example\.test\/\.well-known\/oauth-protected-resource\/mcp"$/,
  );
  expect(got.body["error_description"]).toMatch(description);
}

describe("auth.jwt verifier", () => {
  it("accepts a good token and gives ctx.auth its principal, scopes, expiry and claims, without the token", async () => {
    const token = await sign(k1, base());
    const info = await verify(token);
    const auth = authContextOf(info);
    expect(auth).toEqual({
      subject: "alice",
      clientId: "app",
      scopes: ["gifts.read", "gifts.write"],
      expiresAt: expect.any(Number),
      claims: expect.objectContaining({ iss: ISSUER, aud: RESOURCE, sub: "alice" }),
    });
    expect(JSON.stringify(auth)).not.toContain(token);
    expect(await answer(token)).toBe("ok");
  });

  it("reads `scp` arrays and `azp` when scope and client_id are absent", async () => {
    const { scope: _s, client_id: _c, ...rest } = base();
    const auth = authContextOf(await verify(await sign(k1, { ...rest, scp: ["a", "b"], azp: "spa" })));
    expect([auth.scopes, auth.clientId]).toEqual([["a", "b"], "spa"]);
  });

  it("refuses a token for another resource, and one from another issuer", async () => {
    await expect401(await sign(k1, { ...base(), aud: "https://other.example.test/mcp" }), /.aud. claim/);
    await expect401(await sign(k1, { ...base(), aud: RESOURCE + "/" }), /.aud. claim/);
    await expect401(await sign(k1, { ...base(), iss: "https://evil.example.test" }), /.iss. claim/);
  });

  it("refuses an expired token and one not yet valid (beyond the 30 s skew), accepts within it", async () => {
    const now = Math.floor(Date.now() / 1000);
    await expect401(await sign(k1, { ...base(), exp: now - 120 }), /.exp. claim/);
    await expect401(await sign(k1, { ...base(), nbf: now + 120 }), /.nbf. claim/);
    expect(await answer(await sign(k1, { ...base(), exp: now - 10 }))).toBe("ok");
    expect(await answer(await sign(k1, { ...base(), nbf: now + 10 }))).toBe("ok");
  });

  it("refuses a token without exp", async () => {
    const now = Math.floor(Date.now() / 1000);
    const { SignJWT } = await import("jose");
    const token = await new SignJWT({ ...base(), iat: now }).setProtectedHeader({ alg: "ES256", kid: "k1" }).sign(k1.privateKey);
    await expect401(token, /.exp. claim/);
  });

  it("refuses alg none, and HS256 signed with the public key", async () => {
    const payload = { ...base(), iat: Math.floor(Date.now() / 1000), exp: Math.floor(Date.now() / 1000) + 300 };
    const none = `${base64url.encode(JSON.stringify({ alg: "none", typ: "JWT" }))}.${base64url.encode(JSON.stringify(payload))}.`;
    await expect401(none, /alg/);
    const pem = createPublicKey({ key: k1.jwk as never, format: "jwk" }).export({ type: "spki", format: "pem" });
    const input = `${base64url.encode(JSON.stringify({ alg: "HS256", kid: "k1", typ: "at+jwt" }))}.${base64url.encode(JSON.stringify(payload))}`;
    const hs = `${input}.${createHmac("sha256", pem).update(input).digest("base64url")}`;
    await expect401(hs, /alg/);
  });

  it("refuses a tampered signature and a tampered payload", async () => {
    const token = await sign(k1, { ...base(), scope: "gifts.read" });
    const [h, p, s] = token.split(".");
    const flipped = s!.slice(0, -2) + (s!.endsWith("AA") ? "BB" : "AA");
    await expect401(`${h}.${p}.${flipped}`, /signature/);
    const widened = base64url.encode(JSON.stringify({ ...JSON.parse(new TextDecoder().decode(base64url.decode(p!))), scope: "gifts.read gifts.write" }));
    await expect401(`${h}.${widened}.${s}`, /signature/);
  });

  it("refuses an opaque string", async () => {
    await expect401("not-a-jwt", /JWS|JWT/);
  });

  it("refetches the JWKS once for an unknown kid, then accepts the rotated key without a restart", async () => {
    const k2 = await signingKey("k2", "RS256");
    await sleep(250); // past the cooldown (jwksCooldownMs: 200): time to let pass, nothing to poll
    const before = jwks.hits;
    await expect401(await sign(k2, base()), /no applicable key|matching/i);
    expect(jwks.hits - before).toBe(1);
    // Inside the cooldown: no fetch, still refused.
    await expect401(await sign(k2, base()), /no applicable key|matching/i);
    expect(jwks.hits - before).toBe(1);
    // The authorization server publishes k2: after the cooldown, one fetch and the token passes.
    jwks.keys = [k1, k2];
    await sleep(250);
    expect(await answer(await sign(k2, base()))).toBe("ok");
    expect(jwks.hits - before).toBe(2);
    // Known keys verify from the cache.
    expect(await answer(await sign(k1, base()))).toBe("ok");
    expect(jwks.hits - before).toBe(2);
  });

  it("answers 500 server_error, not 401, when the JWKS is down or slow", async () => {
    const k3 = await signingKey("k3");
    for (const mode of ["500", "hang"] as const) {
      jwks.mode = mode;
      // Past the cooldown: the unknown kid makes the verifier fetch the JWKS again.
      await sleep(250);
      const got = await answer(await sign(k3, base()));
      expect(got, mode).not.toBe("ok");
      if (got === "ok") continue;
      expect(got.status, mode).toBe(500);
      expect(got.www, mode).toBeNull();
      expect(got.body["error"], mode).toBe("server_error");
    }
    // A JWKS that never ends: read to jwksMaxBytes, then refused (500), long before the timeout.
    const endless = await startJwks([]);
    endless.mode = "endless";
    const bounded = jwtVerifier(
      await loadJose(() => import("jose")),
      { issuer: ISSUER, jwksUri: endless.url, algorithms: ["ES256"], resource: RESOURCE, resourceMetadataUrl: PRM },
      authLimits({ jwksMaxBytes: 256 * 1024, jwksTimeoutMs: 30_000 }),
    );
    await expect(bounded(await sign(k1, base()))).rejects.toMatchObject({ code: "server_error", message: expect.stringContaining("larger than 262144 bytes") });
    await endless.close();
    jwks.mode = "up";
    const down = await startJwks([]);
    await down.close();
    const unreachable = jwtVerifier(
      await loadJose(() => import("jose")),
      { issuer: ISSUER, jwksUri: down.url, algorithms: ["ES256"], resource: RESOURCE, resourceMetadataUrl: PRM },
      authLimits({ jwksTimeoutMs: 300 }),
    );
    await expect(unreachable(await sign(k1, base()))).rejects.toMatchObject({ code: "server_error" });
  });
});

describe("verified-token cache", () => {
  it("verifies a token once for many uses and concurrent first uses, and not past its expiry", async () => {
    let calls = 0;
    const cache = new TokenCache(2, 60_000, async (token) => {
      calls++;
      return { token, clientId: "c", scopes: [], expiresAt: Math.floor(Date.now() / 1000) + (token === "short" ? 0 : 300) };
    });
    await Promise.all([cache.verifyAccessToken("a"), cache.verifyAccessToken("a"), cache.verifyAccessToken("a")]);
    await cache.verifyAccessToken("a");
    expect(calls).toBe(1);
    // Expiring now: never kept.
    await cache.verifyAccessToken("short");
    await cache.verifyAccessToken("short");
    expect(calls).toBe(3);
    // Bounded: the oldest goes.
    await cache.verifyAccessToken("b");
    await cache.verifyAccessToken("c");
    expect(cache.size).toBe(2);
    await cache.verifyAccessToken("a");
    expect(calls).toBe(6);
  });

  it("does not keep failures", async () => {
    let calls = 0;
    const cache = new TokenCache(10, 60_000, async () => {
      calls++;
      throw new Error("bad");
    });
    await expect(cache.verifyAccessToken("x")).rejects.toThrow("bad");
    await expect(cache.verifyAccessToken("x")).rejects.toThrow("bad");
    expect(calls).toBe(2);
  });
});
