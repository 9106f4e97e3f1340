/**
 * validate/auth.ts and the auth field tables: each problem of `auth:` and of an entry's `scopes` /
 * `auth: none`, at its line and column, with the fix in the message; good manifests pass clean.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { formatDiagnostic, sortDiagnostics } from "../../../../src/common/diagnostics.js";
import { parseManifestText } from "../../../../src/generator/load/loadManifest.js";
import { validateManifest } from "../../../../src/generator/validate/validate.js";

/** What validation says of a manifest: `line:col severity code: message`, in the order mcpgen prints them. */
async function problemsOf(yaml: string): Promise<string[]> {
  const loaded = parseManifestText(yaml, "/nowhere/m.yaml", "m.yaml");
  if (!loaded.ok) throw new Error(loaded.diagnostics.map(formatDiagnostic).join("\n"));
  const { diagnostics } = await validateManifest(loaded.manifest);
  return sortDiagnostics(diagnostics).map((d) => `${d.line}:${d.col} ${d.severity} ${d.code}: ${d.message}`);
}

const SERVER = "server: {name: s, version: '1'}\n";
const JWT = "  jwt: {issuer: 'https://as.example.com', jwksUri: 'https://as.example.com/jwks'}\n";
/** An `auth:` block: the required fields, a jwt verifier, and these extra lines. */
const auth = (...lines: string[]) =>
  `auth:\n  resource: 'https://mcp.example.com/mcp'\n  authorizationServers: ['https://as.example.com']\n${lines.map((l) => `  ${l}\n`).join("")}`;
const TOOL = "{name: t, inputSchema: {type: object}";

