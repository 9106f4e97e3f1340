/**
 * The report formats: text like mcpgen's diagnostics, JSON, SARIF valid by the official schema
 * (and, in test/e2e/sarif-multitool.test.ts, by Microsoft's SARIF Multitool), JUnit XML as two
 * JUnit readers from the registry read it.
 */
import { readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { Ajv } from "ajv";
import { parse as junit2json } from "junit2json";
import { parse as parseTestResults } from "test-results-parser";
import { describe, expect, it } from "vitest";
import { report } from "../../../../src/commands/check/report/index.js";
import { xmlEscape } from "../../../../src/commands/check/report/junit.js";
import { sarifReport } from "../../../../src/commands/check/report/sarif.js";
import { RULE_IDS } from "../../../../src/commands/check/rules/table.js";
import { checkLog, type CheckResult } from "../../../../src/commands/check/run.js";
import { tempProject } from "../../../helpers/tmp.js";

const MISTAKES = new URL("../../../../examples/traces/mistakes.jsonl", import.meta.url).pathname;

async function result() {
  return checkLog(MISTAKES, { display: "mistakes.jsonl" });
}

/** The same result as if 1,005 unknown-method findings had been found: 5 more than are kept. */
function cut(r: CheckResult): CheckResult {
  return { ...r, counts: new Map([...r.counts, ["unknown-method", 1005]]) };
}

/** The official SARIF 2.1.0 schema (draft-04), read as draft-07: see test/fixtures/sarif/README.md. */
function sarifValidator() {
  const schema = JSON.parse(readFileSync(new URL("../../../fixtures/sarif/sarif-schema-2.1.0.json", import.meta.url), "utf8")) as Record<string, unknown>;
  const { id, $schema: _draft04, ...rest } = schema;
  const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false });
  return ajv.compile({ ...rest, $id: String(id) });
}

