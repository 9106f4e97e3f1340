/**
 * Diagnostics: every problem mcpgen finds in a manifest, with where it is and how to fix it.
 * Problems are collected, never thrown, so a run reports all of them at once.
 */

export type Severity = "error" | "warning";

/** Stable, documented problem codes (see the README's "Diagnostics" table). */
export type DiagnosticCode =
  | "file-unreadable"
  | "yaml-syntax"
  | "yaml-duplicate-key"
  | "yaml-aliases"
  | "yaml-tag"
  | "not-a-mapping"
  | "missing-field"
  | "unknown-field"
  | "invalid-type"
  | "invalid-value"
  | "invalid-name"
  | "duplicate-name"
  | "invalid-schema"
  | "schema-not-object"
  | "unresolved-ref"
  | "unsupported-ref"
  | "invalid-example"
  | "unknown-placeholder"
  | "invalid-uri-template"
  | "identifier-collision"
  | "file-content"
  | "duplicate-server"
  | "config"
  | "stub-orphan"
  | "required-without-schema"
  | "suspicious-key"
  | "pattern-unsupported"
  | "pattern-backtracking"
  | "unknown-widget"
  | "widget-unused"
  | "app-only-tool"
  | "invalid-csp"
  | "widget-build"
  // Portability lint (mcpgen lint): see src/lint/rules.ts.
  | "tool-name-length"
  | "tool-name-characters"
  | "input-top-level-composition"
  | "schema-refs"
  | "type-arrays";

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

/** `file:line:col: error CODE: message`, the format editors and CI annotators understand. */
export function formatDiagnostic(d: Diagnostic): string {
  return `${d.file}:${d.line}:${d.col}: ${d.severity} ${d.code}: ${d.message}`;
}

/** Sorts by file, then position, then code, so output order never depends on discovery order. */
export function sortDiagnostics(list: Diagnostic[]): Diagnostic[] {
  return [...list].sort(
    (a, b) =>
      compare(a.file, b.file) || a.line - b.line || a.col - b.col || compare(a.code, b.code) || compare(a.message, b.message),
  );
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export function hasErrors(list: readonly Diagnostic[]): boolean {
  return list.some((d) => d.severity === "error");
}
