/**
 * Pairs each response with the request it answers, as the transport does: ids are unique per
 * connection (stdio, a plain log), per MCP session (Streamable HTTP with `Mcp-Session-Id`) or per
 * HTTP exchange (without a session), and a response to a POST rides that POST's exchange. It keeps
 * what the flow rules need: an id reused while its request is pending, a response to no request
 * or to one already answered, the requests left unanswered, and the ones the log shows need no
 * answer any more (cancelled, their client gone, answered by an HTTP error or by a message too
 * large to record).
 *
 * Memory is bounded: at most MAX_PENDING requests wait (beyond, the oldest are dropped and
 * counted), and the ids answered or released are remembered only for the last MAX_ANSWERED.
 */
import type { TraceHttp } from "../../trace/record.js";
import { NAME_HEADER_SOURCE, PROTOCOL_VERSION_META } from "../methods.js";
import { isRecord, other, type LoggedMessage, type LoggedNote, type Side } from "../model.js";
import { classify, type Shape } from "./classify.js";

export const MAX_PENDING = 100_000;
const MAX_ANSWERED = 10_000;
/** Exchanges remembered for their session and scope; beyond, the oldest are forgotten. */
const MAX_EXCHANGES = 10_000;

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
  /** tasks/*: the task it names. */
  taskId?: string;
  /** The progress token the request carries (`params._meta.progressToken`). */
  progressToken?: string | number;
  time?: number;
  http?: TraceHttp;
  /** The protocol revision the request names (`_meta`, or the MCP-Protocol-Version header). */
  revision?: string;
  /** Set by the rules: the arguments break the tool's inputSchema. */
  argsInvalid?: boolean;
  /** Set by the rules: resources/read of a URI no listed resource has, judged by the answer (templates were not listed yet). */
  uriUnlisted?: boolean;
  /** Set by the rules: the tool or resource it names is unknown (the answer is judged too). */
  unknownName?: "tool" | "resource";
}

export interface Paired {
  event: LoggedMessage;
  shape: Shape;
  /** A request: what is remembered of it. A response: the request it answers, when found. */
  request?: PendingRequest;
  /** A response: milliseconds from its request, when both have a time. */
  durationMs?: number;
  /** A request whose id is already pending from the same side in the same scope: that request. */
  reusedId?: PendingRequest;
  /** A response whose id no pending request has: the line of an earlier answer, when remembered. */
  unmatched?: { answeredAt?: number };
  /** An `id: null` error over HTTP: the requests of its exchange it answers. */
  answersExchange?: PendingRequest[];
  /** notifications/cancelled naming an id its sender never used (neither waiting, answered nor released). */
  cancelsUnknown?: boolean;
}

/** The revision a request names, in its `_meta` or its MCP-Protocol-Version header. */
function revisionOf(params: unknown, http: TraceHttp | undefined): string | undefined {
  const meta = isRecord(params) && isRecord(params["_meta"]) ? params["_meta"][PROTOCOL_VERSION_META] : undefined;
  if (typeof meta === "string") return meta;
  return http?.headers["mcp-protocol-version"];
}

/** The connection of a log without HTTP: one stdio connection, or one plain log. */
const CONNECTION = "c";

/** A Map that forgets its oldest entry past `max`. */
function setBounded<K, V>(map: Map<K, V>, key: K, value: V, max: number): void {
  map.delete(key);
  map.set(key, value);
  if (map.size > max) map.delete(map.keys().next().value!);
}

export class Pairer {
  /** Per scope, side and id, the pending requests: more than one when an id was reused (answered first come, first served). */
  private readonly pending = new Map<string, PendingRequest[]>();
  /** The keys of `pending` per side, oldest first. */
  private readonly order: Record<Side, Set<string>> = { client: new Set(), server: new Set() };
  /** Per HTTP exchange, the keys of the client requests it carries that wait. */
  private readonly byExchange = new Map<number, Set<string>>();
  /** Server requests sent outside any session, by id: the client answers them on an exchange of its own. */
  private readonly sessionless = new Map<string, string>();
  private readonly answered = new Map<string, number>();
  /** Requests no longer waited for (cancelled by their sender, their client gone...), in case their answer still comes. */
  private readonly released = new Map<string, PendingRequest>();
  /** Per exchange: its MCP session, once a header named it. */
  private readonly sessions = new Map<number, string>();
  /** Per exchange: the scope of the client requests it carried, where its answers are looked up. */
  private readonly exchangeScopes = new Map<number, string>();
  /** The stdio client closed its input: it answers nothing more. */
  private clientGone = false;
  /** Requests dropped from the pending map when it was full. */
  dropped = 0;

