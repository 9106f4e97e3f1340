/** `mcpgen check` without the command line: a log in, its findings out. */
import type { ServerDefinition } from "@mcpgen/runtime/shared";
import type { Finding } from "./model.js";
import { openLog, type LogFormat } from "./read/index.js";
import { Checker } from "./rules/index.js";
import type { RuleId } from "./rules/table.js";

export interface CheckResult {
  file: string;
  format: LogFormat;
  findings: Finding[];
  /** Findings per rule, the ones not kept included. */
  counts: Map<RuleId, number>;
  messages: number;
}

/** `display`: how findings name the file (as typed on the command line). */
export async function checkLog(
  file: string,
  options: { display?: string; definitions?: readonly ServerDefinition[]; pulledWith?: Record<string, unknown>; format?: LogFormat } = {},
): Promise<CheckResult> {
  const display = options.display ?? file;
  const { format, events } = await openLog(file, options.format);
  const checker = new Checker(display, options.definitions, options.pulledWith);
  for await (const event of events) checker.add(event);
  const findings = checker.end();
  return { file: display, format, findings, counts: checker.counts, messages: checker.messages };
}