describe("check reports", () => {
  it("text: one line per finding in the diagnostics' form, then a summary", async () => {
    const lines = report(await result(), "text")
      .trimEnd()
      .split("\n");
    expect(lines[0]).toBe(
      "mistakes.jsonl:11:1: error invalid-arguments: arguments of suggest_gifts break its inputSchema: Missing required property 'budget' (at /: required) (id 4) — fix: send arguments that match the inputSchema (tools/list gives it)",
    );
    expect(lines.at(-1)).toMatch(/^mistakes\.jsonl: \d+ errors, \d+ warnings in 48 messages \(mcpgen\)$/);
  });

  it("json: the findings, and how many were not listed", async () => {
    const r = await result();
    const json = JSON.parse(report(r, "json")) as { file: string; format: string; messages: number; findings: unknown[]; notListed: Record<string, number> };
    expect([json.file, json.format, json.messages, json.notListed]).toEqual(["mistakes.jsonl", "mcpgen", 48, {}]);
    expect(json.findings).toHaveLength(r.findings.length);
    expect(json.findings[0]).toEqual({
      file: "mistakes.jsonl",
      line: 11,
      severity: "error",
      rule: "invalid-arguments",
      id: 4,
      message: "arguments of suggest_gifts break its inputSchema: Missing required property 'budget' (at /: required)",
      fix: "send arguments that match the inputSchema (tools/list gives it)",
    });
    expect((JSON.parse(report(cut(r), "json")) as { notListed: unknown }).notListed).toEqual({ "unknown-method": 5 });
  });

  it("sarif: valid by the SARIF 2.1.0 schema, rules from the table, results at their lines", async () => {
    const r = await result();
    const log = JSON.parse(report(r, "sarif")) as {
      version: string;
      runs: {
        tool: { driver: { rules: { id: string }[] } };
        results: { ruleId: string; ruleIndex: number; locations: { physicalLocation: { region: { startLine: number } } }[] }[];
      }[];
    };
    const validate = sarifValidator();
    expect(validate(log), JSON.stringify(validate.errors, null, 2)).toBe(true);
    expect(log.version).toBe("2.1.0");
    const run = log.runs[0]!;
    expect(run.tool.driver.rules.map((rule) => rule.id)).toEqual(RULE_IDS);
    expect(run.results).toHaveLength(r.findings.length);
    for (const res of run.results) expect(run.tool.driver.rules[res.ruleIndex]!.id).toBe(res.ruleId);
    expect(run.results[0]!.locations[0]!.physicalLocation.region.startLine).toBe(11);
    // A clean log is a valid SARIF log with no results.
    const clean = JSON.parse(report(await checkLog(new URL("../../../../examples/traces/clean.jsonl", import.meta.url).pathname), "sarif")) as unknown;
    expect(validate(clean)).toBe(true);
    // The validator does reject: a result without a message, a level SARIF does not have.
    const broken = structuredClone(log) as unknown as { runs: { results: Record<string, unknown>[] }[] };
    broken.runs[0]!.results[0]!["level"] = "fatal";
    expect(validate(broken)).toBe(false);
  });

  it("sarif: the log relative to %SRCROOT%, fingerprints that survive moved lines, help links, and the cut said", async () => {
    type Sarif = {
      runs: {
        originalUriBaseIds?: Record<string, { uri: string }>;
        tool: { driver: { rules: { id: string; helpUri: string }[] } };
        invocations: { toolExecutionNotifications: { message: { text: string }; associatedRule: { id: string } }[] }[];
        results: {
          locations: { physicalLocation: { artifactLocation: { uri: string; uriBaseId?: string } } }[];
          partialFingerprints: Record<string, string>;
        }[];
      }[];
    };
    const dir = tempProject();
    const lines = readFileSync(MISTAKES, "utf8").split("\n");
    writeFileSync(path.join(dir, "run one.jsonl"), lines.join("\n"));
    // The same log with a note before its messages: every finding moves one line down.
    writeFileSync(
      path.join(dir, "moved.jsonl"),
      [lines[0], JSON.stringify({ time: "2025-12-05T16:00:00.000Z", note: "a note" }), ...lines.slice(1)].join("\n"),
    );
    // As the command line does: the log as typed, relative to the working folder.
    const sarif = async (typed: string, cwd: string) => JSON.parse(sarifReport(await checkLog(path.resolve(cwd, typed), { display: typed }), cwd)) as Sarif;
    const here = (await sarif("run one.jsonl", dir)).runs[0]!;
    expect(here.originalUriBaseIds).toEqual({ "%SRCROOT%": { uri: `file://${dir}/` } });
    expect(here.results[0]!.locations[0]!.physicalLocation.artifactLocation).toEqual({ uri: "run%20one.jsonl", uriBaseId: "%SRCROOT%" });
    // A log outside the working folder: its absolute file URI.
    const elsewhere = (await sarif("../run one.jsonl", path.join(dir, "sub"))).runs[0]!;
    expect(elsewhere.originalUriBaseIds).toBeUndefined();
    expect(elsewhere.results[0]!.locations[0]!.physicalLocation.artifactLocation).toEqual({ uri: `file://${dir}/run%20one.jsonl` });
    // Fingerprints: all different, and the same after the lines moved (the file name aside).
    const prints = (run: Sarif["runs"][0]) => run.results.map((r) => r.partialFingerprints["mcpgenFinding/v1"]);
    const moved = (await sarif("moved.jsonl", dir)).runs[0]!;
    expect(new Set(prints(here)).size).toBe(here.results.length);
    const renamed = JSON.parse(sarifReport(await checkLog(path.join(dir, "moved.jsonl"), { display: "run one.jsonl" }), dir)) as Sarif;
    expect(prints(renamed.runs[0]!)).toEqual(prints(here));
    expect(prints(moved)).not.toEqual(prints(here));
    // Each rule links to its line of the rules page of this version.
    expect(here.tool.driver.rules[0]!.helpUri).toMatch(/^https:\/\/unpkg\.com\/mcpgen@\d+\.\d+\.\d+[^/]*\/docs\/reference\/check-rules\.md#unreadable-line$/);
    // Findings not listed: a notification per rule, valid SARIF still.
    const log = JSON.parse(report(cut(await result()), "sarif")) as Sarif;
    expect(log.runs[0]!.invocations[0]!.toolExecutionNotifications.map((n) => [n.associatedRule.id, n.message.text])).toEqual([
      ["unknown-method", "5 more findings of unknown-method were not listed (at most 1000 per rule)"],
    ]);
    expect(sarifValidator()(log)).toBe(true);
  });

  it("junit: one failed test case per finding, one passed per rule without, as two JUnit readers read it", async () => {
    const r = await result();
    const xml = report(r, "junit");
    const withFindings = new Set(r.findings.map((f) => f.rule));
    const passed = RULE_IDS.filter((id) => !withFindings.has(id)).length;
    // junit2json (xml2js): every element as written.
    const suites = await junit2json(xml);
    const cases = (suites as { testsuite: { testcase: { name: string; classname: string; failure?: { message: string }[] }[] }[] }).testsuite[0]!.testcase;
    expect(cases).toHaveLength(r.findings.length + passed);
    expect(cases.filter((c) => c.failure).map((c) => c.failure!.length)).toEqual(r.findings.map(() => 1));
    expect(cases.find((c) => c.name === "invalid-arguments at mistakes.jsonl:11")).toMatchObject({
      classname: "mcpgen.check.invalid-arguments",
      failure: [{ message: "mistakes.jsonl:11: arguments of suggest_gifts break its inputSchema: Missing required property 'budget' (at /: required)" }],
    });
    // test-results-parser (the reader of testbeats and others): its counts.
    const file = path.join(tempProject(), "report.xml");
    writeFileSync(file, xml);
    const parsed = parseTestResults({ type: "junit", files: [file] });
    expect([parsed.total, parsed.failed, parsed.passed]).toEqual([r.findings.length + passed, r.findings.length, passed]);
    // Findings past the per-rule limit: one more failed case says how many.
    const more = (await junit2json(report(cut(r), "junit"))) as { testsuite: { testcase: { name: string; failure?: { message: string }[] }[] }[] };
    expect(more.testsuite[0]!.testcase.find((c) => c.name === "unknown-method: 5 more findings")!.failure![0]!.message).toBe(
      "5 more findings of unknown-method were not listed (at most 1000 per rule)",
    );
  });

  it("escapes text for XML, dropping characters XML cannot hold", async () => {
    expect(xmlEscape(`a<b & "c" 'd'\u0001`)).toBe("a&lt;b &amp; &quot;c&quot; &apos;d&apos;");
    const parsed = (await junit2json(`<testsuites><testsuite name="${xmlEscape('<&>"')}">${xmlEscape("</testsuite>")}</testsuite></testsuites>`)) as {
      testsuite: { name: string }[];
    };
    expect(parsed.testsuite[0]!.name).toBe('<&>"');
  });
});
