/**
 * JSON Schema dialects in `mcpgen diff`. Two versions of a schema written in different dialects
 * (draft-07 from zod-to-json-schema, then 2020-12 from zod 4) are compared by what their keywords
 * mean, not by their text: each side is read into 2020-12 terms first.
 *
 * - Translated, same meaning: `items` as a list (up to 2019-09) is `prefixItems`, and
 *   `additionalItems` beside it is `items`; `dependencies` (up to draft-07) is `dependentRequired`
 *   (its lists) and `dependentSchemas` (its schemas); draft-04's boolean `exclusiveMinimum` /
 *   `exclusiveMaximum` are numbers, its `id` is `$id`; `definitions` is `$defs` (only a location:
 *   the `$ref`s into it are rewritten).
 * - Dropped: a keyword the side's dialect does not have (`prefixItems` or `dependentRequired` in
 *   draft-07, `additionalItems` in 2020-12) is ignored by its validators, so it means nothing there.
 * - Unclear: keywords validators read differently, or that have no counterpart. Keywords beside
 *   `$ref` up to draft-07 (ignored by the spec, applied by ajv), `dependencies` from 2019-09 on
 *   (no keyword by the spec, applied by ajv), `$recursiveRef`/`$dynamicRef` and their anchors.
 *   With the dialect changed, each is reported as changed both ways.
 *
 * What is left is compared as usual; the dialect change itself is one informative finding.
 */
import { isPlainObject } from "../../common/objects.js";
import { ANNOTATIONS } from "./keywords.js";
import { SUBSCHEMAS } from "../../jsonSchema/keywords.js";
import type { Finding, Schema } from "./difference.js";

type Dialect = "draft-04" | "draft-06" | "draft-07" | "2019-09" | "2020-12";

const ORDER: readonly Dialect[] = ["draft-04", "draft-06", "draft-07", "2019-09", "2020-12"];

