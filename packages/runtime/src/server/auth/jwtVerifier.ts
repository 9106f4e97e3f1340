/**
 * `auth.jwt`: access tokens that are JWTs (RFC 9068), verified with `jose` against the
 * authorization server's JWKS: signature with an allow-listed asymmetric algorithm only (never
 * `none`, never an HMAC keyed with a public key), `iss`, `aud` = this server's resource,
 * `exp` (required) and `nbf` with a clock skew. The JWKS is fetched on first use, cached, and
 * fetched again once for an unknown `kid` (key rotation without a restart), at most once per
 * cooldown. A JWKS that cannot be fetched is a 500, not a 401; so is one larger than
 * `jwksMaxBytes`, whose body is read no further (a hostile JWKS endpoint cannot fill memory).
 *
 * `jose` is loaded only when a server has `auth.jwt` (through the `jwtAuthGate` part of jwt.ts, which
 * its generated code passes), so servers without it need not install it.
 */
import type { AuthContext } from "../engine/handlerTypes.js";
import { sdkAuthInfo } from "../engine/authInfo.js";
import type { SdkAuthInfo } from "../engine/sdk.js";
import { cannotVerify, invalidToken } from "./errors.js";
import type { AuthLimits } from "./options.js";

/** What mcpgen calls of `jose` (6.x). */
export interface Jose {
  createRemoteJWKSet(url: URL, options: { timeoutDuration: number; cooldownDuration: number; cacheMaxAge: number; [fetch: symbol]: unknown }): unknown;
  jwtVerify(
    token: string,
    keys: unknown,
    options: { issuer: string; audience: string; algorithms: string[]; clockTolerance: number; requiredClaims: string[] },
  ): Promise<{ payload: Record<string, unknown> }>;
}

/**
 * `jose`, loaded when a server with `auth.jwt` starts, by `importJose`: an import of jose by its name
 * in the part that passes it (jwt.ts), which a Worker's bundler follows.
 */
export async function loadJose(importJose: () => Promise<unknown>): Promise<Jose> {
  let module: unknown;
  try {
    module = await importJose();
  } catch {
    throw new Error(`auth.jwt needs the "jose" package to verify access tokens: run npm install jose`);
  }
  if (!isJose(module)) throw new Error(`auth.jwt needs the "jose" package 6 or later: its createRemoteJWKSet or jwtVerify is missing`);
  return module;
}

function isJose(module: unknown): module is Jose {
  if (typeof module !== "object" || module === null) return false;
  return typeof Reflect.get(module, "createRemoteJWKSet") === "function" && typeof Reflect.get(module, "jwtVerify") === "function";
}

export interface JwtConfig {
  issuer: string;
  jwksUri: string;
  algorithms: readonly string[];
  /** This server's resource (URL.href): the audience every token must name. */
  resource: string;
  resourceMetadataUrl: string;
}

/**
 * fetch, with the body read to at most `maxBytes` (a Content-Length past it, or a body that grows
 * past it, fails at once: jose answers that as a JWKS that cannot be fetched).
 */
function boundedFetch(maxBytes: number): (url: string, options: RequestInit) => Promise<Response> {
  const tooLarge = () => new Error(`the JWKS is larger than ${maxBytes} bytes (the server's auth.jwksMaxBytes)`);
  return async (url, options) => {
    const response = await fetch(url, options);
    const declared = Number(response.headers.get("content-length") ?? NaN);
    if (declared > maxBytes) {
      await response.body?.cancel();
      throw tooLarge();
    }
    if (!response.body) return response;
    const reader = response.body.getReader();
    const parts: Uint8Array[] = [];
    let size = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes) {
        await reader.cancel();
        throw tooLarge();
      }
      parts.push(value);
    }
    const body = new Uint8Array(size);
    let at = 0;
    for (const part of parts) {
      body.set(part, at);
      at += part.byteLength;
    }
    return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
}

/** jose's error codes that mean the JWKS, not the token, is at fault. */
const KEY_SET_FAULTS = new Set(["ERR_JWKS_TIMEOUT", "ERR_JWKS_INVALID"]);

/** A verifier of JWT access tokens (the tokens' AuthInfo, or an SDK OAuthError). */
export function jwtVerifier(jose: Jose, config: JwtConfig, limits: AuthLimits): (token: string) => Promise<SdkAuthInfo> {
  // jose 6 takes its fetch under the `customFetch` symbol: the JWKS is read through a bounded one.
  const fetchKey = Reflect.get(jose, "customFetch");
  const keys = jose.createRemoteJWKSet(new URL(config.jwksUri), {
    timeoutDuration: limits.jwksTimeoutMs,
    cooldownDuration: limits.jwksCooldownMs,
    cacheMaxAge: limits.jwksCacheMaxAgeMs,
    ...(typeof fetchKey === "symbol" ? { [fetchKey]: boundedFetch(limits.jwksMaxBytes) } : {}),
  });
  const resource = new URL(config.resource);
  const options = {
    issuer: config.issuer,
    audience: config.resource,
    algorithms: [...config.algorithms],
    clockTolerance: limits.clockSkewSeconds,
    requiredClaims: ["exp"],
  };
  return async (token) => {
    let payload: Record<string, unknown>;
    try {
      ({ payload } = await jose.jwtVerify(token, keys, options));
    } catch (error) {
      throw classify(error);
    }
    const auth = authOfClaims(payload);
    // jwtVerify allowed the skew on `exp`; the SDK's own expiry check has none, so it gets exp + skew.
    const exp = typeof payload["exp"] === "number" ? payload["exp"] : 0;
    return sdkAuthInfo(token, auth, resource, exp + limits.clockSkewSeconds, config.resourceMetadataUrl);
  };
}

function classify(error: unknown): Error {
  const code = typeof error === "object" && error !== null ? Reflect.get(error, "code") : undefined;
  const message = error instanceof Error ? error.message : String(error);
  // Not one of jose's errors: fetch itself failed (connection refused, DNS).
  if (typeof code !== "string") return cannotVerify(`Cannot fetch the authorization server's JWKS: ${message}`);
  if (KEY_SET_FAULTS.has(code) || (code === "ERR_JOSE_GENERIC" && /JSON Web Key Set/.test(message)))
    return cannotVerify(`Cannot fetch the authorization server's JWKS: ${message}`);
  return invalidToken(`The access token is not valid here: ${message}`);
}

/** The AuthContext of a JWT's claims (`client_id`, else `azp`; `scope` as a string, or `scp`). */
function authOfClaims(payload: Record<string, unknown>): AuthContext {
  const sub = payload["sub"];
  const clientId = [payload["client_id"], payload["azp"], sub].find((v): v is string => typeof v === "string") ?? "";
  const exp = payload["exp"];
  return {
    ...(typeof sub === "string" ? { subject: sub } : {}),
    clientId,
    scopes: scopesOf(payload["scope"] ?? payload["scp"]),
    ...(typeof exp === "number" ? { expiresAt: exp } : {}),
    claims: payload,
  };
}

/** Space-separated scopes (RFC 9068, RFC 7662), or an array of them (`scp` of some providers). */
export function scopesOf(value: unknown): string[] {
  if (typeof value === "string") return value.split(" ").filter((s) => s !== "");
  if (Array.isArray(value)) return value.filter((s): s is string => typeof s === "string");
  return [];
}
