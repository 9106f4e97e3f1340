/**
 * Who may send what, and when: the lifecycle of a connection, capabilities, the side each method
 * belongs to, batches, progress and cancellation, and the server's answer to a name it does not
 * have. What a schema cannot say about one message alone.
 *
 * The lifecycle and capabilities are followed on logs of one connection (stdio, plain JSONL): over
 * Streamable HTTP every session has its own, and the log does not always say which. Memory stays
 * bounded: at most MAX_TOKENS progress tokens are followed (the oldest are forgotten).
 */
import type { TraceHttp } from "../../trace/record.js";
import { sentBy, STATELESS_REVISION } from "../methods.js";
import { isRecord, other, type Side } from "../model.js";
import { showId } from "../pair/classify.js";
import type { Paired } from "../pair/pairer.js";
import type { RuleContext } from "./context.js";
import { isInterimResult } from "./shapes.js";

const MAX_TOKENS = 10_000;

/** Revisions that had JSON-RPC batches. */
const BATCH_REVISIONS = new Set(["2024-11-05", "2025-03-26"]);

/** What a server must declare before it sends a notification, and a client before a server asks it something. */
const SERVER_NEEDS: Readonly<Record<string, { capability: string; member?: string }>> = {
  "notifications/tools/list_changed": { capability: "tools", member: "listChanged" },
  "notifications/prompts/list_changed": { capability: "prompts", member: "listChanged" },
  "notifications/resources/list_changed": { capability: "resources", member: "listChanged" },
  "notifications/resources/updated": { capability: "resources", member: "subscribe" },
  "notifications/message": { capability: "logging" },
  "resources/subscribe": { capability: "resources", member: "subscribe" },
  "completion/complete": { capability: "completions" },
  "logging/setLevel": { capability: "logging" },
};
const CLIENT_NEEDS: Readonly<Record<string, string>> = {
  "sampling/createMessage": "sampling",
  "elicitation/create": "elicitation",
  "roots/list": "roots",
};

interface Token {
  line: number;
  answered?: number;
  last?: number;
}

export class ProtocolRules {
  /** The connection's initialize request (logs without HTTP). */
  private initializedAt: number | undefined;
  /** The first request other than ping sent before any initialize: reported if initialize comes after it. */
  private early: { line: number; id: unknown; method: string } | undefined;
  /** The capabilities each side declared in initialize (logs without HTTP). */
  private readonly declared: Partial<Record<Side, Record<string, unknown>>> = {};
  /** Progress tokens of requests, per side that sent the request. */
  private readonly tokens = new Map<string, Token>();
  private lastBatchLine: number | undefined;
  /** Per HTTP exchange, the MCP session its client request named. */
  private readonly exchangeSessions = new Map<number, string>();

  check(p: Paired, revision: string | undefined, ctx: RuleContext): void {
    const { event, shape } = p;
    const session = event.from === "client" ? event.http?.headers["mcp-session-id"] : undefined;
    if (event.http && session !== undefined) {
      this.exchangeSessions.set(event.http.exchange, session);
      if (this.exchangeSessions.size > MAX_TOKENS) this.exchangeSessions.delete(this.exchangeSessions.keys().next().value!);
    }
    if (event.batch && event.line !== this.lastBatchLine && (revision === undefined || !BATCH_REVISIONS.has(revision))) {
      this.lastBatchLine = event.line;
      ctx.report(
        "batch",
        event.line,
        undefined,
        `a JSON-RPC batch from the ${event.from}${revision ? ` on MCP ${revision}` : ""}: MCP removed batching in 2025-06-18`,
      );
    }
    if (shape.kind === "request" || shape.kind === "notification") this.direction(p, shape.method, shape.kind === "request", ctx);
    if (shape.kind === "request") this.request(p, shape.method, revision, ctx);
    if (shape.kind === "notification") this.notification(p, shape.method, shape.params, ctx);
    if (shape.kind === "response") this.response(p, revision, ctx);
  }

