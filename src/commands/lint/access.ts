/**
 * Who may call what, on a manifest with `auth:`: a tool that may change things (not
 * `readOnlyHint: true`) and needs no scope can be called by any holder of a token for this server,
 * whatever it was issued for. A tool marked `auth: none` is left alone: callable without a token
 * is what its author wrote down (`generate` does not question it either).
 */
import type { DocPath } from "../../common/diagnostics.js";
import { isPlainObject } from "../../common/objects.js";
import type { LintFinding } from "./rules.js";

/** The findings for the tools of a manifest (`root`: the parsed manifest, fields as written). */
export function lintAccess(root: Readonly<Record<string, unknown>>): LintFinding[] {
  const auth = root.auth;
  if (!isPlainObject(auth)) return [];
  const defaults = strings(auth.defaultScopes);
  const supported = strings(auth.scopesSupported) ?? [];
  const tools = Array.isArray(root.tools) ? root.tools : [];
  const out: LintFinding[] = [];
  tools.forEach((tool: unknown, index) => {
    if (!isPlainObject(tool) || tool.auth === "none") return;
    const annotations = tool.annotations;
    if (isPlainObject(annotations) && annotations.readOnlyHint === true) return;
    const written = strings(tool.scopes);
    if ((written ?? defaults ?? []).length > 0) return;
    const at: DocPath = ["tools", index, written ? "scopes" : "name"];
    const why = written ? "`scopes: []`" : defaults ? "no `scopes` (and `auth.defaultScopes` is empty)" : "no `scopes` and no `auth.defaultScopes`";
    const choose = supported.length > 0 ? `, from ${supported.join(", ")}` : "";
    out.push({
      rule: "write-tool-without-scopes",
      path: at,
      message: `tool ${JSON.stringify(String(tool.name))} may change things (no \`annotations.readOnlyHint: true\`) and has ${why}: any token issued for this server can call it; give it the scopes a caller must hold (\`scopes: [...]\`${choose}), or mark it \`readOnlyHint: true\` if it only reads`,
    });
  });
  return out;
}

/** A list of strings as written, or undefined when the field is absent or not one. */
function strings(value: unknown): string[] | undefined {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : undefined;
}
