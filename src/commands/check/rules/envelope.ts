/** JSON-RPC 2.0 envelopes: the version, a response's result or error, an error object's members. */
import { isRecord, type LoggedMessage } from "../model.js";
import type { Paired } from "../pair/pairer.js";
import type { RuleContext } from "./context.js";

export function checkEnvelope({ event, shape }: Paired, ctx: RuleContext): void {
  const m = event.message;
  if (shape.kind === "invalid") {
    ctx.report("unreadable-line", event.line, undefined, `${where(event)}: ${shape.why}`);
    return;
  }
  const id = isRecord(m) ? m["id"] : undefined;
  const version = isRecord(m) ? m["jsonrpc"] : undefined;
  if (version !== "2.0")
    ctx.report(
      "jsonrpc-version",
      event.line,
      id,
      version === undefined ? `${what(shape.kind)} without "jsonrpc"` : `${what(shape.kind)} with "jsonrpc": ${JSON.stringify(version)}, not "2.0"`,
    );
  if (shape.kind !== "response") return;
  if (shape.hasResult && shape.hasError) ctx.report("response-shape", event.line, id, "a response with both `result` and `error`");
  else if (!shape.hasResult && !shape.hasError) ctx.report("response-shape", event.line, id, "a response with neither `result` nor `error`");
  if (shape.hasError) {
    const e = shape.error;
    const problems: string[] = [];
    if (!isRecord(e)) problems.push("is not an object");
    else {
      if (!Number.isInteger(e["code"])) problems.push(e["code"] === undefined ? "has no `code`" : `has code ${JSON.stringify(e["code"])}, not an integer`);
      if (typeof e["message"] !== "string") problems.push(e["message"] === undefined ? "has no `message`" : "has a `message` that is not a string");
    }
    if (problems.length) ctx.report("error-object", event.line, id, `the error object ${problems.join(" and ")}`);
  }
}

function what(kind: string): string {
  return kind === "request" ? "a request" : kind === "notification" ? "a notification" : "a response";
}

function where(event: LoggedMessage): string {
  return event.entry === undefined ? "the message" : `HAR entry ${event.entry}`;
}
