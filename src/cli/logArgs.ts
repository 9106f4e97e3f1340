/** What check and explain share on their command lines: one log, and how to read it. */
import { stat } from "node:fs/promises";
import * as path from "node:path";
import type { LogFormat } from "../commands/check/read/index.js";
import { CliUsageError, type CommandLine } from "./args.js";

const INPUT_FORMATS: readonly LogFormat[] = ["mcpgen", "jsonl", "har", "server-log"];

export const INPUT_OPTION = {
  type: "string",
  value: "FORMAT",
  needs: "a log format",
  help: "Read the log as mcpgen (mcpgen trace's JSONL), jsonl (raw JSON-RPC messages, one per line), har or server-log (a generated server's logMessages lines); default: told from its first line.",
} as const;

/** The one log of the command line, and the format asked for. */
export function parseLog(line: CommandLine, command: string): { log: string; input?: LogFormat } {
  if (line.positionals.length !== 1)
    throw new CliUsageError(
      line.positionals.length === 0 ? `${command} needs a log: mcpgen ${command} LOG` : `${command} reads one log, not ${line.positionals.length}`,
    );
  const input = line.values["input"];
  if (input !== undefined && !INPUT_FORMATS.includes(input as LogFormat))
    throw new CliUsageError(`${line.typed["input"]} takes ${INPUT_FORMATS.join(", ")}, not ${JSON.stringify(input)}`);
  return { log: line.positionals[0]!, ...(typeof input === "string" ? { input: input as LogFormat } : {}) };
}

/** The log's absolute path, or the reason it cannot be read (printed, exit 2). */
export async function logPath(log: string, cwd: string): Promise<{ file: string } | { problem: string }> {
  const file = path.resolve(cwd, log);
  try {
    if (!(await stat(file)).isFile()) return { problem: `${log} is not a file` };
  } catch {
    return { problem: `${log}: no such file` };
  }
  return { file };
}
