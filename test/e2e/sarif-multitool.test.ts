/**
 * `mcpgen check --format sarif` through Microsoft's SARIF Multitool (`validate`: the SARIF 2.1.0
 * schema and its rules, SARIF1001 to SARIF2016), installed from npm into .cache/sarif-multitool
 * once. In the `network` project.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { mcpgen, ROOT } from "../helpers/cli.js";
import { NPM_FREE_ENV } from "../helpers/published.js";
import { tempProject } from "../helpers/tmp.js";

const VERSION = "5.7.0";
const CACHE = path.join(ROOT, ".cache", "sarif-multitool", VERSION);
const MULTITOOL = path.join(CACHE, "node_modules", "@microsoft", "sarif-multitool", "bin.js");
const TRACES = path.join(ROOT, "examples", "traces");

beforeAll(() => {
  mkdirSync(CACHE, { recursive: true });
  const lock = path.join(CACHE, ".install.lock");
  execFileSync("flock", [lock, "true"]);
  if (existsSync(MULTITOOL)) return;
  writeFileSync(path.join(CACHE, "package.json"), '{ "private": true }\n');
  execFileSync("flock", [lock, "npm", "install", "--no-audit", "--no-fund", "--no-save", `@microsoft/sarif-multitool@${VERSION}`], {
    cwd: CACHE,
    env: NPM_FREE_ENV,
    stdio: "ignore",
    timeout: 300_000,
  });
}, 360_000);

/** What the Multitool's validate says of a SARIF file: its findings, `file(line,col): level SARIFnnnn: ...`. */
function validate(file: string): string[] {
  const out = path.join(path.dirname(file), `${path.basename(file)}.validation.sarif`);
  const printed = execFileSync(process.execPath, [MULTITOOL, "validate", file, "--output", out], { encoding: "utf8", timeout: 120_000 });
  expect(printed).toContain("Analysis completed successfully.");
  const log = JSON.parse(readFileSync(out, "utf8")) as { runs: { results?: { ruleId: string; level?: string; message: { text?: string } }[] }[] };
  return (log.runs[0]!.results ?? []).map((r) => `${r.level ?? "warning"} ${r.ruleId}: ${r.message.text ?? ""}`);
}

describe("check's SARIF in the SARIF Multitool", () => {
  it("is valid, with no warning, for a log full of mistakes, a clean one, and a log outside the working folder", () => {
    const dir = tempProject();
    const mistakes = mcpgen(["check", "mistakes.jsonl", "--format", "sarif"], TRACES);
    expect(mistakes.code).toBe(1);
    const clean = mcpgen(["check", "clean.jsonl", "--format", "sarif"], TRACES);
    const outside = mcpgen(["check", path.join(TRACES, "mistakes.jsonl"), "--format", "sarif"], dir);
    for (const [name, text] of [
      ["mistakes.sarif", mistakes.stdout],
      ["clean.sarif", clean.stdout],
      ["outside.sarif", outside.stdout],
    ] as const) {
      const file = path.join(dir, name);
      writeFileSync(file, text);
      expect(validate(file), name).toEqual([]);
    }
  }, 180_000);
});
