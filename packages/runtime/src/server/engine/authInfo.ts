/**
 * A verified access token in its two forms: the SDK's AuthInfo, which carries the token from the
 * HTTP layer to the handler (`ctx.http.authInfo`), and the AuthContext a handler sees as
 * `ctx.auth`, made from it without the token.
 */
import type { JsonObject } from "../../shared/definition.js";
import type { AccessRule } from "../../shared/definition.js";
import type { AuthContext } from "./handlerTypes.js";
import type { SdkAuthInfo } from "./sdk.js";

/** The AuthInfo of a verified token. `sdkExpiresAt` is what the SDK's expiry check compares (seconds). */
export function sdkAuthInfo(token: string, auth: AuthContext, resource: URL, sdkExpiresAt: number, resourceMetadataUrl: string): SdkAuthInfo {
  return {
    token,
    clientId: auth.clientId,
    scopes: [...auth.scopes],
    expiresAt: sdkExpiresAt,
    resource,
    resourceMetadataUrl,
    extra: {
      ...(auth.subject === undefined ? {} : { subject: auth.subject }),
      ...(auth.expiresAt === undefined ? {} : { expiresAt: auth.expiresAt }),
      claims: deepFreeze({ ...auth.claims }),
    },
  };
}

/** `ctx.auth`: the principal, scopes and claims of a verified token, never the token. */
export function authContextOf(info: SdkAuthInfo): AuthContext {
  const extra = info.extra ?? {};
  const subject = extra["subject"];
  const expiresAt = extra["expiresAt"];
  const claims = extra["claims"];
  return {
    ...(typeof subject === "string" ? { subject } : {}),
    clientId: info.clientId,
    scopes: Object.freeze([...info.scopes]),
    ...(typeof expiresAt === "number" ? { expiresAt } : {}),
    claims: isRecord(claims) ? claims : {},
  };
}

/** Whether a token's scopes meet a rule ("none" needs no token; a scope list needs a token with all of them). */
export function meetsRule(rule: AccessRule | undefined, scopes: readonly string[] | undefined): boolean {
  if (rule === "none") return true;
  if (scopes === undefined) return false;
  return (rule ?? []).every((scope) => scopes.includes(scope));
}

function isRecord(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key]);
  }
  return value;
}
