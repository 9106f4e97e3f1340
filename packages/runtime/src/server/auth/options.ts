/**
 * The limits of a protected server's token checks (HttpOptions.auth, declared in engine/parts.ts),
 * each with its default.
 * docs/guides/authorization.md ("Limits") says why each default is what it is.
 */
import { positiveOption } from "../engine/options.js";
import type { AuthOptions } from "../engine/parts.js";

export type AuthLimits = Required<AuthOptions>;

/** Every limit, checked (a positive whole number) or defaulted. */
export function authLimits(options: AuthOptions = {}): AuthLimits {
  return {
    jwksTimeoutMs: positiveOption(options.jwksTimeoutMs, 5_000, "auth.jwksTimeoutMs"),
    jwksCooldownMs: positiveOption(options.jwksCooldownMs, 5_000, "auth.jwksCooldownMs"),
    jwksCacheMaxAgeMs: positiveOption(options.jwksCacheMaxAgeMs, 600_000, "auth.jwksCacheMaxAgeMs"),
    jwksMaxBytes: positiveOption(options.jwksMaxBytes, 1024 * 1024, "auth.jwksMaxBytes"),
    clockSkewSeconds: positiveOption(options.clockSkewSeconds, 30, "auth.clockSkewSeconds"),
    tokenCacheMax: positiveOption(options.tokenCacheMax, 10_000, "auth.tokenCacheMax"),
    tokenCacheTtlMs: positiveOption(options.tokenCacheTtlMs, 60_000, "auth.tokenCacheTtlMs"),
    tokenCacheMaxBytes: positiveOption(options.tokenCacheMaxBytes, 16 * 1024 * 1024, "auth.tokenCacheMaxBytes"),
    introspectionCacheMax: positiveOption(options.introspectionCacheMax, 10_000, "auth.introspectionCacheMax"),
    introspectionCacheTtlMs: positiveOption(options.introspectionCacheTtlMs, 30_000, "auth.introspectionCacheTtlMs"),
    introspectionTimeoutMs: positiveOption(options.introspectionTimeoutMs, 5_000, "auth.introspectionTimeoutMs"),
  };
}
