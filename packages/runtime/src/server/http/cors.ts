/**
 * CORS for the Streamable HTTP endpoint, off unless `serveHttp` or `createFetchHandler` is given `cors: {origins}`: a
 * browser-based host (a web page on another origin, such as ext-apps' basic-host) may then call
 * the server and read its answers, including the `Mcp-Session-Id` it must send back.
 *
 * Only the listed origins get CORS headers, each echoed as itself (never `*`, so credentials are
 * never combined with a wildcard); every answer says `Vary: Origin` so a cache does not hand one
 * origin's headers to another. Listing an origin also lets its requests past the Origin check of
 * DNS-rebinding protection; the Host check still applies to every request, preflights included.
 */

/** `serveHttp`'s `cors` option. */
export interface CorsOptions {
  /** The web origins allowed to call the server from a browser, as browsers send them: `https://host.example` or `http://localhost:5173` (scheme, host, port; no path). */
  origins: readonly string[];
  /** Let those pages send cookies and HTTP authentication (`Access-Control-Allow-Credentials: true`; default false). A bearer token in `Authorization` needs no credentials mode. */
  credentials?: boolean;
  /** How long a browser may cache a preflight answer, in seconds (default 600; Chromium caps it at 7200). */
  maxAgeSeconds?: number;
}

/** The methods of the MCP endpoint, as a preflight answer names them. */
const CORS_METHODS = "POST, GET, DELETE, OPTIONS";

/** The request headers MCP clients send: the session, the protocol version, 2026-07-28's routing headers, the token, SSE resumption. */
const REQUEST_HEADERS = ["Content-Type", "Accept", "Authorization", "Mcp-Session-Id", "Mcp-Protocol-Version", "Mcp-Method", "Mcp-Name", "Last-Event-ID"];

/** The response headers a page must be able to read: the session id to send back, the protocol version, the authorization challenge. */
const CORS_EXPOSED_HEADERS = "Mcp-Session-Id, Mcp-Protocol-Version, WWW-Authenticate";

/** What the HTTP entry asks of the CORS options, decided once when the server starts. */
export interface CorsPolicy {
  /** The origins, normalized as browsers send them. */
  readonly origins: readonly string[];
  /** Whether `origin` (the Origin header) is listed. */
  allows(origin: string | undefined): boolean;
  /** The headers of every answer to a request from `origin`: `Vary: Origin`, and for a listed origin the CORS headers of an actual request. */
  responseHeaders(origin: string | undefined): Record<string, string>;
  /** The headers of a preflight answer (204) for a listed origin; undefined for one not listed (the entry refuses it). */
  preflightHeaders(origin: string | undefined): Record<string, string> | undefined;
}

/**
 * The policy of `options`, with the `Mcp-Param-*` headers of the server's tools (`x-mcp-header`
 * arguments) allowed besides MCP's own. Throws on an entry that is not an origin: a path, `*`,
 * `null` (a wildcard would let any page read what the server answers).
 */
export function corsPolicy(options: CorsOptions, paramHeaders: readonly string[] = []): CorsPolicy {
  const origins = options.origins.map(normalizeOrigin);
  const maxAge = options.maxAgeSeconds ?? 600;
  if (!Number.isInteger(maxAge) || maxAge < 0) throw new TypeError(`cors.maxAgeSeconds must be a whole number of seconds (0 or more), not ${String(maxAge)}`);
  const credentials = options.credentials === true;
  const allowHeaders = [...REQUEST_HEADERS, ...paramHeaders.map((name) => `Mcp-Param-${name}`)].join(", ");
  const allows = (origin: string | undefined): origin is string => origin !== undefined && origins.includes(origin);
  const actual = (origin: string): Record<string, string> => ({
    "access-control-allow-origin": origin,
    ...(credentials ? { "access-control-allow-credentials": "true" } : {}),
  });
  return {
    origins,
    allows,
    responseHeaders: (origin) => ({ vary: "Origin", ...(allows(origin) ? { ...actual(origin), "access-control-expose-headers": CORS_EXPOSED_HEADERS } : {}) }),
    preflightHeaders: (origin) =>
      allows(origin)
        ? {
            vary: "Origin",
            ...actual(origin),
            "access-control-allow-methods": CORS_METHODS,
            "access-control-allow-headers": allowHeaders,
            "access-control-max-age": String(maxAge),
          }
        : undefined,
  };
}

/** `origin` as a browser's Origin header writes it (lower-case scheme and host, no default port), or a TypeError saying what to write. */
function normalizeOrigin(origin: string): string {
  let url: URL | undefined;
  try {
    url = new URL(origin);
  } catch {
    url = undefined;
  }
  // The origin written out, at most with a trailing slash: no path, query, user or wildcard.
  const bare =
    url !== undefined &&
    (url.protocol === "http:" || url.protocol === "https:") &&
    url.username === "" &&
    url.password === "" &&
    url.pathname === "/" &&
    !/[?#*]/.test(origin);
  if (!url || !bare)
    throw new TypeError(
      `cors.origins: ${JSON.stringify(origin)} is not an origin: write the scheme, host and port only, such as "https://app.example.com" or "http://localhost:5173" (no path, no wildcard)`,
    );
  return url.origin;
}

/** A response made by other code (the SDK's metadata answers carry `Access-Control-Allow-Origin: *`) without its CORS headers, so the policy's are the only ones. */
export function withoutCorsHeaders(response: Response): Response {
  const headers = new Headers();
  response.headers.forEach((value, name) => {
    if (!name.startsWith("access-control-")) headers.set(name, value);
  });
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}
