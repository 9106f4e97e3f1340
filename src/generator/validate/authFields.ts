/**
 * The field table of the server-level `auth:` block (the per-entry `scopes` and `auth: none` are
 * fields of the entries, in fields.ts): who may call what. The checks across fields (URLs,
 * scopes, one verifier) are in validate/auth.ts.
 */
import type { FieldSpec, Fields } from "./fields.js";

/** The asymmetric JWS algorithms a JWT access token may be signed with (RFC 7518, RFC 8037). */
const JWT_ALGORITHMS = ["RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "ES512", "EdDSA", "Ed25519"] as const;

/** A URL of the `auth` block: https, or http on loopback (checked in validate/auth.ts). */
const authUrl = (doc: string) => ({ kind: "string", required: true, nonEmpty: true, expected: "a URL (a non-empty string)", doc }) as const satisfies FieldSpec;

/** The server-level `auth:` block: the server is an OAuth 2.1 resource server (MCP "Authorization"). */
export const authFields = {
  resource: authUrl(
    "This server's canonical URL (RFC 8707 resource, RFC 9728 `resource`): tokens must name it as their audience. https, or http on loopback (localhost, 127.0.0.1, [::1]); normalized once (`new URL(x).href`). `MCP_AUTH_RESOURCE` overrides it at run time (the public URL behind a proxy).",
  ),
  authorizationServers: {
    kind: "list",
    item: { kind: "string", nonEmpty: true, expected: "a URL (a non-empty string)" },
    required: true,
    nonEmpty: true,
    doc: "The issuer URLs of the authorization servers that issue tokens for this server (Protected Resource Metadata `authorization_servers`). https, or http on loopback.",
  },
  scopesSupported: {
    kind: "stringList",
    doc: "Every scope this server understands (PRM `scopes_supported`). When set, every scope named in the manifest must be one of them. `offline_access` here is a warning (MCP: SHOULD NOT).",
  },
  defaultScopes: {
    kind: "stringList",
    doc: "The scopes of every tool, resource, template and prompt that names none; also the `scope=` of a 401's challenge (absent: no `scope=`). Never `offline_access`.",
  },
  hideUnauthorized: {
    kind: "anyOf",
    of: [{ kind: "boolean" }, { kind: "string", oneOf: ["strict"] }],
    expected: "true, false or strict",
    doc: "`true`: lists show each caller only the entries its token may use (without a token, only the `auth: none` ones), with `cacheScope: private`; a call, read or get of a hidden entry is still answered 401/403 with its scopes. `strict`: the same lists, and every hidden entry answers as an unknown name would (-32602), so neither names nor scopes can be probed; a client is then never told to sign in for one. Default false: everyone sees every entry with its `securitySchemes`.",
  },
  resourceName: { kind: "string", doc: "PRM `resource_name`, for people (default: the server's `title`, else its `name`)." },
  resourceDocumentation: { kind: "string", doc: "PRM `resource_documentation`: a URL where people read about this server." },
  jwt: {
    kind: "record",
    doc: "Verify JWT access tokens (RFC 9068) with the issuer's public keys: signature, `iss`, `aud` = `resource`, `exp`/`nbf`. One of `jwt`, `introspection`, `verifier`.",
    fields: {
      issuer: authUrl(
        "The `iss` every token must carry: the authorization server's issuer URL. `MCP_AUTH_ISSUER` (with `MCP_AUTH_JWKS_URI`) overrides it at run time, and `authorizationServers` with it (`mcpgen auth dev` prints them).",
      ),
      jwksUri: authUrl(
        "Where the issuer's public keys (a JWKS) are fetched; cached, and fetched again on an unknown `kid`. `MCP_AUTH_JWKS_URI` overrides it at run time.",
      ),
      algorithms: {
        kind: "list",
        nonEmpty: true,
        item: {
          kind: "string",
          oneOf: JWT_ALGORITHMS,
          oneOfHint: "asymmetric algorithms only: the keys come from a public JWKS, so an HMAC (HS*) key would be public, and `none` is no signature",
        },
        doc: "The signature algorithms accepted (default `[RS256, ES256]`); asymmetric ones only, never `none` or `HS*`.",
      },
    },
  },
  introspection: {
    kind: "record",
    doc: "Verify opaque tokens by asking the authorization server (RFC 7662 token introspection); answers are cached briefly. One of `jwt`, `introspection`, `verifier`.",
    fields: {
      endpoint: authUrl("The introspection endpoint's URL."),
      clientId: { kind: "string", required: true, nonEmpty: true, doc: "The client id this server authenticates with at the endpoint." },
      clientSecretEnv: {
        kind: "string",
        required: true,
        pattern: /^[A-Za-z_][A-Za-z0-9_]*$/,
        patternHint: "an environment variable name: letters, digits and '_', not starting with a digit",
        doc: "The environment variable that holds the client's secret (never the secret itself).",
      },
    },
  },
  verifier: {
    kind: "string",
    oneOf: ["handler"],
    doc: "`handler`: tokens are checked by your `verifyToken(token)` handler (API keys, another token format). One of `jwt`, `introspection`, `verifier`.",
  },
} as const satisfies Fields;
