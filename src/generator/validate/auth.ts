/**
 * Stage 2c, the checks of `auth:` and of each entry's `scopes` / `auth: none` that the field
 * tables cannot make: exactly one way to verify tokens, https URLs (http on loopback only), scope
 * tokens that fit RFC 6749 and are declared in `scopesSupported`, never `offline_access` in a
 * challenge, and per-entry keys only where the server takes tokens.
 */
import type { Diagnostic, DocPath } from "../../common/diagnostics.js";
import { diagnosticAt, type LoadedManifest } from "../load/loadManifest.js";
import { isPlainObject } from "../../common/objects.js";
import { didYouMean } from "../../common/didYouMean.js";

/** The lists whose entries carry `scopes` / `auth: none`, with how a message names one. */
const ENTRY_LISTS = [
  ["tools", "a tool"],
  ["resources", "a resource"],
  ["resourceTemplates", "a resource template"],
  ["prompts", "a prompt"],
] as const;

const VERIFIERS = ["jwt", "introspection", "verifier"] as const;

/** Hosts where plain http is allowed: the machine itself (tests, a local authorization server). */
const LOOPBACK = new Set(["localhost", "127.0.0.1", "[::1]"]);

/** RFC 6749 §3.3: scope-token = 1*( %x21 / %x23-5B / %x5D-7E ). */
const SCOPE_TOKEN = /^[\x21\x23-\x5B\x5D-\x7E]+$/;

