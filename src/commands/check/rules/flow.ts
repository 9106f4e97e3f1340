/** Requests and their answers: ids reused while pending, answers to nothing, notifications with ids, requests left waiting. */
import { showId } from "../pair/classify.js";
import { MAX_PENDING, type Paired, type Pairer } from "../pair/pairer.js";
import type { RuleContext } from "./context.js";

export function checkFlow(p: Paired, ctx: RuleContext): void {
  const { event, shape } = p;
  if (shape.kind === "request" && p.reusedId)
    ctx.report(
      "duplicate-id",
      event.line,
      shape.id,
      `${event.from} request ${shape.method} reuses id ${showId(shape.id)} of its ${p.reusedId.method} at line ${p.reusedId.line}, still unanswered`,
    );
  if (shape.kind === "notification" && shape.id !== undefined)
    ctx.report("notification-with-id", event.line, shape.id, `notification ${shape.method} carries id ${showId(shape.id)}`);
  if (shape.kind === "response" && shape.id === undefined) {
    // No id at all (not even null): the JSON-RPC shape is wrong, whatever it answers.
    ctx.report(
      "response-shape",
      event.line,
      undefined,
      `${event.from} response without an id: JSON-RPC requires one in every response, null when the request's id could not be read`,
      "send the request's id, or `id: null` with an error that answers no readable request",
    );
    return;
  }
  if (shape.kind === "response" && p.unmatched && shape.id !== null) {
    const { answeredAt } = p.unmatched;
    ctx.report(
      "unmatched-response",
      event.line,
      shape.id,
      answeredAt === undefined
        ? `${event.from} response to id ${showId(shape.id)}, which no pending ${event.from === "server" ? "client" : "server"} request has`
        : `${event.from} response to id ${showId(shape.id)}, already answered at line ${answeredAt}`,
      answeredAt === undefined ? undefined : "answer each request once",
    );
  }
}

/** At the end of the log: what is still pending. */
export function endFlow(pairer: Pairer, ctx: RuleContext, lastTime: number | undefined): void {
  for (const r of pairer.unanswered()) {
    const waited =
      r.time !== undefined && lastTime !== undefined
        ? ` (still pending when the log ends at ${new Date(lastTime).toISOString()}, ${Math.max(0, lastTime - r.time)} ms later)`
        : "";
    ctx.report("unanswered-request", r.line, r.id, `${r.from} request ${r.method}${r.name ? ` ${r.name}` : ""} was never answered${waited}`);
  }
  if (pairer.dropped > 0)
    ctx.report("trace-limit", 1, undefined, `${pairer.dropped} requests were dropped from the ${MAX_PENDING.toLocaleString("en-US")} followed at once`);
}
