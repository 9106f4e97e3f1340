/**
 * `mcpgen auth dev`: an OAuth 2.1 authorization server for development, on loopback. It is
 * oidc-provider 9 (panva's certified OpenID provider), set up to issue what a generated server
 * with `auth.jwt` verifies: JWT access tokens (ES256) whose audience is the resource the client
 * names (RFC 8707 resource indicators), with the scopes it asks for among the manifests'.
 *
 * - client credentials: the client `mcpgen-dev` (secret `mcpgen-dev-secret`, HTTP Basic), for
 *   `mcpgen auth token` and scripts;
 * - authorization code with PKCE: clients register themselves (open dynamic registration), as the
 *   MCP Inspector and SDK clients do; login takes any name and password, then a consent form.
 *
 * Development only: anyone on this machine can get a token from it. Its signing key may be kept
 * in a file (the CLI keeps it under node_modules/.cache/mcpgen/) so tokens outlive a restart.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import * as path from "node:path";
import { exportJWK, generateKeyPair, type JWK } from "jose";

/** A resource the server issues tokens for, and the scopes a token for it may carry. */
export interface DevAuthResource {
  resource: string;
  scopes: readonly string[];
  /** The server it belongs to, for what the CLI prints. */
  server?: string;
}

export interface DevAuthOptions {
  /** Port on 127.0.0.1 (default 9000; 0: a free one). */
  port?: number;
  resources: readonly DevAuthResource[];
  /** A file to keep the signing key in (created when missing), so tokens outlive a restart. */
  keyFile?: string;
  /** Access-token lifetime in seconds (default 3600). */
  tokenTtlSeconds?: number;
}

export interface DevAuthServer {
  issuer: string;
  jwksUri: string;
  tokenEndpoint: string;
  /** The client of the client-credentials grant. */
  client: { id: string; secret: string };
  resources: readonly DevAuthResource[];
  /** An access token from the client-credentials grant (default resource: the only one). */
  token(options?: { scopes?: readonly string[]; resource?: string }): Promise<string>;
  close(): Promise<void>;
}

/** The client-credentials client: a fixed, well-known secret, as befits a loopback development server. */
const DEV_CLIENT = { id: "mcpgen-dev", secret: "mcpgen-dev-secret" } as const;
/** The default port: next to nothing MCP servers use (3000, 6274 for the Inspector, 6280 for mcpgen dev). */
export const DEV_AUTH_PORT = 9000;
const SIGNING_ALG = "ES256";
/** A registration request larger than this is refused: client metadata is a few hundred bytes. */
const MAX_REGISTRATION_BYTES = 64 * 1024;

export async function startDevAuthServer(options: DevAuthOptions): Promise<DevAuthServer> {
  const oidc = await loadProvider();
  const ttl = options.tokenTtlSeconds ?? 3600;
  const resources = new Map(options.resources.map((r) => [new URL(r.resource).href, r]));
  const allScopes = [...new Set(options.resources.flatMap((r) => r.scopes))];
  const key = await signingKey(options.keyFile);

  const http = createServer();
  await new Promise<void>((resolve, reject) => {
    http.once("error", reject);
    http.listen(options.port ?? DEV_AUTH_PORT, "127.0.0.1", () => resolve());
  });
  const issuer = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;

  // Held while the server runs: besides those at start, oidc-provider warns on the registration
  // requests whose body is read here (below), which is deliberate.
  const restoreNotices = holdNotices();
  const provider = new oidc.default(issuer, {
    clients: [
      {
        client_id: DEV_CLIENT.id,
        client_secret: DEV_CLIENT.secret,
        grant_types: ["client_credentials"],
        response_types: [],
        redirect_uris: [],
        token_endpoint_auth_method: "client_secret_basic",
      },
    ],
    // A registering client may name only listed scopes in its metadata.
    scopes: ["openid", "offline_access", ...allScopes],
    jwks: { keys: [key] },
    features: {
      devInteractions: { enabled: true },
      clientCredentials: { enabled: true },
      registration: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: async (_ctx: unknown, _client: unknown, oneOf?: string) => oneOf ?? (resources.size === 1 ? [...resources.keys()][0] : undefined),
        useGrantedResource: async () => true,
        getResourceServerInfo: async (_ctx: unknown, indicator: string) => {
          const known = resources.get(indicator);
          // A resource on loopback (a server on another port, MCP_AUTH_RESOURCE) gets every scope.
          if (!known && !isLoopback(indicator))
            throw new oidc.errors.InvalidTarget(`this development server issues tokens for the manifests' resources and loopback URLs, not ${indicator}`);
          return {
            scope: (known?.scopes ?? allScopes).join(" "),
            audience: indicator,
            accessTokenTTL: ttl,
            accessTokenFormat: "jwt",
            jwt: { sign: { alg: SIGNING_ALG } },
          };
        },
      },
    },
    pkce: { required: () => true },
    // Browser clients (the Inspector's web UI) call the token endpoint across origins.
    clientBasedCORS: () => true,
    // Numbers: oidc-provider's default functions print a notice each time they run.
    ttl: {
      ClientCredentials: ttl,
      AccessToken: ttl,
      AuthorizationCode: 60,
      Grant: 14 * 86400,
      Interaction: 3600,
      Session: 14 * 86400,
      IdToken: ttl,
      RefreshToken: 14 * 86400,
    },
    clientDefaults: {
      grant_types: ["authorization_code", "refresh_token"],
      token_endpoint_auth_method: "none",
      id_token_signed_response_alg: SIGNING_ALG,
    },
    // Whoever logs in is who they say: the account is the name typed in the login form.
    findAccount: async (_ctx: unknown, sub: string) => ({ accountId: sub, claims: async () => ({ sub }) }),
  });
  const handle = provider.callback();
  http.on("request", (req: IncomingMessage, res: ServerResponse) => {
    if (req.method === "POST" && (req.url ?? "").split("?")[0] === "/reg") {
      // The SDK client registers with `scope` set to its first authorization's, and oidc-provider
      // then holds the client to it, refusing a later step-up to more scopes: registered clients
      // are left unrestricted. oidc-provider reads req.body when the stream is spent.
      readJson(req).then(
        (metadata) => {
          delete metadata["scope"];
          Object.assign(req, { body: metadata });
          handle(req, res);
        },
        (error: unknown) => {
          res
            .writeHead(400, { "content-type": "application/json" })
            .end(JSON.stringify({ error: "invalid_client_metadata", error_description: String(error) }));
        },
      );
      return;
    }
    handle(req, res);
  });

  const server: DevAuthServer = {
    issuer,
    jwksUri: `${issuer}/jwks`,
    tokenEndpoint: `${issuer}/token`,
    client: { ...DEV_CLIENT },
    resources: options.resources,
    token: (wanted = {}) =>
      requestToken(issuer, { ...wanted, ...(wanted.resource === undefined && resources.size === 1 ? { resource: [...resources.keys()][0]! } : {}) }),
    close: () =>
      new Promise<void>((resolve) => {
        http.closeAllConnections();
        http.close(() => {
          restoreNotices();
          resolve();
        });
      }),
  };
  return server;
}