  add(event: LoggedMessage): Paired {
    this.learnSession(event.http);
    const shape = classify(event.message);
    if (shape.kind === "request") {
      const request = this.remember(event, shape);
      const scope = this.requestScope(event);
      const key = `${scope}|${event.from}|${JSON.stringify(shape.id)}`;
      if (event.http && event.from === "client") setBounded(this.exchangeScopes, event.http.exchange, scope, MAX_EXCHANGES);
      // A server request the stdio client will never see answered: not waited for.
      if (event.from === "server" && !event.http && this.clientGone) {
        this.release(key, request);
        return { event, shape, request };
      }
      const waiting = this.pending.get(key);
      const reusedId = waiting?.[waiting.length - 1];
      if (waiting) waiting.push(request);
      else {
        this.pending.set(key, [request]);
        this.order[event.from].add(key);
      }
      this.answered.delete(key);
      if (event.http && event.from === "client") this.index(event.http.exchange, key);
      if (event.from === "server" && scope.startsWith("x:")) setBounded(this.sessionless, JSON.stringify(shape.id), key, MAX_ANSWERED);
      if (this.pending.size > MAX_PENDING) this.dropOldest();
      return { event, shape, request, ...(reusedId ? { reusedId } : {}) };
    }
    if (shape.kind === "notification" && shape.method === "notifications/cancelled")
      return this.cancel(event, shape.params) ? { event, shape } : { event, shape, cancelsUnknown: true };
    if (shape.kind !== "response") return { event, shape };
    // An HTTP error with id null answers the request of its exchange (the server could not read its id).
    if (shape.id === null && event.from === "server" && event.http) {
      const answered = this.closeExchange(event.http.exchange);
      return answered.length ? { event, shape, answersExchange: answered } : { event, shape };
    }
    const key = this.responseKey(event, shape.id);
    const waiting = this.pending.get(key);
    const request = waiting?.shift() ?? this.takeReleased(key);
    if (!request) {
      const answeredAt = this.answered.get(key);
      return { event, shape, unmatched: answeredAt === undefined ? {} : { answeredAt } };
    }
    if (waiting?.length === 0) this.forget(key);
    this.unindex(request, key);
    setBounded(this.answered, key, event.line, MAX_ANSWERED);
    const durationMs = request.time !== undefined && event.time !== undefined ? event.time - request.time : undefined;
    return { event, shape, request, ...(durationMs === undefined ? {} : { durationMs }) };
  }

  /**
   * A recorder's note: the client gone (stdio: every request stops waiting; HTTP: its exchange's),
   * an HTTP error without a message (it answers its exchange's requests), or a message too large
   * to record (taken as the answer of the oldest request of the other side that waits for one).
   */
  note(note: LoggedNote): void {
    this.learnSession(note.http);
    const http = note.http;
    if (note.event === "client-closed") {
      if (http) this.closeExchange(http.exchange);
      else {
        this.clientGone = true;
        for (const [key, waiting] of this.pending) for (const request of waiting) this.release(key, request);
        this.pending.clear();
        this.order.client.clear();
        this.order.server.clear();
        this.byExchange.clear();
      }
    } else if (note.event === "not-recorded" && note.from) {
      const asker = other(note.from);
      const keys = http ? (asker === "client" ? (this.byExchange.get(http.exchange) ?? []) : []) : this.order[asker];
      for (const key of keys) {
        const request = this.pending.get(key)?.find((r) => r.from === asker);
        if (request) {
          this.take(key, request);
          break;
        }
      }
    } else if (http && note.from === "server" && http.status !== undefined && http.status >= 400) this.closeExchange(http.exchange);
  }

  /** The requests still waiting, oldest first (cancelled ones are not). */
  *unanswered(): Generator<PendingRequest> {
    for (const waiting of this.pending.values()) yield* waiting;
  }

  /**
   * notifications/cancelled: the request it names (of the same side, in the same scope) is no
   * longer waited for; an answer may still come (MCP allows it), and pairs with it.
   */
  private cancel(event: LoggedMessage, params: unknown): boolean {
    if (!isRecord(params) || params["requestId"] === undefined) return true;
    const scope = this.requestScope(event);
    const key = `${scope}|${event.from}|${JSON.stringify(params["requestId"])}`;
    // Over HTTP without a session the cancellation rides an exchange of its own: which request it
    // names cannot be told, so it is not judged unknown (and releases nothing).
    if (scope.startsWith("x:")) return true;
    const request = this.pending.get(key)?.[0];
    if (request) this.take(key, request);
    // Known: waiting, answered (a cancellation that crossed its answer) or already released.
    return request !== undefined || this.answered.has(key) || this.released.has(key);
  }

  /** Stops waiting for one pending request; its answer, should it come, still pairs with it. */
  private take(key: string, request: PendingRequest): void {
    const waiting = this.pending.get(key);
    if (!waiting) return;
    const at = waiting.indexOf(request);
    if (at !== -1) waiting.splice(at, 1);
    if (waiting.length === 0) this.forget(key);
    this.unindex(request, key);
    this.release(key, request);
  }

