/**
 * Why a server over HTTP refused pull for want of authorization, and what to do about it. The SDK's
 * error for a 401 holds the status but not the WWW-Authenticate header, so pull asks once more
 * itself (one POST initialize, as the handshake would), reads the challenge, then the server's
 * Protected Resource Metadata (RFC 9728): its authorization servers and scopes.
 */
import type { OAuthProtectedResourceMetadata } from "@modelcontextprotocol/client";

/** The fix for a server that wants a token, as pull's flags take it. */
const TOKEN_FIX = 'get an access token from its authorization server (ask its operator which) and pass it with --header "Authorization: Bearer <token>"';

/** What the challenge and the metadata said; every text from the server, with the user's header values left out. */
export interface AuthorizationNeeded {
  message: string;
  fix: string;
}

/** The HTTP status an SDK error carries (`SdkHttpError.data.status`), however deep. */
export function httpStatus(error: unknown): number | undefined {
  for (let c: unknown = error, depth = 0; typeof c === "object" && c !== null && depth < 8; depth++) {
    const data: unknown = Reflect.get(c, "data");
    const status: unknown = typeof data === "object" && data !== null ? Reflect.get(data, "status") : undefined;
    if (typeof status === "number") return status;
    c = Reflect.get(c, "cause");
  }
  return undefined;
}

/** The SDK's InsufficientScopeError (a 403 it cannot step up without an OAuth provider): the scope it names. */
export function insufficientScope(error: unknown): { scope?: string; resourceMetadataUrl?: string } | undefined {
  for (let c: unknown = error, depth = 0; typeof c === "object" && c !== null && depth < 8; depth++) {
    if (Reflect.get(c, "name") === "InsufficientScopeError") {
      const scope: unknown = Reflect.get(c, "requiredScope");
      const url: unknown = Reflect.get(c, "resourceMetadataUrl");
      return { ...(typeof scope === "string" ? { scope } : {}), ...(url instanceof URL ? { resourceMetadataUrl: url.href } : {}) };
    }
    c = Reflect.get(c, "cause");
  }
  return undefined;
}

/**
 * Asks `url` for authorization's terms: a POST initialize with the user's headers, its
 * WWW-Authenticate, then the metadata it points to (or at the well-known URLs). Undefined when the
 * server does not answer 401 this time. `fetchFn` bounds what is read (pull's limits); each step
 * times out after `timeoutMs`.
 */
export async function probeAuthorization(
  url: URL,
  headers: Readonly<Record<string, string>>,
  timeoutMs: number,
  fetchFn: typeof fetch,
): Promise<AuthorizationNeeded | undefined> {
  const { extractWWWAuthenticateParams, discoverOAuthProtectedResourceMetadata } = await import("@modelcontextprotocol/client");
  /** The last URL answered 200: where the SDK found the metadata. */
  let found: string | undefined;
  const timed: typeof fetch = async (input, init) => {
    const answer = await fetchFn(input, { ...init, signal: AbortSignal.timeout(timeoutMs) });
    if (answer.status === 200) found = input instanceof Request ? input.url : String(input);
    return answer;
  };
  let response: Response;
  try {
    response = await timed(url, {
      method: "POST",
      headers: { ...headers, "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "mcpgen-pull", version: "1.0.0" } },
      }),
    });
    await response.body?.cancel().catch(() => {});
  } catch {
    return undefined;
  }
  if (response.status !== 401) return undefined;
  const challenge = extractWWWAuthenticateParams(response);
  const given = Object.keys(headers).some((h) => h.toLowerCase() === "authorization");
  // The values, and each word of them after the first (the token of `Bearer <token>`).
  const secrets = Object.values(headers).flatMap((v) => [v, ...v.split(/\s+/).slice(1)].filter((part) => part.length > 0));
  const said = (text: string) => secrets.reduce((t, secret) => (secret ? t.split(secret).join("...") : t), text);
  const why = challenge.error ? `, ${said(challenge.error)}${challenge.errorDescription ? `: ${said(challenge.errorDescription)}` : ""}` : "";
  const head = given
    ? `the server refused the Authorization header given (HTTP 401${why}): the token may have expired, or have been issued for another resource`
    : `the server needs authorization (HTTP 401${why})`;
  let metadata: OAuthProtectedResourceMetadata | undefined;
  let metadataUrl: string | undefined = challenge.resourceMetadataUrl?.href;
  let unreadable = "";
  try {
    metadata = await discoverOAuthProtectedResourceMetadata(
      url,
      challenge.resourceMetadataUrl ? { resourceMetadataUrl: challenge.resourceMetadataUrl } : {},
      timed,
    );
  } catch (error) {
    const reason = (error instanceof Error ? error.message : String(error)).replace(/\s+/g, " ");
    unreadable =
      metadataUrl === undefined && reason.includes("does not implement")
        ? "; it publishes no Protected Resource Metadata (no resource_metadata in its WWW-Authenticate, nothing at the well-known URLs)"
        : `; its Protected Resource Metadata${metadataUrl ? ` at ${metadataUrl}` : ""} cannot be read (${said(reason).slice(0, 200)})`;
  }
  if (metadata !== undefined) metadataUrl = found ?? metadataUrl;
  const parts = [head];
  if (metadata) {
    parts.push(`its Protected Resource Metadata (${metadataUrl}) names resource ${metadata.resource}`);
    parts.push(`authorization servers ${(metadata.authorization_servers ?? []).join(", ") || "(none)"}`);
    if (metadata.scopes_supported?.length) parts.push(`scopes ${metadata.scopes_supported.join(" ")}`);
  }
  const scope = challenge.scope ?? metadata?.scopes_supported?.join(" ");
  const fix = metadata?.authorization_servers?.length
    ? `get an access token for ${metadata.resource}${scope ? ` with scope "${said(scope)}"` : ""} from ${metadata.authorization_servers[0]} and pass it with --header "Authorization: Bearer <token>"`
    : TOKEN_FIX;
  // What the server sent, printed to a terminal: no control or bidirectional characters.
  const shown = (text: string) => said(text).replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, "?");
  return { message: shown(`${parts.join("; ")}${unreadable}`), fix: shown(fix) };
}
