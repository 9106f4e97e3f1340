/**
 * `x-mcp-header` (MCP 2026-07-28, Streamable HTTP): a tool argument marked with it is mirrored by
 * the client into an `Mcp-Param-{Name}` header, so proxies can route on it without reading the
 * body; the server must reject a request whose header is missing or disagrees with the body
 * (HTTP 400, -32020). Dependency-free: mcpgen's validator uses the same rules at generate time.
 */

/** One annotated argument: the header's name, where its value sits in `arguments`, its type. */
export interface ParamHeader {
  header: string;
  path: string[];
  type: "string" | "integer" | "boolean";
}

/** A problem with an annotation, at a path inside the inputSchema. */
interface ParamHeaderProblem {
  at: (string | number)[];
  message: string;
}

/** RFC 9110 token characters: the only ones a header name may have. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const TYPES = new Set(["string", "integer", "boolean"]);

/**
 * The annotations of an inputSchema and the problems that make them invalid, per the spec: a
 * non-empty token, unique without regard to case, on a property of type string, integer or
 * boolean (not number), reached from the root through `properties` only (not items, $ref,
 * anyOf, ...). A client drops a tool whose annotations are invalid.
 */
export function scanParamHeaders(schema: unknown): { headers: ParamHeader[]; problems: ParamHeaderProblem[] } {
  const headers: ParamHeader[] = [];
  const problems: ParamHeaderProblem[] = [];
  const seen = new Map<string, string>();
  // Which schema paths are reachable through `properties` only, with the argument path to each.
  const walk = (node: unknown, at: (string | number)[], argPath: string[] | undefined) => {
    if (Array.isArray(node)) {
      node.forEach((item, i) => walk(item, [...at, i], undefined));
      return;
    }
    if (typeof node !== "object" || node === null) return;
    const obj = node as Record<string, unknown>;
    if (Object.hasOwn(obj, "x-mcp-header")) {
      const value = obj["x-mcp-header"];
      const where = [...at, "x-mcp-header"];
      if (argPath === undefined || argPath.length === 0) {
        problems.push({
          at: where,
          message:
            "x-mcp-header may only mark a property reached from the root through `properties` (not items, $ref, anyOf/oneOf/allOf, if/then/else, or the root itself)",
        });
      } else if (typeof value !== "string" || value === "") {
        problems.push({ at: where, message: "x-mcp-header must be a non-empty string: the {Name} of the Mcp-Param-{Name} header" });
      } else if (!TOKEN.test(value)) {
        problems.push({
          at: where,
          message: `x-mcp-header ${JSON.stringify(value)} is not a valid header name: use letters, digits and !#$%&'*+-.^_\`|~ only (no spaces, colons or non-ASCII)`,
        });
      } else if (!TYPES.has(obj["type"] as string)) {
        problems.push({
          at: where,
          message: `x-mcp-header marks a property of type ${JSON.stringify(obj["type"] ?? "(none)")}; it must be "string", "integer" or "boolean" (MCP forbids "number")`,
        });
      } else {
        const lower = value.toLowerCase();
        const other = seen.get(lower);
        if (other !== undefined)
          problems.push({
            at: where,
            message: `x-mcp-header ${JSON.stringify(value)} repeats ${JSON.stringify(other)} (header names are compared without regard to case)`,
          });
        else {
          seen.set(lower, value);
          headers.push({ header: value, path: argPath, type: obj["type"] as ParamHeader["type"] });
        }
      }
    }
    for (const [key, child] of Object.entries(obj)) {
      if (key === "x-mcp-header") continue;
      if (key === "properties" && typeof child === "object" && child !== null && !Array.isArray(child) && argPath !== undefined) {
        for (const [name, sub] of Object.entries(child as Record<string, unknown>)) walk(sub, [...at, key, name], [...argPath, name]);
      } else walk(child, [...at, key], undefined);
    }
  };
  walk(schema, [], []);
  return { headers, problems };
}

/** The valid annotations of an inputSchema (the server checks these). */
export function paramHeaderDeclarations(schema: unknown): ParamHeader[] {
  return scanParamHeaders(schema).headers;
}

const SENTINEL = /^=\?base64\?(.*)\?=$/s;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** A header value as the client meant it: the `=?base64?...?=` form decoded; undefined if that form is broken. */
export function decodeHeaderValue(raw: string): string | undefined {
  const value = raw.trim();
  const m = SENTINEL.exec(value);
  if (!m) return value;
  const encoded = m[1]!;
  if (!BASE64.test(encoded) || encoded.length % 4 !== 0) return undefined;
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(Uint8Array.from(atob(encoded), (c) => c.charCodeAt(0)));
  } catch {
    return undefined;
  }
}

/** Undefined when every annotated argument present in `args` has its header, equal to it; else the problem. */
export function checkParamHeaders(headers: readonly ParamHeader[], args: unknown, get: { get(name: string): string | null }): string | undefined {
  for (const { header, path, type } of headers) {
    let value: unknown = args;
    for (const key of path)
      value = typeof value === "object" && value !== null && Object.hasOwn(value, key) ? (value as Record<string, unknown>)[key] : undefined;
    if (value === undefined || value === null) continue;
    const raw = get.get(`mcp-param-${header}`);
    if (raw === null) return `the Mcp-Param-${header} header is missing, but the body has ${path.join(".")}`;
    if (/[\u0000-\u0008\u000a-\u001f\u007f]/.test(raw)) return `the Mcp-Param-${header} header holds invalid characters`;
    const decoded = decodeHeaderValue(raw);
    if (decoded === undefined) return `the Mcp-Param-${header} header is not valid =?base64?...?= encoding`;
    // An integer is written in decimal, as the body's JSON writes it: not 0x5, 5e0, +5 or 5.0.
    const same =
      type === "integer"
        ? /^-?(0|[1-9][0-9]*)$/.test(decoded) && Number(decoded) === value
        : type === "boolean"
          ? decoded === (typeof value === "boolean" ? String(value) : value)
          : decoded === value;
    if (!same) return `the Mcp-Param-${header} header value ${JSON.stringify(decoded)} does not match the body value ${JSON.stringify(value)}`;
  }
  return undefined;
}
