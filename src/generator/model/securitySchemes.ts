/**
 * A tool's `securitySchemes` (OpenAI Apps SDK; what mcpgen serves for a server with `auth`), read
 * the way the generated client, `diff` and `lint` need it: can it be called without a token, and
 * which scopes does a token need. The same reading for a manifest mcpgen writes the schemes for and
 * for a pulled one that carries them verbatim.
 *
 * The list names alternatives: `[{type: "noauth"}, {type: "oauth2", scopes: [...]}]` is a tool
 * callable anonymously that does more with a token; `[{type: "oauth2", scopes: [...]}]` needs one.
 */
import { isPlainObject } from "../../common/objects.js";

export interface ToolSecurity {
  /** A `noauth` entry: callable without a token. */
  anonymous: boolean;
  /**
   * The scopes of its `oauth2` entries (their union, in first-seen order; mcpgen writes one entry),
   * or undefined when it has none: then no token is asked for.
   */
  scopes?: readonly string[];
}

/**
 * The tool's schemes: its top-level `securitySchemes`, else the `_meta.securitySchemes` mirror
 * (clients that read only `_meta` get them there). Undefined when it has neither (or neither is a
 * list): the tool says nothing about authorization. Entries of other types are left out.
 */
export function toolSecurity(tool: Readonly<Record<string, unknown>>): ToolSecurity | undefined {
  const meta = tool._meta;
  const list = Array.isArray(tool.securitySchemes)
    ? tool.securitySchemes
    : isPlainObject(meta) && Array.isArray(meta.securitySchemes)
      ? meta.securitySchemes
      : undefined;
  if (list === undefined) return undefined;
  let anonymous = false;
  let scopes: string[] | undefined;
  for (const entry of list) {
    if (!isPlainObject(entry)) continue;
    if (entry.type === "noauth") anonymous = true;
    else if (entry.type === "oauth2") {
      scopes ??= [];
      for (const scope of Array.isArray(entry.scopes) ? entry.scopes : []) if (typeof scope === "string" && !scopes.includes(scope)) scopes.push(scope);
    }
  }
  return { anonymous, ...(scopes ? { scopes } : {}) };
}
