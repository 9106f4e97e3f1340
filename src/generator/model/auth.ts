/**
 * Who may call what (the manifest's `auth:`): the server-level settings with their defaults, each
 * entry's access rule with `defaultScopes` applied, and a tool's `securitySchemes` as it goes on
 * the wire (OpenAI Apps SDK form, derived from the rule).
 */
import type { AccessRule } from "@mcpgen/runtime/shared";
import { setOwn } from "../../common/objects.js";
import type { Manifest } from "../validate/manifestTypes.js";
import type { AuthModel } from "./types.js";
import type { Json, JsonObject } from "../../common/objects.js";

/** The JWS algorithms a `jwt` verifier accepts when the manifest names none. */
const DEFAULT_JWT_ALGORITHMS = ["RS256", "ES256"] as const;

/**
 * The server's `auth:` resolved, or undefined when it has none. The rules of its entries are on
 * their models (`access`); the definition gathers them.
 */
export function buildAuth(root: Manifest): AuthModel | undefined {
  const auth = root.auth;
  if (auth === undefined) return undefined;
  const verifier: AuthModel["verifier"] = auth.jwt
    ? { kind: "jwt", issuer: auth.jwt.issuer, jwksUri: auth.jwt.jwksUri, algorithms: [...(auth.jwt.algorithms ?? DEFAULT_JWT_ALGORITHMS)] }
    : auth.introspection
      ? { kind: "introspection", ...auth.introspection }
      : { kind: "handler" };
  return {
    // Normalized once, as the audience check compares it exactly (`https://x.example` -> `https://x.example/`).
    resource: new URL(auth.resource).href,
    authorizationServers: [...auth.authorizationServers],
    ...(auth.scopesSupported ? { scopesSupported: [...auth.scopesSupported] } : {}),
    ...(auth.defaultScopes ? { defaultScopes: [...auth.defaultScopes] } : {}),
    resourceName: auth.resourceName ?? root.server.title ?? root.server.name,
    ...(auth.resourceDocumentation === undefined ? {} : { resourceDocumentation: auth.resourceDocumentation }),
    verifier,
    hideUnauthorized: auth.hideUnauthorized === "strict" ? "strict" : auth.hideUnauthorized === true,
  };
}

/**
 * What an entry needs on a server with `auth:`: nothing (`none`), its `scopes`, or the server's
 * `defaultScopes` (else any valid token: `[]`). Undefined on a server without `auth:`.
 */
export function accessRule(root: Manifest, entry: { readonly scopes?: readonly string[]; readonly auth?: "none" }): AccessRule | undefined {
  if (root.auth === undefined) return undefined;
  if (entry.auth === "none") return "none";
  return [...(entry.scopes ?? root.auth.defaultScopes ?? [])];
}

/** A tool's `securitySchemes` for its rule: `noauth` for `none`, else `oauth2` with the scopes it needs. */
function securitySchemes(rule: AccessRule): Json[] {
  return rule === "none" ? [{ type: "noauth" }] : [{ type: "oauth2", scopes: [...rule] }];
}

/**
 * Puts a tool's `securitySchemes` on its wire entry: at the top level, and mirrored in `_meta`
 * after the tool's own keys (for clients that read only `_meta`).
 */
export function addSecuritySchemes(wire: JsonObject, rule: AccessRule): void {
  const schemes = securitySchemes(rule);
  setOwn(wire, "securitySchemes", schemes);
  const meta: JsonObject = {};
  const own = wire._meta;
  if (typeof own === "object" && own !== null && !Array.isArray(own)) for (const [key, value] of Object.entries(own)) setOwn(meta, key, value);
  setOwn(meta, "securitySchemes", securitySchemes(rule));
  setOwn(wire, "_meta", meta);
}

/** The keys of an entry that are mcpgen's, never served: who may use it. */
export const ACCESS_KEYS = ["scopes", "auth"] as const;
