/**
 * What of an HTTP exchange the trace keeps, redacted as `pull` redacts its source
 * (src/common/redact.ts): the path with its query values and key-shaped segments as `...`, and the
 * headers that matter to MCP (record.ts, `TraceHttp.headers`), credentials as "[redacted]". Only
 * the log is redacted: the proxy forwards every byte as it came.
 */
import type { IncomingHttpHeaders } from "node:http";
import { isSecretName, redactUrl } from "../../common/redact.js";

const REDACTED = "[redacted]";

/** Headers kept as they are (besides `mcp-*`), though `www-authenticate` has a credential-like name. */
const KEPT = new Set(["content-type", "accept", "last-event-id", "www-authenticate", "mcp-protocol-version", "mcp-method", "mcp-name"]);

/** Path and query of a request, redacted (`/mcp?token=...`). */
export function redactPath(pathAndQuery: string): string {
  const url = new URL(pathAndQuery, "http://recorder.invalid");
  return redactUrl(url).slice("http://recorder.invalid".length);
}

/**
 * Session ids are bearer-like (whoever has one may act in the session): each distinct one is
 * logged as `[redacted session N]`, so a reader still sees which requests share a session.
 */
export class SessionNames {
  private readonly names = new Map<string, string>();
  name(id: string): string {
    let name = this.names.get(id);
    if (name === undefined) {
      name = `[redacted session ${this.names.size + 1}]`;
      this.names.set(id, name);
    }
    return name;
  }
}

/**
 * The headers a trace keeps, names lower-cased: `mcp-*`, content-type, accept, last-event-id,
 * www-authenticate as sent; `authorization`, `cookie`, `set-cookie`, `proxy-authorization` and any
 * other header whose name says credential (`x-api-key`) as "[redacted]"; the session id as its
 * pseudonym; the rest left out.
 */
export function redactHeaders(headers: IncomingHttpHeaders, sessions: SessionNames): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [raw, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    const name = raw.toLowerCase();
    const text = Array.isArray(value) ? value.join(", ") : value;
    if (name === "mcp-session-id") out[name] = sessions.name(text);
    else if (KEPT.has(name)) out[name] = text;
    else if (isSecretName(name)) out[name] = REDACTED;
    else if (name.startsWith("mcp-")) out[name] = text;
  }
  return out;
}

/**
 * OAuth's fields that carry credentials (RFC 6749, 7009, 7523, 7591, 7636, 8628, 8693), redacted
 * in bodies as well as any key whose name says credential (isSecretName).
 */
const OAUTH_SECRETS = new Set([
  "access_token",
  "refresh_token",
  "id_token",
  "client_secret",
  "code",
  "code_verifier",
  "client_assertion",
  "assertion",
  "password",
  "device_code",
  "user_code",
  "subject_token",
  "actor_token",
  "registration_access_token",
  "token",
]);

/** OAuth names that say token or secret but hold none: kinds, endpoints, methods, lifetimes (`token_type`, `token_endpoint`, `expires_in`). */
const DESCRIBES = /(_type|_types|_endpoint|_supported|_method|_methods|_uri|_uris|_in|_at|_challenge)$/;

const isCredentialKey = (key: string) => {
  const name = key.toLowerCase();
  return OAUTH_SECRETS.has(name) || (isSecretName(key) && !DESCRIBES.test(name));
};

/**
 * A body of an exchange that is not with the MCP endpoint (an authorization server's token,
 * registration or revocation endpoint on the same origin, a metadata document), redacted for the
 * log: in JSON, every credential key's value (at any depth) as "[redacted]"; in a form body, the
 * same by name. Other bodies are kept as they are. MCP messages themselves are never redacted:
 * they are the trace's subject (the README says tool arguments are kept as sent).
 */
export function redactBody(bytes: Buffer, contentType: string): Buffer {
  const type = contentType.split(";")[0]!.trim().toLowerCase();
  if (type === "application/x-www-form-urlencoded") {
    const form = new URLSearchParams(bytes.toString("utf8"));
    for (const key of new Set(form.keys())) if (isCredentialKey(key)) form.set(key, REDACTED);
    return Buffer.from(form.toString());
  }
  let value: unknown;
  try {
    value = JSON.parse(bytes.toString("utf8"));
  } catch {
    return bytes;
  }
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const node = stack.pop();
    if (typeof node !== "object" || node === null) continue;
    for (const [key, child] of Object.entries(node)) {
      if (!Array.isArray(node) && isCredentialKey(key) && (typeof child === "string" || typeof child === "number"))
        (node as Record<string, unknown>)[key] = REDACTED;
      else stack.push(child);
    }
  }
  try {
    return Buffer.from(JSON.stringify(value));
  } catch {
    // Nested too deep to write again (JSON.stringify's stack): not recorded, since it could not be redacted.
    return Buffer.from(JSON.stringify("[not recorded: a body nested too deep to redact]"));
  }
}
