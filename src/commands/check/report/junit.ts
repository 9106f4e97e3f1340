/**
 * `--format junit`: JUnit XML for CI test reports: one test case per rule of the table, failed by
 * each of its findings (a rule without findings passes).
 */
import type { CheckResult } from "../run.js";
import { RULE_IDS, RULES } from "../rules/table.js";
import { formatFinding } from "./text.js";

/** Text as XML character data or attribute value; characters XML 1.0 cannot hold are dropped. */
export function xmlEscape(text: string): string {
  return text
    .replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, "")
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&apos;");
}

export function junitReport(result: CheckResult): string {
  const cases = RULE_IDS.map((id) => {
    const found = result.findings.filter((f) => f.rule === id);
    const name = `${id}: ${RULES[id].title}`;
    if (found.length === 0) return `    <testcase classname="mcpgen.check" name="${xmlEscape(name)}"/>`;
    const failures = found.map(
      (f) => `      <failure type="${f.severity}" message="${xmlEscape(`${f.file}:${f.line}: ${f.message}`)}">${xmlEscape(formatFinding(f))}</failure>`,
    );
    return [`    <testcase classname="mcpgen.check" name="${xmlEscape(name)}">`, ...failures, "    </testcase>"].join("\n");
  });
  const failed = RULE_IDS.filter((id) => result.findings.some((f) => f.rule === id)).length;
  const suite = `name="${xmlEscape(`mcpgen check ${result.file}`)}" tests="${RULE_IDS.length}" failures="${failed}" errors="0"`;
  return [`<?xml version="1.0" encoding="UTF-8"?>`, `<testsuites ${suite}>`, `  <testsuite ${suite}>`, ...cases, "  </testsuite>", "</testsuites>", ""].join(
    "\n",
  );
}
