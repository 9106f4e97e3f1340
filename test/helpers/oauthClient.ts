/**
 * The interactive side of the authorization-code grant with PKCE, without a browser: an in-memory
 * OAuthClientProvider for the SDK v2 client (what a desktop host keeps: registered client, tokens,
 * code verifier, discovery state) whose redirectToAuthorization hands the URL to a headless user.
 * The user follows the redirects by hand, keeps cookies, and answers oidc-provider's
 * devInteractions forms (login, then consent) over HTTP, until the redirect URI is reached.
 */
import type {
  OAuthClientMetadata,
  OAuthClientProvider,
  OAuthDiscoveryState,
  StoredOAuthClientInformation,
  StoredOAuthTokens,
} from "@modelcontextprotocol/client";

/** Where the authorization server sends the user back: never served, the headless user stops there. */
export const REDIRECT_URI = "http://127.0.0.1:9/callback";

/** A browser stand-in: redirects followed by hand, cookies kept, devInteractions forms answered. */
export class HeadlessUser {
  readonly cookies = new Map<string, string>();
  /** "METHOD /path -> status" and "form: login|consent", in order. */
  readonly steps: string[] = [];
  constructor(readonly login = "alice") {}

  private async go(url: string, init: { method?: string; body?: URLSearchParams } = {}): Promise<Response> {
    const headers = new Headers();
    if (this.cookies.size) headers.set("cookie", [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; "));
    const res = await fetch(url, { ...init, headers, redirect: "manual" });
    for (const cookie of res.headers.getSetCookie()) {
      const [pair = ""] = cookie.split(";");
      const eq = pair.indexOf("=");
      this.cookies.set(pair.slice(0, eq), pair.slice(eq + 1));
    }
    return res;
  }

  /** From the authorization URL to the redirect URI: the callback URL (code, state, iss). */
  async authorize(authorizationUrl: URL, redirectUri: string): Promise<URL> {
    let url = authorizationUrl.href;
    let body: URLSearchParams | undefined;
    for (let hop = 0; hop < 16; hop++) {
      if (url.startsWith(redirectUri)) return new URL(url);
      const res = await this.go(url, body ? { method: "POST", body } : {});
      this.steps.push(`${body ? "POST" : "GET"} ${new URL(url).pathname} -> ${res.status}`);
      body = undefined;
      const location = res.headers.get("location");
      if (res.status >= 300 && res.status < 400 && location) {
        url = new URL(location, url).href;
        continue;
      }
      const html = await res.text();
      const action = /action="([^"]+)"/.exec(html)?.[1];
      if (res.status !== 200 || !action) throw new Error(`authorization stopped at ${url}: ${res.status} ${html.slice(0, 300)}`);
      url = new URL(action, url).href;
      body = /name="login"/.test(html)
        ? new URLSearchParams({ prompt: "login", login: this.login, password: "any" })
        : new URLSearchParams({ prompt: "consent" });
      this.steps.push(`form: ${body.get("prompt")}`);
    }
    throw new Error("authorization: too many redirects");
  }
}

/**
 * An OAuthClientProvider kept in memory. Each authorization runs at once (the headless user); its
 * callback waits in `pendingCallback` for the caller to pass to `transport.finishAuth`.
 */
export class MemoryOAuthProvider implements OAuthClientProvider {
  client?: StoredOAuthClientInformation;
  stored?: StoredOAuthTokens;
  discovery?: OAuthDiscoveryState;
  verifier?: string;
  pendingCallback?: URL;
  /** Every authorization URL the SDK asked the user to open. */
  readonly authorizations: URL[] = [];
  constructor(readonly user: HeadlessUser = new HeadlessUser()) {}

  get redirectUrl(): string {
    return REDIRECT_URI;
  }
  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: "mcpgen auth test",
      redirect_uris: [REDIRECT_URI],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
    };
  }
  state(): string {
    return `st-${Math.random().toString(36).slice(2)}`;
  }
  clientInformation(): StoredOAuthClientInformation | undefined {
    return this.client;
  }
  saveClientInformation(info: StoredOAuthClientInformation): void {
    this.client = info;
  }
  tokens(): StoredOAuthTokens | undefined {
    return this.stored;
  }
  saveTokens(tokens: StoredOAuthTokens): void {
    this.stored = tokens;
  }
  saveCodeVerifier(verifier: string): void {
    this.verifier = verifier;
  }
  codeVerifier(): string {
    if (this.verifier === undefined) throw new Error("no code verifier saved");
    return this.verifier;
  }
  saveDiscoveryState(state: OAuthDiscoveryState): void {
    this.discovery = state;
  }
  discoveryState(): OAuthDiscoveryState | undefined {
    return this.discovery;
  }
  async redirectToAuthorization(url: URL): Promise<void> {
    this.authorizations.push(url);
    this.pendingCallback = await this.user.authorize(url, REDIRECT_URI);
  }
  /** The callback parameters of the authorization just run (all of them: code, state, iss for RFC 9207). */
  takeCallback(): URLSearchParams {
    const callback = this.pendingCallback;
    if (!callback) throw new Error("no authorization is waiting for finishAuth");
    this.pendingCallback = undefined;
    return callback.searchParams;
  }
}
