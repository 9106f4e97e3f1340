/**
 * `mcpgen lint`: portability warnings for the manifests of the config (or those named).
 */
import * as path from "node:path";
import { loadConfig } from "../config/loadConfig.js";
import { asLevel, refuseCode } from "../config/levels.js";
import { hasErrors, LINT_RULES, RULE_NAMES, WARNING_CODES, type Level, type WarningCode } from "../common/diagnostics.js";
import { CliUsageError, type CommandLine } from "./args.js";
import { defineCommand, wrap } from "./command.js";
import { printDiagnostics } from "../common/report.js";

export const lintCommand = defineCommand({
  name: "lint",
  about: "where a valid definition will break in major clients or model APIs.",
  summary: "Warn where a valid definition breaks in major clients or model APIs.",
  synopsis: ["mcpgen lint [PATH...] [--config FILE] [--rule CODE=off|warn|error] [--quiet]"],
  usage: ["mcpgen lint [MANIFEST|FOLDER...] [--config FILE] [--rule CODE=off|warn|error]... [--quiet]"],
  details: `Rules (all "warn" by default):
${RULE_NAMES.map((r) => `  ${r}\n${wrap(LINT_RULES[r], 90, "      ")}`).join("\n")}

The manifests are validated as generate does, so its warnings are reported too. Any warning code
can be set to off, warn or error, for every run in the config's "diagnostics" key (generate and
validate apply it as well) or for this run with --rule:
${wrap(WARNING_CODES.join(", "), 90, "  ")}
Errors cannot be turned off.`,
  options: {
    manifests: { type: "string", multiple: true, value: "PATH", needs: "a file or folder", help: "" },
    config: { type: "string", value: "FILE", needs: "a file", help: "Read this config instead of looking for one." },
    rule: {
      type: "string",
      multiple: true,
      value: "CODE=LEVEL",
      needs: "CODE=off|warn|error",
      help: "Set a warning code to off, warn or error for this run (over the config).",
    },
    quiet: { type: "boolean", help: "Print only errors (no warnings, no summary line)." },
  },
  footer: `Exit codes: 0 no errors (warnings are printed), 1 a code set to "error" fired or a manifest is
invalid, 2 usage error.`,
  unknownHint: "for lint",
  parse: parseLintArgs,
  run: runLint,
});

interface LintArgs {
  manifests: string[];
  config?: string;
  rules: Partial<Record<WarningCode, Level>>;
  quiet: boolean;
}

function parseLintArgs({ values, positionals }: CommandLine): LintArgs {
  const args: LintArgs = { manifests: [...((values.manifests as string[] | undefined) ?? []), ...positionals], rules: {}, quiet: values.quiet === true };
  if (typeof values.config === "string") args.config = values.config;
  for (const v of (values.rule as string[] | undefined) ?? []) {
    const at = v.indexOf("=");
    const name = at === -1 ? v : v.slice(0, at);
    const why = refuseCode(name);
    if (why) throw new CliUsageError(`--rule ${JSON.stringify(v)}: ${why}`);
    const level = asLevel(at === -1 ? undefined : v.slice(at + 1));
    if (!level) throw new CliUsageError(`--rule takes CODE=off, CODE=warn or CODE=error, not ${JSON.stringify(v)}`);
    args.rules[name as WarningCode] = level;
  }
  return args;
}

async function runLint(args: LintArgs, cwd: string): Promise<number> {
  const loaded = loadConfig(cwd, args.config);
  printDiagnostics(loaded.diagnostics);
  if (hasErrors(loaded.diagnostics)) {
    process.stderr.write("mcpgen: the config has errors.\n");
    return 1;
  }
  const { lintManifests } = await import("../commands/lint/lint.js");
  const { upstreamNotes } = await import("../commands/lint/upstream.js");
  const manifests = args.manifests.length ? args.manifests.map((m) => path.resolve(cwd, m)) : loaded.config.manifests;
  // --rule wins over every level of the config, a manifest's own included.
  const result = await lintManifests(manifests, cwd, [...loaded.config.levels, { codes: args.rules }]);
  const shown = args.quiet ? result.diagnostics.filter((d) => d.severity === "error") : result.diagnostics;
  printDiagnostics(shown);
  const errors = result.diagnostics.filter((d) => d.severity === "error").length;
  if (args.quiet) return errors > 0 ? 1 : 0;
  for (const note of upstreamNotes(result.diagnostics, cwd)) process.stderr.write(`${note}\n`);
  const warnings = result.diagnostics.length - errors;
  const counts = `${errors} error${errors === 1 ? "" : "s"}, ${warnings} warning${warnings === 1 ? "" : "s"}`;
  process.stdout.write(`mcpgen: linted ${result.checked} manifest${result.checked === 1 ? "" : "s"}: ${counts}.\n`);
  return errors > 0 ? 1 : 0;
}
