/**
 * Stage 1, load: read a manifest file and parse its YAML, keeping enough of the syntax tree to
 * point every later diagnostic at a line and column.
 */
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import type { Document, LineCounter, Node, Scalar } from "yaml";
import { formatPath, type Diagnostic, type DiagnosticCode, type DocPath } from "../../common/diagnostics.js";
import { sha256 } from "./parseCache.js";
import type { ParseCache } from "./parseCache.js";
import { KEYWORDS } from "../../jsonSchema/keywords.js";
import { describeRepair, findIndentRepair } from "./indentRepair.js";
import { syntaxHint } from "./syntaxHints.js";

/** The first line of a manifest `mcpgen pull` wrote: a server you do not own, whose schema problems are warnings (and `pull --force` is needed to overwrite a file without it). */
export const PULLED_MARK = "# Pulled by mcpgen from ";
/**
 * The header line of a pulled manifest that says which client capabilities pull declared: the
 * lists are what the server showed such a client (a server may list more to a client that declares
 * more). JSON follows the mark, to the end of the line.
 */
export const PULLED_CAPABILITIES_MARK = "# Listed to a client declaring the capabilities ";

/**
 * The header line of a pulled manifest that makes it client-only: `generate` writes its types,
 * client and fixtures, no server and no handler stubs. Deleting the line generates a server too.
 */
export const PULLED_CLIENT_ONLY_MARK = "# Client-only: ";

/** Whether a manifest is pulled and its header (the comment lines before the first other line) keeps the client-only line. */
export function pulledClientOnly(text: string): boolean {
  if (!text.startsWith(PULLED_MARK)) return false;
  for (const line of text.split("\n", 16)) {
    if (!line.startsWith("#")) return false;
    if (line.startsWith(PULLED_CLIENT_ONLY_MARK)) return true;
  }
  return false;
}

/**
 * The client capabilities a pulled manifest was listed to, from its header: `{}` for a manifest
 * pulled before the header said so (pull declared none then); undefined for one not pulled.
 */
export function pulledClientCapabilities(text: string): Record<string, unknown> | undefined {
  if (!text.startsWith(PULLED_MARK)) return undefined;
  for (const line of text.split("\n", 8)) {
    if (!line.startsWith(PULLED_CAPABILITIES_MARK)) continue;
    const json = /^(\{.*\})/.exec(line.slice(PULLED_CAPABILITIES_MARK.length))?.[1];
    try {
      const value = JSON.parse(json ?? "") as unknown;
      if (typeof value === "object" && value !== null && !Array.isArray(value)) return value as Record<string, unknown>;
    } catch {
      // A header edited by hand: read as pull's own default.
    }
  }
  return {};
}

// The parsers load on first use: a run with nothing to parse (no-op) loads neither, and the `yaml`
// package (positions, exact diagnostics) only when a manifest needs the full parser or a
// diagnostic needs a position.
let yamlModule: typeof import("yaml") | undefined;
const YAML = () => (yamlModule ??= createRequire(import.meta.url)("yaml") as typeof import("yaml"));
let jsYamlModule: typeof import("js-yaml") | undefined;
const JS_YAML = () => (jsYamlModule ??= createRequire(import.meta.url)("js-yaml") as typeof import("js-yaml"));

/** A parsed manifest: its plain JSON value plus a way back from a path to a source position. */
export interface LoadedManifest {
  /** Absolute path on disk. */
  absPath: string;
  /** Path shown to users and written in headers: relative to the project root, forward slashes. */
  file: string;
  /** The manifest as plain data (YAML aliases expanded, tags resolved by the core schema). */
  value: unknown;
  /**
   * False when the text cannot hold a number JSON cannot carry (`.inf`, `.nan`, or a number too
   * large for a double), so the value needs no walk looking for one.
   */
  mayHoldNonFinite: boolean;
  /** Source position of the node at `path` (or of its closest existing ancestor). */
  locate(path: DocPath, at?: "key" | "value"): { line: number; col: number };
  /**
   * Whether the key at `path` was written with no value at all, as `Ada!` in `{greeting: Hello,
   * Ada!}`: in a flow mapping the comma ended the text and made its tail a key (null).
   */
  writtenBare(path: DocPath): boolean;
  /** Key of this text in the parse cache (set when it belongs there), and whether the value came from there. */
  cacheKey?: string;
  fromCache: boolean;
}

type LoadResult = { ok: true; manifest: LoadedManifest } | { ok: false; diagnostics: Diagnostic[] };

/** Upper bound on alias expansions, against "billion laughs" documents. */
const MAX_ALIAS_COUNT = 100;

