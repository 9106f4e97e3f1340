/**
 * A tool's `securitySchemes` compared by what a caller needs: a token or none, and which scopes.
 * A call that worked may now fail (clients break) when the tool comes to need a token, or a token
 * with a scope it did not need; the other way round, or dropping the schemes, breaks nothing. A
 * tool callable without a token (a `noauth` entry) whose token scopes change breaks no call, but
 * clients that link accounts (ChatGPT) ask for other scopes: a behaviour change. The rows sit at
 * the tool's `securitySchemes`; its `_meta.securitySchemes` mirror is read when the top level has
 * none (classify compares the rest of `_meta` without it).
 */
import type { JsonObject } from "../../common/objects.js";
import { isPlainObject, jsonEqual } from "../../common/objects.js";
import { toolSecurity, type ToolSecurity } from "../../generator/model/securitySchemes.js";
import type { Difference } from "./difference.js";

/** `_meta` without the securitySchemes mirror, which securityDifferences compares. */
export function metaBeyondSecurity(meta: unknown): unknown {
  if (typeof meta !== "object" || meta === null || Array.isArray(meta) || !Object.hasOwn(meta, "securitySchemes")) return meta;
  const { securitySchemes: _, ...rest } = meta as JsonObject;
  return rest;
}

export function securityDifferences(name: string, before: JsonObject, after: JsonObject): Difference[] {
  const a = toolSecurity(before);
  const b = toolSecurity(after);
  const row = (change: string, message: string, clients: boolean, behaviour = false): Difference => ({
    kind: "tool",
    name,
    path: "securitySchemes",
    change,
    message,
    clients,
    servers: false,
    ...(behaviour ? { behaviour: true } : {}),
  });
  if (a === undefined && b === undefined) return [];
  if (a === undefined) {
    const needs = tokenNeeded(b!);
    return [
      row(
        "security-schemes-added",
        `securitySchemes added: ${needs ? `calls now need a token${scopesText(b!.scopes)} (callers without one are refused)` : "it stays callable without a token"}`,
        needs,
      ),
    ];
  }
  if (b === undefined) return [row("security-schemes-removed", "securitySchemes removed: clients are no longer told whether it needs a token", false)];
  const out: Difference[] = [];
  const needsA = tokenNeeded(a);
  const needsB = tokenNeeded(b);
  if (!needsA && needsB) out.push(row("token-required", `a token is now required${scopesText(b.scopes)}: calls without one are refused`, true));
  if (needsA && !needsB) out.push(row("token-optional", "it is now callable without a token", false));
  const scopesA = a.scopes ?? [];
  const scopesB = b.scopes ?? [];
  const added = scopesB.filter((s) => !scopesA.includes(s));
  const removed = scopesA.filter((s) => !scopesB.includes(s));
  // A token was needed before and after: a scope more refuses the tokens without it.
  if (added.length > 0 && needsA && needsB)
    out.push(
      row("scope-added", `scope ${added.join(", ")} added: tokens without ${added.length === 1 ? "it" : "them"} are refused (403 insufficient_scope)`, true),
    );
  else if (added.length > 0 && !needsB)
    out.push(
      row(
        "scope-added",
        `scope ${added.join(", ")} added to its oauth2 scheme: still callable without a token; clients that link accounts ask for more`,
        false,
        true,
      ),
    );
  if (removed.length > 0) out.push(row("scope-removed", `scope ${removed.join(", ")} removed: a token needs less`, false));
  if (out.length === 0 && !jsonEqual(schemesOf(before), schemesOf(after))) out.push(row("security-schemes-changed", "securitySchemes changed", false));
  return out;
}

/** The scheme list as compared for what the rows above do not cover (schemes of other types): order and scope order left out. */
function schemesOf(tool: JsonObject): string[] {
  const meta = tool._meta;
  const list = Array.isArray(tool.securitySchemes)
    ? tool.securitySchemes
    : isPlainObject(meta) && Array.isArray(meta.securitySchemes)
      ? meta.securitySchemes
      : [];
  return list
    .map((entry) => (isPlainObject(entry) && Array.isArray(entry.scopes) ? { ...entry, scopes: [...(entry.scopes as unknown[])].map(String).sort() } : entry))
    .map((entry) => JSON.stringify(entry))
    .sort();
}

/** A caller needs a token: no `noauth` entry, and an `oauth2` one (a list of other types only is not read as a need). */
function tokenNeeded(security: ToolSecurity): boolean {
  return !security.anonymous && security.scopes !== undefined;
}

function scopesText(scopes: readonly string[] | undefined): string {
  return scopes && scopes.length > 0 ? ` with ${scopes.join(", ")}` : "";
}
