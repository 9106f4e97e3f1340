/**
 * `--format sarif`: SARIF 2.1.0, for code scanning uploads (GitHub's upload-sarif and others):
 * one run, the rules of the table in tool.driver.rules, one result per finding located at the
 * log's line.
 */
import { version } from "../../../common/version.js";
import type { CheckResult } from "../run.js";
import { RULE_IDS, RULES } from "../rules/table.js";

export function sarifReport(result: CheckResult): string {
  const rules = RULE_IDS.map((id) => ({
    id,
    name: id.replace(/(^|-)([a-z0-9])/g, (_, __, c: string) => c.toUpperCase()),
    shortDescription: { text: RULES[id].title },
    fullDescription: { text: RULES[id].description },
    help: { text: `Fix: ${RULES[id].fix}` },
    defaultConfiguration: { level: RULES[id].severity },
  }));
  const log = {
    $schema: "https://json.schemastore.org/sarif-2.1.0.json",
    version: "2.1.0",
    runs: [
      {
        tool: { driver: { name: "mcpgen check", version: version(), informationUri: "https://www.npmjs.com/package/mcpgen", rules } },
        results: result.findings.map((f) => ({
          ruleId: f.rule,
          ruleIndex: RULE_IDS.indexOf(f.rule as (typeof RULE_IDS)[number]),
          level: f.severity,
          message: { text: `${f.message}${f.id === undefined ? "" : ` (id ${JSON.stringify(f.id)})`}. Fix: ${f.fix}` },
          locations: [{ physicalLocation: { artifactLocation: { uri: f.file.split("\\").join("/") }, region: { startLine: f.line } } }],
        })),
      },
    ],
  };
  return `${JSON.stringify(log, null, 2)}\n`;
}