export async function loadManifest(absPath: string, file: string, cache?: ParseCache): Promise<LoadResult> {
  let text: string;
  try {
    text = await readFile(absPath, "utf8");
  } catch (error) {
    return { ok: false, diagnostics: [unreadableManifest(file, error)] };
  }
  return loadManifestText(text, absPath, file, cache);
}

/**
 * As loadManifest, for a text already read. The parse cache holds only texts that need the full
 * parser (anchors, tags...): the fast parser reads the others about as fast as the cache would.
 * `textHash`: the text's sha256, when the caller has it already.
 */
export function loadManifestText(text: string, absPath: string, file: string, cache?: ParseCache, textHash?: string): LoadResult {
  if (!cache || !NEEDS_FULL_PARSER.test(text)) return parseManifestText(text, absPath, file);
  const cacheKey = cache.key(textHash ?? sha256(text));
  const cached = cache.get(cacheKey);
  if (cached !== undefined)
    return { ok: true, manifest: { absPath, file, value: cached, mayHoldNonFinite: NON_FINITE.test(text), ...lazyPositions(text), fromCache: true } };
  const result = parseManifestText(text, absPath, file);
  if (result.ok) result.manifest.cacheKey = cacheKey;
  return result;
}

/**
 * What could read as a number JSON cannot carry: `.inf` and `.nan` in any case, an exponent of
 * three digits or more, or a run of (hex) digits long enough to pass a double's range (1.8e308).
 * Three simple patterns: one with all the alternatives scans the text four times slower.
 */
const NON_FINITE = { test: (text: string) => /\.(?:inf|nan)\b/i.test(text) || /\d[eE][+-]?\d{3,}|\d{250,}/.test(text) || /0x[0-9a-f]{200,}/i.test(text) };

type Positions = Pick<LoadedManifest, "locate" | "writtenBare">;

/** Positions only when asked: the YAML is parsed with its syntax tree on the first call. */
function lazyPositions(text: string): Positions {
  let known: Positions | undefined;
  const get = () => {
    if (!known) {
      const { doc, lineCounter } = parse(text);
      known = positions(doc, lineCounter);
    }
    return known;
  };
  return { locate: (path, at) => get().locate(path, at), writtenBare: (path) => get().writtenBare(path) };
}

/**
 * Anything the fast parser might read differently from the `yaml` package, or that needs the
 * full parser's checks: anchors, aliases and tags (`&`, `*`, `!` starting a token), merge keys,
 * explicit keys (`? `), directives, binary integers (`0b`), exponents past double range.
 */
