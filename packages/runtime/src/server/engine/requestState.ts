/**
 * The `requestState` of 2026-07-28 multi round-trip requests: what a handler was told in earlier
 * rounds, carried by the client between rounds. The client can read it (signed, not encrypted)
 * but not change it: an HMAC-SHA256 over the payload, bound to the method, the tool / prompt /
 * resource it is for, a digest of the arguments, the caller on a server with `auth`, and an
 * expiry. MCP says servers must treat requestState as attacker-controlled input; anything that
 * fails these checks is -32602.
 */
// Web Crypto (global in Node 20 and browsers): importing the generated index.ts needs no Node types.
import { keyVariables, processEnvironment, requestStateKeys, type Environment, type RequestStateSecret } from "./requestStateKeys.js";

/** What the engine keeps across rounds: the answers given so far, by input key. */
interface RoundState {
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
  /** The key that signs, then the keys that still verify (rotation): imported at first use. */
  private imported: ReturnType<typeof crypto.subtle.importKey>[] | undefined;
  /** The raw keys; a random key is made at first use (Workers refuse random values at load). */
  private readonly raw: () => Uint8Array[];

  /**
   * `secret`: the HMAC key, or a current key and previous ones (see requestStateKeys.ts); absent,
   * the environment's, else a random one for this process. Servers answering one conversation
   * from several processes (behind a load balancer) must share it: with a random key, a retry that
   * reaches another process is refused with -32602 and the client starts over. A configured key
   * is checked here, so a weak one fails the factory, not a request.
   */
  constructor(
    secret: RequestStateSecret | undefined,
    private readonly ttlMs: number,
    env: Environment = processEnvironment(),
  ) {
    const variables = keyVariables(env);
    if (secret !== undefined || variables.current !== undefined || (variables.previous ?? "").trim() !== "") {
      const { current, previous } = requestStateKeys(secret, env);
      this.raw = () => [current, ...previous];
    } else this.raw = () => [requestStateKeys(undefined, env).current];
  }

  private get keys(): ReturnType<typeof crypto.subtle.importKey>[] {
    return (this.imported ??= this.raw().map((raw) =>
      crypto.subtle.importKey("raw", arrayBuffer(raw), { name: "HMAC", hash: "SHA-256" }, false, ["sign", "verify"]),
    ));
  }

  async mint(binding: string, state: RoundState): Promise<string> {
    const sealed: Sealed = { v: 1, b: binding, exp: Date.now() + this.ttlMs, answers: state.answers };
    const payload = toBase64Url(new TextEncoder().encode(JSON.stringify(sealed)));
    const mac = new Uint8Array(await crypto.subtle.sign("HMAC", await this.keys[0]!, utf8(payload)));
    return `${payload}.${toBase64Url(mac)}`;
  }

  /** The state, or a reason it is refused. */
  async open(binding: string, token: unknown): Promise<RoundState | { refused: string }> {
    if (typeof token !== "string") return { refused: "requestState must be a string" };
    const dot = token.indexOf(".");
    if (dot <= 0) return { refused: "malformed requestState" };
    const payload = token.slice(0, dot);
    const mac = fromBase64Url(token.slice(dot + 1));
    if (!mac) return { refused: "malformed requestState" };
    if (!(await this.verify(mac, payload))) return { refused: "requestState failed its integrity check" };
    let sealed: Sealed;
    try {
      const bytes = fromBase64Url(payload);
      if (!bytes) return { refused: "malformed requestState" };
      sealed = JSON.parse(new TextDecoder().decode(bytes)) as Sealed;
    } catch {
      return { refused: "malformed requestState" };
    }
    if (typeof sealed !== "object" || sealed === null || sealed.v !== 1 || typeof sealed.answers !== "object" || sealed.answers === null)
      return { refused: "malformed requestState" };
    if (sealed.b !== binding) {
      const request = (b: unknown) => (typeof b === "string" ? b.split("\n").slice(0, 3).join("\n") : undefined);
      return { refused: request(sealed.b) === request(binding) ? "requestState was issued to another caller" : "requestState was issued for another request" };
    }
    if (!(sealed.exp > Date.now())) return { refused: "requestState has expired" };
    return { answers: sealed.answers };
  }

  /** Whether any key (current, then previous) signed this payload; subtle.verify compares in constant time. */
  private async verify(mac: Uint8Array, payload: string): Promise<boolean> {
    for (const key of this.keys) if (await crypto.subtle.verify("HMAC", await key, arrayBuffer(mac), utf8(payload))) return true;
    return false;
  }
}

/**
 * What a requestState is bound to: the method, its target, the arguments' digest, and on a server
 * with `auth` the caller (a digest of the token's client and subject), so a state minted for one
 * user is refused when another presents it (MCP: state that influences authorization is bound to
 * the user). Within its ttl the same caller may present it again for the same request: the
 * handler then runs again with the same answers (docs/guides/multi-round-trip.md, Replays).
 */
export async function stateBinding(method: string, target: string, args: unknown, caller?: { clientId: string; subject?: string }): Promise<string> {
  const digest = async (text: string) => toBase64Url(new Uint8Array(await crypto.subtle.digest("SHA-256", utf8(text))));
  const who = caller === undefined ? "" : await digest(`${caller.clientId}\n${caller.subject ?? ""}`);
  return `${method}\n${target}\n${await digest(canonicalJson(args))}\n${who}`;
}

/** Bytes as a plain ArrayBuffer, which every Web Crypto typing accepts. */
function arrayBuffer(bytes: Uint8Array): ArrayBuffer {
  const copy = new ArrayBuffer(bytes.byteLength);
  new Uint8Array(copy).set(bytes);
  return copy;
}

function utf8(text: string): ArrayBuffer {
  return arrayBuffer(new TextEncoder().encode(text));
}

function toBase64Url(bytes: Uint8Array): string {
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/**
 * Undefined when `text` is not base64url. Never throws: `atob` rejects a length of 4n+1 with a
 * DOMException whose numeric `code` (5) the SDK would put on the wire instead of -32602.
 */
function fromBase64Url(text: string): Uint8Array | undefined {
  if (!/^[A-Za-z0-9_-]*$/.test(text) || text.length % 4 === 1) return undefined;
  try {
    const binary = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
    return Uint8Array.from(binary, (c) => c.charCodeAt(0));
  } catch {
    return undefined;
  }
}

/** Literal text in canonicalJson's work stack (anything else on it is a value to write). */
class Text {
  constructor(readonly text: string) {}
}

/**
 * JSON with object keys sorted, so the same arguments sent in another key order bind the same.
 * Iterative: arguments nested 100,000 deep (hostile, but valid JSON) do not overflow the stack.
 */
function canonicalJson(root: unknown): string {
  const out: string[] = [];
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const item = stack.pop();
    if (item instanceof Text) {
      out.push(item.text);
    } else if (Array.isArray(item)) {
      stack.push(new Text("]"));
      for (let i = item.length - 1; i >= 0; i--) {
        stack.push(item[i]);
        if (i > 0) stack.push(new Text(","));
      }
      out.push("[");
    } else if (typeof item === "object" && item !== null) {
      const keys = Object.keys(item).sort();
      stack.push(new Text("}"));
      for (let i = keys.length - 1; i >= 0; i--) {
        stack.push((item as Record<string, unknown>)[keys[i]!]);
        stack.push(new Text(`${i > 0 ? "," : ""}${JSON.stringify(keys[i])}:`));
      }
      out.push("{");
    } else {
      out.push(JSON.stringify(item) ?? "null");
    }
  }
  return out.join("");
}
