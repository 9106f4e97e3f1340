/** Method names: unknown ones (with the nearest known), and notifications used as a second reply channel. */
import { didYouMean } from "../../../common/didYouMean.js";
import { ALL_METHODS, NOTIFICATION_METHODS, REQUEST_METHODS } from "../methods.js";
import { isRecord } from "../model.js";
import type { Paired } from "../pair/pairer.js";
import type { RuleContext } from "./context.js";

/** Names seen in the wild for real methods, too far for a typo: the course's own `notifications/logging/message`. */
const KNOWN_SLIPS: Readonly<Record<string, string>> = {
  "notifications/logging/message": "notifications/message",
  "resources/get": "resources/read",
  "tools/get": "tools/call",
  "tools/invoke": "tools/call",
};

/** The method meant by an unknown one, if any. */
function meantMethod(method: string): string | undefined {
  if (Object.hasOwn(KNOWN_SLIPS, method)) return KNOWN_SLIPS[method];
  // `tools/list_changed`: the notification without its prefix.
  if (NOTIFICATION_METHODS.has(`notifications/${method}`)) return `notifications/${method}`;
  return didYouMean(method, ALL_METHODS);
}

/** Keys of a result in a notification's params. */
const RESULT_KEYS = ["content", "structuredContent", "result", "isError"];

export function checkMethod({ event, shape }: Paired, ctx: RuleContext): void {
  if (shape.kind !== "request" && shape.kind !== "notification") return;
  const method = shape.method;
  const id = shape.kind === "request" ? shape.id : undefined;
  if (shape.kind === "notification") {
    const carried = isRecord(shape.params) ? RESULT_KEYS.filter((k) => Object.hasOwn(shape.params as object, k)) : [];
    const known = NOTIFICATION_METHODS.has(method);
    const meant = known ? undefined : meantMethod(method);
    const madeUp = !known && meant === undefined && /result|response|reply|output|answer/i.test(method);
    if (carried.length || madeUp) {
      ctx.report(
        "result-as-notification",
        event.line,
        shape.id,
        carried.length
          ? `notification ${method} carries ${carried.map((k) => `\`${k}\``).join(", ")}: a result sent as a notification, answering no request`
          : `notification ${method} is no MCP notification: it looks like a result sent as a notification`,
      );
      return;
    }
  }
  checkLoggedMethod(method, event.line, id, ctx);
}

/** The same rule for a server log line (its method only). */
export function checkLoggedMethod(method: string, line: number, id: unknown, ctx: RuleContext): void {
  if (REQUEST_METHODS.has(method) || NOTIFICATION_METHODS.has(method)) return;
  const meant = meantMethod(method);
  ctx.report(
    "unknown-method",
    line,
    id,
    `unknown method ${JSON.stringify(method)}${meant ? ` (did you mean \`${meant}\`?)` : ""}`,
    meant ? `use \`${meant}\`` : undefined,
  );
}
