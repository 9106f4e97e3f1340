/**
 * A real OAuth 2.1 authorization server for the authorization tests: oidc-provider 9 (panva's
 * certified OpenID provider) on 127.0.0.1, port 0, started by the tests. It issues JWT access
 * tokens bound to one resource (RFC 8707 resource indicators: `aud` = the resource), through the
 * client-credentials grant (client `svc`) and the authorization-code grant with PKCE (clients
 * register themselves: open dynamic client registration; login and consent are oidc-provider's
 * devInteractions forms, answered over HTTP by test/helpers/oauthClient.ts). A resource registered
 * with `format: "opaque"` gets opaque tokens, checked at the introspection endpoint by the client
 * `mcp-rs`. `rotate()` changes the signing key without closing the port (a new Provider behind the
 * same http server: same issuer, static clients kept, the old key still published).
 *
 * oidc-provider prints notices on the console: the ones configuration can silence are (ttl), the
 * rest are taken off the console while this module is loaded and kept in `providerNotices`: on
 * Node 20, "Unsupported runtime" (oidc-provider 9 supports Node >= 22; every flow used here works on
 * 20), the development adapter and devInteractions.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { exportJWK, generateKeyPair, type JWK } from "jose";

/** oidc-provider's console notices, taken off the console (see the module comment). */
export const providerNotices: string[] = [];
for (const method of ["warn", "info"] as const) {
  const original = console[method].bind(console);
  console[method] = (...args: unknown[]) => {
    if (typeof args[0] === "string" && /oidc-provider (WARNING|NOTICE)/.test(args[0])) providerNotices.push(args.join(" "));
    else original(...args);
  };
}
// Imported after the console filter is in place (a static import would run first and warn).
const { default: Provider, errors } = await import("oidc-provider");

/** The machine client of the client-credentials grant (client_secret_basic). */
export const SERVICE_CLIENT = { id: "svc", secret: "svc-secret" } as const;
/** The resource server's own credentials, for the introspection endpoint only. */
export const INTROSPECTION_CLIENT = { id: "mcp-rs", secret: "rs-secret" } as const;
/** The signing algorithm of every key the server makes. */
export const SIGNING_ALG = "ES256";

export interface ResourceSettings {
  /** The scopes a token for this resource may carry. */
  scopes: readonly string[];
  /** JWT access tokens (default) or opaque ones (introspection). */
  format?: "jwt" | "opaque";
  /** Access-token lifetime, seconds (default 300). */
  ttlSeconds?: number;
}

/** A private signing key as a JWK with its `kid`, `alg` and `use`. */
export type SigningKey = JWK & { kid: string; alg: string };

export interface AuthServer {
  issuer: string;
  jwksUri: string;
  tokenEndpoint: string;
  introspectionEndpoint: string;
  /** Registers (or replaces) a resource the server issues tokens for. */
  addResource(resource: string, settings: ResourceSettings): void;
  /** An access token from the client-credentials grant for `resource` (scopes dropped by the AS are simply absent). */
  clientCredentials(resource: string, scopes?: readonly string[]): Promise<string>;
  /** The private keys published at jwks_uri, the signing one first. */
  readonly keys: readonly SigningKey[];
  /** Signs with a new key from now on (its kid returned); the old ones stay published unless `dropOld`. */
  rotate(options?: { dropOld?: boolean }): Promise<string>;
  /** GET jwks_uri requests served so far. */
  readonly jwksFetches: number;
  /** "METHOD /path -> status" for every request served, in order. */
  readonly log: readonly string[];
  close(): Promise<void>;
}

let keyNumber = 0;
/** A fresh ES256 key pair's private JWK, with a unique kid. */
export async function newSigningKey(): Promise<SigningKey> {
  const { privateKey } = await generateKeyPair(SIGNING_ALG, { extractable: true });
  return { ...(await exportJWK(privateKey)), kid: `k${++keyNumber}-${Date.now().toString(36)}`, alg: SIGNING_ALG, use: "sig" };
}

