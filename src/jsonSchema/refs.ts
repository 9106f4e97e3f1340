/**
 * JSON Schema traversal and `$ref` handling: which refs a schema uses, and the self-contained
 * wire form of a schema (manifest-level defs bundled under the schema's own `$defs`).
 */
import { isPlainObject, setOwn } from "../common/objects.js";
import { SUBSCHEMAS } from "./keywords.js";

export type JsonSchema = boolean | { [key: string]: unknown };

type SchemaPath = readonly (string | number)[];

/**
 * Calls `visit` on `schema` and every subschema, in document order. `path()` gives the
 * subschema's path relative to `schema`; it is built only when asked for (most visits never need
 * it). This runs several times per schema on every generate: it allocates nothing per node.
 */
export function forEachSchema(schema: unknown, visit: (node: Record<string, unknown>, path: () => SchemaPath) => void): void {
  const stack: (string | number)[] = [];
  const path = () => stack.slice();
  const walk = (node: Record<string, unknown>): void => {
    visit(node, path);
    for (const key of Object.keys(node)) {
      const kind = SUBSCHEMAS[key];
      if (kind === undefined) continue;
      const child = node[key];
      stack.push(key);
      // `items` in draft-07 tuple form is a list, like prefixItems.
      if (Array.isArray(child) && (kind === "list" || key === "items")) {
        for (let i = 0; i < child.length; i++) {
          const item: unknown = child[i];
          if (!isPlainObject(item)) continue;
          stack.push(i);
          walk(item);
          stack.pop();
        }
      } else if (kind === "map" && isPlainObject(child)) {
        for (const name of Object.keys(child)) {
          const item = child[name];
          if (!isPlainObject(item)) continue;
          stack.push(name);
          walk(item);
          stack.pop();
        }
      } else if (kind === "one" && isPlainObject(child)) walk(child);
      stack.pop();
    }
  };
  if (isPlainObject(schema)) walk(schema);
}

/** What a `$ref` points at. */
export type RefTarget =
  | { kind: "def"; name: string }
  | { kind: "local"; container: "$defs" | "definitions"; name: string }
  | { kind: "root" }
  | { kind: "unsupported"; reason: string };

/**
 * What a `$ref` points at. A local ref is a URI fragment holding a JSON pointer: it is
 * percent-decoded first, then split at `/`, then each token unescaped (`~1` -> `/`, `~0` -> `~`),
 * as ajv reads it: `#/$defs/a%20b~1c` names the entry `a b/c`. The one place that reads a ref.
 */
export function classifyRef(ref: string): RefTarget {
  if (/^[a-z][a-z0-9+.-]*:/i.test(ref))
    return { kind: "unsupported", reason: "refs to URLs are not fetched; copy the schema into `defs:` and use $ref: '#/defs/Name'" };
  if (!ref.startsWith("#"))
    return { kind: "unsupported", reason: "refs to other files are not followed; copy the schema into `defs:` and use $ref: '#/defs/Name'" };
  const pointer = percentDecode(ref.slice(1));
  if (typeof pointer !== "string") return { kind: "unsupported", reason: pointer.reason };
  if (pointer === "") return { kind: "root" };
  const tokens = pointer.split("/").map((token) => token.replace(/~1/g, "/").replace(/~0/g, "~"));
  if (tokens.length === 3 && tokens[0] === "") {
    const [, container, name] = tokens as [string, string, string];
    if (container === "defs") return { kind: "def", name };
    if (container === "$defs" || container === "definitions") return { kind: "local", container, name };
  }
  return { kind: "unsupported", reason: "use $ref: '#/defs/Name' for manifest defs, or '#/$defs/Name' for the schema's own $defs" };
}

/**
 * The node a local `$ref` (`#`, `#/a/b~1c/0`) points at in `root`, as ajv resolves it: any JSON
 * pointer into the document, a subschema or not (`#/properties/x`, a `$defs` entry, a value
 * inside `const`). Undefined for other refs and for pointers to nothing.
 */
export function refTarget(root: unknown, ref: string): unknown {
  if (!ref.startsWith("#")) return undefined;
  const pointer = percentDecode(ref.slice(1));
  if (typeof pointer !== "string") return undefined;
  if (pointer === "") return root;
  if (!pointer.startsWith("/")) return undefined;
  let node: unknown = root;
  for (const raw of pointer.slice(1).split("/")) {
    const token = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    if (Array.isArray(node) && /^(0|[1-9][0-9]*)$/.test(token)) node = node[Number(token)];
    else if (isPlainObject(node) && Object.hasOwn(node, token)) node = node[token];
    else return undefined;
  }
  return node;
}

