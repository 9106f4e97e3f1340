/**
 * The authorization gate of a server with `auth` on Streamable HTTP (docs/guides/authorization.md):
 * the token verified (JWT, introspection or the user's verifier, behind the verified-token
 * cache), then, per JSON-RPC request of the body, the scopes its tool, resource, template or
 * prompt needs, all decided before any handler runs. The answers are the SDK's
 * (verifyBearerToken, bearerAuthChallengeResponse): 401 invalid_token, 403 insufficient_scope
 * naming every scope the operation needs, 500 when the authorization server cannot be reached.
 */
import type { AccessRule, AuthDefinition, JsonObject, ServerDefinition } from "../../shared/definition.js";
import { parseUriTemplate, type UriTemplate } from "../../shared/uriTemplate.js";
import { authContextOf, meetsRule, sdkAuthInfo } from "../engine/authInfo.js";
import type { TokenVerifier } from "../engine/handlerTypes.js";
import { bearerAuthChallengeResponse, OAuthErrorClass, OAuthErrorCode, resourceMetadataUrlOf, verifyBearerToken, type SdkAuthInfo } from "../engine/sdk.js";
import { cannotVerify, insufficientScope, invalidToken } from "./errors.js";
import { introspectionVerifier } from "./introspection.js";
import { jwtVerifier, loadJose } from "./jwtVerifier.js";
import { metadataPaths, metadataResponse, protectedResourceMetadata } from "./metadata.js";
import type { AuthOptions, HttpAuthGate } from "../engine/parts.js";
import { authLimits, type AuthLimits } from "./options.js";
import { TokenCache } from "./tokenCache.js";

/** A request's need: the rule of what it names, and that thing in words. */
interface Need {
  rule: AccessRule;
  what: string;
}

export class AuthGate implements HttpAuthGate {
  /** Whether some entry is `auth: none`: then the body is read before the token is checked. */
  readonly mixed: boolean;
  readonly resource: string;
  readonly resourceMetadataUrl: string;
  private readonly expectedResource: URL;
  private readonly document: JsonObject;
  private readonly paths: Set<string>;
  private readonly templates: { name: string; matcher: UriTemplate }[];
  private readonly staticResources: Set<string>;
  private readonly challenges = new Map<string, string>();
  private lastReport = 0;
  private enabled: (kind: "resources" | "resourceTemplates", name: string) => boolean = () => true;

  constructor(
    private readonly auth: AuthDefinition,
    definition: ServerDefinition,
    resource: string,
    endpoint: string,
    private readonly verifier: TokenCache,
  ) {
    this.resource = resource;
    this.expectedResource = new URL(resource);
    this.resourceMetadataUrl = resourceMetadataUrlOf(this.expectedResource);
    this.document = protectedResourceMetadata(auth, resource, definition.serverInfo);
    this.paths = metadataPaths(resource, endpoint);
    this.templates = definition.resourceTemplates.map((t) => ({ name: t.name, matcher: parseUriTemplate(t.uriTemplate) }));
    this.staticResources = new Set(definition.resources.map((r) => r.resource.uri));
    const tables = [auth.tools, auth.resources, auth.resourceTemplates, auth.prompts];
    this.mixed = tables.some((table) => Object.values(table).includes("none"));
  }

  /** The Protected Resource Metadata answer when `path` is one of its well-known paths. */
  metadata(path: string, method: string): Response | undefined {
    return this.paths.has(path) ? metadataResponse(this.document, method) : undefined;
  }

  /** The verified token of an Authorization header, or the 401/500 answer. */
  async authenticate(authorization: string | undefined, hint: readonly string[] = this.auth.defaultScopes ?? []): Promise<SdkAuthInfo | Response> {
    try {
      return await verifyBearerToken(authorization, {
        verifier: this.verifier,
        resourceMetadataUrl: this.resourceMetadataUrl,
        expectedResource: this.expectedResource,
      });
    } catch (error) {
      this.report(error);
      return this.challenge(error, hint);
    }
  }

