/**
 * `auth.introspection`: opaque access tokens checked at the authorization server's RFC 7662
 * endpoint, this server authenticating with HTTP Basic (its client id and the secret from the
 * environment). A token must be `active: true` and its `aud` must include this server's
 * resource. An endpoint that cannot be reached, times out or answers other than 200 JSON is a
 * 500, not a 401. Answers are kept by the token cache (TokenCache), so the endpoint is called
 * once per token per `introspectionCacheTtlMs`.
 */
import { sdkAuthInfo } from "../engine/authInfo.js";
import type { SdkAuthInfo } from "../engine/sdk.js";
import { cannotVerify, invalidToken } from "./errors.js";
import { scopesOf } from "./jwtVerifier.js";

export interface IntrospectionConfig {
  endpoint: string;
  clientId: string;
  clientSecret: string;
  /** This server's resource (URL.href). */
  resource: string;
  resourceMetadataUrl: string;
  timeoutMs: number;
  clockSkewSeconds: number;
}

/** A verifier of opaque tokens by introspection (the tokens' AuthInfo, or an SDK OAuthError). */
export function introspectionVerifier(config: IntrospectionConfig): (token: string) => Promise<SdkAuthInfo> {
  // RFC 6749 2.3.1: the id and secret are form-encoded before they are joined.
  const form = (s: string) => encodeURIComponent(s).replace(/%20/g, "+");
  const authorization = `Basic ${btoa(`${form(config.clientId)}:${form(config.clientSecret)}`)}`;
  const resource = new URL(config.resource);
  return async (token) => {
    let answer: unknown;
    try {
      const response = await fetch(config.endpoint, {
        method: "POST",
        headers: { authorization, "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
        body: new URLSearchParams({ token, token_type_hint: "access_token" }),
        signal: AbortSignal.timeout(config.timeoutMs),
        redirect: "manual",
      });
      if (response.status !== 200) throw new Error(`HTTP ${response.status}`);
      answer = await response.json();
    } catch (error) {
      throw cannotVerify(`Cannot introspect the access token: ${error instanceof Error ? error.message : String(error)}`);
    }
    if (typeof answer !== "object" || answer === null || Array.isArray(answer))
      throw cannotVerify("Cannot introspect the access token: the answer is not a JSON object");
    const claims: Record<string, unknown> = { ...answer };
    if (claims["active"] !== true) throw invalidToken("The access token is not active");
    const audiences = scopesOf(claims["aud"]);
    if (!audiences.includes(config.resource)) throw invalidToken("The access token was not issued for this resource");
    const sub = claims["sub"];
    const clientId = claims["client_id"];
    const exp = claims["exp"];
    const auth = {
      ...(typeof sub === "string" ? { subject: sub } : {}),
      clientId: typeof clientId === "string" ? clientId : "",
      scopes: scopesOf(claims["scope"]),
      ...(typeof exp === "number" ? { expiresAt: exp } : {}),
      claims,
    };
    // RFC 7662 makes exp optional: without it, the token cache's ttl bounds reuse.
    const sdkExpiry = typeof exp === "number" ? exp + config.clockSkewSeconds : Infinity;
    return sdkAuthInfo(token, auth, resource, sdkExpiry, config.resourceMetadataUrl);
  };
}