/**
 * Whether `ref` is a JSON pointer fragment (`#/properties/x`) that names a schema inside `root`
 * (a mapping or a boolean), as JSON Schema resolves it against the schema's own root.
 */
export function pointsInto(root: unknown, ref: string): boolean {
  if (!ref.startsWith("#/")) return false;
  const at = refTarget(root, ref);
  return typeof at === "boolean" || (typeof at === "object" && at !== null && !Array.isArray(at));
}

/** A URI fragment's text, or why it has none: a `%` not followed by two hex digits, or escapes that are not UTF-8. */
function percentDecode(fragment: string): string | { reason: string } {
  if (!fragment.includes("%")) return fragment;
  const bad = /%(?![0-9A-Fa-f]{2}).{0,2}/s.exec(fragment);
  if (bad) return { reason: `${JSON.stringify(bad[0])} is not a percent escape (% must be followed by two hex digits; write a literal % as %25)` };
  try {
    return decodeURIComponent(fragment);
  } catch {
    return { reason: "its percent escapes are not UTF-8 (each character is the %XX escapes of its UTF-8 bytes)" };
  }
}

/**
 * `name` as one token of a `$ref` fragment: pointer-escaped (`~` -> `~0`, `/` -> `~1`), then
 * percent-encoded where a URI fragment needs it (`%`, spaces, `#`, non-ASCII...). `classifyRef`
 * reads it back as `name`.
 */
export function refToken(name: string): string {
  return name
    .replace(/~/g, "~0")
    .replace(/\//g, "~1")
    .replace(/[^A-Za-z0-9\-._~!$&'()*+,;=:@]/gu, (c) => {
      try {
        return encodeURIComponent(c);
      } catch {
        return c; // a lone surrogate: no UTF-8 to escape, and no ref can name it anyway
      }
    });
}

/** Names of manifest defs used by `schema`, directly or through other defs, in manifest order. */
export function usedDefs(schema: unknown, defs: ReadonlyMap<string, unknown>): string[] {
  const used = new Set<string>();
  const visitSchema = (s: unknown) =>
    forEachSchema(s, (node) => {
      if (typeof node.$ref !== "string") return;
      const target = classifyRef(node.$ref);
      if (target.kind === "def" && defs.has(target.name) && !used.has(target.name)) {
        used.add(target.name);
        visitSchema(defs.get(target.name));
      }
    });
  visitSchema(schema);
  return [...defs.keys()].filter((name) => used.has(name));
}

/**
 * The wire form of a schema: a deep copy in which `#/defs/X` becomes `#/$defs/X` and every def it
 * uses (transitively) is added under the root's `$defs`, after any `$defs` the schema declared.
 */
export function bundleSchema(schema: JsonSchema, defs: ReadonlyMap<string, unknown>): JsonSchema {
  if (typeof schema === "boolean") return schema;
  const names = usedDefs(schema, defs);
  // No manifest def used: nothing to rewrite, the schema goes out as written (never mutated).
  if (names.length === 0) return schema;
  const root = rewriteRefs(schema) as Record<string, unknown>;
  const bundled: Record<string, unknown> = { ...((root.$defs as Record<string, unknown> | undefined) ?? {}) };
  for (const name of names) setOwn(bundled, name, rewriteRefs(defs.get(name)));
  const { $defs: _omit, ...rest } = root;
  return { ...rest, $defs: bundled };
}

/** Copy of a schema with manifest def refs rewritten to the wire's `#/$defs/X`. */
function rewriteRefs(schema: unknown): unknown {
  return mapRefs(schema, (ref) => {
    const target = classifyRef(ref);
    return target.kind === "def" ? `#/$defs/${refToken(target.name)}` : ref;
  });
}

/**
 * Copy of a schema with every `$ref` replaced by `map(ref)`, in one pass: every schema node is a
 * new object; data keywords (`const`, `enum`, `default`, `examples`...) are shared with the input
 * untouched, a `$ref` key inside them included. Nothing downstream mutates either.
 */
export function mapRefs(schema: unknown, map: (ref: string) => string): unknown {
  if (!isPlainObject(schema)) return schema;
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(schema)) {
    let value = schema[key];
    const kind = SUBSCHEMAS[key];
    if (key === "$ref" && typeof value === "string") value = map(value);
    else if (Array.isArray(value) && (kind === "list" || key === "items")) value = value.map((item) => mapRefs(item, map));
    else if (kind === "map" && isPlainObject(value)) {
      const entries: Record<string, unknown> = {};
      for (const name of Object.keys(value)) setOwn(entries, name, mapRefs(value[name], map));
      value = entries;
    } else if (kind === "one") value = mapRefs(value, map);
    setOwn(copy, key, value);
  }
  return copy;
}
