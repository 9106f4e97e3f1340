/**
 * `--format junit`: JUnit XML for CI test reports: one failed test case per finding (named by its
 * rule and line: common readers keep one `<failure>` per case), one passed case per rule without
 * findings, and one failed case per rule whose findings were not all listed, saying how many.
 */
import type { CheckResult } from "../run.js";
import { RULE_IDS, RULES } from "../rules/table.js";
import { MAX_KEPT_PER_RULE } from "../rules/index.js";
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
  const cases: string[] = [];
  let failures = 0;
  const testcase = (classname: string, name: string, failure?: { type: string; message: string; text: string }) => {
    if (!failure) return `    <testcase classname="${xmlEscape(classname)}" name="${xmlEscape(name)}"/>`;
    failures++;
    return [
      `    <testcase classname="${xmlEscape(classname)}" name="${xmlEscape(name)}">`,
      `      <failure type="${failure.type}" message="${xmlEscape(failure.message)}">${xmlEscape(failure.text)}</failure>`,
      "    </testcase>",
    ].join("\n");
  };
  for (const id of RULE_IDS) {
    const classname = `mcpgen.check.${id}`;
    const found = result.findings.filter((f) => f.rule === id);
    if (found.length === 0) cases.push(testcase(classname, `${id}: ${RULES[id].title}`));
    for (const f of found)
      cases.push(
        testcase(classname, `${id} at ${f.file}:${f.line}`, { type: f.severity, message: `${f.file}:${f.line}: ${f.message}`, text: formatFinding(f) }),
      );
    const hidden = (result.counts.get(id) ?? 0) - MAX_KEPT_PER_RULE;
    if (hidden > 0) {
      const text = `${hidden} more findings of ${id} were not listed (at most ${MAX_KEPT_PER_RULE} per rule)`;
      cases.push(testcase(classname, `${id}: ${hidden} more findings`, { type: RULES[id].severity, message: text, text }));
    }
  }
  const suite = `name="${xmlEscape(`mcpgen check ${result.file}`)}" tests="${cases.length}" failures="${failures}" errors="0"`;
  return [`<?xml version="1.0" encoding="UTF-8"?>`, `<testsuites ${suite}>`, `  <testsuite ${suite}>`, ...cases, "  </testsuite>", "</testsuites>", ""].join(
    "\n",
  );
}
