/**
 * Pairs each response with the request it answers (same id, sent by the other side), and keeps
 * what the flow rules need: an id reused while its request is pending, a response to no request
 * or to one already answered, the requests left unanswered. Memory is bounded: at most
 * MAX_PENDING requests wait (beyond, the oldest are dropped and counted), and the ids answered
 * are remembered for answered-twice only for the last MAX_ANSWERED.
 */
import type { TraceHttp } from "../../trace/record.js";
import { NAME_HEADER_SOURCE, PROTOCOL_VERSION_META } from "../methods.js";
import { isRecord, other, type LoggedMessage, type Side } from "../model.js";
import { classify, type Shape } from "./classify.js";

export const MAX_PENDING = 100_000;
const MAX_ANSWERED = 10_000;

/** A request as remembered until its answer. */
export interface PendingRequest {
  line: number;
  from: Side;
  id: unknown;
  method: string;
  /** tools/call and prompts/get: the name; resources/read: the URI. */
  name?: string;
  /** tools/call: the argument names, for explain. */
  argumentNames?: string[];
  time?: number;
  http?: TraceHttp;
  /** The protocol revision the request names (`_meta`, or the MCP-Protocol-Version header). */
  revision?: string;
  /** Set by the rules: the arguments break the tool's inputSchema. */
  argsInvalid?: boolean;
}

export interface Paired {
  event: LoggedMessage;
  shape: Shape;
  /** A request: what is remembered of it. A response: the request it answers, when found. */
  request?: PendingRequest;
  /** A response: milliseconds from its request, when both have a time. */
  durationMs?: number;
  /** A request whose id is already pending from the same side: that request. */
  reusedId?: PendingRequest;
  /** A response whose id no pending request has: the line of an earlier answer, when remembered. */
  unmatched?: { answeredAt?: number };
}

const keyOf = (from: Side, id: unknown) => `${from}|${JSON.stringify(id)}`;

/** The revision a request names, in its `_meta` or its MCP-Protocol-Version header. */
function revisionOf(params: unknown, http: TraceHttp | undefined): string | undefined {
  const meta = isRecord(params) && isRecord(params["_meta"]) ? params["_meta"][PROTOCOL_VERSION_META] : undefined;
  if (typeof meta === "string") return meta;
  return http?.headers["mcp-protocol-version"];
}

export class Pairer {
  /** Per side and id, the pending requests: more than one when an id was reused (answered first come, first served). */
  private readonly pending = new Map<string, PendingRequest[]>();
  private readonly answered = new Map<string, number>();
  /** Requests cancelled by their sender, in case their answer still comes. */
  private readonly cancelled = new Map<string, PendingRequest>();
  /** Requests dropped from the pending map when it was full. */
  dropped = 0;

  add(event: LoggedMessage): Paired {
    const shape = classify(event.message);
    if (shape.kind === "request") {
      const request = this.remember(event, shape);
      const key = keyOf(event.from, shape.id);
      const waiting = this.pending.get(key);
      const reusedId = waiting?.[waiting.length - 1];
      if (waiting) waiting.push(request);
      else this.pending.set(key, [request]);
      this.answered.delete(key);
      if (this.pending.size > MAX_PENDING) {
        this.pending.delete(this.pending.keys().next().value!);
        this.dropped++;
      }
      return { event, shape, request, ...(reusedId ? { reusedId } : {}) };
    }
    if (shape.kind === "notification" && shape.method === "notifications/cancelled") this.cancel(event, shape.params);
    if (shape.kind !== "response") return { event, shape };
    const key = keyOf(other(event.from), shape.id);
    const waiting = this.pending.get(key);
    const request = waiting?.shift() ?? this.takeCancelled(key);
    if (!request) {
      const answeredAt = this.answered.get(key);
      return { event, shape, unmatched: answeredAt === undefined ? {} : { answeredAt } };
    }
    if (waiting?.length === 0) this.pending.delete(key);
    this.answered.set(key, event.line);
    if (this.answered.size > MAX_ANSWERED) this.answered.delete(this.answered.keys().next().value!);
    const durationMs = request.time !== undefined && event.time !== undefined ? event.time - request.time : undefined;
    return { event, shape, request, ...(durationMs === undefined ? {} : { durationMs }) };
  }

  /**
   * notifications/cancelled: the request it names (of the same side) is no longer waited for; an
   * answer may still come (MCP allows it), and pairs with it.
   */
  private cancel(event: LoggedMessage, params: unknown): void {
    if (!isRecord(params) || params["requestId"] === undefined) return;
    const key = keyOf(event.from, params["requestId"]);
    const waiting = this.pending.get(key);
    const request = waiting?.shift();
    if (!request) return;
    if (waiting!.length === 0) this.pending.delete(key);
    this.cancelled.set(key, request);
    if (this.cancelled.size > MAX_ANSWERED) this.cancelled.delete(this.cancelled.keys().next().value!);
  }

  private takeCancelled(key: string): PendingRequest | undefined {
    const request = this.cancelled.get(key);
    this.cancelled.delete(key);
    return request;
  }

  /** The requests still waiting, oldest first (cancelled ones are not). */
  *unanswered(): Generator<PendingRequest> {
    for (const waiting of this.pending.values()) yield* waiting;
  }

  private remember(event: LoggedMessage, shape: Shape & { kind: "request" }): PendingRequest {
    const params = isRecord(shape.params) ? shape.params : {};
    const field = NAME_HEADER_SOURCE[shape.method];
    const name = field !== undefined && typeof params[field] === "string" ? params[field] : undefined;
    const args = params["arguments"];
    const revision = revisionOf(shape.params, event.http);
    return {
      line: event.line,
      from: event.from,
      id: shape.id,
      method: shape.method,
      ...(name === undefined ? {} : { name }),
      ...(shape.method === "tools/call" && isRecord(args) ? { argumentNames: Object.keys(args) } : {}),
      ...(event.time === undefined ? {} : { time: event.time }),
      ...(event.http ? { http: event.http } : {}),
      ...(revision === undefined ? {} : { revision }),
    };
  }
}
