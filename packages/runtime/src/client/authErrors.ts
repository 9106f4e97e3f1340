/**
 * A tool call refused for want of authorization, as one typed error whichever way the server said
 * it: an HTTP 403 `insufficient_scope` that the SDK v2 client does not step up itself (it throws
 * its InsufficientScopeError with `onInsufficientScope: "throw"` or an `authProvider` that is not
 * an OAuth provider), or a tool result `isError: true` carrying `_meta["mcp/www_authenticate"]`
 * (the OpenAI Apps SDK form, which a server answers a protected tool called without a token with).
 *
 * Read without the SDK's helpers: this layer also runs over SDK 1.x, and the SDK's
 * extractWWWAuthenticateParams reads a Response, not a header value.
 */
import type { CallToolResult } from "../shared/mcp.js";

/** What a `Bearer` challenge says: the OAuth error, its description, the scopes, the resource metadata URL. */
export interface BearerChallenge {
  /** `error`: `insufficient_scope`, `invalid_token`, ... */
  error?: string;
  errorDescription?: string;
  /** `scope`, split on spaces (empty when the challenge names none). */
  scopes: readonly string[];
  /** `resource_metadata`: the server's Protected Resource Metadata (RFC 9728), naming its authorization servers. */
  resourceMetadataUrl?: string;
}

/**
 * A generated tool method (or `callTool`) was refused for want of authorization: no token where
 * one is needed, or one without the scopes the tool needs. Get a token with `scopes` from an
 * authorization server named at `resourceMetadataUrl`, then call again.
 */
export class ToolAuthorizationError extends Error {
  override readonly name = "ToolAuthorizationError";
  /** The OAuth error of the challenge (`insufficient_scope`, `invalid_token`), when it names one. */
  readonly error?: string;
  readonly errorDescription?: string;
  /** The scopes the server says the call needs (empty when it named none). */
  readonly scopes: readonly string[];
  /** The server's Protected Resource Metadata URL, when the challenge gives it. */
  readonly resourceMetadataUrl?: string;
  /** The tool's answer, when the server refused with an `isError` result (the `mcp/www_authenticate` form). */
  readonly result?: CallToolResult;

  constructor(
    readonly tool: string,
    challenge: BearerChallenge,
    options: { result?: CallToolResult; cause?: unknown } = {},
  ) {
    const scopes = challenge.scopes.length > 0 ? `: it needs a token with ${challenge.scopes.join(" ")}` : "";
    const where = challenge.resourceMetadataUrl === undefined ? "" : ` (authorization servers in ${challenge.resourceMetadataUrl})`;
    super(`Tool '${tool}' was refused for want of authorization${scopes}${where}`, options.cause === undefined ? undefined : { cause: options.cause });
    this.scopes = challenge.scopes;
    if (challenge.error !== undefined) this.error = challenge.error;
    if (challenge.errorDescription !== undefined) this.errorDescription = challenge.errorDescription;
    if (challenge.resourceMetadataUrl !== undefined) this.resourceMetadataUrl = challenge.resourceMetadataUrl;
    if (options.result !== undefined) this.result = options.result;
  }
}

/** The SDK's brand registry (`Symbol.for`, shared by every copy of SDK v2): how its errors are told apart across bundles. */
const SDK_BRANDS = Symbol.for("mcp.sdk.errorBrands");

/**
 * SDK v2's InsufficientScopeError as this client's error, or undefined for any other error. Told
 * apart by the SDK's brand (or its name, for a copy without brands); its fields read defensively.
 */
export function fromSdkScopeError(tool: string, error: unknown): ToolAuthorizationError | undefined {
  if (typeof error !== "object" || error === null) return undefined;
  const brands: unknown = Reflect.get(error, SDK_BRANDS);
  const branded = brands instanceof Set && brands.has("mcp.InsufficientScopeError");
  if (!branded && Reflect.get(error, "name") !== "InsufficientScopeError") return undefined;
  const required: unknown = Reflect.get(error, "requiredScope");
  const url: unknown = Reflect.get(error, "resourceMetadataUrl");
  const description: unknown = Reflect.get(error, "errorDescription");
  return new ToolAuthorizationError(
    tool,
    {
      error: "insufficient_scope",
      scopes: typeof required === "string" ? splitScopes(required) : [],
      ...(url instanceof URL ? { resourceMetadataUrl: url.href } : typeof url === "string" ? { resourceMetadataUrl: url } : {}),
      ...(typeof description === "string" ? { errorDescription: description } : {}),
    },
    { cause: error },
  );
}

/**
 * An `isError` tool result in the `mcp/www_authenticate` form as this client's error, or undefined
 * for any other result. The `_meta` value is a header value or a list of them; the first `Bearer`
 * challenge counts.
 */
export function fromAuthenticateResult(tool: string, result: CallToolResult): ToolAuthorizationError | undefined {
  if (result.isError !== true) return undefined;
  const meta: unknown = result._meta;
  if (typeof meta !== "object" || meta === null) return undefined;
  const value: unknown = Reflect.get(meta, "mcp/www_authenticate");
  const values: unknown[] = Array.isArray(value) ? value : [value];
  for (const header of values) {
    if (typeof header !== "string") continue;
    const challenge = parseBearerChallenge(header);
    if (challenge !== undefined) return new ToolAuthorizationError(tool, challenge, { result });
  }
  return undefined;
}

/**
 * The first `Bearer` challenge of a WWW-Authenticate value (RFC 7235 §4.1: `Bearer k="v", k=v`,
 * values quoted or tokens, `\` escaping in quotes), or undefined when it has none. Other
 * challenges in the same value are skipped.
 */
export function parseBearerChallenge(header: string): BearerChallenge | undefined {
  // Quotes as sent by some servers around the whole value (the OpenAI docs' example has them).
  const text = header.trim().replace(/^'(.*)'$/s, "$1");
  const param = /\s*([!#$%&'*+.^_`|~0-9A-Za-z-]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^\s,]*))\s*(?:,|$)/y;
  const scheme = /[\s,]*([!#$%&'*+.^_`|~0-9A-Za-z-]+)(?:\s+|$)/y;
  /** A token68 (`Basic dXNlcg==`) in place of parameters, up to the comma that ends it. */
  const token68 = /[^,]*,?/y;
  let at = 0;
  while (at < text.length) {
    scheme.lastIndex = at;
    const found = scheme.exec(text);
    if (!found) return undefined;
    at = scheme.lastIndex;
    const params = new Map<string, string>();
    for (;;) {
      param.lastIndex = at;
      const p = param.exec(text);
      if (!p) break;
      const name = (p[1] ?? "").toLowerCase();
      if (!params.has(name)) params.set(name, p[2] !== undefined ? p[2].replace(/\\(.)/g, "$1") : (p[3] ?? ""));
      at = param.lastIndex;
    }
    if (params.size === 0) {
      token68.lastIndex = at;
      token68.exec(text);
      at = token68.lastIndex;
    }
    if ((found[1] ?? "").toLowerCase() !== "bearer") continue;
    const error = params.get("error");
    const description = params.get("error_description");
    const url = params.get("resource_metadata");
    return {
      scopes: splitScopes(params.get("scope") ?? ""),
      ...(error ? { error } : {}),
      ...(description ? { errorDescription: description } : {}),
      ...(url ? { resourceMetadataUrl: url } : {}),
    };
  }
  return undefined;
}

function splitScopes(scope: string): string[] {
  return scope.split(" ").filter((s) => s.length > 0);
}
