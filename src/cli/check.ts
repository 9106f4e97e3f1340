/**
 * `mcpgen check LOG`: the mistakes in a log of MCP messages (a trace of `mcpgen trace`, raw
 * JSON-RPC JSONL, a HAR of a Streamable HTTP session, a generated server's message log), each at
 * its line with the message's id and the fix; as text, JSON, SARIF or JUnit for CI.
 */
import { hasErrors } from "../common/diagnostics.js";
import { REPORT_FORMATS, type ReportFormat } from "../commands/check/report/index.js";
import type { LogFormat } from "../commands/check/read/index.js";
import { CliUsageError, type CommandLine } from "./args.js";
import { defineCommand } from "./command.js";
import { INPUT_OPTION, logPath, parseLog } from "./logArgs.js";
import { printDiagnostics } from "../common/report.js";

interface CheckArgs {
  log: string;
  input?: LogFormat;
  manifests: string[];
  format: ReportFormat;
  failOn: "error" | "warning";
}

const FORMATS = Object.keys(REPORT_FORMATS) as ReportFormat[];

export const checkCommand = defineCommand({
  name: "check",
  about: "the mistakes in a log of MCP messages, at their lines, with the fix.",
  summary: "Check a log of MCP messages (mcpgen trace, raw JSONL, HAR, a server's log): envelopes, ids, methods, names, schemas, result shapes.",
  synopsis: ["mcpgen check LOG [--manifests PATH...] [--input FORMAT] [--format text|json|sarif|junit]", "             [--fail-on error|warning]"],
  usage: ["mcpgen check LOG [--manifests PATH...] [--input FORMAT] [--format text|json|sarif|junit] [--fail-on error|warning]"],
  details: `Reads the log as it streams (a HAR is read whole, at most 256 MiB) and reports each mistake at
its line (a HAR's: where the entry starts), with the message's id and the fix: JSON-RPC envelopes,
ids reused or never answered, unknown methods, results sent as notifications, params under other
names, unknown tools, resources and prompts, arguments and structuredContent against the schemas,
result shapes that change between calls, business failures sent as protocol errors, and the
2026-07-28 HTTP headers. Tools, resources and prompts are those of the manifests given, else those
the server listed in the log. The rules: docs/reference/check-rules.md.`,
  options: {
    manifests: {
      type: "string",
      multiple: true,
      value: "PATH",
      needs: "a file or folder",
      help: "Judge names, arguments and outputs against these manifests (files or folders) instead of the server's list answers in the log.",
    },
    input: INPUT_OPTION,
    format: {
      type: "string",
      value: "FORMAT",
      needs: "a report format",
      help: "text (default), json (an array of findings), sarif (SARIF 2.1.0) or junit (JUnit XML).",
    },
    "fail-on": {
      type: "string",
      value: "LEVEL",
      needs: "error or warning",
      help: "Exit 1 when a finding at this level or above is found: error (default) or warning.",
    },
  },
  footer: `Exit codes: 0 no finding at or above --fail-on, 1 findings (or invalid manifests), 2 usage error (a
bad option, a log that cannot be read).`,
  unknownHint: "for check",
  parse: parseCheckArgs,
  run: runCheck,
});

function parseCheckArgs(line: CommandLine): CheckArgs {
  const { log, input } = parseLog(line, "check");
  const format = (line.values["format"] as string | undefined) ?? "text";
  if (!FORMATS.includes(format as ReportFormat)) throw new CliUsageError(`${line.typed["format"]} takes ${FORMATS.join(", ")}, not ${JSON.stringify(format)}`);
  const failOn = (line.values["fail-on"] as string | undefined) ?? "error";
  if (failOn !== "error" && failOn !== "warning") throw new CliUsageError(`${line.typed["fail-on"]} takes error or warning, not ${JSON.stringify(failOn)}`);
  return { log, ...(input ? { input } : {}), manifests: (line.values["manifests"] as string[] | undefined) ?? [], format: format as ReportFormat, failOn };
}

async function runCheck(args: CheckArgs, cwd: string): Promise<number> {
  const where = await logPath(args.log, cwd);
  if ("problem" in where) {
    process.stderr.write(`mcpgen: ${where.problem}\nRun \`mcpgen check --help\` for usage.\n`);
    return 2;
  }
  const { checkLog } = await import("../commands/check/run.js");
  const { report } = await import("../commands/check/report/index.js");
  let definitions;
  let pulledWith;
  if (args.manifests.length) {
    const { loadDefinitions } = await import("../commands/check/manifests.js");
    const loaded = await loadDefinitions(args.manifests, cwd);
    printDiagnostics(loaded.diagnostics.filter((d) => d.severity === "error"));
    if (hasErrors(loaded.diagnostics)) {
      process.stderr.write("mcpgen: the manifests have errors; nothing checked.\n");
      return 1;
    }
    definitions = loaded.definitions;
    pulledWith = loaded.pulledWith;
  }
  const { UnreadableHar } = await import("../commands/check/read/index.js");
  let result;
  try {
    result = await checkLog(where.file, {
      display: args.log,
      ...(definitions ? { definitions } : {}),
      ...(pulledWith ? { pulledWith } : {}),
      ...(args.input ? { format: args.input } : {}),
    });
  } catch (error) {
    if (!(error instanceof UnreadableHar || error instanceof SyntaxError)) throw error;
    process.stderr.write(`mcpgen: ${args.log}: ${error instanceof SyntaxError ? `not a HAR (${error.message})` : error.message}\n`);
    return 2;
  }
  process.stdout.write(report(result, args.format));
  const failing = result.findings.some((f) => f.severity === "error" || args.failOn === "warning");
  return failing ? 1 : 0;
}