const URIS: readonly [RegExp, Dialect][] = [
  [/^https?:\/\/json-schema\.org\/draft-04\/schema#?$/, "draft-04"],
  [/^https?:\/\/json-schema\.org\/draft-06\/schema#?$/, "draft-06"],
  [/^https?:\/\/json-schema\.org\/draft-07\/schema#?$/, "draft-07"],
  [/^https:\/\/json-schema\.org\/draft\/2019-09\/schema#?$/, "2019-09"],
  [/^https:\/\/json-schema\.org\/draft\/2020-12\/schema#?$/, "2020-12"],
];

/** Assertion keywords, with the first dialect that has them: older validators ignore them. */
const SINCE: Readonly<Record<string, Dialect>> = {
  const: "draft-06",
  contains: "draft-06",
  propertyNames: "draft-06",
  if: "draft-07",
  then: "draft-07",
  else: "draft-07",
  dependentRequired: "2019-09",
  dependentSchemas: "2019-09",
  unevaluatedProperties: "2019-09",
  unevaluatedItems: "2019-09",
  minContains: "2019-09",
  maxContains: "2019-09",
  prefixItems: "2020-12",
};

/** Keywords of dynamic scope, read differently in 2019-09 and 2020-12 and unknown before. */
const DYNAMIC = ["$recursiveRef", "$recursiveAnchor", "$dynamicRef", "$dynamicAnchor"];

/** The dialect a root schema declares: 2020-12 when none (MCP's default), undefined for a URI not known here. */
function dialectOf(schema: Schema): Dialect | undefined {
  const uri = declared(schema);
  if (uri === undefined) return "2020-12";
  return URIS.find(([re]) => re.test(uri))?.[1];
}

function declared(schema: Schema): string | undefined {
  return isPlainObject(schema) && typeof schema.$schema === "string" ? schema.$schema : undefined;
}

interface Note {
  /** The keyword's path, in the 2020-12 reading. */
  at: string;
  text: string;
  /** Translated: the same meaning under another keyword (an explanation, not a change). */
  kind: "translated" | "dropped" | "unclear";
}

/** Two schemas made comparable, and what to add to their findings. */
interface Aligned {
  before: Schema;
  after: Schema;
  /** The findings of the two, with the dialect change and the reasons it gives added. */
  finish(findings: Finding[]): Finding[];
}

/** Reads both schemas in one dialect's terms when they declare different ones. */
export function alignDialects(before: Schema, after: Schema): Aligned {
  const uriA = declared(before);
  const uriB = declared(after);
  const same = { before: withoutDialect(before), after: withoutDialect(after), finish: (f: Finding[]) => f };
  if (uriA === undefined && uriB === undefined) return { before, after, finish: same.finish };
  const from = dialectOf(before);
  const to = dialectOf(after);
  if (from === undefined || to === undefined) {
    if (uriA === uriB) return same;
    const unknown = {
      path: "$schema",
      message: `the JSON Schema dialect changed from ${uriA ?? "(none: 2020-12)"} to ${uriB ?? "(none: 2020-12)"}, which mcpgen does not know; compatibility is not proven`,
      narrows: true,
      widens: true,
    };
    return { ...same, finish: (f) => [unknown, ...f] };
  }
  if (from === to) return same;
  const a = readAs(same.before, from);
  const b = readAs(same.after, to);
  return { before: a.schema, after: b.schema, finish: (findings) => explain(findings, [...a.notes, ...b.notes], from, to) };
}

function withoutDialect(schema: Schema): Schema {
  if (!isPlainObject(schema) || !Object.hasOwn(schema, "$schema")) return schema;
  const { $schema: _, ...rest } = schema;
  return rest;
}

/** A schema of `dialect` in 2020-12 terms, with what reading it so took. */
function readAs(schema: Schema, dialect: Dialect): { schema: Schema; notes: Note[] } {
  const notes: Note[] = [];
  // `definitions` is only a location: moved to `$defs`, with the `$ref`s into it.
  const move = isPlainObject(schema) && isPlainObject(schema.definitions) && schema.$defs === undefined;
  let root = readNode(schema, dialect, "", notes, move);
  if (move && isPlainObject(root)) {
    const { definitions, ...rest } = root;
    root = { ...rest, $defs: definitions };
  }
  return { schema: root, notes };
}

function readNode(node: unknown, dialect: Dialect, at: string, notes: Note[], move: boolean): Schema {
  if (!isPlainObject(node)) return node as Schema;
  const level = ORDER.indexOf(dialect);
  // No prototype: a `__proto__` key in the schema stays a key.
  const out: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  for (const [k, v] of Object.entries(node)) {
    const since = Object.hasOwn(SINCE, k) ? SINCE[k] : undefined;
    if (since !== undefined && ORDER.indexOf(since) > level)
      notes.push({ at: join(at, k), text: `\`${k}\` is not a ${dialect} keyword: ignored there`, kind: "dropped" });
    else out[k] = v;
  }
  if (move && typeof out.$ref === "string" && out.$ref.startsWith("#/definitions/")) out.$ref = `#/$defs/${out.$ref.slice("#/definitions/".length)}`;
  if (
    level <= ORDER.indexOf("draft-07") &&
    typeof out.$ref === "string" &&
    Object.keys(out).some((k) => k !== "$ref" && k !== "$defs" && k !== "definitions" && !ANNOTATIONS.has(k))
  ) {
    notes.push({
      at: join(at, "$ref"),
      text: `keywords beside \`$ref\` are ignored by ${dialect} (though ajv applies them) and applied by 2020-12`,
      kind: "unclear",
    });
  }
  if (level <= ORDER.indexOf("2019-09")) {
    if (Array.isArray(out.items)) {
      out.prefixItems = out.items;
      delete out.items;
      if (out.additionalItems !== undefined) out.items = out.additionalItems;
      notes.push({
        at: join(at, "prefixItems"),
        text: `\`items\` as a list in ${dialect} is \`prefixItems\` in 2020-12${out.items === undefined ? "" : ", and `additionalItems` is `items`"}`,
        kind: "translated",
      });
    }
    // Without a list of items, additionalItems does nothing.
    delete out.additionalItems;
  } else {
    if (Array.isArray(out.items))
      notes.push({ at: join(at, "items"), text: `\`items\` as a list is not ${dialect} (there a list is \`prefixItems\`)`, kind: "unclear" });
    if (out.additionalItems !== undefined)
      notes.push({ at: join(at, "additionalItems"), text: `\`additionalItems\` is not a ${dialect} keyword: ignored there`, kind: "dropped" });
    delete out.additionalItems;
  }
  if (isPlainObject(out.dependencies)) {
    if (level <= ORDER.indexOf("draft-07")) {
      const entries = Object.entries(out.dependencies);
      const lists = entries.filter(([, v]) => Array.isArray(v));
      const schemas = entries.filter(([, v]) => !Array.isArray(v));
      delete out.dependencies;
      if (lists.length) out.dependentRequired = Object.fromEntries(lists);
      if (schemas.length) out.dependentSchemas = Object.fromEntries(schemas);
      notes.push({
        at: join(at, lists.length ? "dependentRequired" : "dependentSchemas"),
        text: `\`dependencies\` in ${dialect} is \`dependentRequired\`/\`dependentSchemas\` in 2020-12`,
        kind: "translated",
      });
    } else
      notes.push({
        at: join(at, "dependencies"),
        text: `\`dependencies\` is not a ${dialect} keyword: ignored by the spec, though ajv applies it`,
        kind: "unclear",
      });
  }
  if (dialect === "draft-04") draft04(out, at, notes);
  for (const k of DYNAMIC)
    if (out[k] !== undefined) notes.push({ at: join(at, k), text: `\`${k}\` (${dialect}) is read differently in other dialects`, kind: "unclear" });

  for (const [k, v] of Object.entries(out)) {
    const holds = SUBSCHEMAS[k];
    if (holds === "one") out[k] = readNode(v, dialect, join(at, k), notes, move);
    else if (holds === "list" && Array.isArray(v)) out[k] = v.map((s, i) => readNode(s, dialect, join(at, `${k}.${i}`), notes, move));
    else if (holds === "map" && isPlainObject(v))
      out[k] = Object.fromEntries(
        Object.entries(v).map(([name, s]) => [name, Array.isArray(s) ? s : readNode(s, dialect, join(at, `${k}.${name}`), notes, move)]),
      );
  }
  return out;
}

/** draft-04: `exclusiveMinimum: true` makes `minimum` exclusive; `id` is `$id`. */
function draft04(out: Record<string, unknown>, at: string, notes: Note[]): void {
  for (const [exclusive, bound] of [
    ["exclusiveMinimum", "minimum"],
    ["exclusiveMaximum", "maximum"],
  ] as const) {
    if (typeof out[exclusive] !== "boolean") continue;
    if (out[exclusive] === true && typeof out[bound] === "number") {
      out[exclusive] = out[bound];
      delete out[bound];
    } else delete out[exclusive];
    notes.push({ at: join(at, exclusive), text: `draft-04's boolean \`${exclusive}\` is a number in 2020-12`, kind: "translated" });
  }
  if (typeof out.id === "string" && out.$id === undefined) {
    out.$id = out.id;
    delete out.id;
  }
}

/** The findings with the reasons the dialects give, the unclear keywords, and the dialect change first. */
function explain(findings: Finding[], notes: Note[], from: Dialect, to: Dialect): Finding[] {
  // A note about the finding's place, a place inside it, or the keyword it sits under.
  const related = (note: Note, path: string) => note.at === path || note.at.startsWith(`${path}.`) || path.startsWith(`${note.at}.`);
  const out = findings.map((f) => {
    if (!f.narrows && !f.widens) return f;
    const why = [...new Set(notes.filter((n) => f.path !== "" && related(n, f.path)).map((n) => n.text))];
    return why.length === 0 ? f : { ...f, message: `${f.message} (${why.slice(0, 2).join("; ")}${why.length > 2 ? "; ..." : ""})` };
  });
  const unclear = notes.filter((n) => n.kind === "unclear");
  for (const at of new Set(unclear.map((n) => n.at))) {
    if (out.some((f) => f.path === at && f.narrows && f.widens)) continue;
    out.push({ path: at, message: `${unclear.find((n) => n.at === at)!.text}; compatibility is not proven`, narrows: true, widens: true });
  }
  const changed = notes.filter((n) => n.kind !== "translated");
  const places = [...new Set(changed.map((n) => `\`${n.at.split(".").pop()}\` at ${n.at.split(".").slice(0, -1).join(".") || "the root"}`))];
  const message =
    places.length === 0
      ? `JSON Schema dialect ${from} -> ${to}: no keyword used here changes meaning`
      : `JSON Schema dialect ${from} -> ${to}: keywords that change meaning: ${places.slice(0, 3).join(", ")}${places.length > 3 ? ` and ${places.length - 3} more` : ""}`;
  return [{ path: "$schema", message, narrows: false, widens: false, dialect: true }, ...out];
}

function join(at: string, key: string): string {
  return at === "" ? key : `${at}.${key}`;
}
