/**
 * Access tokens a resource server must refuse, made with jose the way an attacker (or a broken
 * client) would, next to one it must accept (`forgedValid`: the same recipe with nothing wrong,
 * signed with the authorization server's real key), so each refusal is for the reason named.
 * `otherResource` is issued by the authorization server itself, for a second resource.
 */
import { createHmac, createPublicKey } from "node:crypto";
import { base64url, importJWK, SignJWT, type JWTPayload } from "jose";
import { newSigningKey, SERVICE_CLIENT, SIGNING_ALG, type AuthServer } from "./authServer.js";

export const BAD_TOKEN_KINDS = [
  "wrongAudience",
  "wrongIssuer",
  "expired",
  "notYetValid",
  "algNone",
  "hs256WithPublicKey",
  "tamperedSignature",
  "tamperedPayload",
  "unknownKid",
  "otherResource",
  "notAJwt",
] as const;
export type BadTokenKind = (typeof BAD_TOKEN_KINDS)[number];

/** The other resource `otherResource` tokens are issued for (registered on the AS by `badTokens`). */
export const OTHER_RESOURCE = "https://other.example.com/mcp";

export interface ForgedTokens {
  /** Nothing wrong: the control every bad token differs from in one respect. */
  forgedValid: string;
  bad: Record<BadTokenKind, string>;
}

/**
 * A token signed with the authorization server's current key, as it would issue one for
 * `resource` with `scopes` (client and subject `svc`), with `overrides` applied to the claims: a
 * valid token for a principal the server never issued one to, for instance.
 */
export async function forgeToken(as: AuthServer, resource: string, scopes: readonly string[], overrides: JWTPayload = {}): Promise<string> {
  const [signing] = as.keys;
  if (!signing) throw new Error("the authorization server has no key");
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({
    iss: as.issuer,
    aud: resource,
    sub: SERVICE_CLIENT.id,
    client_id: SERVICE_CLIENT.id,
    scope: scopes.join(" "),
    iat: now,
    exp: now + 300,
    jti: `forged-${now}-${Math.random().toString(36).slice(2)}`,
    ...overrides,
  })
    .setProtectedHeader({ alg: SIGNING_ALG, typ: "at+jwt", kid: signing.kid })
    .sign(await importJWK(signing, SIGNING_ALG));
}

/**
 * Tokens for `resource` on `as` (whose signing key signs them), with `scopes` (default: every scope
 * of the resource, so a refusal is never a scope question). Expiry and not-before are 10 minutes
 * off, beyond any clock skew a server should allow.
 */
export async function badTokens(as: AuthServer, resource: string, scopes: readonly string[]): Promise<ForgedTokens> {
  as.addResource(OTHER_RESOURCE, { scopes });
  const [signing] = as.keys;
  if (!signing) throw new Error("the authorization server has no key");
  const key = await importJWK(signing, SIGNING_ALG);
  const now = Math.floor(Date.now() / 1000);
  const claims: JWTPayload = {
    iss: as.issuer,
    aud: resource,
    sub: SERVICE_CLIENT.id,
    client_id: SERVICE_CLIENT.id,
    scope: scopes.join(" "),
    iat: now,
    exp: now + 300,
    jti: `forged-${now}`,
  };
  const header = { alg: SIGNING_ALG, typ: "at+jwt", kid: signing.kid };
  const sign = (payload: JWTPayload, k = key, h = header) => new SignJWT(payload).setProtectedHeader(h).sign(k);

  const real = await as.clientCredentials(resource, scopes);
  const [h, p, s] = real.split(".") as [string, string, string];
  const signature = base64url.decode(s);
  signature[signature.length >> 1]! ^= 0x01;
  const widened = base64url.encode(JSON.stringify({ ...JSON.parse(new TextDecoder().decode(base64url.decode(p))), scope: `${scopes.join(" ")} admin` }));

  // HS256 keyed with the public key: a verifier that takes the key "as given" for any alg accepts it.
  const publicPem = createPublicKey({ key: { kty: signing.kty, crv: signing.crv, x: signing.x, y: signing.y }, format: "jwk" })
    .export({ type: "spki", format: "pem" })
    .toString();
  const hsInput = `${base64url.encode(JSON.stringify({ alg: "HS256", typ: "at+jwt", kid: signing.kid }))}.${base64url.encode(JSON.stringify(claims))}`;
  const stranger = await newSigningKey();

  return {
    forgedValid: await sign(claims),
    bad: {
      wrongAudience: await sign({ ...claims, aud: "https://elsewhere.example.com/mcp" }),
      wrongIssuer: await sign({ ...claims, iss: "https://evil.example.com" }),
      expired: await sign({ ...claims, iat: now - 1200, exp: now - 600 }),
      notYetValid: await sign({ ...claims, nbf: now + 600 }),
      algNone: `${base64url.encode(JSON.stringify({ alg: "none", typ: "at+jwt" }))}.${base64url.encode(JSON.stringify(claims))}.`,
      hs256WithPublicKey: `${hsInput}.${createHmac("sha256", publicPem).update(hsInput).digest("base64url")}`,
      tamperedSignature: `${h}.${p}.${base64url.encode(signature)}`,
      tamperedPayload: `${h}.${widened}.${s}`,
      unknownKid: await sign(claims, await importJWK(stranger, SIGNING_ALG), { ...header, kid: stranger.kid }),
      otherResource: await as.clientCredentials(OTHER_RESOURCE, scopes),
      notAJwt: "not-a-token",
    },
  };
}
