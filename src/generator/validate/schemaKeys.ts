/**
 * The keys of a JSON Schema that are not keywords of its dialect. JSON Schema allows any key, and
 * validators ignore the ones they do not know: `properites`, `requried` or `minLenght` would leave
 * a schema checking less than it says (no property declared, a required one optional), silently.
 *
 * - A typo of a keyword (by common/didYouMean.ts's rule): an error with its "did you mean" in a
 *   manifest you write, a warning in a pulled one (`keyword-typo`, reported by schemas.ts).
 * - A keyword of the other dialect (`prefixItems` in draft-07): its validators ignore it.
 * - A key of no dialect (`nullable`): allowed, reported by `mcpgen lint` (`unknown-keyword`).
 *
 * Only keys where a keyword belongs are read: property names under `properties` (and the other
 * maps of names) are data, so are the values of `enum`, `const`, `default`, `examples`. `x-` keys
 * are extensions on purpose (an `x-mcp` one next to an extension mcpgen reads, `x-mcp-heder`, is a typo), and
 * keys YAML made from text (`{description: ISO date, YYYY-MM-DD.}`) are the suspicious-key check's.
 * Under a typo the walk goes on as under the keyword meant, so a typo inside `properites` is
 * reported in the same run.
 */
import type { DocPath } from "../../common/diagnostics.js";
import { isDraft07 } from "@mcpgen/runtime/codegen";
import { nearNames } from "../../common/didYouMean.js";
import { isPlainObject } from "../../common/objects.js";
import { looksLikeText } from "./flowText.js";
import { EXTENSIONS, KEYWORDS, keywordsOf, SUBSCHEMAS, type Dialect } from "../../jsonSchema/keywords.js";

export type KeyFinding =
  /** `near`: the keyword (or extension) meant. */
  | { kind: "typo"; path: DocPath; key: string; near: string }
  /** A keyword of `other`, not of the schema's dialect. */
  | { kind: "other-dialect"; path: DocPath; key: string; other: Dialect }
  | { kind: "unknown"; path: DocPath; key: string };

/** The dialect of a root schema: draft-07 when its `$schema` says so, else 2020-12 (MCP's default). */
export function dialectOf(schema: unknown): Dialect {
  return isDraft07(schema) ? "draft-07" : "2020-12";
}

const KEYWORD_SETS: Readonly<Record<Dialect, ReadonlySet<string>>> = {
  "2020-12": new Set(keywordsOf("2020-12")),
  "draft-07": new Set(keywordsOf("draft-07")),
};

/** Keywords whose value is a mapping without being a subschema. */
const OBJECT_VALUED = new Set(["const", "default", "enum", "dependentRequired", "$vocabulary"]);

/** Whether `value` has the shape `keyword` takes: of two keywords as near, the one that fits is meant. */
function fits(keyword: string, value: unknown): boolean {
  const form = SUBSCHEMAS[keyword];
  if (form === "list") return Array.isArray(value);
  if (form === "map") return isPlainObject(value);
  if (form === "one") return isPlainObject(value) || typeof value === "boolean" || (keyword === "items" && Array.isArray(value));
  return !isPlainObject(value) || OBJECT_VALUED.has(keyword);
}

/**
 * The keywords a key is near, by dialect: a pulled server repeats its keys in every tool (the same
 * `nullable` 3,000 times), and comparing a key with every keyword costs microseconds. Bounded: a
 * manifest of distinct keys empties it now and then.
 */
const nearCache = new Map<string, readonly string[]>();
function nearKeywords(key: string, dialect: Dialect): readonly string[] {
  const cacheKey = `${dialect} ${key}`;
  let near = nearCache.get(cacheKey);
  if (near === undefined) {
    if (nearCache.size >= 10_000) nearCache.clear();
    near = nearNames(key, keywordsOf(dialect));
    nearCache.set(cacheKey, near);
  }
  return near;
}

/** Every key of `schema` (paths relative to it) that is not a keyword of `dialect`, in document order. */
export function schemaKeyFindings(schema: unknown, dialect: Dialect): KeyFinding[] {
  const ownSet = KEYWORD_SETS[dialect];
  const other: Dialect = dialect === "draft-07" ? "2020-12" : "draft-07";
  const out: KeyFinding[] = [];
  const stack: (string | number)[] = [];

  /** Walks the value of a keyword (or of the keyword a typo meant) by the form of its subschemas. */
  const into = (keyword: string, value: unknown) => {
    const form = SUBSCHEMAS[keyword];
    if (form === undefined) return;
    if (Array.isArray(value) && (form === "list" || keyword === "items")) {
      value.forEach((item, i) => {
        stack.push(i);
        walk(item);
        stack.pop();
      });
    } else if (form === "map" && isPlainObject(value)) {
      for (const name of Object.keys(value)) {
        stack.push(name);
        walk(value[name]);
        stack.pop();
      }
    } else if (form === "one") walk(value);
  };

  const walk = (node: unknown): void => {
    if (!isPlainObject(node)) return;
    for (const key of Object.keys(node)) {
      const value = node[key];
      stack.push(key);
      if (ownSet.has(key)) into(key, value);
      else if (key.startsWith("x-")) {
        // Only MCP's own prefix: `x-api-header` is someone's extension, not a typo.
        const near = /^x-mcp/i.test(key) ? nearNames(key, EXTENSIONS)[0] : undefined;
        if (near !== undefined) out.push({ kind: "typo", path: [...stack], key, near });
      } else if (KEYWORDS.has(key)) {
        out.push({ kind: "other-dialect", path: [...stack], key, other });
        into(key, value);
      } else if (!looksLikeText(key, value)) {
        const near = nearKeywords(key, dialect);
        const meant = near.find((k) => fits(k, value)) ?? near[0];
        if (meant === undefined) out.push({ kind: "unknown", path: [...stack], key });
        else {
          out.push({ kind: "typo", path: [...stack], key, near: meant });
          into(meant, value);
        }
      }
      stack.pop();
    }
  };
  walk(schema);
  return out;
}
