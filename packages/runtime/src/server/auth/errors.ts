/** The two ways a token check fails: the token (401), or this server's means to check it (500). */
import { OAuthErrorClass, OAuthErrorCode, type SdkOAuthError } from "../engine/sdk.js";

/** A token that is missing, malformed, expired, or not for this server: 401 invalid_token. */
export function invalidToken(description: string): SdkOAuthError {
  return new OAuthErrorClass(OAuthErrorCode.InvalidToken, plain(description));
}

/** A token without a scope the operation needs: 403 insufficient_scope. */
export function insufficientScope(description: string): SdkOAuthError {
  return new OAuthErrorClass(OAuthErrorCode.InsufficientScope, plain(description));
}

/**
 * The authorization server (JWKS, introspection) could not be reached or answered nonsense:
 * 500 server_error, so the client is not sent to sign in again for a fault of ours.
 */
export function cannotVerify(description: string): SdkOAuthError {
  return new OAuthErrorClass(OAuthErrorCode.ServerError, plain(description));
}

/** error_description goes in a quoted WWW-Authenticate value: no quotes or backslashes (jose's messages have them), no control characters. */
function plain(description: string): string {
  return description.replace(/["\\]/g, "'").replace(/[\u0000-\u001f\u007f]/g, " ");
}
