/**
 * The keys that sign and check 2026-07-28 `requestState`: one current key that signs, and
 * previous keys that still verify (key rotation), from the server options or, when the option is
 * absent, from the environment. Replicas behind a load balancer must share them: a round answered
 * by another replica is checked with that replica's keys.
 *
 * A weak key is refused when the server is made, never used: shorter than 32 bytes, fewer than 8
 * distinct byte values, one shorter sequence repeated, or guessable (keyStrength.ts: common
 * passwords, repeats, runs such as 12345, a small alphabet).
 */
import { keyStrength, MIN_KEY_BITS } from "./keyStrength.js";

/** A key as the options take it: text (its UTF-8 bytes are the key) or the bytes themselves. */
export type RequestStateKey = string | Uint8Array;

/**
 * `requestStateSecret`: one key, or a current key that signs and previous keys that still verify
 * (rotation: keep an old key in `previous` at least `requestStateTtlMs` after it stopped signing).
 */
export type RequestStateSecret = RequestStateKey | { current: RequestStateKey; previous?: readonly RequestStateKey[] };

/** The current key, when the option is absent. */
const SECRET_ENV = "MCP_REQUEST_STATE_SECRET";
/** Previous keys, comma-separated, when the option is absent. */
const PREVIOUS_SECRETS_ENV = "MCP_REQUEST_STATE_PREVIOUS_SECRETS";

/** The shortest key accepted, in bytes (as UTF-8 for a string). */
const MIN_SECRET_BYTES = 32;
/** The fewest distinct byte values a key may have: `"a".repeat(32)` or 32 zero bytes is no key. */
const MIN_DISTINCT_BYTES = 8;

const MAKE_ONE = `make one with: node -e "console.log(require('crypto').randomBytes(32).toString('base64url'))"`;

export interface RequestStateKeys {
  current: Uint8Array;
  previous: Uint8Array[];
  /** Whether the key was drawn at random for this process (nothing configured). */
  random: boolean;
}

/** What is read from the environment (Node's process.env; nothing where there is no process). */
export type Environment = Readonly<Record<string, string | undefined>>;

/**
 * The keys from the option, else from the environment, else a random key for this process.
 * Throws a RangeError naming the option or variable when a key is weak, or when previous keys are
 * configured without a current one.
 */
export function requestStateKeys(option: RequestStateSecret | undefined, env: Environment = processEnvironment()): RequestStateKeys {
  if (option !== undefined) {
    if (typeof option === "string" || option instanceof Uint8Array)
      return { current: checked(bytes(option), "requestStateSecret"), previous: [], random: false };
    return {
      current: checked(bytes(option.current), "requestStateSecret.current"),
      previous: (option.previous ?? []).map((key, i) => checked(bytes(key), `requestStateSecret.previous[${i}]`)),
      random: false,
    };
  }
  const current = env[SECRET_ENV];
  const previous = (env[PREVIOUS_SECRETS_ENV] ?? "")
    .split(",")
    .map((key) => key.trim())
    .filter((key) => key !== "");
  if (current === undefined) {
    if (previous.length > 0)
      throw new RangeError(`${PREVIOUS_SECRETS_ENV} is set but ${SECRET_ENV} is not: previous keys only verify, a current key must sign (set ${SECRET_ENV})`);
    return { current: crypto.getRandomValues(new Uint8Array(MIN_SECRET_BYTES)), previous: [], random: true };
  }
  return {
    current: checked(bytes(current), SECRET_ENV),
    previous: previous.map((key, i) => checked(bytes(key), `${PREVIOUS_SECRETS_ENV} (key ${i + 1})`)),
    random: false,
  };
}

/** Why `key` is too weak to sign requestState, or undefined when it is not. */
export function keyWeakness(key: Uint8Array): string | undefined {
  // HMAC-SHA256 wants a key at least as long as its output (RFC 2104): a short one can be guessed.
  if (key.length < MIN_SECRET_BYTES) return `must be at least ${MIN_SECRET_BYTES} bytes (got ${key.length})`;
  const distinct = new Set(key).size;
  if (distinct < MIN_DISTINCT_BYTES)
    return `has ${distinct} distinct byte value${distinct === 1 ? "" : "s"} (at least ${MIN_DISTINCT_BYTES} wanted): a repeated character is not a key`;
  const period = shortestPeriod(key);
  if (period * 2 <= key.length) return `repeats a ${period}-byte sequence: a repeated pattern is not a key`;
  const strength = keyStrength(key);
  if (strength.bits < MIN_KEY_BITS)
    return `is guessable (about ${strength.bits} bits, at least ${MIN_KEY_BITS} wanted): ${strength.reasons.join(", ")}; a key a person makes up is not a key`;
  return undefined;
}

function checked(key: Uint8Array, name: string): Uint8Array {
  const weakness = keyWeakness(key);
  if (weakness !== undefined) throw new RangeError(`${name} ${weakness}; ${MAKE_ONE}`);
  return key;
}

function bytes(key: RequestStateKey): Uint8Array {
  return typeof key === "string" ? new TextEncoder().encode(key) : key;
}

/** The length of the shortest p with key[i] === key[i + p] for every i (KMP's failure function). */
function shortestPeriod(key: Uint8Array): number {
  const border = new Array<number>(key.length).fill(0);
  for (let i = 1, k = 0; i < key.length; i++) {
    while (k > 0 && key[i] !== key[k]) k = border[k - 1]!;
    if (key[i] === key[k]) k++;
    border[i] = k;
  }
  return key.length - (border[key.length - 1] ?? 0);
}

/** The variables that configure the keys, as `env` has them. */
export function keyVariables(env: Environment): { current: string | undefined; previous: string | undefined } {
  return { current: env[SECRET_ENV], previous: env[PREVIOUS_SECRETS_ENV] };
}

/** process.env under Node; empty elsewhere (the runtime also loads where there is no process). */
export function processEnvironment(): Environment {
  const host = globalThis as { process?: { env?: Environment } };
  return host.process?.env ?? {};
}