const NEEDS_FULL_PARSER = /(?:^|[\s[{,:-])[&*!]|<<\s*:|^\s*\?(?:\s|$)|^%|0b[01]|\d[eE][+-]?\d{3,}/m;

/**
 * js-yaml's core schema reads plain manifests about five times faster than `yaml`'s parser with
 * positions (MEASUREMENTS.md). Used only when the text has nothing it might read differently;
 * any error sends the text to the full parser, which reports it with its position.
 */
function fastParse(text: string): unknown {
  if (NEEDS_FULL_PARSER.test(text)) return undefined;
  try {
    const jsYaml = JS_YAML();
    const value = jsYaml.load(text, { schema: jsYaml.CORE_SCHEMA });
    return value === undefined ? null : value;
  } catch {
    return undefined;
  }
}

function parse(text: string): { doc: Document; lineCounter: LineCounter } {
  const { LineCounter, parseDocument } = YAML();
  const lineCounter = new LineCounter();
  // Core schema, YAML 1.2: plain JSON values only. No `<<` merge keys and no YAML 1.1 tags
  // (!!binary, !!timestamp, !!set ...), which would produce values JSON cannot carry.
  const doc = parseDocument(text, { lineCounter, uniqueKeys: true, prettyErrors: false, schema: "core", merge: false, resolveKnownTags: false });
  return { doc, lineCounter };
}

function positions(doc: Document, lineCounter: LineCounter): Positions {
  return {
    locate: (path, at = "value") => {
      const pos = lineCounter.linePos(nodeOffset(doc, path, at));
      return { line: pos.line, col: pos.col };
    },
    writtenBare: (path) => {
      const { isMap, isScalar } = YAML();
      const parent = path.length > 0 ? doc.getIn(path.slice(0, -1), true) : undefined;
      if (!isMap(parent)) return false;
      const key = String(path[path.length - 1]);
      // A key with `:` and nothing after has an empty scalar for value; a bare one has none.
      return parent.items.some((p) => isScalar(p.key) && String(p.key.value) === key && p.value === null);
    },
  };
}

export function parseManifestText(text: string, absPath: string, file: string): LoadResult {
  // Most manifests take the fast path: positions are computed later, only if a diagnostic needs one.
  const fast = fastParse(text);
  if (fast !== undefined)
    return { ok: true, manifest: { absPath, file, value: fast, mayHoldNonFinite: NON_FINITE.test(text), ...lazyPositions(text), fromCache: false } };
  const { doc, lineCounter } = parse(text);
  const diagnostics = syntaxDiagnostics(text, file, doc, lineCounter);
  for (const warning of doc.warnings) {
    if (warning.code !== "TAG_RESOLVE_FAILED") continue;
    const pos = lineCounter.linePos(warning.pos[0]);
    const tag = /Unresolved tag: (\S+)/.exec(warning.message)?.[1]?.replace(/^tag:yaml\.org,2002:/, "!!") ?? "a tag";
    diagnostics.push({
      severity: "error",
      code: "yaml-tag",
      message: `YAML tags are not supported (found ${tag}): write the value as a plain string, number, list or mapping`,
      file,
      line: pos.line,
      col: pos.col,
      path: "",
    });
  }
  if (diagnostics.length > 0) return { ok: false, diagnostics };

  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
  } catch (error) {
    // The yaml package throws a ReferenceError when alias expansion exceeds maxAliasCount.
    return {
      ok: false,
      diagnostics: [
        {
          ...fileDiagnostic(
            file,
            "yaml-aliases",
            `too many YAML alias expansions (limit ${MAX_ALIAS_COUNT}): ${firstLine((error as Error).message)}; write the repeated part out or use $ref: '#/defs/Name'`,
          ),
          ...firstAliasPosition(doc, lineCounter),
        },
      ],
    };
  }

  return { ok: true, manifest: { absPath, file, value, mayHoldNonFinite: NON_FINITE.test(text), ...positions(doc, lineCounter), fromCache: false } };
}

/**
 * The syntax errors of a text the parser refused. An indentation slip makes the parser report
 * several errors, often first on a line that is right: each round finds the one re-indented line
 * that removes the first error (indentRepair.ts), reports that line, and parses the repaired text
 * again, so one slip is one error. Errors no re-indentation fixes (a quote, a `: `) are reported
 * as the parser found them, the first of each line, with the usual cause (syntaxHints.ts).
 */
function syntaxDiagnostics(text: string, file: string, doc: Document, lineCounter: LineCounter): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  const reported = new Set<number>();
  const repaired = new Set<number>();
  const countErrors = (t: string) => parse(t).doc.errors.length;
  // Each round parses the whole text again: a bound keeps a large file with many slips quick.
  const rounds = Math.min(50, Math.max(3, Math.floor(20_000_000 / Math.max(1, text.length))));
  let current = { text, doc, lineCounter };
  for (let round = 0; ; round++) {
    const syntax: { error: (typeof doc.errors)[number]; line: number; col: number }[] = [];
    for (const error of current.doc.errors) {
      const pos = current.lineCounter.linePos(error.pos[0]);
      if (error.code !== "DUPLICATE_KEY") syntax.push({ error, ...pos });
      else if (!reported.has(pos.line)) {
        reported.add(pos.line);
        const message = duplicateKeyMessage(current.doc, current.lineCounter, error.pos[0]);
        diagnostics.push({ severity: "error", code: "yaml-duplicate-key", message, file, line: pos.line, col: pos.col, path: "" });
      }
    }
    if (syntax.length === 0) break;
    const { error, line, col } = syntax[0]!;
    // Where the parser noticed is often not the line to fix: say which one, and the usual cause.
    const fix = syntaxHint(current.text, error.code, line, col, error.message);
    const tab = error.code === "TAB_AS_INDENT";
    const repair =
      round < rounds ? findIndentRepair(current.text, line, countErrors, { hintLine: fix.line, kindOf, ...(tab ? { onlyLine: line } : {}) }) : undefined;
    if (repair && !repaired.has(repair.line)) {
      repaired.add(repair.line);
      reported.add(repair.line);
      // The hint's wording when it names a cause the re-indentation does not tell (a key under a
      // key that has a value, a list item's keys); the repair's, checked by a parse, otherwise.
      const useHint = fix.line === repair.line && (fix.kind === "under-value" || fix.kind === "list-item" || fix.kind === "placeholder");
      diagnostics.push({
        severity: "error",
        code: "yaml-syntax",
        message: syntaxMessage(error.message, useHint ? fix.hint : describeRepair(repair)),
        file,
        line: repair.line,
        col: useHint ? fix.col : (repair.was ?? 0) + 1,
        path: "",
      });
      current = { text: repair.text, ...parse(repair.text) };
      continue;
    }
    for (const { error: next, line: at, col: atCol } of syntax) {
      // One syntax error usually cascades into several on the same line; the first is the useful one.
      if (reported.has(at)) continue;
      reported.add(at);
      const hint = next === error ? fix : syntaxHint(current.text, next.code, at, atCol, next.message);
      diagnostics.push({
        severity: "error",
        code: "yaml-syntax",
        message: syntaxMessage(next.message, hint.hint),
        file,
        line: hint.line,
        col: hint.col,
        path: "",
      });
    }
    break;
  }
  return diagnostics.sort((a, b) => a.line - b.line || a.col - b.col);
}