export async function startAuthServer(options: { scopes?: readonly string[] } = {}): Promise<AuthServer> {
  const scopes = options.scopes ?? ["gifts.read", "gifts.write"];
  const resources = new Map<string, ResourceSettings>();
  const log: string[] = [];
  let jwksFetches = 0;
  const http = createServer();
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const issuer = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  let keys: SigningKey[] = [await newSigningKey()];

  const make = (published: SigningKey[]) =>
    new Provider(issuer, {
      clients: [
        {
          client_id: SERVICE_CLIENT.id,
          client_secret: SERVICE_CLIENT.secret,
          grant_types: ["client_credentials"],
          response_types: [],
          redirect_uris: [],
          token_endpoint_auth_method: "client_secret_basic",
        },
        {
          client_id: INTROSPECTION_CLIENT.id,
          client_secret: INTROSPECTION_CLIENT.secret,
          grant_types: [],
          response_types: [],
          redirect_uris: [],
          token_endpoint_auth_method: "client_secret_basic",
        },
      ],
      // Every scope a registering client may name in its `scope` metadata has to be listed.
      scopes: ["openid", "offline_access", ...scopes],
      jwks: { keys: published },
      features: {
        devInteractions: { enabled: true },
        clientCredentials: { enabled: true },
        introspection: { enabled: true },
        registration: { enabled: true },
        resourceIndicators: {
          enabled: true,
          // The authorization request's one resource is the token request's too.
          defaultResource: async (_ctx: unknown, _client: unknown, oneOf?: string) => oneOf ?? undefined,
          useGrantedResource: async () => true,
          getResourceServerInfo: async (_ctx: unknown, indicator: string) => {
            const rs = resources.get(indicator);
            if (!rs) throw new errors.InvalidTarget();
            const format = rs.format ?? "jwt";
            return {
              scope: rs.scopes.join(" "),
              audience: indicator,
              accessTokenTTL: rs.ttlSeconds ?? 300,
              accessTokenFormat: format,
              ...(format === "jwt" ? { jwt: { sign: { alg: SIGNING_ALG } } } : {}),
            };
          },
        },
      },
      pkce: { required: () => true },
      // The defaults are functions that print a notice when called; numbers do not.
      ttl: { ClientCredentials: 300, AccessToken: 300, AuthorizationCode: 60, Grant: 3600, Interaction: 600, Session: 3600, IdToken: 300, RefreshToken: 3600 },
      clientDefaults: {
        grant_types: ["authorization_code", "refresh_token"],
        token_endpoint_auth_method: "none",
        // oidc-provider's default is RS256, which an EC-only key set cannot sign.
        id_token_signed_response_alg: SIGNING_ALG,
      },
    }).callback();

  let handle = make(keys);
  http.on("request", (req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? "/").split("?")[0];
    res.on("finish", () => log.push(`${req.method} ${path} -> ${res.statusCode}`));
    if (req.method === "GET" && path === "/jwks") jwksFetches++;
    if (req.method === "POST" && path === "/reg") {
      // The SDK client registers with `scope` = its first authorization's scope, and oidc-provider
      // then holds the client to it: a later step-up to a wider scope would be refused. Registered
      // clients here are unrestricted instead; oidc-provider reads req.body when the stream is spent.
      void readJson(req).then((metadata) => {
        delete metadata.scope;
        Object.assign(req, { body: metadata });
        handle(req, res);
      });
      return;
    }
    handle(req, res);
  });

  return {
    issuer,
    jwksUri: `${issuer}/jwks`,
    tokenEndpoint: `${issuer}/token`,
    introspectionEndpoint: `${issuer}/token/introspection`,
    addResource: (resource, settings) => void resources.set(resource, settings),
    async clientCredentials(resource, wanted) {
      const body = new URLSearchParams({ grant_type: "client_credentials", resource });
      if (wanted?.length) body.set("scope", wanted.join(" "));
      const res = await fetch(`${issuer}/token`, { method: "POST", headers: { authorization: basic(SERVICE_CLIENT.id, SERVICE_CLIENT.secret) }, body });
      const answer = (await res.json()) as { access_token?: string };
      if (!res.ok || typeof answer.access_token !== "string") throw new Error(`token endpoint: ${res.status} ${JSON.stringify(answer)}`);
      return answer.access_token;
    },
    get keys() {
      return keys;
    },
    async rotate({ dropOld = false } = {}) {
      const key = await newSigningKey();
      keys = dropOld ? [key] : [key, ...keys];
      handle = make(keys);
      return key.kid;
    },
    get jwksFetches() {
      return jwksFetches;
    },
    log,
    close: () =>
      new Promise<void>((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
}

/** An HTTP Basic authorization header (RFC 6749 2.3.1: both parts form-urlencoded first). */
export function basic(id: string, secret: string): string {
  return `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString("base64")}`;
}

async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const parsed: unknown = JSON.parse(Buffer.concat(chunks).toString("utf8") || "{}");
  return typeof parsed === "object" && parsed !== null && !Array.isArray(parsed) ? { ...parsed } : {};
}
