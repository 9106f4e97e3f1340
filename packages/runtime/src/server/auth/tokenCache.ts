/**
 * Verified tokens, kept so verification is not paid on every request: keyed by the token string,
 * each reused until min(its expiry, verification time + ttl), the oldest dropped when full (more
 * than `max` tokens, or more than `maxBytes` of tokens and their claims' JSON). Concurrent first
 * uses of one token share one verification. Failures are not kept. The SDK's bearer check still
 * compares `expiresAt` with the clock on every use.
 */
import type { SdkAuthInfo } from "../engine/sdk.js";

interface Entry {
  /** The verified info without its `token` (the key holds it: one copy, not two). */
  info: Omit<SdkAuthInfo, "token">;
  until: number;
  /** Bytes counted against maxBytes: the token and its claims as JSON. */
  bytes: number;
}

export class TokenCache {
  private readonly entries = new Map<string, Entry>();
  private readonly pending = new Map<string, Promise<SdkAuthInfo>>();
  private bytes = 0;

  constructor(
    private readonly max: number,
    private readonly ttlMs: number,
    private readonly verify: (token: string) => Promise<SdkAuthInfo>,
    private readonly maxBytes = 16 * 1024 * 1024,
  ) {}

  /** The SDK's OAuthTokenVerifier face. */
  verifyAccessToken(token: string): Promise<SdkAuthInfo> {
    const hit = this.entries.get(token);
    if (hit) {
      if (hit.until > Date.now()) return Promise.resolve({ ...hit.info, token } as SdkAuthInfo);
      this.drop(token, hit);
    }
    const running = this.pending.get(token);
    if (running) return running;
    const verified = this.verify(token)
      .then((info) => {
        this.keep(token, info);
        return info;
      })
      .finally(() => this.pending.delete(token));
    this.pending.set(token, verified);
    return verified;
  }

  get size(): number {
    return this.entries.size;
  }

  /** Bytes of tokens and claims kept now. */
  get heldBytes(): number {
    return this.bytes;
  }

  private keep(token: string, info: SdkAuthInfo): void {
    const now = Date.now();
    const expires = info.expiresAt === undefined ? Infinity : info.expiresAt * 1000;
    const until = Math.min(expires, now + this.ttlMs);
    if (until <= now) return;
    const bytes = token.length + claimsLength(info);
    // A token larger than the whole budget is verified each time, never kept.
    if (bytes > this.maxBytes) return;
    const before = this.entries.get(token);
    if (before) this.drop(token, before);
    while (this.entries.size > 0 && (this.entries.size >= this.max || this.bytes + bytes > this.maxBytes)) {
      const [oldest, entry] = this.entries.entries().next().value!;
      this.drop(oldest, entry);
    }
    const { token: _held, ...rest } = info;
    this.entries.set(token, { info: rest, until, bytes });
    this.bytes += bytes;
  }

  private drop(token: string, entry: Entry): void {
    this.entries.delete(token);
    this.bytes -= entry.bytes;
  }
}

/** The length of the claims' JSON (the verified info's `extra.claims`), what a large token mostly holds besides itself. */
function claimsLength(info: SdkAuthInfo): number {
  const claims = (info.extra as { claims?: unknown } | undefined)?.claims;
  if (claims === undefined) return 0;
  try {
    return JSON.stringify(claims).length;
  } catch {
    return 0;
  }
}
