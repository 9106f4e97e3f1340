/** The verified-token cache: bounded by count and by bytes of tokens and claims; the token comes back on a hit. */
import { describe, expect, it } from "vitest";
import { TokenCache } from "../../../src/server/auth/tokenCache.js";
import type { SdkAuthInfo } from "../../../src/server/engine/sdk.js";

function cacheOf(max: number, maxBytes: number) {
  let verified = 0;
  const cache = new TokenCache(
    max,
    60_000,
    async (token) => {
      verified++;
      return { token, clientId: "c", scopes: [], extra: { claims: { sub: token.slice(0, 8), note: "n".repeat(100) } } } as unknown as SdkAuthInfo;
    },
    maxBytes,
  );
  return { cache, verified: () => verified };
}

describe("TokenCache", () => {
  it("keeps a verified token, gives it back with its token, and verifies it once", async () => {
    const { cache, verified } = cacheOf(10, 1 << 20);
    const token = "t".repeat(500);
    const first = await cache.verifyAccessToken(token);
    const again = await cache.verifyAccessToken(token);
    expect([first.token, again.token, verified()]).toEqual([token, token, 1]);
    expect(again.extra).toEqual(first.extra);
  });

  it("drops the oldest past its bytes (tokens and claims' JSON), whatever the count allows", async () => {
    const { cache } = cacheOf(10_000, 5_000);
    // Each costs its 1,000-byte token plus ~130 bytes of claims: four fit in 5,000 bytes.
    for (let i = 0; i < 20; i++) await cache.verifyAccessToken(`${i}`.padEnd(1000, "x"));
    expect(cache.size).toBe(4);
    expect(cache.heldBytes).toBeLessThanOrEqual(5_000);
    // A token larger than the whole budget is verified, never kept.
    const huge = "h".repeat(6_000);
    expect((await cache.verifyAccessToken(huge)).token).toBe(huge);
    expect(cache.size).toBe(4);
  });

  it("drops the oldest past its count", async () => {
    const { cache, verified } = cacheOf(3, 1 << 20);
    for (const t of ["a", "b", "c", "d"]) await cache.verifyAccessToken(t);
    expect(cache.size).toBe(3);
    await cache.verifyAccessToken("a");
    expect(verified()).toBe(5);
  });
});
