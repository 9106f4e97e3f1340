/**
 * The requestState keys: from the option, else MCP_REQUEST_STATE_SECRET (and
 * MCP_REQUEST_STATE_PREVIOUS_SECRETS), else random; rotation (previous keys verify, only the
 * current one signs); weak keys refused when the server is made.
 */
import { randomBytes, randomUUID } from "node:crypto";
import { describe, expect, it, vi } from "vitest";
import { RequestStateCodec, stateBinding } from "../../../src/server/engine/requestState.js";
import { keyWeakness, requestStateKeys } from "../../../src/server/engine/requestStateKeys.js";
import { propertyRuns } from "../../../../../test/helpers/properties.js";

const OLD = randomBytes(32).toString("base64url");
const NEW = randomBytes(32).toString("base64url");
const OTHER = randomBytes(32).toString("base64url");
const TTL = 60_000;

async function minted(codec: RequestStateCodec): Promise<{ binding: string; token: string }> {
  const binding = await stateBinding("tools/call", "ask", { a: 1 });
  return { binding, token: await codec.mint(binding, { answers: { q: { action: "accept" } } }) };
}

describe("requestState key rotation", () => {
  it("verifies a token minted with the old key after rotation, and signs with the new key only", async () => {
    const { binding, token } = await minted(new RequestStateCodec(OLD, TTL));
    const rotated = new RequestStateCodec({ current: NEW, previous: [OLD] }, TTL);
    expect(await rotated.open(binding, token)).toEqual({ answers: { q: { action: "accept" } } });
    // What the rotated codec mints carries the new key: a codec that only knows the old one refuses it.
    const fresh = await minted(rotated);
    expect(await new RequestStateCodec(NEW, TTL).open(fresh.binding, fresh.token)).toEqual({ answers: { q: { action: "accept" } } });
    expect(await new RequestStateCodec(OLD, TTL).open(fresh.binding, fresh.token)).toEqual({ refused: "requestState failed its integrity check" });
  });

  it("refuses a token minted with a key that was removed", async () => {
    const { binding, token } = await minted(new RequestStateCodec(OLD, TTL));
    expect(await new RequestStateCodec({ current: NEW, previous: [OTHER] }, TTL).open(binding, token)).toEqual({
      refused: "requestState failed its integrity check",
    });
    expect(await new RequestStateCodec(NEW, TTL).open(binding, token)).toEqual({ refused: "requestState failed its integrity check" });
  });

  it("takes the keys from the environment when the option is absent, the option when it is given", async () => {
    const env = { MCP_REQUEST_STATE_SECRET: NEW, MCP_REQUEST_STATE_PREVIOUS_SECRETS: ` ${OTHER} ,${OLD},` };
    const { binding, token } = await minted(new RequestStateCodec(OLD, TTL));
    expect(await new RequestStateCodec(undefined, TTL, env).open(binding, token)).toEqual({ answers: { q: { action: "accept" } } });
    const keys = requestStateKeys(undefined, env);
    expect(keys.random).toBe(false);
    expect(keys.previous.map((k) => Buffer.from(k).toString())).toEqual([OTHER, OLD]);
    // The option wins over the environment, previous keys included.
    expect(await new RequestStateCodec(NEW, TTL, env).open(binding, token)).toEqual({ refused: "requestState failed its integrity check" });
    // Nothing configured: a random key per process, so two processes refuse each other's tokens.
    const a = requestStateKeys(undefined, {});
    expect(a.random).toBe(true);
    expect(Buffer.from(a.current).equals(Buffer.from(requestStateKeys(undefined, {}).current))).toBe(false);
    expect(await new RequestStateCodec(undefined, TTL, {}).open(binding, token)).toEqual({ refused: "requestState failed its integrity check" });
  });
});