  /**
   * After the body is read: the token (checked here on a mixed server, where a request without
   * one is anonymous), then each JSON-RPC request's scopes. Undefined: anonymous; a Response:
   * the refusal. An anonymous tools/call of a protected tool goes on: the engine answers it
   * with the tool-error form (toolChallenge).
   */
  async admit(body: unknown, authorization: string | undefined, verified: SdkAuthInfo | undefined): Promise<SdkAuthInfo | undefined | Response> {
    const needs = requestsOf(body).flatMap((request) =>
      this.needsOf(request).flatMap((need) => (need.rule === "none" ? [] : [{ method: request["method"], need }])),
    );
    let info = verified;
    if (info === undefined && authorization !== undefined) {
      const checked = await this.authenticate(authorization);
      if (checked instanceof Response) return checked;
      info = checked;
    }
    // strict: a request naming an entry its token may not use goes on, and the engine answers it as an
    // unknown name. Not a listen stream: the engine does not serve it, so its resources are judged here.
    if (this.auth.hideUnauthorized === "strict" && !needs.some((n) => n.method === "subscriptions/listen")) return info;
    if (info === undefined) {
      const refused = needs.filter((n) => n.method !== "tools/call");
      if (refused.length === 0) return undefined;
      const scopes = union(refused.map((n) => n.need.rule));
      return this.challenge(invalidToken(`${refused[0]!.need.what} needs an access token`), scopes.length > 0 ? scopes : (this.auth.defaultScopes ?? []));
    }
    const lacking = needs.filter((n) => !meetsRule(n.need.rule, info.scopes));
    if (lacking.length === 0) return info;
    const scopes = union(lacking.map((n) => n.need.rule));
    const error = insufficientScope(`${lacking.map((n) => n.need.what).join(", ")} needs the scopes ${scopes.join(" ")}`);
    return this.challenge(error, scopes);
  }

  /** Who a token speaks for (subject and client): a 2025-era session stays with the principal that uses it first. */
  principal(info: SdkAuthInfo | undefined): string | undefined {
    if (info === undefined) return undefined;
    const auth = authContextOf(info);
    return JSON.stringify([auth.subject ?? null, auth.clientId]);
  }

  /** The WWW-Authenticate value of the tool-error form, for a protected tool called without a token. */
  toolChallenge(tool: string): string {
    let found = this.challenges.get(tool);
    if (found === undefined) {
      const rule = this.auth.tools[tool] ?? [];
      const scopes = rule === "none" ? [] : withoutOfflineAccess(rule);
      const response = this.challenge(insufficientScope(`Tool ${tool} needs authorization`), scopes);
      found = response.headers.get("www-authenticate") ?? `Bearer resource_metadata="${this.resourceMetadataUrl}"`;
      this.challenges.set(tool, found);
    }
    return found;
  }

  useSwitches(enabled: (kind: "resources" | "resourceTemplates", name: string) => boolean): void {
    this.enabled = enabled;
  }

  private challenge(error: unknown, scopes: readonly string[]): Response {
    return bearerAuthChallengeResponse(error, { requiredScopes: withoutOfflineAccess(scopes), resourceMetadataUrl: this.resourceMetadataUrl });
  }

  /**
   * The rules of what one JSON-RPC request names. A 2026-07-28 subscriptions/listen names the
   * resources whose updates it asks for: each is judged as a read of it (the 2025-era
   * resources/subscribe is too), so no stream carries updates of a resource its caller may not read.
   */
  private needsOf(request: JsonObject): Need[] {
    if (request["method"] !== "subscriptions/listen") {
      const need = this.needOf(request);
      return need === undefined ? [] : [need];
    }
    const params = isObject(request["params"]) ? request["params"] : {};
    const filter = isObject(params["notifications"]) ? params["notifications"] : {};
    const uris = Array.isArray(filter["resourceSubscriptions"]) ? filter["resourceSubscriptions"] : [];
    return uris.flatMap((uri) => {
      const need = typeof uri === "string" ? this.resourceNeed(uri) : undefined;
      return need === undefined ? [] : [need];
    });
  }

  /** The rule of what one JSON-RPC request names; undefined for methods that name nothing protected. */
  private needOf(request: JsonObject): Need | undefined {
    const params = isObject(request["params"]) ? request["params"] : {};
    const name = params["name"];
    const uri = params["uri"];
    switch (request["method"]) {
      case "tools/call":
        return typeof name === "string" ? { rule: ruleIn(this.auth.tools, name), what: `Tool ${name}` } : undefined;
      case "prompts/get":
        return typeof name === "string" ? { rule: ruleIn(this.auth.prompts, name), what: `Prompt ${name}` } : undefined;
      case "resources/read":
      case "resources/subscribe":
      case "resources/unsubscribe":
        return typeof uri === "string" ? this.resourceNeed(uri) : undefined;
      case "completion/complete": {
        const ref = isObject(params["ref"]) ? params["ref"] : {};
        if (ref["type"] === "ref/prompt" && typeof ref["name"] === "string")
          return { rule: ruleIn(this.auth.prompts, ref["name"]), what: `Prompt ${ref["name"]}` };
        const template = this.templates.find((t) => t.matcher.template === ref["uri"]);
        return template ? { rule: ruleIn(this.auth.resourceTemplates, template.name), what: `Resource template ${template.name}` } : undefined;
      }
    }
    return undefined;
  }

