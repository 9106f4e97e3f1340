/**
 * Verified tokens, kept so verification is not paid on every request: keyed by the token string,
 * each reused until min(its expiry, verification time + ttl), the oldest dropped when full.
 * Concurrent first uses of one token share one verification. Failures are not kept. The SDK's
 * bearer check still compares `expiresAt` with the clock on every use.
 */
import type { SdkAuthInfo } from "../engine/sdk.js";

export class TokenCache {
  private readonly entries = new Map<string, { info: SdkAuthInfo; until: number }>();
  private readonly pending = new Map<string, Promise<SdkAuthInfo>>();

  constructor(
    private readonly max: number,
    private readonly ttlMs: number,
    private readonly verify: (token: string) => Promise<SdkAuthInfo>,
  ) {}

  /** The SDK's OAuthTokenVerifier face. */
  verifyAccessToken(token: string): Promise<SdkAuthInfo> {
    const hit = this.entries.get(token);
    if (hit) {
      if (hit.until > Date.now()) return Promise.resolve(hit.info);
      this.entries.delete(token);
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

  private keep(token: string, info: SdkAuthInfo): void {
    const now = Date.now();
    const expires = info.expiresAt === undefined ? Infinity : info.expiresAt * 1000;
    const until = Math.min(expires, now + this.ttlMs);
    if (until <= now) return;
    if (this.entries.size >= this.max) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    this.entries.set(token, { info, until });
  }
}
