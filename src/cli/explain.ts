/** `mcpgen explain LOG`: a log of MCP messages in words, message by message; `explain RULE|CODE`: a check rule or an error code. */
import type { LogFormat } from "../commands/check/read/index.js";
import { CliUsageError, type CommandLine } from "./args.js";
import { defineCommand } from "./command.js";
import { INPUT_OPTION, logPath, parseLog } from "./logArgs.js";

interface ExplainArgs {
  log: string;
  input?: LogFormat;
  format: "text" | "jsonl";
}

export const explainCommand = defineCommand({
  name: "explain",
  about: "a log of MCP messages in words, message by message.",
  summary: "Explain a log of MCP messages line by line: who sends what, which request each reply answers and how long it took, what an error means.",
  synopsis: ["mcpgen explain LOG [--input FORMAT] [--format text|jsonl]", "mcpgen explain RULE | DIAGNOSTIC | CODE"],
  details: `Reads the same logs as check (mcpgen trace's JSONL, raw JSON-RPC JSONL, a HAR, a generated
server's message log) and prints one line per message: its line in the log, who sent it, and what
it is: a request with its tool and argument names, a reply with the request it answers (its line,
and the time it took when the log has times), an error as a protocol error or a business failure,
notifications in words (progress, list changes, log messages), and the HTTP exchange it rode on.

Given a rule of check instead of a log (mcpgen explain misnamed-param), it says what the rule
finds and how to fix it; given a code of generate, validate or lint (mcpgen explain pattern-cost),
what it reports; given a JSON-RPC error code (mcpgen explain -32602), what the code means in MCP
and when a server answers it. A file of that name is read as a log.`,
  options: {
    input: INPUT_OPTION,
    format: {
      type: "string",
      value: "FORMAT",
      needs: "text or jsonl",
      help: "text (default), or jsonl: one JSON object per message ({line, from, id, method, answers, durationMs, text}).",
    },
  },
  footer: "Exit codes: 0 explained, 2 usage error (a log that cannot be read).",
  unknownHint: "for explain",
  parse: (line: CommandLine): ExplainArgs => {
    const format = (line.values["format"] as string | undefined) ?? "text";
    if (format !== "text" && format !== "jsonl") throw new CliUsageError(`${line.typed["format"]} takes text or jsonl, not ${JSON.stringify(format)}`);
    return { ...parseLog(line, "explain"), format };
  },
  run: async (args: ExplainArgs, cwd: string): Promise<number> => {
    const where = await logPath(args.log, cwd);
    if ("problem" in where) {
      const { explainTopic } = await import("../commands/check/explain/topics.js");
      const { rulesPageUrl } = await import("../commands/check/report/sarif.js");
      const topic = explainTopic(args.log, rulesPageUrl);
      if (topic !== undefined) {
        process.stdout.write(topic);
        return 0;
      }
      const nor = where.problem.endsWith("no such file") ? ", nor a rule of mcpgen check, a code of its diagnostics or a JSON-RPC error code" : "";
      process.stderr.write(`mcpgen: ${where.problem}${nor}\nRun \`mcpgen explain --help\` for usage.\n`);
      return 2;
    }
    const { explainLog, explainedText } = await import("../commands/check/explain/run.js");
    const { UnreadableHar } = await import("../commands/check/read/index.js");
    try {
      const print = args.format === "jsonl" ? (e: object) => JSON.stringify(e) : explainedText;
      await explainLog(where.file, (e) => process.stdout.write(`${print(e)}\n`), args.input);
    } catch (error) {
      if (!(error instanceof UnreadableHar || error instanceof SyntaxError)) throw error;
      process.stderr.write(`mcpgen: ${args.log}: ${error instanceof SyntaxError ? `not a HAR (${error.message})` : error.message}\n`);
      return 2;
    }
    return 0;
  },
});
