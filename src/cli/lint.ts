/**
 * `mcpgen lint`: portability warnings for the manifests of the config (or those named).
 */
import * as path from "node:path";
import { loadConfig } from "../config/loadConfig.js";
import { formatDiagnostic, hasErrors } from "../diagnostics.js";
import { CliUsageError, parseOrExplain, walkArgs } from "./args.js";
import { LINT_RULES, RULE_NAMES, type LintLevel } from "../lint/rules.js";

export const LINT_HELP = `mcpgen lint: where a valid definition will break in major clients or model APIs.

Usage:
  mcpgen lint [MANIFEST|FOLDER...] [--config FILE] [--rule NAME=off|warn|error]...

Rules (all "warn" by default; set them in the config's "lint" key or with --rule):
${RULE_NAMES.map((r) => `  ${r}\n${wrap(LINT_RULES[r], 90, "      ")}`).join("\n")}

Exit codes: 0 no errors (warnings are printed), 1 a rule set to "error" fired or a manifest is
invalid, 2 usage error.`;

function wrap(text: string, width: number, indent: string): string {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(" ")) {
    if (line && indent.length + line.length + 1 + word.length > width) {
      lines.push(indent + line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(indent + line);
  return lines.join("\n");
}

function parseLintArgs(argv: string[]): { manifests: string[]; config?: string; rules: Record<string, LintLevel> } {
  const manifests: string[] = [];
  const rules: Record<string, LintLevel> = {};
  let config: string | undefined;
  walkArgs(argv, ({ arg, flag, value }) => {
    if (flag === "--config") config = value("a file");
    else if (flag === "--manifests") manifests.push(value("a file or folder"));
    else if (flag === "--rule") {
      const v = value("NAME=off|warn|error");
      const [name, level] = v.split("=", 2) as [string, string | undefined];
      if (!(RULE_NAMES as string[]).includes(name)) throw new CliUsageError(`unknown lint rule ${JSON.stringify(name)}; the rules: ${RULE_NAMES.join(", ")}`);
      if (level !== "off" && level !== "warn" && level !== "error") throw new CliUsageError(`--rule takes NAME=off, NAME=warn or NAME=error, not ${JSON.stringify(v)}`);
      rules[name] = level;
    } else if (arg.startsWith("-")) throw new CliUsageError(`unknown option ${arg} for lint`);
    else manifests.push(arg);
  });
  return { manifests, rules, ...(config ? { config } : {}) };
}

export async function runLint(argv: string[], cwd: string): Promise<number> {
  const args = parseOrExplain(() => parseLintArgs(argv), "lint");
  if (!args) return 2;
  const loaded = loadConfig(cwd, args.config);
  for (const d of loaded.diagnostics) process.stderr.write(`${formatDiagnostic(d)}\n`);
  if (hasErrors(loaded.diagnostics)) {
    process.stderr.write("mcpgen: the config has errors.\n");
    return 1;
  }
  const { lintManifests, ruleLevels } = await import("../lint/lint.js");
  const manifests = args.manifests.length ? args.manifests.map((m) => path.resolve(cwd, m)) : loaded.config.manifests;
  const result = await lintManifests(manifests, cwd, ruleLevels(loaded.config.lint, args.rules));
  for (const d of result.diagnostics) process.stderr.write(`${formatDiagnostic(d)}\n`);
  const errors = result.diagnostics.filter((d) => d.severity === "error").length;
  const warnings = result.diagnostics.length - errors;
  const counts = `${errors} error${errors === 1 ? "" : "s"}, ${warnings} warning${warnings === 1 ? "" : "s"}`;
  process.stdout.write(`mcpgen: linted ${result.checked} manifest${result.checked === 1 ? "" : "s"}: ${counts}.\n`);
  return errors > 0 ? 1 : 0;
}