  /**
   * The rule of the entry that would serve `uri`, as the engine picks it: the resource of that URI,
   * else the first template switched on whose pattern matches. (A `visible` filter may still send
   * one caller to a later template: the engine checks that entry's rule again before it runs.)
   */
  private resourceNeed(uri: string): Need | undefined {
    if (Object.hasOwn(this.auth.resources, uri) || this.staticResources.has(uri)) return { rule: ruleIn(this.auth.resources, uri), what: `Resource ${uri}` };
    const template = this.templates.find((t) => this.enabled("resourceTemplates", t.name) && t.matcher.match(uri) !== undefined);
    return template ? { rule: ruleIn(this.auth.resourceTemplates, template.name), what: `Resource ${uri}` } : undefined;
  }

  /** A failure to verify (the authorization server unreachable, a bug) is reported at most every 10 s, not only answered 500. */
  private report(error: unknown): void {
    const ours = !(error instanceof OAuthErrorClass) || error.code === OAuthErrorCode.ServerError;
    if (!ours) return;
    const now = Date.now();
    if (now - this.lastReport < 10_000) return;
    this.lastReport = now;
    if (error instanceof OAuthErrorClass) console.error(`[mcpgen] auth: ${error.message}`);
    else console.error("[mcpgen] auth: token verification failed:", error);
  }
}

/**
 * The gate of a server with `auth`, or undefined without it. Loads `jose` for `auth.jwt` with
 * `importJose` (the `jwtAuthGate` part passes it); refuses to start without the introspection
 * secret or the verifyToken handler it needs.
 */
export async function openAuthGate(
  definition: ServerDefinition,
  endpoint: string,
  options: AuthOptions | undefined,
  verifyToken: TokenVerifier | undefined,
  env: Record<string, string | undefined>,
  importJose?: () => Promise<unknown>,
): Promise<AuthGate | undefined> {
  if (definition.auth === undefined) return undefined;
  const auth = withIssuerFrom(definition.auth, env);
  const limits = authLimits(options);
  const resource = resourceOf(auth, env);
  const resourceMetadataUrl = resourceMetadataUrlOf(new URL(resource));
  const verify = await verifierOf(auth, resource, resourceMetadataUrl, limits, verifyToken, env, importJose);
  const introspects = auth.verifier.kind === "introspection";
  const cache = new TokenCache(
    introspects ? limits.introspectionCacheMax : limits.tokenCacheMax,
    introspects ? limits.introspectionCacheTtlMs : limits.tokenCacheTtlMs,
    verify,
    limits.tokenCacheMaxBytes,
  );
  return new AuthGate(auth, definition, resource, endpoint, cache);
}

/**
 * The manifest's `auth`, or, with MCP_AUTH_ISSUER set, the same with that issuer: the `iss` its
 * JWTs must carry and the one authorization server its metadata names, and MCP_AUTH_JWKS_URI its
 * keys (both needed; `auth.jwt` only). What `mcpgen auth dev` prints, to try a server whose
 * manifest names a hosted provider against a development one.
 */
function withIssuerFrom(auth: AuthDefinition, env: Record<string, string | undefined>): AuthDefinition {
  const issuer = env["MCP_AUTH_ISSUER"];
  const jwksUri = env["MCP_AUTH_JWKS_URI"];
  if ((issuer === undefined || issuer === "") && (jwksUri === undefined || jwksUri === "")) return auth;
  if (auth.verifier.kind !== "jwt")
    throw new Error(
      `MCP_AUTH_ISSUER and MCP_AUTH_JWKS_URI apply to auth.jwt; this server's auth uses ${auth.verifier.kind === "handler" ? "verifier: handler" : "introspection"}`,
    );
  if (issuer === undefined || issuer === "" || jwksUri === undefined || jwksUri === "")
    throw new Error("MCP_AUTH_ISSUER and MCP_AUTH_JWKS_URI go together (the issuer's tokens and the keys that sign them): set both, or neither");
  for (const [name, value] of [
    ["MCP_AUTH_ISSUER", issuer],
    ["MCP_AUTH_JWKS_URI", jwksUri],
  ] as const) {
    if (!URL.canParse(value)) throw new Error(`${name} must be an absolute URL such as https://auth.example.com, not ${JSON.stringify(value)}`);
  }
  return { ...auth, authorizationServers: [issuer], verifier: { ...auth.verifier, issuer, jwksUri } };
}

