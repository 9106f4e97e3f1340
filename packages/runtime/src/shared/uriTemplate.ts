/**
 * RFC 6570 level-1 URI templates (`gift://{id}`): matching a URI to get its variables, and
 * expanding variables into a URI. Variable values are percent-encoded on expansion and decoded on
 * match, so a value never spans a `/`, `?` or `#`. A URI is matched in time linear in its length
 * (times the template's parts), with the split JavaScript's RegExp `^lit([^/?#]+)lit…$` gave (each
 * variable as long as the rest allows): that RegExp backtracked, and `gift://{a}-{b}-{c}` took
 * 0.6 s on a 2 KB URI of `a-a-a-…/` (cubic), a URI the client of resources/read chooses.
 */

export interface UriTemplate {
  readonly template: string;
  readonly variables: readonly string[];
  match(uri: string): Record<string, string> | undefined;
  expand(variables: Readonly<Record<string, string>>): string;
}

const EXPRESSION = /\{([A-Za-z0-9_]+)\}/g;

/** A template as text to match exactly and variables to fill. */
type Part = { literal: string } | { variable: string };

export function parseUriTemplate(template: string): UriTemplate {
  const variables: string[] = [];
  const parts: Part[] = [];
  let last = 0;
  for (const m of template.matchAll(EXPRESSION)) {
    if (m.index > last) parts.push({ literal: template.slice(last, m.index) });
    parts.push({ variable: m[1]! });
    variables.push(m[1]!);
    last = m.index + m[0].length;
  }
  if (last < template.length) parts.push({ literal: template.slice(last) });
  return {
    template,
    variables,
    match(uri) {
      const values = split(parts, uri);
      if (!values) return undefined;
      const out: Record<string, string> = Object.create(null);
      for (let i = 0; i < variables.length; i++) {
        try {
          out[variables[i]!] = decodeURIComponent(values[i]!);
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

/** `/`, `?` and `#`: a variable's value never holds one. */
function isDelimiter(code: number): boolean {
  return code === 0x2f || code === 0x3f || code === 0x23;
}

/**
 * The variables' values of `uri` read by `parts`, or undefined when it does not match. Two passes:
 * from the end, where each part can start so that the rest matches exactly (one bitmap per part);
 * from the start, each variable the longest that leaves a match (as the backtracking RegExp chose).
 */
function split(parts: readonly Part[], uri: string): string[] | undefined {
  const n = uri.length;
  // fits[j][i]: parts j.. match uri from i to its end.
  const fits: Uint8Array[] = new Array<Uint8Array>(parts.length + 1);
  let next = new Uint8Array(n + 1);
  next[n] = 1;
  fits[parts.length] = next;
  for (let j = parts.length - 1; j >= 0; j--) {
    const part = parts[j]!;
    const here = new Uint8Array(n + 1);
    if ("literal" in part) {
      const text = part.literal;
      for (let i = 0; i + text.length <= n; i++) if (next[i + text.length] === 1 && uri.startsWith(text, i)) here[i] = 1;
    } else {
      // From i, a value of one or more characters without a delimiter, then where `next` fits.
      let found = false;
      for (let i = n - 1; i >= 0; i--) {
        if (isDelimiter(uri.charCodeAt(i))) {
          found = false;
          continue;
        }
        found ||= next[i + 1] === 1;
        if (found) here[i] = 1;
      }
    }
    fits[j] = here;
    next = here;
  }
  if (fits[0]![0] !== 1) return undefined;
  const values: string[] = [];
  let at = 0;
  for (let j = 0; j < parts.length; j++) {
    const part = parts[j]!;
    if ("literal" in part) {
      at += part.literal.length;
      continue;
    }
    // The end of the longest value: the last position before a delimiter where the rest fits.
    let end = at;
    while (end < n && !isDelimiter(uri.charCodeAt(end))) end++;
    const rest = fits[j + 1]!;
    while (rest[end] !== 1) end--;
    values.push(uri.slice(at, end));
    at = end;
  }
  return values;
}
