/**
 * Diagnostics: every problem mcpgen finds in a manifest, with where it is and how to fix it.
 * Problems are collected, never thrown, so a run reports all of them at once.
 */
import * as path from "node:path";

type Severity = "error" | "warning";

/** Stable, documented problem codes (see the README's "Diagnostics" table). */
export const DIAGNOSTIC_CODES = [
  "file-unreadable",
  "yaml-syntax",
  "yaml-duplicate-key",
  "yaml-aliases",
  "yaml-tag",
  "not-a-mapping",
  "missing-field",
  "unknown-field",
  "invalid-type",
  "invalid-value",
  "invalid-name",
  "duplicate-name",
  "invalid-schema",
  "schema-not-object",
  "unresolved-ref",
  "unsupported-ref",
  "invalid-example",
  "unknown-placeholder",
  "invalid-uri-template",
  "identifier-collision",
  "file-content",
  "duplicate-server",
  "config",
  "stub-orphan",
  "stub-private-import",
  "required-without-schema",
  "suspicious-key",
  "pattern-unsupported",
  "pattern-backtracking",
  "unknown-widget",
  "widget-unused",
  "app-only-tool",
  "invalid-csp",
  "widget-build",
  // The command line and the output folder (generate, init, pull).
  "invalid-argument",
  "not-generated",
  "stale-output",
  "write-failed",
  "interrupted-run",
  "watch-failed",
  "pack-failed",
  "server-failed",
  "diff-input",
  // Portability lint (mcpgen lint): see src/lint/rules.ts.
  "tool-name-length",
  "tool-name-characters",
  "input-top-level-composition",
  "schema-refs",
  "type-arrays",
] as const;

export type DiagnosticCode = (typeof DIAGNOSTIC_CODES)[number];

/**
 * The codes that are (or can be) warnings: the ones a config or `lint --rule` may set to off, warn
 * or error. Some are errors in other cases (`unknown-field` for a typo of a known field,
 * `invalid-name` for a name mcpgen cannot use, `required-without-schema` and `pattern-unsupported`
 * outside pulled manifests): those errors stay errors whatever the level (see applyLevels).
 */
export const WARNING_CODES = [
  "unknown-field",
  "invalid-name",
  "suspicious-key",
  "required-without-schema",
  "pattern-unsupported",
  "pattern-backtracking",
  "widget-unused",
  "app-only-tool",
  "stub-orphan",
  "stub-private-import",
  "tool-name-length",
  "tool-name-characters",
  "input-top-level-composition",
  "schema-refs",
  "type-arrays",
] as const satisfies readonly DiagnosticCode[];

export type WarningCode = (typeof WARNING_CODES)[number];

export interface Diagnostic {
  severity: Severity;
  code: DiagnosticCode;
  message: string;
  /** Path of the manifest, relative to the project root, with forward slashes. */
  file: string;
  /** 1-based line and column. */
  line: number;
  col: number;
  /** Where in the manifest, as a readable path: `tools[2].inputSchema.type`. */
  path: string;
  /** How to fix it, when the message does not already say: printed after the message. */
  fix?: string;
}

/**
 * A problem with the command line: where it is, is the argument as typed (`--cwd nowhere`), not
 * a file. Printed by the same reporter as the diagnostics of files.
 */
export interface ArgumentDiagnostic {
  severity: Severity;
  code: DiagnosticCode;
  message: string;
  /** The argument as the user typed it: `--name "Bad_Name"`, `--cwd nowhere`. */
  argument: string;
  fix?: string;
  /** More said under it, on its own line, indented: where in what a server serves (pull). */
  detail?: string;
}

/** A path into the parsed manifest: map keys and sequence indexes. */
export type DocPath = readonly (string | number)[];

/** Renders `tools[2].inputSchema.properties.budget` from a DocPath. */
export function formatPath(path: DocPath): string {
  let out = "";
  for (const segment of path) {
    if (typeof segment === "number") out += `[${segment}]`;
    else if (/^[A-Za-z_$][\w$-]*$/.test(segment)) out += out === "" ? segment : `.${segment}`;
    else out += `[${JSON.stringify(segment)}]`;
  }
  return out;
}

/**
 * `file:line:col: error CODE: message; fix`, the format editors and CI annotators understand; a
 * command-line problem is `mcpgen: ARGUMENT: error CODE: message; fix`.
 */
export function formatDiagnostic(d: Diagnostic | ArgumentDiagnostic): string {
  const where = "argument" in d ? `mcpgen: ${d.argument}` : `${d.file}:${d.line}:${d.col}`;
  const detail = "detail" in d && d.detail ? `\n  ${d.detail}` : "";
  return `${where}: ${d.severity} ${d.code}: ${d.message}${d.fix ? `; ${d.fix}` : ""}${detail}`;
}

/** Sorts by file, then position, then code, so output order never depends on discovery order. */
export function sortDiagnostics(list: Diagnostic[]): Diagnostic[] {
  return [...list].sort((a, b) => compare(a.file, b.file) || a.line - b.line || a.col - b.col || compare(a.code, b.code) || compare(a.message, b.message));
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export function hasErrors(list: readonly Diagnostic[]): boolean {
  return list.some((d) => d.severity === "error");
}

/** What the config or `--rule` makes of a warning code. */
export type Level = "off" | "warn" | "error";

/**
 * Levels for warning codes, in layers: a later layer wins over an earlier one. A layer with
 * `within` (an absolute file or folder) applies to the diagnostics whose file is that one or under it.
 */
export type DiagnosticLevels = readonly { within?: string; codes: Partial<Record<WarningCode, Level>> }[];

/**
 * The diagnostics with their levels applied: a warning set to `off` is dropped, one set to `error`
 * becomes an error. Errors are never touched: no level makes an invalid manifest pass.
 * `cwd` is what diagnostics' files are relative to.
 */
export function applyLevels(list: readonly Diagnostic[], levels: DiagnosticLevels | undefined, cwd: string): Diagnostic[] {
  if (!levels || levels.length === 0) return [...list];
  const out: Diagnostic[] = [];
  for (const d of list) {
    if (d.severity === "error") {
      out.push(d);
      continue;
    }
    let level: Level = "warn";
    let abs: string | undefined;
    for (const layer of levels) {
      const set = layer.codes[d.code as WarningCode];
      if (set === undefined) continue;
      if (layer.within !== undefined) {
        abs ??= path.resolve(cwd, d.file);
        if (abs !== layer.within && !abs.startsWith(layer.within.endsWith(path.sep) ? layer.within : layer.within + path.sep)) continue;
      }
      level = set;
    }
    if (level === "off") continue;
    out.push(level === "error" ? { ...d, severity: "error" } : d);
  }
  return out;
}