/** The resource: MCP_AUTH_RESOURCE (the public URL behind a proxy) or the manifest's, as URL.href. */
function resourceOf(auth: AuthDefinition, env: Record<string, string | undefined>): string {
  const override = env["MCP_AUTH_RESOURCE"];
  if (override === undefined || override === "") return new URL(auth.resource).href;
  try {
    return new URL(override).href;
  } catch {
    throw new Error(`MCP_AUTH_RESOURCE must be an absolute URL such as https://mcp.example.com/mcp, not ${JSON.stringify(override)}`);
  }
}

async function verifierOf(
  auth: AuthDefinition,
  resource: string,
  resourceMetadataUrl: string,
  limits: AuthLimits,
  verifyToken: TokenVerifier | undefined,
  env: Record<string, string | undefined>,
  importJose: (() => Promise<unknown>) | undefined,
): Promise<(token: string) => Promise<SdkAuthInfo>> {
  const v = auth.verifier;
  switch (v.kind) {
    case "jwt":
      if (importJose === undefined)
        throw new Error(
          "auth.jwt is served with the jwtAuthGate part of @mcpgen/runtime/server/auth/jwt, which loads jose: regenerate the server (its generated code passes it)",
        );
      return jwtVerifier(await loadJose(importJose), { issuer: v.issuer, jwksUri: v.jwksUri, algorithms: v.algorithms, resource, resourceMetadataUrl }, limits);
    case "introspection": {
      const secret = env[v.clientSecretEnv];
      if (secret === undefined || secret === "")
        throw new Error(
          `auth.introspection needs this server's client secret in the environment variable ${v.clientSecretEnv} (client ${v.clientId}): set it before starting`,
        );
      return introspectionVerifier({
        endpoint: v.endpoint,
        clientId: v.clientId,
        clientSecret: secret,
        resource,
        resourceMetadataUrl,
        timeoutMs: limits.introspectionTimeoutMs,
        clockSkewSeconds: limits.clockSkewSeconds,
      });
    }
    case "handler":
      if (verifyToken === undefined)
        throw new Error(`auth.verifier is "handler" but the server's handlers have no verifyToken: add it to the handlers passed to createServerFactory`);
      return handlerVerifier(verifyToken, resource, resourceMetadataUrl);
  }
}

/** `verifier: handler`: the user's function; undefined is a 401, a throw a 500 (unless it throws an OAuthError). */
function handlerVerifier(verifyToken: TokenVerifier, resource: string, resourceMetadataUrl: string): (token: string) => Promise<SdkAuthInfo> {
  const resourceUrl = new URL(resource);
  return async (token) => {
    let found: Awaited<ReturnType<TokenVerifier>>;
    try {
      found = await verifyToken(token);
    } catch (error) {
      if (error instanceof OAuthErrorClass) throw error;
      console.error("[mcpgen] auth: verifyToken failed:", error);
      throw cannotVerify("The token verifier failed");
    }
    if (found === undefined) throw invalidToken("The access token is not accepted");
    if (found.resource !== undefined && !sameResource(found.resource, resource)) throw invalidToken("The access token was not issued for this resource");
    // A token without an expiry (an API key): the SDK's check needs a number; the cache's ttl bounds reuse.
    return sdkAuthInfo(token, found, resourceUrl, found.expiresAt ?? Infinity, resourceMetadataUrl);
  };
}

function sameResource(given: string, resource: string): boolean {
  try {
    return new URL(given).href === resource;
  } catch {
    return false;
  }
}

/** The JSON-RPC requests of a body (one, or a 2025-era batch); notifications and responses name nothing. */
function requestsOf(body: unknown): JsonObject[] {
  const all = Array.isArray(body) ? body : [body];
  return all.filter((m): m is JsonObject => isObject(m) && typeof m["method"] === "string");
}

function ruleIn(table: { readonly [name: string]: AccessRule }, name: string): AccessRule {
  // An entry the rules do not name still needs a token: never open by omission.
  return Object.hasOwn(table, name) ? table[name]! : [];
}

function union(rules: readonly AccessRule[]): string[] {
  const all = new Set<string>();
  for (const rule of rules) if (rule !== "none") for (const s of rule) all.add(s);
  return [...all];
}

function withoutOfflineAccess(scopes: readonly string[]): string[] {
  return scopes.filter((s) => s !== "offline_access");
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
