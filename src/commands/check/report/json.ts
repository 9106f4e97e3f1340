/** `--format json`: the findings as an array (stable keys, 2-space indent). */
import type { CheckResult } from "../run.js";

export function jsonReport(result: CheckResult): string {
  return `${JSON.stringify(
    result.findings.map((f) => ({
      file: f.file,
      line: f.line,
      severity: f.severity,
      rule: f.rule,
      ...(f.id === undefined ? {} : { id: f.id }),
      message: f.message,
      fix: f.fix,
    })),
    null,
    2,
  )}\n`;
}
