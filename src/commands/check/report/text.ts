/**
 * The text report: one line per finding in the form of mcpgen's diagnostics (common/diagnostics.ts
 * formatDiagnostic: `file:line:col: severity code: message`), with the message's id and the fix,
 * then a summary line.
 */
import { showId } from "../pair/classify.js";
import type { Finding } from "../model.js";
import type { CheckResult } from "../run.js";
import { MAX_KEPT_PER_RULE } from "../rules/index.js";

export function formatFinding(f: Finding): string {
  const id = f.id === undefined ? "" : ` (id ${showId(f.id)})`;
  return `${f.file}:${f.line}:1: ${f.severity} ${f.rule}: ${f.message}${id} — fix: ${f.fix}`;
}

function summaryLine(result: CheckResult): string {
  let errors = 0;
  let warnings = 0;
  for (const f of result.findings) {
    if (f.severity === "error") errors++;
    else warnings++;
  }
  const hidden = [...result.counts.values()].reduce((n, c) => n + Math.max(0, c - MAX_KEPT_PER_RULE), 0);
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;
  const found = errors + warnings === 0 ? "no problems" : `${plural(errors, "error")}, ${plural(warnings, "warning")}`;
  return `${result.file}: ${found} in ${plural(result.messages, "message")} (${result.format})${hidden ? `; ${hidden} more findings not listed (at most ${MAX_KEPT_PER_RULE} per rule)` : ""}`;
}

export function textReport(result: CheckResult): string {
  return [...result.findings.map(formatFinding), summaryLine(result)].join("\n") + "\n";
}
