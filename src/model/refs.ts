/**
 * JSON Schema traversal and `$ref` handling: which refs a schema uses, and the self-contained
 * wire form of a schema (manifest-level defs bundled under the schema's own `$defs`).
 */

export type JsonSchema = boolean | { [key: string]: unknown };

/** Keywords whose value is a schema. */
const SCHEMA_KEYWORDS = ["additionalProperties", "items", "contains", "not", "if", "then", "else", "propertyNames", "unevaluatedItems", "unevaluatedProperties", "additionalItems", "contentSchema"];
/** Keywords whose value is a list of schemas (`items` in draft-07 tuple form is handled too). */
const SCHEMA_LIST_KEYWORDS = ["allOf", "anyOf", "oneOf", "prefixItems"];
/** Keywords whose value maps names to schemas. */
const SCHEMA_MAP_KEYWORDS = ["properties", "patternProperties", "$defs", "definitions", "dependentSchemas"];

export type SchemaPath = readonly (string | number)[];

/**
 * Calls `visit` on `schema` and every subschema. `path()` gives the subschema's path relative to
 * `schema`; it is built only when asked for (most visits never need it).
 */
export function forEachSchema(schema: unknown, visit: (node: Record<string, unknown>, path: () => SchemaPath) => void): void {
  const stack: (string | number)[] = [];
  const path = () => [...stack];
  const walk = (value: unknown): void => {
    if (typeof value !== "object" || value === null || Array.isArray(value)) return;
    const node = value as Record<string, unknown>;
    visit(node, path);
    const into = (child: unknown, ...segments: (string | number)[]) => {
      stack.push(...segments);
      walk(child);
      stack.length -= segments.length;
    };
    for (const key of SCHEMA_KEYWORDS) {
      const child = node[key];
      if (child === undefined) continue;
      if (Array.isArray(child) && key === "items") child.forEach((c, i) => into(c, key, i));
      else into(child, key);
    }
    for (const key of SCHEMA_LIST_KEYWORDS) {
      const child = node[key];
      if (Array.isArray(child)) child.forEach((c, i) => into(c, key, i));
    }
    for (const key of SCHEMA_MAP_KEYWORDS) {
      const child = node[key];
      if (typeof child === "object" && child !== null && !Array.isArray(child)) {
        for (const name of Object.keys(child)) into((child as Record<string, unknown>)[name], key, name);
      }
    }
  };
  walk(schema);
}

/** What a `$ref` points at. */
export type RefTarget =
  | { kind: "def"; name: string }
  | { kind: "local"; container: "$defs" | "definitions"; name: string }
  | { kind: "root" }
  | { kind: "unsupported"; reason: string };

export function classifyRef(ref: string): RefTarget {
  if (ref === "#") return { kind: "root" };
  let m = /^#\/defs\/([^/]+)$/.exec(ref);
  if (m) return { kind: "def", name: decodePointer(m[1]!) };
  m = /^#\/(\$defs|definitions)\/([^/]+)$/.exec(ref);
  if (m) return { kind: "local", container: m[1] as "$defs" | "definitions", name: decodePointer(m[2]!) };
  if (/^[a-z][a-z0-9+.-]*:/i.test(ref)) return { kind: "unsupported", reason: "refs to URLs are not fetched; copy the schema into `defs:` and use $ref: '#/defs/Name'" };
  if (!ref.startsWith("#")) return { kind: "unsupported", reason: "refs to other files are not followed; copy the schema into `defs:` and use $ref: '#/defs/Name'" };
  return { kind: "unsupported", reason: "use $ref: '#/defs/Name' for manifest defs, or '#/$defs/Name' for the schema's own $defs" };
}

function decodePointer(segment: string): string {
  return segment.replace(/~1/g, "/").replace(/~0/g, "~");
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

/** Deep copy of a schema with manifest def refs rewritten; data keywords are copied untouched. */
function rewriteRefs(schema: unknown): unknown {
  const copy = structuredClone(schema);
  forEachSchema(copy, (node) => {
    if (typeof node.$ref === "string") {
      const target = classifyRef(node.$ref);
      if (target.kind === "def") node.$ref = `#/$defs/${target.name.replace(/~/g, "~0").replace(/\//g, "~1")}`;
    }
  });
  return copy;
}

/** Defines an own data property even for keys such as `__proto__`, which plain assignment would not. */
export function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}