describe("weak requestState keys", () => {
  const cases: [string, string | Uint8Array, RegExp][] = [
    ["empty", "", /must be at least 32 bytes \(got 0\)/],
    ["31 bytes", randomBytes(31), /must be at least 32 bytes \(got 31\)/],
    ["one character repeated", "k".repeat(32), /has 1 distinct byte value \(at least 8 wanted\)/],
    ["32 zero bytes", new Uint8Array(32), /has 1 distinct byte value/],
    ["seven characters", "abcdefgabcdefgabcdefgabcdefgabcdefg".slice(0, 33) + "gfedcba", /has 7 distinct byte values/],
    ["a pattern repeated", "0123456789abcdef".repeat(2), /repeats a 16-byte sequence/],
    ["a pattern repeated, cut short", "password1234".repeat(3).slice(0, 33), /repeats a 12-byte sequence/],
    [
      "a common password, repeated, then a run of digits",
      "passwordpassword12345678901234567",
      /is guessable \(about 22 bits, at least 128 wanted\): "password" is a common password, "password" repeats earlier text, "12345678901234567" is a run; a key a person makes up is not a key/,
    ],
    [
      "l33t spelling, a repeat, a run of letters",
      "P@ssw0rd!P@ssw0rd!2024abcdefghijklmnop",
      /is guessable \(about 57 bits, at least 128 wanted\): "P@ssw0rd" is a common password/,
    ],
    [
      "keyboard rows",
      "qwertyuiopasdfghjklzxcvbnm123456",
      /is guessable .*"qwertyuiop" is a common password, "asdfghjkl" is a common password, "zxcvbnm" is a common password/,
    ],
    ["hex digits in order, twice", "0123456789abcdef0123456789abcdeg", /is guessable .*"0123456789" is a run, "abcdef" is a run/],
    [
      "32 digits (106 bits at most)",
      "50938172640275913846029175384620",
      /is guessable \(about 99 bits, at least 128 wanted\): 32 characters of digits only, "3846" repeats earlier text/,
    ],
  ];
  it.each(cases)("refuses %s", (_, key, reason) => {
    expect(() => new RequestStateCodec(key, TTL)).toThrow(RangeError);
    expect(() => new RequestStateCodec(key, TTL)).toThrow(new RegExp(`^requestStateSecret ${reason.source}.*; make one with: node -e`));
  });

  it("accepts random keys: 32 bytes, base64url and base64 text, hex text of 16 and 32 bytes, a UUID (2,000 of each)", () => {
    const makers = [
      () => randomBytes(32),
      () => randomBytes(32).toString("base64url"),
      () => randomBytes(32).toString("base64"),
      () => randomBytes(16).toString("hex"),
      () => randomBytes(32).toString("hex"),
      () => randomUUID(),
    ];
    for (const make of makers)
      for (let i = 0; i < propertyRuns(400); i++) {
        const key = make();
        expect([String(key), keyWeakness(typeof key === "string" ? new TextEncoder().encode(key) : key)]).toEqual([String(key), undefined]);
      }
  });

  it("names where a weak key came from: a previous key, or an environment variable", () => {
    expect(() => new RequestStateCodec({ current: NEW, previous: [OLD, "x".repeat(40)] }, TTL)).toThrow(
      /^requestStateSecret\.previous\[1\] has 1 distinct byte value/,
    );
    expect(() => new RequestStateCodec({ current: "short", previous: [] }, TTL)).toThrow(/^requestStateSecret\.current must be at least 32 bytes/);
    expect(() => new RequestStateCodec(undefined, TTL, { MCP_REQUEST_STATE_SECRET: "" })).toThrow(
      /^MCP_REQUEST_STATE_SECRET must be at least 32 bytes \(got 0\)/,
    );
    expect(() => new RequestStateCodec(undefined, TTL, { MCP_REQUEST_STATE_SECRET: NEW, MCP_REQUEST_STATE_PREVIOUS_SECRETS: `${OLD},tiny` })).toThrow(
      /^MCP_REQUEST_STATE_PREVIOUS_SECRETS \(key 2\) must be at least 32 bytes \(got 4\)/,
    );
    expect(() => new RequestStateCodec(undefined, TTL, { MCP_REQUEST_STATE_PREVIOUS_SECRETS: OLD })).toThrow(
      /^MCP_REQUEST_STATE_PREVIOUS_SECRETS is set but MCP_REQUEST_STATE_SECRET is not/,
    );
  });
});

describe("a requestState codec made at load (Workers refuse random values outside a request)", () => {
  it("draws its random key at the first round, not when made; a configured key is checked when made", async () => {
    const draws = vi.spyOn(crypto, "getRandomValues");
    try {
      const codec = new RequestStateCodec(undefined, 60_000, {});
      expect(draws).not.toHaveBeenCalled();
      const token = await codec.mint("b", { answers: { a: 1 } });
      expect(draws).toHaveBeenCalledTimes(1);
      expect(await codec.open("b", token)).toEqual({ answers: { a: 1 } });
      // An empty list of previous keys configures nothing.
      new RequestStateCodec(undefined, 60_000, { MCP_REQUEST_STATE_PREVIOUS_SECRETS: " " });
      expect(draws).toHaveBeenCalledTimes(1);
    } finally {
      draws.mockRestore();
    }
    expect(() => new RequestStateCodec(undefined, 60_000, { MCP_REQUEST_STATE_SECRET: "short" })).toThrow(RangeError);
    expect(() => new RequestStateCodec("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", 60_000, {})).toThrow(/requestStateSecret/);
  });
});