export function validateAuth(manifest: LoadedManifest): Diagnostic[] {
  const out: Diagnostic[] = [];
  const report = (path: DocPath, code: Diagnostic["code"], message: string, at: "key" | "value" = "value", severity?: "warning") =>
    out.push(diagnosticAt(manifest, path, code, message, { at, ...(severity ? { severity } : {}) }));
  const root = manifest.value as Record<string, unknown>;
  const auth = isPlainObject(root.auth) ? root.auth : undefined;
  const hasAuth = root.auth !== undefined;
  const supported = auth && Array.isArray(auth.scopesSupported) ? auth.scopesSupported.filter((s): s is string => typeof s === "string") : undefined;

  /** The scopes of one list: each a valid token, declared, and (where a challenge names it) not `offline_access`. */
  const checkScopes = (list: unknown, path: DocPath, inChallenge: boolean) => {
    if (!Array.isArray(list)) return;
    list.forEach((scope, i) => {
      if (typeof scope !== "string") return;
      const at = [...path, i];
      if (!SCOPE_TOKEN.test(scope)) {
        const why = /\s/.test(scope.trim())
          ? "write each scope as its own list item"
          : 'a scope is one or more printable ASCII characters other than space, `"` and `\\`';
        return report(at, "invalid-scope", `scope ${JSON.stringify(scope)} breaks the OAuth scope grammar (RFC 6749 §3.3): ${why}`);
      }
      if (scope === "offline_access") {
        if (inChallenge)
          return report(
            at,
            "offline-access",
            "`offline_access` would be named in a WWW-Authenticate challenge, which MCP servers should not do: remove it (a client asks its authorization server for refresh tokens itself)",
          );
        return report(
          at,
          "offline-access",
          "MCP servers should not list `offline_access` in scopesSupported (Protected Resource Metadata): remove it; a client asks for refresh tokens itself",
          "value",
          "warning",
        );
      }
      if (inChallenge && supported && !supported.includes(scope)) {
        const near = didYouMean(scope, supported);
        report(
          at,
          "unknown-scope",
          `scope ${JSON.stringify(scope)} is not in \`auth.scopesSupported\`${near ? ` (did you mean ${JSON.stringify(near)}?)` : ""}: fix the name, or add it to scopesSupported (${supported.join(", ")})`,
        );
      }
    });
  };

  for (const [list, what] of ENTRY_LISTS) {
    const entries = root[list];
    if (!Array.isArray(entries)) continue;
    entries.forEach((entry, i) => {
      if (!isPlainObject(entry)) return;
      const path = [list, i];
      if (!hasAuth) {
        if (entry.scopes !== undefined)
          report(
            [...path, "scopes"],
            "auth-not-enabled",
            `\`scopes\` on ${what} of a server without \`auth:\`: no token is asked for, so nothing would be checked; add a top-level \`auth:\` block (resource, authorizationServers and a way to verify tokens), or remove \`scopes\``,
            "key",
          );
        if (entry.auth !== undefined)
          report(
            [...path, "auth"],
            "auth-not-enabled",
            `\`auth: none\` on ${what} of a server without \`auth:\`: everything is callable without a token already; remove it, or add a top-level \`auth:\` block`,
            "key",
          );
        return;
      }
      if (entry.auth !== undefined && entry.scopes !== undefined)
        report(
          [...path, "auth"],
          "auth-conflict",
          `\`auth: none\` (callable without a token) and \`scopes\` (a token with these scopes) on one entry: keep one`,
          "key",
        );
      if (list === "tools" && entry.securitySchemes !== undefined)
        report(
          [...path, "securitySchemes"],
          "auth-conflict",
          "`securitySchemes` is written by mcpgen from `scopes` and `auth: none` on a server with `auth:`: remove it, and say what the tool needs with `scopes: [...]` or `auth: none`",
          "key",
        );
      checkScopes(entry.scopes, [...path, "scopes"], true);
    });
  }
  if (!auth) return out;

  const verifiers = VERIFIERS.filter((key) => auth[key] !== undefined);
  if (verifiers.length === 0)
    report(
      ["auth"],
      "auth-verifier",
      "`auth` has no way to verify tokens: add one of `jwt: {issuer, jwksUri}` (JWT access tokens), `introspection: {endpoint, clientId, clientSecretEnv}` (opaque tokens, RFC 7662) or `verifier: handler` (your verifyToken handler)",
      "key",
    );
  else if (verifiers.length > 1)
    report(
      ["auth", verifiers[1]!],
      "auth-verifier",
      `\`auth\` has ${verifiers.map((v) => `\`${v}\``).join(" and ")}: a server verifies tokens one way; keep exactly one`,
      "key",
    );

  const checkUrl = (value: unknown, path: DocPath, what: string) => {
    if (typeof value !== "string" || value === "") return; // the field table reports it
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      return report(path, "invalid-value", `${what} ${JSON.stringify(value)} is not an absolute URL: write it whole, such as "https://auth.example.com"`);
    }
    if (url.protocol === "https:") return;
    if (url.protocol === "http:" && LOOPBACK.has(url.hostname)) return;
    report(
      path,
      "insecure-url",
      `${what} ${JSON.stringify(value)} must be https (tokens and keys must not travel in clear); plain http is allowed only on loopback (localhost, 127.0.0.1, [::1])`,
    );
  };
  checkUrl(auth.resource, ["auth", "resource"], "`resource`");
  if (typeof auth.resource === "string" && URL.canParse(auth.resource) && new URL(auth.resource).hash !== "")
    report(["auth", "resource"], "invalid-value", "`resource` must not have a fragment (RFC 8707): remove the `#...` part");
  if (Array.isArray(auth.authorizationServers))
    auth.authorizationServers.forEach((server, i) => checkUrl(server, ["auth", "authorizationServers", i], "authorization server"));
  if (isPlainObject(auth.jwt)) {
    checkUrl(auth.jwt.issuer, ["auth", "jwt", "issuer"], "`issuer`");
    checkUrl(auth.jwt.jwksUri, ["auth", "jwt", "jwksUri"], "`jwksUri`");
  }
  if (isPlainObject(auth.introspection)) checkUrl(auth.introspection.endpoint, ["auth", "introspection", "endpoint"], "`endpoint`");

  checkScopes(auth.scopesSupported, ["auth", "scopesSupported"], false);
  checkScopes(auth.defaultScopes, ["auth", "defaultScopes"], true);
  return out;
}