  private direction({ event, shape }: Paired, method: string, isRequest: boolean, ctx: RuleContext): void {
    if (event.inferred) return;
    const sender = sentBy(method, isRequest);
    if (sender === undefined || sender === "both" || sender === event.from) return;
    const id = shape.kind === "request" ? shape.id : undefined;
    ctx.report(
      "wrong-direction",
      event.line,
      id,
      `the ${event.from} sends ${isRequest ? "request" : "notification"} ${method}, which only the ${sender} sends`,
    );
  }

  private request(p: Paired, method: string, revision: string | undefined, ctx: RuleContext): void {
    const { event, request } = p;
    const id = p.shape.kind === "request" ? p.shape.id : undefined;
    if (request?.progressToken !== undefined) this.remember(this.tokenKey(event.http, event.from, request.progressToken), { line: event.line });
    if (event.from !== "client") {
      const needed = CLIENT_NEEDS[method];
      const client = this.declared.client;
      if (needed && client && !isRecord(client[needed]))
        ctx.report("missing-capability", event.line, id, `the server sends ${method}, but the client declared no \`${needed}\` capability in initialize`);
      return;
    }
    if ((method === "initialize" || method === "ping") && request?.revision === STATELESS_REVISION) {
      ctx.report(
        "lifecycle",
        event.line,
        id,
        `${method} on MCP ${STATELESS_REVISION}, which has none${method === "initialize" ? " (no handshake: ask server/discover)" : ""}`,
      );
      return;
    }
    if (event.http) {
      this.serverNeeds(p, method, id, ctx);
      return;
    }
    if (method === "initialize") {
      if (this.initializedAt !== undefined)
        ctx.report("lifecycle", event.line, id, `initialize again on this connection (first at line ${this.initializedAt}): a connection initializes once`);
      else {
        this.initializedAt = event.line;
        if (this.early)
          ctx.report(
            "lifecycle",
            this.early.line,
            this.early.id,
            `${this.early.method} sent before initialize (line ${event.line}): only ping may come before the handshake`,
          );
        const params = p.shape.kind === "request" && isRecord(p.shape.params) ? p.shape.params : {};
        if (isRecord(params["capabilities"])) this.declared.client = params["capabilities"];
      }
      return;
    }
    if (this.initializedAt === undefined && method !== "ping" && revision !== STATELESS_REVISION) this.early ??= { line: event.line, id, method };
    this.serverNeeds(p, method, id, ctx);
  }

  /** A client request that needs a server capability, on a connection whose initialize result the log holds. */
  private serverNeeds({ event }: Paired, method: string, id: unknown, ctx: RuleContext): void {
    const needed = SERVER_NEEDS[method];
    const server = event.http ? undefined : this.declared.server;
    if (!needed || !server) return;
    const declared = server[needed.capability];
    if (isRecord(declared) && (needed.member === undefined || declared[needed.member] === true)) return;
    ctx.report(
      "missing-capability",
      event.line,
      id,
      `the client sends ${method}, but the server declared no ${capabilityName(needed)} capability in initialize`,
    );
  }

  private notification(p: Paired, method: string, params: unknown, ctx: RuleContext): void {
    const { event } = p;
    if (method === "notifications/progress") return this.progress(p, params, ctx);
    const needed = SERVER_NEEDS[method];
    const server = event.http ? undefined : this.declared.server;
    if (event.from !== "server" || !needed || !server) return;
    const declared = server[needed.capability];
    if (isRecord(declared) && (needed.member === undefined || declared[needed.member] === true)) return;
    ctx.report("missing-capability", event.line, undefined, `the server sends ${method}, but declared no ${capabilityName(needed)} capability in initialize`);
  }

