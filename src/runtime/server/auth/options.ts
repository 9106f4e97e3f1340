/**
 * The limits of a protected server's token checks (HttpOptions.auth), each with its default.
 * docs/guides/authorization.md ("Limits") says why each default is what it is.
 */
import { positiveOption } from "../engine/options.js";

export interface AuthOptions {
  /** `jwt`: how long one JWKS fetch may take before the request answers 500 (ms, default 5,000). */
  jwksTimeoutMs?: number;
  /**
   * `jwt`: a token whose `kid` is not in the cached JWKS refetches it, at most once per this
   * many ms (default 5,000): a rotated key is accepted within seconds, and forged `kid`s cost the
   * authorization server at most one fetch per period.
   */
  jwksCooldownMs?: number;
  /** `jwt`: the JWKS is refetched before use when older than this (ms, default 600,000: 10 minutes), so a key removed from it stops verifying. */
  jwksCacheMaxAgeMs?: number;
  /** `jwt`: tolerance for clock differences with the authorization server on `exp`, `nbf` and `iat` (seconds, default 30). */
  clockSkewSeconds?: number;
  /**
   * Verified tokens kept so a token is not checked again on every request (default 10,000; for
   * `introspection` see below). The oldest is dropped when full.
   */
  tokenCacheMax?: number;
  /**
   * How long a verified token is reused without checking it again (ms, default 60,000), never
   * past its `exp`: for `verifier: handler`, a token you stop accepting is refused within this time.
   */
  tokenCacheTtlMs?: number;
  /** `introspection`: answers kept (default 10,000). */
  introspectionCacheMax?: number;
  /** `introspection`: how long an active answer is reused, never past the token's `exp` (ms, default 30,000): a revoked token is refused within this time. */
  introspectionCacheTtlMs?: number;
  /** `introspection`: how long one call of the endpoint may take before the request answers 500 (ms, default 5,000). */
  introspectionTimeoutMs?: number;
}

export type AuthLimits = Required<AuthOptions>;

/** Every limit, checked (a positive whole number) or defaulted. */
export function authLimits(options: AuthOptions = {}): AuthLimits {
  return {
    jwksTimeoutMs: positiveOption(options.jwksTimeoutMs, 5_000, "auth.jwksTimeoutMs"),
    jwksCooldownMs: positiveOption(options.jwksCooldownMs, 5_000, "auth.jwksCooldownMs"),
    jwksCacheMaxAgeMs: positiveOption(options.jwksCacheMaxAgeMs, 600_000, "auth.jwksCacheMaxAgeMs"),
    clockSkewSeconds: positiveOption(options.clockSkewSeconds, 30, "auth.clockSkewSeconds"),
    tokenCacheMax: positiveOption(options.tokenCacheMax, 10_000, "auth.tokenCacheMax"),
    tokenCacheTtlMs: positiveOption(options.tokenCacheTtlMs, 60_000, "auth.tokenCacheTtlMs"),
    introspectionCacheMax: positiveOption(options.introspectionCacheMax, 10_000, "auth.introspectionCacheMax"),
    introspectionCacheTtlMs: positiveOption(options.introspectionCacheTtlMs, 30_000, "auth.introspectionCacheTtlMs"),
    introspectionTimeoutMs: positiveOption(options.introspectionTimeoutMs, 5_000, "auth.introspectionTimeoutMs"),
  };
}
