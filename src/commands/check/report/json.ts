/**
 * `--format json`: one object: the log, its format, how many messages were read, the findings
 * (stable keys, 2-space indent), and per rule how many findings were not listed (at most
 * MAX_KEPT_PER_RULE of each are).
 */
import { MAX_KEPT_PER_RULE } from "../rules/index.js";
import type { CheckResult } from "../run.js";

export function jsonReport(result: CheckResult): string {
  const notListed = Object.fromEntries([...result.counts].filter(([, n]) => n > MAX_KEPT_PER_RULE).map(([rule, n]) => [rule, n - MAX_KEPT_PER_RULE]));
  return `${JSON.stringify(
    {
      file: result.file,
      format: result.format,
      messages: result.messages,
      findings: result.findings.map((f) => ({
        file: f.file,
        line: f.line,
        severity: f.severity,
        rule: f.rule,
        ...(f.id === undefined ? {} : { id: f.id }),
        message: f.message,
        fix: f.fix,
      })),
      notListed,
    },
    null,
    2,
  )}\n`;
}
