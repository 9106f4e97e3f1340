/**
 * The server's answers to tools/call: structuredContent against the outputSchema, one shape per
 * tool, business failures sent as protocol errors, and malformed arguments answered two ways. A
 * call answered with a task is judged when its result comes: by tasks/result (2025-11-25) or in a
 * completed tasks/get (2026-07-28); an "ask me first" answer is not a result.
 */
import { isRecord } from "../model.js";
import type { Paired } from "../pair/pairer.js";
import type { RuleContext } from "./context.js";
import { checkShapeOf, isInterimResult } from "./shapes.js";
import { problemsOf } from "./validate.js";

/** JSON-RPC's own codes: the request itself was wrong. */
const PROTOCOL_CODES = new Set([-32700, -32600, -32601, -32602]);

/** Words of a refusal by the business, not of a broken channel. */
const BUSINESS =
  /not found|no such|does(?:n't| not) exist|no (?:\w+ )?named|no permission|permission denied|forbidden|not allowed|unauthori[sz]ed|access denied|\bempty\b|no results?|nothing found|invalid (?:\w+ )?id\b|unknown (?:user|gift|item|order|product|customer|account)|out of stock|insufficient|quota|limit exceeded|already exists/i;

/** Words of a validation failure, in an isError result's text. */
const VALIDATION = /missing required|invalid argument|invalid params|must be|is required|does not match|validation/i;

const MAX_REMEMBERED = 10_000;

/** A JSON-RPC error that is not JSON-RPC's own and whose words are a business refusal. */
export function isBusinessFailure(code: unknown, message: string): boolean {
  return typeof code === "number" && !PROTOCOL_CODES.has(code) && BUSINESS.test(message);
}

/** `{gifts: array}; content: text`: what a result's shape is, for comparing calls of a tool. */
function shapeOf(result: Record<string, unknown>): string {
  const sc = result["structuredContent"];
  const typeOf = (v: unknown) => (Array.isArray(v) ? "array" : v === null ? "null" : typeof v);
  const structured = isRecord(sc)
    ? `structuredContent {${Object.keys(sc)
        .sort()
        .map((k) => `${k}: ${typeOf(sc[k])}`)
        .join(", ")}}`
    : sc === undefined
      ? "no structuredContent"
      : `structuredContent ${typeOf(sc)}`;
  const blocks = Array.isArray(result["content"]) ? [...new Set(result["content"].map((b) => (isRecord(b) ? String(b["type"]) : typeOf(b))))].sort() : [];
  return `${structured}; content [${blocks.join(", ")}]`;
}

function firstText(result: Record<string, unknown>): string {
  const content = Array.isArray(result["content"]) ? result["content"] : [];
  const text = content.find((b) => isRecord(b) && b["type"] === "text");
  return isRecord(text) && typeof text["text"] === "string" ? text["text"] : "";
}

export class ResultRules {
  /** Per tool: the first successful result's shape, its line, and the shapes already reported. */
  private readonly shapes = new Map<string, { shape: string; line: number; reported: Set<string> }>();
  /** Tools for which the server answered -32602 (the first line). */
  private readonly invalidParams = new Map<string, number>();
  /** Per tool: isError results to calls with malformed arguments. */
  private readonly argumentFailures = new Map<string, { line: number; id: unknown }[]>();
  /** Per task a tools/call created: its tool. */
  private readonly taskTools = new Map<string, string>();

  check(p: Paired, ctx: RuleContext): void {
    const { event, shape, request } = p;
    if (shape.kind !== "response" || event.from !== "server" || !request) return;
    if (request.method === "tasks/result" || request.method === "tasks/get") return this.checkTaskResult(p, ctx);
    if (request.method !== "tools/call" || request.name === undefined) return;
    const tool = request.name;
    if (shape.hasError && !shape.hasResult && isRecord(shape.error)) {
      const code = shape.error["code"];
      const message = typeof shape.error["message"] === "string" ? shape.error["message"] : "";
      if (code === -32602 && !/unknown tool/i.test(message)) this.remember(this.invalidParams, tool, event.line);
      if (isBusinessFailure(code, message))
        ctx.report(
          "business-error-as-protocol-error",
          event.line,
          shape.id,
          `tools/call ${tool} answered error ${String(code)} ${JSON.stringify(message)}: a business failure sent as a protocol error`,
        );
      return;
    }
    if (!shape.hasResult || !isRecord(shape.result)) return;
    const result = shape.result;
    if (isInterimResult("tools/call", result)) {
      const task = isRecord(result["task"]) ? result["task"] : result;
      if (typeof task["taskId"] === "string") {
        // The newest tasks are the ones whose results are still to come: the oldest are forgotten first.
        this.taskTools.set(task["taskId"], tool);
        if (this.taskTools.size > MAX_REMEMBERED) this.taskTools.delete(this.taskTools.keys().next().value!);
      }
      return;
    }
    this.judge(tool, result, event.line, shape.id, request.argsInvalid === true, ctx);
  }

  /**
   * A task's final result, judged as its tool's answer: tasks/result's result (2025-11-25), the
   * `result` of a completed tasks/get (2026-07-28).
   */
  private checkTaskResult({ event, shape, request }: Paired, ctx: RuleContext): void {
    if (shape.kind !== "response" || !shape.hasResult || !isRecord(shape.result) || request?.taskId === undefined) return;
    const tool = this.taskTools.get(request.taskId);
    if (tool === undefined) return;
    const modern = request.method === "tasks/get";
    const result = modern ? shape.result["result"] : shape.result;
    if (modern && (shape.result["status"] !== "completed" || result === undefined)) return;
    if (!isRecord(result)) return;
    const shown = `${request.method} result (task ${request.taskId} of tools/call ${tool})`;
    checkShapeOf("tools/call", shown, result, event.line, shape.id, ctx);
    this.judge(tool, result, event.line, shape.id, false, ctx);
  }

  /** A tool's result: isError kept for mixed-argument-errors, structuredContent against the outputSchema, its shape against the tool's first. */
  private judge(tool: string, result: Record<string, unknown>, line: number, id: unknown, argsInvalid: boolean, ctx: RuleContext): void {
    if (result["isError"] === true) {
      if (argsInvalid || VALIDATION.test(firstText(result))) {
        const list = this.argumentFailures.get(tool) ?? [];
        if (list.length < 20) list.push({ line, id });
        if (!this.argumentFailures.has(tool) && this.argumentFailures.size < MAX_REMEMBERED) this.argumentFailures.set(tool, list);
      }
      return;
    }
    const definition = ctx.catalog.tools.get(tool);
    if (definition?.outputSchema) {
      const sc = result["structuredContent"];
      if (sc === undefined) ctx.report("invalid-structured-content", line, id, `${tool} has an outputSchema, but its result has no structuredContent`);
      else {
        const problem = problemsOf(ctx, definition.outputSchema, sc);
        if (problem !== undefined)
          ctx.report(
            "invalid-structured-content",
            line,
            id,
            `structuredContent of ${tool} breaks its outputSchema: ${problem.replace(/^Arguments /, "Output ")}`,
          );
      }
    }
    const now = shapeOf(result);
    const first = this.shapes.get(tool);
    if (!first) {
      if (this.shapes.size < MAX_REMEMBERED) this.shapes.set(tool, { shape: now, line: line, reported: new Set() });
    } else if (first.shape !== now && !first.reported.has(now)) {
      first.reported.add(now);
      ctx.report("unstable-result-shape", line, id, `${tool} answered ${now}, where at line ${first.line} it answered ${first.shape}`);
    }
  }

  /** At the end: tools whose malformed arguments were answered both ways. */
  end(ctx: RuleContext): void {
    for (const [tool, failures] of this.argumentFailures) {
      const line = this.invalidParams.get(tool);
      if (line === undefined) continue;
      for (const f of failures)
        ctx.report(
          "mixed-argument-errors",
          f.line,
          f.id,
          `${tool} answered malformed arguments with an isError result here, and with a -32602 protocol error at line ${line}`,
        );
    }
  }

  private remember(map: Map<string, number>, tool: string, line: number): void {
    if (!map.has(tool) && map.size < MAX_REMEMBERED) map.set(tool, line);
  }
}
