/** The report formats: text like mcpgen's diagnostics, JSON, SARIF valid by the official schema, JUnit XML well-formed. */
import { readFileSync } from "node:fs";
import { Ajv } from "ajv";
import { describe, expect, it } from "vitest";
import { report } from "../../../../src/commands/check/report/index.js";
import { xmlEscape } from "../../../../src/commands/check/report/junit.js";
import { RULE_IDS } from "../../../../src/commands/check/rules/table.js";
import { checkLog } from "../../../../src/commands/check/run.js";

const MISTAKES = new URL("../../../../examples/traces/mistakes.jsonl", import.meta.url).pathname;

async function result() {
  return checkLog(MISTAKES, { display: "mistakes.jsonl" });
}

/** The official SARIF 2.1.0 schema (draft-04), read as draft-07: see test/fixtures/sarif/README.md. */
function sarifValidator() {
  const schema = JSON.parse(readFileSync(new URL("../../../fixtures/sarif/sarif-schema-2.1.0.json", import.meta.url), "utf8")) as Record<string, unknown>;
  const { id, $schema: _draft04, ...rest } = schema;
  const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false });
  return ajv.compile({ ...rest, $id: String(id) });
}

/**
 * A small XML well-formedness check: one root, tags nested and closed in order, attributes
 * quoted, only the five predefined entities and character references.
 */
function parseXml(text: string): { name: string; attrs: Record<string, string>; children: unknown[] } {
  let i = 0;
  const fail = (why: string) => {
    throw new Error(`${why} at ${i}: ${text.slice(i, i + 40)}`);
  };
  const entity = (s: string) => {
    if (/&(?!(amp|lt|gt|quot|apos|#\d+|#x[0-9a-fA-F]+);)/.test(s)) fail("bad entity");
    return s
      .replace(/&lt;/g, "<")
      .replace(/&gt;/g, ">")
      .replace(/&quot;/g, '"')
      .replace(/&apos;/g, "'")
      .replace(/&amp;/g, "&");
  };
  if (text.startsWith("<?xml")) i = text.indexOf("?>") + 2;
  type Node = { name: string; attrs: Record<string, string>; children: unknown[] };
  const stack: Node[] = [];
  let root: Node | undefined;
  while (i < text.length) {
    const lt = text.indexOf("<", i);
    if (lt === -1) {
      if (text.slice(i).trim()) fail("text after the root");
      break;
    }
    const between = text.slice(i, lt);
    if (between.trim()) {
      if (!stack.length) fail("text outside the root");
      stack[stack.length - 1]!.children.push(entity(between));
    }
    const gt = text.indexOf(">", lt);
    if (gt === -1) fail("unclosed tag");
    const tag = text.slice(lt + 1, gt);
    i = gt + 1;
    if (tag.startsWith("/")) {
      const open = stack.pop();
      if (!open || open.name !== tag.slice(1)) fail(`</${tag.slice(1)}> closes ${open?.name}`);
      continue;
    }
    const m = /^([A-Za-z_][\w.-]*)((?:\s+[A-Za-z_][\w.-]*="[^"<]*")*)\s*(\/?)$/.exec(tag);
    if (!m) fail(`bad tag <${tag}>`);
    const attrs: Record<string, string> = {};
    for (const a of m![2]!.matchAll(/([A-Za-z_][\w.-]*)="([^"]*)"/g)) attrs[a[1]!] = entity(a[2]!);
    const node: Node = { name: m![1]!, attrs, children: [] };
    if (stack.length) stack[stack.length - 1]!.children.push(node);
    else if (root) fail("two roots");
    else root = node;
    if (m![3] !== "/") stack.push(node);
  }
  if (stack.length || !root) fail("unclosed elements");
  return root!;
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

  it("json: an array of findings", async () => {
    const r = await result();
    const list = JSON.parse(report(r, "json")) as { rule: string; line: number; id?: unknown; fix: string }[];
    expect(list).toHaveLength(r.findings.length);
    expect(list[0]).toEqual({
      file: "mistakes.jsonl",
      line: 11,
      severity: "error",
      rule: "invalid-arguments",
      id: 4,
      message: "arguments of suggest_gifts break its inputSchema: Missing required property 'budget' (at /: required)",
      fix: "send arguments that match the inputSchema (tools/list gives it)",
    });
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

  it("junit: well-formed XML, one test case per rule, a failure per finding", async () => {
    const r = await result();
    const xml = parseXml(report(r, "junit"));
    expect(xml.name).toBe("testsuites");
    const suite = xml.children[0] as { name: string; children: { name: string; attrs: Record<string, string>; children: { name: string }[] }[] };
    expect(suite.name).toBe("testsuite");
    expect(suite.children).toHaveLength(RULE_IDS.length);
    const failures = suite.children.flatMap((c) => c.children.filter((f) => f.name === "failure"));
    expect(failures).toHaveLength(r.findings.length);
    expect(suite.children.find((c) => c.attrs["name"]!.startsWith("trace-limit:"))!.children).toEqual([]);
  });

  it("escapes text for XML, dropping characters XML cannot hold", () => {
    expect(xmlEscape(`a<b & "c" 'd'\u0001`)).toBe("a&lt;b &amp; &quot;c&quot; &apos;d&apos;");
    expect(() => parseXml(`<a x="${xmlEscape('<&>"')}">${xmlEscape("</a>")}</a>`)).not.toThrow();
  });
});
