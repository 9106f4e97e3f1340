/**
 * `mcpgen lint`: portability warnings for the manifests of the config (or those named).
 */
import * as path from "node:path";
import { loadConfig } from "../config/loadConfig.js";
import { asLevel, refuseCode } from "../config/levels.js";
import { formatDiagnostic, hasErrors, WARNING_CODES, type Level, type WarningCode } from "../diagnostics.js";
import { CliUsageError, parseOrExplain, walkArgs } from "./args.js";
import { LINT_RULES, RULE_NAMES } from "../lint/rules.js";

export const LINT_HELP = `mcpgen lint: where a valid definition will break in major clients or model APIs.

Usage:
  mcpgen lint [MANIFEST|FOLDER...] [--config FILE] [--rule CODE=off|warn|error]... [--quiet]

Rules (all "warn" by default):
${RULE_NAMES.map((r) => `  ${r}\n${wrap(LINT_RULES[r], 90, "      ")}`).join("\n")}

The manifests are validated as generate does, so its warnings are reported too. Any warning code
can be set to off, warn or error, for every run in the config's "diagnostics" key (generate and
validate apply it as well) or for this run with --rule:
${wrap(WARNING_CODES.join(", "), 90, "  ")}
Errors cannot be turned off.

Options:
  --config FILE            Read this config instead of looking for one.
  --rule CODE=LEVEL        Set a warning code to off, warn or error for this run (over the config).
  --quiet                  Print only errors (no warnings, no summary line).

Exit codes: 0 no errors (warnings are printed), 1 a code set to "error" fired or a manifest is
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

interface LintArgs {
  manifests: string[];
  config?: string;
  rules: Partial<Record<WarningCode, Level>>;
  quiet: boolean;
}

function parseLintArgs(argv: string[]): LintArgs {
  const args: LintArgs = { manifests: [], rules: {}, quiet: false };
  walkArgs(argv, ({ arg, flag, value }) => {
    if (flag === "--config") args.config = value("a file");
    else if (flag === "--manifests") args.manifests.push(value("a file or folder"));
    else if (flag === "--quiet") args.quiet = true;
    else if (flag === "--rule") {
      const v = value("CODE=off|warn|error");
      const at = v.indexOf("=");
      const name = at === -1 ? v : v.slice(0, at);
      const why = refuseCode(name);
      if (why) throw new CliUsageError(`--rule ${JSON.stringify(v)}: ${why}`);
      const level = asLevel(at === -1 ? undefined : v.slice(at + 1));
      if (!level) throw new CliUsageError(`--rule takes CODE=off, CODE=warn or CODE=error, not ${JSON.stringify(v)}`);
      args.rules[name as WarningCode] = level;
    } else if (arg.startsWith("-")) throw new CliUsageError(`unknown option ${arg} for lint`);
    else args.manifests.push(arg);
  });
  return args;
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
  const { lintManifests } = await import("../lint/lint.js");
  const { upstreamNotes } = await import("../lint/upstream.js");
  const manifests = args.manifests.length ? args.manifests.map((m) => path.resolve(cwd, m)) : loaded.config.manifests;
  // --rule wins over every level of the config, a manifest's own included.
  const result = await lintManifests(manifests, cwd, [...loaded.config.levels, { codes: args.rules }]);
  const shown = args.quiet ? result.diagnostics.filter((d) => d.severity === "error") : result.diagnostics;
  for (const d of shown) process.stderr.write(`${formatDiagnostic(d)}\n`);
  const errors = result.diagnostics.filter((d) => d.severity === "error").length;
  if (args.quiet) return errors > 0 ? 1 : 0;
  for (const note of upstreamNotes(result.diagnostics, cwd)) process.stderr.write(`${note}\n`);
  const warnings = result.diagnostics.length - errors;
  const counts = `${errors} error${errors === 1 ? "" : "s"}, ${warnings} warning${warnings === 1 ? "" : "s"}`;
  process.stdout.write(`mcpgen: linted ${result.checked} manifest${result.checked === 1 ? "" : "s"}: ${counts}.\n`);
  return errors > 0 ? 1 : 0;
}
