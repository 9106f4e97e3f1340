/**
 * `--format sarif`: SARIF 2.1.0, for code scanning uploads (GitHub's upload-sarif and others):
 * one run, the rules of the table in tool.driver.rules (each with its help and a `helpUri` to the
 * rules page of this version's package), one result per finding located at the log's line.
 *
 * A log under the working folder is named relative to it, against the base `%SRCROOT%` (the
 * folder, in `originalUriBaseIds`), so an upload from CI names the file as the repository does;
 * a log elsewhere gets its absolute `file://` URI. Each result carries a `partialFingerprints`
 * entry that does not move with line numbers, so code scanning follows an alert across runs.
 * Findings past the per-rule limit are said in a tool notification.
 */
import { createHash } from "node:crypto";
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import { version } from "../../../common/version.js";
import type { Finding } from "../model.js";
import { MAX_KEPT_PER_RULE } from "../rules/index.js";
import { RULE_IDS, RULES, type RuleId } from "../rules/table.js";
import type { CheckResult } from "../run.js";

const BASE = "%SRCROOT%";

/** Where the rules page of this version is served (the page ships in the npm package). */
export function rulesPageUrl(rule: string): string {
  return `https://unpkg.com/mcpgen@${version()}/docs/reference/check-rules.md#${rule}`;
}

/** A path as a URI reference: each segment percent-encoded, `/` between them. */
function uriPath(relative: string): string {
  return relative
    .split(/[\\/]/)
    .map((segment) => encodeURIComponent(segment))
    .join("/");
}

/** The log's location: relative to the base when it is under `cwd`, else its absolute file URI. */
function artifactLocation(file: string, cwd: string): { uri: string; uriBaseId?: string } {
  const absolute = path.resolve(cwd, file);
  const relative = path.relative(cwd, absolute);
  if (relative !== "" && !relative.startsWith("..") && !path.isAbsolute(relative)) return { uri: uriPath(relative), uriBaseId: BASE };
  return { uri: pathToFileURL(absolute).href };
}

/**
 * What identifies a finding across runs: its rule, the log and its message with the line numbers
 * it mentions taken out (a line added above moves every finding, not what it says).
 */
function fingerprint(f: Finding, uri: string): string {
  const message = f.message.replace(/\bline \d+/g, "line");
  return createHash("sha256")
    .update(`${f.rule}\0${uri}\0${message}\0${JSON.stringify(f.id ?? null)}`)
    .digest("hex")
    .slice(0, 32);
}

export function sarifReport(result: CheckResult, cwd = process.cwd()): string {
  const rules = RULE_IDS.map((id) => ({
    id,
    // SARIF's readable name (MisnamedParam); omitted where it would only repeat the id (batch).
    ...(id.includes("-") ? { name: id.replace(/(^|-)([a-z0-9])/g, (_, __, c: string) => c.toUpperCase()) } : {}),
    shortDescription: { text: RULES[id].title },
    fullDescription: { text: RULES[id].description },
    helpUri: rulesPageUrl(id),
    help: { text: `Fix: ${RULES[id].fix}`, markdown: `${RULES[id].description}\n\n**Fix:** ${RULES[id].fix}` },
    defaultConfiguration: { level: RULES[id].severity },
  }));
  const location = artifactLocation(result.file, cwd);
  // Two findings that say the same thing are told apart by their order.
  const seen = new Map<string, number>();
  const fingerprints = result.findings.map((f) => {
    const base = fingerprint(f, location.uri);
    const n = (seen.get(base) ?? 0) + 1;
    seen.set(base, n);
    return n === 1 ? base : `${base}:${n}`;
  });
  const cut = [...result.counts].filter(([, n]) => n > MAX_KEPT_PER_RULE) as [RuleId, number][];
  const log = {
    $schema: "https://json.schemastore.org/sarif-2.1.0.json",
    version: "2.1.0",
    runs: [
      {
        tool: { driver: { name: "mcpgen check", version: version(), informationUri: "https://www.npmjs.com/package/mcpgen", rules } },
        ...(location.uriBaseId ? { originalUriBaseIds: { [BASE]: { uri: pathToFileURL(cwd + path.sep).href } } } : {}),
        invocations: [
          {
            executionSuccessful: true,
            toolExecutionNotifications: cut.map(([rule, n]) => ({
              level: "warning",
              descriptor: { id: "findings-not-listed" },
              associatedRule: { id: rule, index: RULE_IDS.indexOf(rule) },
              message: { text: `${n - MAX_KEPT_PER_RULE} more findings of ${rule} were not listed (at most ${MAX_KEPT_PER_RULE} per rule)` },
            })),
          },
        ],
        results: result.findings.map((f, i) => ({
          ruleId: f.rule,
          ruleIndex: RULE_IDS.indexOf(f.rule as RuleId),
          level: f.severity,
          message: { text: `${f.message}${f.id === undefined ? "" : ` (id ${JSON.stringify(f.id)})`}. Fix: ${f.fix}` },
          locations: [{ physicalLocation: { artifactLocation: location, region: { startLine: f.line } } }],
          partialFingerprints: { "mcpgenFinding/v1": fingerprints[i] },
        })),
      },
    ],
  };
  return `${JSON.stringify(log, null, 2)}\n`;
}
