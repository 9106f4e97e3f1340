/**
 * RFC 6570 level-1 URI templates (`gift://{id}`): matching a URI to get its variables, and
 * expanding variables into a URI. Variable values are percent-encoded on expansion and decoded on
 * match, so a value never spans a `/`, `?` or `#`. A URI is matched on RE2JS, in time linear in its
 * length: with JavaScript's backtracking RegExp, `gift://{a}-{b}-{c}` took 0.6 s on a 2 KB URI of
 * `a-a-a-…/` (cubic), and a client chooses the URI of resources/read.
 */
import { RE2JS } from "re2js";

export interface UriTemplate {
  readonly template: string;
  readonly variables: readonly string[];
  match(uri: string): Record<string, string> | undefined;
  expand(variables: Readonly<Record<string, string>>): string;
}

const EXPRESSION = /\{([A-Za-z0-9_]+)\}/g;

export function parseUriTemplate(template: string): UriTemplate {
  const variables: string[] = [];
  let pattern = "^";
  let last = 0;
  for (const m of template.matchAll(EXPRESSION)) {
    pattern += literal(template.slice(last, m.index)) + "([^/?#]+)";
    variables.push(m[1]!);
    last = m.index + m[0].length;
  }
  pattern += literal(template.slice(last)) + "$";
  const regex = RE2JS.compile(pattern);
  return {
    template,
    variables,
    match(uri) {
      const m = regex.matcher(uri);
      if (!m.matches()) return undefined;
      const out: Record<string, string> = Object.create(null);
      for (let i = 0; i < variables.length; i++) {
        try {
          out[variables[i]!] = decodeURIComponent(m.group(i + 1) ?? "");
        } catch {
          return undefined;
        }
      }
      return out;
    },
    expand(values) {
      return template.replace(EXPRESSION, (_, name: string) => encodeURIComponent(Object.hasOwn(values, name) ? String(values[name]) : ""));
    },
  };
}

/** Text matched as it is: each character as RE2's `\x{…}`, so no character of a template means syntax. */
function literal(text: string): string {
  let out = "";
  for (const c of text) out += `\\x{${c.codePointAt(0)!.toString(16)}}`;
  return out;
}

/** Problems with a template mcpgen cannot serve (anything beyond level-1 `{name}` expressions). */
export function uriTemplateProblems(template: string): string[] {
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const m of template.matchAll(/\{([^{}]*)\}/g)) {
    const body = m[1]!;
    if (!/^[A-Za-z0-9_]+$/.test(body)) {
      problems.push(`expression {${body}} is not supported: use level-1 expressions like {id} (letters, digits, _)`);
    } else if (seen.has(body)) {
      problems.push(`variable {${body}} appears twice`);
    } else seen.add(body);
  }
  if (/\}\{/.test(template)) problems.push("two expressions side by side ({a}{b}) cannot be told apart in a URI; put a literal between them");
  const stripped = template.replace(/\{[^{}]*\}/g, "");
  if (/[{}]/.test(stripped)) problems.push("unbalanced { or } in the template");
  if (seen.size === 0 && problems.length === 0) problems.push("a template needs at least one {variable}; a fixed URI is a resource");
  return problems;
}
