/**
 * The server's own message log (`logMessages: true`, or `MCP_LOG_MESSAGES=1` in the environment):
 * one JSON line on stderr per request the engine answers, with its id, method, tool (or prompt,
 * or URI), duration and how it ended: ok, a business failure (a result with `isError: true`) or a
 * protocol error (a JSON-RPC error). `mcpgen check` and `mcpgen explain` read these lines as they
 * read a trace. Arguments and results are never logged: they may hold what the caller would not
 * want in a log; only the error's message and a failed result's first text (cut) are.
 */
import { processEnvironment, type Environment } from "./requestStateKeys.js";

/** One line of the log. The same shape as `ServerLogLine` in mcpgen's trace format. */
export interface ServerLogLine {
  mcpgenLog: 1;
  /** ISO 8601 with milliseconds: when the answer left. */
  time: string;
  /** `in`: a request of the client, answered. */
  direction: "in" | "out";
  id?: string | number;
  method: string;
  /** tools/call: the tool; prompts/get: the prompt; resources/read: the URI. */
  name?: string;
  /** From receipt to answer. */
  durationMs?: number;
  outcome?: "ok" | "business-error" | "protocol-error";
  /** protocol-error: its code and message; business-error: the result's first text, cut at 200 characters. */
  error?: { code?: number; message: string };
  /** The request's protocol revision, when the request names it (2026-07-28). */
  protocol?: string;
}

/** Where lines go: a function of yours, or stderr. */
export type MessageLogOption = boolean | ((line: ServerLogLine) => void);

/** The sink the option (else the environment's MCP_LOG_MESSAGES) asks for, or undefined: no log. */
export function messageLogSink(option: MessageLogOption | undefined, env: Environment = processEnvironment()): ((line: ServerLogLine) => void) | undefined {
  if (typeof option === "function") return option;
  const on = option ?? /^(1|true|yes|on)$/i.test(env["MCP_LOG_MESSAGES"] ?? "");
  if (!on) return undefined;
  const host = globalThis as { process?: { stderr?: { write(text: string): unknown } } };
  const stderr = host.process?.stderr;
  return stderr ? (line) => void stderr.write(`${JSON.stringify(line)}\n`) : undefined;
}

/** The line of one answered request: its outcome read from what the engine answered or threw. */
export function requestLine(
  request: { id: string | number; method: string; params: { [key: string]: unknown }; protocol?: string },
  startedAt: number,
  answer: { result: unknown } | { error: unknown },
): ServerLogLine {
  const name = request.method === "resources/read" ? request.params["uri"] : request.params["name"];
  return {
    mcpgenLog: 1,
    time: new Date().toISOString(),
    direction: "in",
    id: request.id,
    method: request.method,
    ...(typeof name === "string" ? { name } : {}),
    durationMs: Math.round((performance.now() - startedAt) * 10) / 10,
    ...outcomeOf(answer),
    ...(request.protocol === undefined ? {} : { protocol: request.protocol }),
  };
}

function outcomeOf(answer: { result: unknown } | { error: unknown }): Pick<ServerLogLine, "outcome" | "error"> {
  if ("error" in answer) {
    const { error } = answer;
    const code = typeof error === "object" && error !== null && "code" in error && typeof error.code === "number" ? error.code : undefined;
    const message = error instanceof Error ? error.message : String(error);
    return { outcome: "protocol-error", error: { ...(code === undefined ? {} : { code }), message: cut(message) } };
  }
  const { result } = answer;
  if (typeof result !== "object" || result === null || !("isError" in result) || result.isError !== true) return { outcome: "ok" };
  const content: unknown[] = "content" in result && Array.isArray(result.content) ? result.content : [];
  const text = content.map(textOf).find((t) => t !== undefined) ?? "";
  return { outcome: "business-error", error: { message: cut(text) } };
}

/** A text block's text. */
function textOf(block: unknown): string | undefined {
  if (typeof block !== "object" || block === null || !("type" in block) || block.type !== "text") return undefined;
  return "text" in block && typeof block.text === "string" ? block.text : undefined;
}

function cut(text: string): string {
  return text.length > 200 ? `${text.slice(0, 199)}…` : text;
}