  private progress(p: Paired, params: unknown, ctx: RuleContext): void {
    const { line, from, http } = p.event;
    if (!isRecord(params)) return;
    const token = params["progressToken"];
    if (typeof token !== "string" && typeof token !== "number") return;
    const asker = other(from);
    const state = this.tokens.get(this.tokenKey(http, asker, token));
    const shown = showId(token);
    if (!state) {
      // Over HTTP progress may come on a stream of its own (GET), whose request the log cannot tell.
      if (!http) ctx.report("progress", line, undefined, `progress for token ${shown}, which no ${asker} request carried`);
      return;
    }
    if (state.answered !== undefined) {
      ctx.report("progress", line, undefined, `progress for token ${shown} after its request (line ${state.line}) was answered at line ${state.answered}`);
      return;
    }
    const value = params["progress"];
    if (typeof value !== "number") return;
    if (state.last !== undefined && value <= state.last)
      ctx.report("progress", line, undefined, `progress for token ${shown} goes from ${state.last} to ${value}: it must increase with each notification`);
    state.last = value;
  }

  private response({ event, shape, request }: Paired, revision: string | undefined, ctx: RuleContext): void {
    if (shape.kind !== "response" || !request) return;
    if (request.progressToken !== undefined && !(shape.hasResult && isInterimResult(request.method, shape.result))) {
      const state = this.tokens.get(this.tokenKey(request.http, request.from, request.progressToken));
      if (state) state.answered = event.line;
    }
    if (request.method === "initialize" && shape.hasResult && isRecord(shape.result) && isRecord(shape.result["capabilities"]) && !event.http)
      this.declared.server = shape.result["capabilities"];
    if (request.unknownName) unknownNameAnswer(request.unknownName, request.name ?? "", shape, revision ?? request.revision, event.line, ctx);
  }

  /**
   * Where a progress token is unique: the connection, or over HTTP the MCP session of the exchange
   * (an SDK uses its request ids as tokens: they start again in every session), else the exchange.
   */
  private tokenKey(http: TraceHttp | undefined, asker: Side, token: string | number): string {
    const scope = http ? (http.headers["mcp-session-id"] ?? this.exchangeSessions.get(http.exchange) ?? `x${http.exchange}`) : "";
    return `${scope}|${asker}|${JSON.stringify(token)}`;
  }

  private remember(key: string, token: Token): void {
    this.tokens.delete(key);
    this.tokens.set(key, token);
    if (this.tokens.size > MAX_TOKENS) this.tokens.delete(this.tokens.keys().next().value!);
  }

  /** Cancellations of ids never sent (the pairer knows). */
  cancelled(p: Paired, ctx: RuleContext): void {
    if (!p.cancelsUnknown || p.shape.kind !== "notification" || !isRecord(p.shape.params)) return;
    ctx.report("cancel-unknown", p.event.line, undefined, `the ${p.event.from} cancels request ${showId(p.shape.params["requestId"])}, which it never sent`);
  }
}

function capabilityName(needed: { capability: string; member?: string }): string {
  return needed.member ? `\`${needed.capability}.${needed.member}\`` : `\`${needed.capability}\``;
}

/** The server's answer to a call of a tool, or a read of a resource, it does not have. */
function unknownNameAnswer(
  kind: "tool" | "resource",
  name: string,
  shape: Paired["shape"] & { kind: "response" },
  revision: string | undefined,
  line: number,
  ctx: RuleContext,
): void {
  const code = isRecord(shape.error) ? shape.error["code"] : undefined;
  const expected = kind === "tool" ? [-32602] : revision === STATELESS_REVISION ? [-32602] : revision === "2025-11-25" ? [-32002] : [-32002, -32602];
  if (shape.hasError && typeof code === "number" && expected.includes(code)) return;
  const answered = shape.hasResult ? (isRecord(shape.result) && shape.result["isError"] === true ? "an isError result" : "a result") : `error ${String(code)}`;
  const what = kind === "tool" ? `tools/call of unknown tool ${JSON.stringify(name)}` : `resources/read of unknown resource ${JSON.stringify(name)}`;
  ctx.report(
    "unknown-name-answer",
    line,
    shape.id,
    `${what} answered with ${answered}: MCP's answer is error ${expected.join(" or ")}${kind === "tool" ? " (a protocol error: no tool ran)" : ""}`,
  );
}
