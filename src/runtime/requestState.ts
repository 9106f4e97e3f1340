/**
 * The `requestState` of 2026-07-28 multi round-trip requests: what a handler was told in earlier
 * rounds, carried by the client between rounds. The client can read it (signed, not encrypted)
 * but not change it: an HMAC-SHA256 over the payload, bound to the method, the tool / prompt /
 * resource it is for, a digest of the arguments, and an expiry. MCP says servers must treat
 * requestState as attacker-controlled input; anything that fails these checks is -32602.
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";

/** What the engine keeps across rounds: the answers given so far, by input key. */
export interface RoundState {
  answers: Record<string, unknown>;
}

interface Sealed extends RoundState {
  v: 1;
  /** method, target and argument digest this state was minted for. */
  b: string;
  /** Expiry, milliseconds since the epoch. */
  exp: number;
}

export class RequestStateCodec {
  private readonly key: Buffer;

  /**
   * `secret`: the HMAC key. Servers answering one conversation from several processes (behind a
   * load balancer) must share it; by default each process draws a random one, so a retry that
   * reaches another process is refused with -32602 and the client starts over.
   */
  constructor(
    secret: string | Uint8Array | undefined,
    private readonly ttlMs: number,
  ) {
    this.key = secret === undefined ? randomBytes(32) : Buffer.from(secret);
  }

  mint(binding: string, state: RoundState): string {
    const sealed: Sealed = { v: 1, b: binding, exp: Date.now() + this.ttlMs, answers: state.answers };
    const payload = Buffer.from(JSON.stringify(sealed)).toString("base64url");
    return `${payload}.${this.sign(payload)}`;
  }

  /** The state, or a reason it is refused. */
  open(binding: string, token: unknown): RoundState | { refused: string } {
    if (typeof token !== "string") return { refused: "requestState must be a string" };
    const dot = token.indexOf(".");
    if (dot <= 0) return { refused: "malformed requestState" };
    const payload = token.slice(0, dot);
    const mac = Buffer.from(token.slice(dot + 1), "base64url");
    const expected = Buffer.from(this.sign(payload), "base64url");
    if (mac.length !== expected.length || !timingSafeEqual(mac, expected)) return { refused: "requestState failed its integrity check" };
    let sealed: Sealed;
    try {
      sealed = JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as Sealed;
    } catch {
      return { refused: "malformed requestState" };
    }
    if (sealed.v !== 1 || typeof sealed.answers !== "object" || sealed.answers === null) return { refused: "malformed requestState" };
    if (sealed.b !== binding) return { refused: "requestState was issued for another request" };
    if (!(sealed.exp > Date.now())) return { refused: "requestState has expired" };
    return { answers: sealed.answers };
  }

  private sign(payload: string): string {
    return createHmac("sha256", this.key).update(payload).digest("base64url");
  }
}

/** What a requestState is bound to: the method, its target, and the arguments' digest. */
export function stateBinding(method: string, target: string, args: unknown): string {
  const digest = createHash("sha256").update(canonicalJson(args)).digest("base64url");
  return `${method}\n${target}\n${digest}`;
}

/** JSON with object keys sorted, so the same arguments sent in another key order bind the same. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (typeof value === "object" && value !== null) {
    const keys = Object.keys(value).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}
