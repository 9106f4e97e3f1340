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