const cases: [string, { given: string; want: string[] }][] = [
  ["a complete block, with http on loopback", { given: `${SERVER}${auth("scopesSupported: [a.read]", "defaultScopes: [a.read]")}${JWT}`, want: [] }],
  [
    "loopback URLs of each form",
    {
      given: `${SERVER}auth:\n  resource: 'http://localhost:3000/mcp'\n  authorizationServers: ['http://127.0.0.1:9000', 'http://[::1]:9000']\n  verifier: handler\n`,
      want: [],
    },
  ],
  [
    "no way to verify tokens",
    {
      given: `${SERVER}${auth()}`,
      want: [
        "2:1 error auth-verifier: `auth` has no way to verify tokens: add one of `jwt: {issuer, jwksUri}` (JWT access tokens), `introspection: {endpoint, clientId, clientSecretEnv}` (opaque tokens, RFC 7662) or `verifier: handler` (your verifyToken handler)",
      ],
    },
  ],
  [
    "two ways to verify tokens, located at the second",
    {
      given: `${SERVER}${auth("verifier: handler")}${JWT}`,
      want: ["5:3 error auth-verifier: `auth` has `jwt` and `verifier`: a server verifies tokens one way; keep exactly one"],
    },
  ],
  [
    "a resource over http outside loopback",
    {
      given: `${SERVER}auth:\n  resource: 'http://mcp.example.com/mcp'\n  authorizationServers: ['https://as.example.com']\n  verifier: handler\n`,
      want: [
        '3:13 error insecure-url: `resource` "http://mcp.example.com/mcp" must be https (tokens and keys must not travel in clear); plain http is allowed only on loopback (localhost, 127.0.0.1, [::1])',
      ],
    },
  ],
  [
    "an authorization server, issuer, jwksUri and endpoint over http",
    {
      given: `${SERVER}auth:\n  resource: 'https://mcp.example.com/mcp'\n  authorizationServers: ['http://as.example.com']\n  jwt: {issuer: 'http://as.example.com', jwksUri: 'http://10.0.0.1/jwks'}\n  introspection: {endpoint: 'http://as.example.com/introspect', clientId: rs, clientSecretEnv: SECRET}\n`,
      want: [
        '4:26 error insecure-url: authorization server "http://as.example.com" must be https (tokens and keys must not travel in clear); plain http is allowed only on loopback (localhost, 127.0.0.1, [::1])',
        '5:17 error insecure-url: `issuer` "http://as.example.com" must be https (tokens and keys must not travel in clear); plain http is allowed only on loopback (localhost, 127.0.0.1, [::1])',
        '5:51 error insecure-url: `jwksUri` "http://10.0.0.1/jwks" must be https (tokens and keys must not travel in clear); plain http is allowed only on loopback (localhost, 127.0.0.1, [::1])',
        "6:3 error auth-verifier: `auth` has `jwt` and `introspection`: a server verifies tokens one way; keep exactly one",
        '6:29 error insecure-url: `endpoint` "http://as.example.com/introspect" must be https (tokens and keys must not travel in clear); plain http is allowed only on loopback (localhost, 127.0.0.1, [::1])',
      ],
    },
  ],
  [
    "a resource that is no URL, or has a fragment",
    {
      given: `${SERVER}auth:\n  resource: mcp.example.com\n  authorizationServers: ['https://as.example.com/#x']\n  verifier: handler\n`,
      want: ['3:13 error invalid-value: `resource` "mcp.example.com" is not an absolute URL: write it whole, such as "https://auth.example.com"'],
    },
  ],
  [
    "a fragment on the resource",
    {
      given: `${SERVER}auth:\n  resource: 'https://mcp.example.com/mcp#top'\n  authorizationServers: ['https://as.example.com']\n  verifier: handler\n`,
      want: ["3:13 error invalid-value: `resource` must not have a fragment (RFC 8707): remove the `#...` part"],
    },
  ],
  [
    "required fields and an empty list of authorization servers",
    {
      given: `${SERVER}auth:\n  authorizationServers: []\n  verifier: handler\n`,
      want: [
        "3:3 error missing-field: `auth` is missing the required field `resource`",
        "3:25 error invalid-value: `authorizationServers` must not be an empty list",
      ],
    },
  ],
  [
    "a symmetric or absent JWS algorithm",
    {
      given: `${SERVER}${auth("jwt: {issuer: 'https://as.example.com', jwksUri: 'https://as.example.com/jwks', algorithms: [ES256, HS256, none]}")}`,
      want: [
        '5:103 error invalid-value: item must be one of "RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "ES512", "EdDSA", "Ed25519", not "HS256" (asymmetric algorithms only: the keys come from a public JWKS, so an HMAC (HS*) key would be public, and `none` is no signature)',
        '5:110 error invalid-value: item must be one of "RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "ES512", "EdDSA", "Ed25519", not "none" (asymmetric algorithms only: the keys come from a public JWKS, so an HMAC (HS*) key would be public, and `none` is no signature)',
      ],
    },
  ],
  [
    "a client secret written where its variable's name belongs",
    {
      given: `${SERVER}${auth("introspection: {endpoint: 'https://as.example.com/i', clientId: rs, clientSecretEnv: 's3cr3t-value!'}")}`,
      want: [
        "5:88 error invalid-name: `clientSecretEnv` \"s3cr3t-value!\" is not valid: use an environment variable name: letters, digits and '_', not starting with a digit",
      ],
    },
  ],
  [
    "a scope not in scopesSupported, with a did-you-mean",
    {
      given: `${SERVER}${auth("scopesSupported: [gifts.read, gifts.write]", "defaultScopes: [gifts.raed]")}${JWT}tools:\n  - ${TOOL}, scopes: [gifts.write, admin]}\n`,
      want: [
        '6:19 error unknown-scope: scope "gifts.raed" is not in `auth.scopesSupported` (did you mean "gifts.read"?): fix the name, or add it to scopesSupported (gifts.read, gifts.write)',
        '9:66 error unknown-scope: scope "admin" is not in `auth.scopesSupported`: fix the name, or add it to scopesSupported (gifts.read, gifts.write)',
      ],
    },
  ],
  ["any scope goes when scopesSupported is absent", { given: `${SERVER}${auth()}${JWT}prompts:\n  - {name: p, scopes: [anything, 'urn:x:y']}\n`, want: [] }],
  [
    "offline_access: an error where a challenge names it, a warning in scopesSupported",
    {
      given: `${SERVER}${auth("scopesSupported: [a, offline_access]", "defaultScopes: [offline_access]")}${JWT}resources:\n  - {uri: 'x://r', name: r, scopes: [offline_access]}\n`,
      want: [
        "5:24 warning offline-access: MCP servers should not list `offline_access` in scopesSupported (Protected Resource Metadata): remove it; a client asks for refresh tokens itself",
        "6:19 error offline-access: `offline_access` would be named in a WWW-Authenticate challenge, which MCP servers should not do: remove it (a client asks its authorization server for refresh tokens itself)",
        "9:38 error offline-access: `offline_access` would be named in a WWW-Authenticate challenge, which MCP servers should not do: remove it (a client asks its authorization server for refresh tokens itself)",
      ],
    },
  ],
  [
    "scope tokens that break RFC 6749's grammar",
    {
      given: `${SERVER}${auth('scopesSupported: ["a b", "say\\"hi", "back\\\\slash", ""]')}${JWT}`,
      want: [
        '5:21 error invalid-scope: scope "a b" breaks the OAuth scope grammar (RFC 6749 §3.3): write each scope as its own list item',
        '5:28 error invalid-scope: scope "say\\"hi" breaks the OAuth scope grammar (RFC 6749 §3.3): a scope is one or more printable ASCII characters other than space, `"` and `\\`',
        '5:39 error invalid-scope: scope "back\\\\slash" breaks the OAuth scope grammar (RFC 6749 §3.3): a scope is one or more printable ASCII characters other than space, `"` and `\\`',
        '5:54 error invalid-scope: scope "" breaks the OAuth scope grammar (RFC 6749 §3.3): a scope is one or more printable ASCII characters other than space, `"` and `\\`',
      ],
    },
  ],
  [
    "scopes and auth: none on a server without auth",
    {
      given: `${SERVER}tools:\n  - ${TOOL}, scopes: [a]}\nresourceTemplates:\n  - {uriTemplate: 'x://{id}', name: r, auth: none}\n`,
      want: [
        "3:44 error auth-not-enabled: `scopes` on a tool of a server without `auth:`: no token is asked for, so nothing would be checked; add a top-level `auth:` block (resource, authorizationServers and a way to verify tokens), or remove `scopes`",
        "5:40 error auth-not-enabled: `auth: none` on a resource template of a server without `auth:`: everything is callable without a token already; remove it, or add a top-level `auth:` block",
      ],
    },
  ],
  [
    "auth: none together with scopes",
    {
      given: `${SERVER}${auth()}${JWT}prompts:\n  - {name: p, auth: none, scopes: [a]}\n`,
      want: ["7:15 error auth-conflict: `auth: none` (callable without a token) and `scopes` (a token with these scopes) on one entry: keep one"],
    },
  ],
  [
    "securitySchemes written on a server with auth",
    {
      given: `${SERVER}${auth()}${JWT}tools:\n  - ${TOOL}, securitySchemes: [{type: noauth}]}\n`,
      want: [
        "7:44 error auth-conflict: `securitySchemes` is written by mcpgen from `scopes` and `auth: none` on a server with `auth:`: remove it, and say what the tool needs with `scopes: [...]` or `auth: none`",
      ],
    },
  ],
  [
    "securitySchemes kept as written on a server without auth (a pulled manifest)",
    { given: `${SERVER}tools:\n  - ${TOOL}, securitySchemes: [{type: oauth2, scopes: [a]}]}\n`, want: [] },
  ],
  [
    "auth: takes only none",
    {
      given: `${SERVER}${auth()}${JWT}tools:\n  - ${TOOL}, auth: required}\n`,
      want: ['7:50 error invalid-value: `auth` must be one of "none", not "required"'],
    },
  ],
];

describe("auth diagnostics", () => {
  it.each(cases)("%s", async (_, { given, want }) => {
    expect(await problemsOf(given)).toEqual(want);
  });
});

describe("the auth test fixtures", () => {
  it.each(["protected", "mixed", "hidden"])("%s.yaml is valid and warning-free", async (name) => {
    const text = readFileSync(new URL(`../../../fixtures/auth/${name}.yaml`, import.meta.url), "utf8");
    expect(await problemsOf(text)).toEqual([]);
  });
});