  private release(key: string, request: PendingRequest): void {
    setBounded(this.released, key, request, MAX_ANSWERED);
  }

  private takeReleased(key: string): PendingRequest | undefined {
    const request = this.released.get(key);
    this.released.delete(key);
    return request;
  }

  /** Every client request of an exchange stops waiting (an HTTP error answered them, or their client left); they are returned. */
  private closeExchange(exchange: number): PendingRequest[] {
    const keys = this.byExchange.get(exchange);
    if (!keys) return [];
    const closed: PendingRequest[] = [];
    for (const key of [...keys])
      for (const request of [...(this.pending.get(key) ?? [])])
        if (request.http?.exchange === exchange) {
          this.take(key, request);
          closed.push(request);
        }
    this.byExchange.delete(exchange);
    return closed;
  }

  /** Where a request's id is unique: its connection, its MCP session, or its HTTP exchange. */
  private requestScope(event: LoggedMessage): string {
    const http = event.http;
    if (!http) return CONNECTION;
    const session = this.sessions.get(http.exchange);
    if (session !== undefined) return `s:${session}`;
    // A server message rides the exchange of the client request it belongs to.
    if (event.from === "server") return this.exchangeScopes.get(http.exchange) ?? `x:${http.exchange}`;
    return `x:${http.exchange}`;
  }

  /** The key of the request a response answers. */
  private responseKey(event: LoggedMessage, id: unknown): string {
    const asker = other(event.from);
    const http = event.http;
    const idKey = JSON.stringify(id);
    if (!http) return `${CONNECTION}|${asker}|${idKey}`;
    if (event.from === "server") {
      // The answer to a POST rides its exchange; a resumed stream (GET, Last-Event-ID) its session.
      const scope = this.exchangeScopes.get(http.exchange) ?? this.requestScope(event);
      return `${scope}|${asker}|${idKey}`;
    }
    // The client answers a server request on an exchange of its own: in the server request's session, or outside any.
    const session = this.sessions.get(http.exchange);
    if (session !== undefined) return `s:${session}|${asker}|${idKey}`;
    return this.sessionless.get(idKey) ?? `x:${http.exchange}|${asker}|${idKey}`;
  }

  /** The MCP session an exchange belongs to, from the first Mcp-Session-Id header seen on it. */
  private learnSession(http: TraceHttp | undefined): void {
    const session = http?.headers["mcp-session-id"];
    if (http && session !== undefined && !this.sessions.has(http.exchange)) setBounded(this.sessions, http.exchange, session, MAX_EXCHANGES);
  }

  private forget(key: string): void {
    this.pending.delete(key);
    this.order.client.delete(key);
    this.order.server.delete(key);
  }

  private index(exchange: number, key: string): void {
    let keys = this.byExchange.get(exchange);
    if (!keys) {
      keys = new Set();
      setBounded(this.byExchange, exchange, keys, MAX_EXCHANGES);
    }
    keys.add(key);
  }

  private unindex(request: PendingRequest, key: string): void {
    const exchange = request.http?.exchange;
    if (exchange === undefined || request.from !== "client") return;
    const keys = this.byExchange.get(exchange);
    if (!keys) return;
    if (!(this.pending.get(key) ?? []).some((r) => r.http?.exchange === exchange)) keys.delete(key);
    if (keys.size === 0) this.byExchange.delete(exchange);
  }

  private dropOldest(): void {
    const [key, waiting] = this.pending.entries().next().value!;
    this.forget(key);
    for (const request of waiting) this.unindex(request, key);
    this.dropped++;
  }

  private remember(event: LoggedMessage, shape: Shape & { kind: "request" }): PendingRequest {
    const params = isRecord(shape.params) ? shape.params : {};
    const field = NAME_HEADER_SOURCE[shape.method];
    const name = field !== undefined && typeof params[field] === "string" ? params[field] : undefined;
    const args = params["arguments"];
    const taskId = shape.method.startsWith("tasks/") && typeof params["taskId"] === "string" ? params["taskId"] : undefined;
    const token = isRecord(params["_meta"]) ? params["_meta"]["progressToken"] : undefined;
    const revision = revisionOf(shape.params, event.http);
    return {
      line: event.line,
      from: event.from,
      id: shape.id,
      method: shape.method,
      ...(name === undefined ? {} : { name }),
      ...(shape.method === "tools/call" && isRecord(args) ? { argumentNames: Object.keys(args) } : {}),
      ...(taskId === undefined ? {} : { taskId }),
      ...(typeof token === "string" || typeof token === "number" ? { progressToken: token } : {}),
      ...(event.time === undefined ? {} : { time: event.time }),
      ...(event.http ? { http: event.http } : {}),
      ...(revision === undefined ? {} : { revision }),
    };
  }
}