/** A key's kind for indentRepair.ts: in a manifest, mappings of JSON Schema keywords and mappings of names alternate. */
const kindOf = (key: string) => (KEYWORDS.has(key) ? "keyword" : "name");

function syntaxMessage(parserMessage: string, hint: string): string {
  return `YAML syntax error: ${firstLine(parserMessage).replace(/ at line \d+, column \d+:?$/, "")}${hint ? `: ${hint}` : ""}`;
}

/** A manifest file that cannot be read (generate, validate, lint, diff). */
export function unreadableManifest(file: string, error: unknown): Diagnostic {
  return fileDiagnostic(file, "file-unreadable", `cannot read manifest: ${error instanceof Error ? error.message : String(error)}`);
}

function fileDiagnostic(file: string, code: DiagnosticCode, message: string): Diagnostic {
  return { severity: "error", code, message, file, line: 1, col: 1, path: "" };
}

/** Names the duplicated key (at `offset`) and where its first occurrence is in the same mapping. */
function duplicateKeyMessage(doc: Document, lineCounter: LineCounter, offset: number): string {
  const { visit, isScalar } = YAML();
  let message = "duplicate key: each key may appear once in a mapping (remove or rename one)";
  visit(doc, {
    Map(_key, map) {
      const index = map.items.findIndex((p) => isScalar(p.key) && p.key.range?.[0] === offset);
      if (index < 0) return undefined;
      const key = (map.items[index]!.key as Scalar).value;
      const first = map.items.find((p) => isScalar(p.key) && p.key.value === key)!.key as Scalar;
      const at = lineCounter.linePos(first.range?.[0] ?? 0);
      message = `duplicate key \`${String(key)}\`: this mapping has it already at line ${at.line}, column ${at.col}; each key may appear once (remove or rename one)`;
      return visit.BREAK;
    },
  });
  return message;
}

function firstLine(message: string): string {
  return message.split("\n")[0]!.trim();
}

function firstAliasPosition(doc: Document, lineCounter: LineCounter): { line: number; col: number } {
  const { visit } = YAML();
  let found = 0;
  visit(doc, {
    Alias(_key, node) {
      found = node.range?.[0] ?? 0;
      return visit.BREAK;
    },
  });
  const pos = lineCounter.linePos(found);
  return { line: pos.line, col: pos.col };
}

/** Offset of the node at `path`, or of its deepest existing ancestor when the path is missing. */
function nodeOffset(doc: Document, path: DocPath, at: "key" | "value"): number {
  const { isMap, isScalar, isSeq } = YAML();
  let node: Node | null | undefined = doc.contents as Node | null;
  let offset = node?.range?.[0] ?? 0;
  for (let i = 0; i < path.length; i++) {
    const segment = path[i]!;
    const last = i === path.length - 1;
    if (isMap(node)) {
      const pair = node.items.find((p) => isScalar(p.key) && String(p.key.value) === String(segment));
      if (!pair) return offset;
      const key = pair.key as Node;
      if (last && at === "key") return key.range?.[0] ?? offset;
      node = pair.value as Node | null;
      offset = node?.range?.[0] ?? key.range?.[0] ?? offset;
    } else if (isSeq(node) && /^\d+$/.test(String(segment))) {
      // Paths from JSON pointers (ajv) carry sequence indexes as strings.
      const item = node.items[Number(segment)] as Node | undefined;
      if (!item) return offset;
      node = item;
      offset = item.range?.[0] ?? offset;
    } else {
      return offset;
    }
  }
  return offset;
}

/** Builds a diagnostic at `path` of a loaded manifest. */
export function diagnosticAt(
  manifest: LoadedManifest,
  path: DocPath,
  code: DiagnosticCode,
  message: string,
  options: { at?: "key" | "value"; severity?: "error" | "warning" } = {},
): Diagnostic {
  const { line, col } = manifest.locate(path, options.at);
  return { severity: options.severity ?? "error", code, message, file: manifest.file, line, col, path: formatPath(path) };
}