/**
 * An access token from `issuer`'s token endpoint by the client-credentials grant of `mcpgen-dev`
 * (what `mcpgen auth token` does): for `resource`, with `scopes`. Errors say what the server said.
 */
export async function requestToken(issuer: string, options: { scopes?: readonly string[]; resource?: string } = {}): Promise<string> {
  const body = new URLSearchParams({ grant_type: "client_credentials" });
  if (options.resource !== undefined) body.set("resource", options.resource);
  if (options.scopes?.length) body.set("scope", options.scopes.join(" "));
  const basic = Buffer.from(`${encodeURIComponent(DEV_CLIENT.id)}:${encodeURIComponent(DEV_CLIENT.secret)}`).toString("base64");
  let res: Response;
  try {
    res = await fetch(`${issuer}/token`, { method: "POST", headers: { authorization: `Basic ${basic}` }, body, signal: AbortSignal.timeout(10_000) });
  } catch (error) {
    throw new Error(`no authorization server answers at ${issuer} (${(error as Error).message}): start one with \`mcpgen auth dev\``, { cause: error });
  }
  const text = await res.text();
  let answer: { access_token?: unknown; error?: unknown; error_description?: unknown } = {};
  try {
    answer = JSON.parse(text) as typeof answer;
  } catch {
    // Not JSON: said below.
  }
  if (res.ok && typeof answer.access_token === "string") return answer.access_token;
  const said =
    typeof answer.error === "string"
      ? `${answer.error}${typeof answer.error_description === "string" ? `: ${answer.error_description}` : ""}`
      : text.slice(0, 200);
  throw new Error(`${issuer}/token answered ${res.status}: ${said}`);
}

function isLoopback(url: string): boolean {
  try {
    const { hostname, protocol } = new URL(url);
    return (protocol === "http:" || protocol === "https:") && (hostname === "localhost" || hostname === "[::1]" || /^127\./.test(hostname));
  } catch {
    return false;
  }
}

type ProviderModule = typeof import("oidc-provider");

/**
 * oidc-provider, loaded with its console notices held back: on Node 20 "Unsupported runtime" (it
 * supports Node >= 22; every flow used here works on 20), and its development-only features
 * (what this server is for, and says itself).
 */
async function loadProvider(): Promise<ProviderModule> {
  const restore = holdNotices();
  try {
    return await import("oidc-provider");
  } finally {
    restore();
  }
}

function holdNotices(): () => void {
  const saved = { warn: console.warn, info: console.info };
  for (const method of ["warn", "info"] as const) {
    const original = saved[method];
    console[method] = (...args: unknown[]) => {
      if (!(typeof args[0] === "string" && /oidc-provider (WARNING|NOTICE)/.test(args[0]))) original(...args);
    };
  }
  return () => Object.assign(console, saved);
}

/** The signing key: read from `file` when it holds one, else made (and written there, readable by its owner only). */
async function signingKey(file: string | undefined): Promise<JWK & { kid: string }> {
  if (file !== undefined && existsSync(file)) {
    try {
      const kept = JSON.parse(readFileSync(file, "utf8")) as JWK & { kid?: unknown };
      if (typeof kept.kid === "string" && kept.kty === "EC" && typeof kept.d === "string") return kept as JWK & { kid: string };
    } catch {
      // Unreadable: a new key replaces it.
    }
  }
  const { privateKey } = await generateKeyPair(SIGNING_ALG, { extractable: true });
  const key = { ...(await exportJWK(privateKey)), kid: `mcpgen-dev-${Date.now().toString(36)}`, alg: SIGNING_ALG, use: "sig" };
  if (file !== undefined) {
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, `${JSON.stringify(key)}\n`, { mode: 0o600 });
  }
  return key;
}

async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_REGISTRATION_BYTES) throw new Error(`a registration request over ${MAX_REGISTRATION_BYTES} bytes`);
    chunks.push(chunk as Buffer);
  }
  const parsed: unknown = JSON.parse(Buffer.concat(chunks).toString("utf8") || "{}");
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) throw new Error("client metadata must be a JSON object");
  return { ...parsed } as Record<string, unknown>;
}
