/**
 * Streamable HTTP at 2026-07-28: the standard headers must say what the body says (SEP-2243, as
 * the SDK's server checks them: MCP-Protocol-Version, Mcp-Method, Mcp-Name; the Mcp-Param-*
 * headers of `x-mcp-header` arguments by the generated servers' own check), and the server sends
 * no requests of its own.
 */
import { checkParamHeaders, decodeHeaderValue, paramHeaderDeclarations } from "@mcpgen/runtime/codegen";
import { NAME_HEADER_SOURCE, PROTOCOL_VERSION_META, STATELESS_REVISION } from "../methods.js";
import { isRecord } from "../model.js";
import type { Paired } from "../pair/pairer.js";
import type { RuleContext } from "./context.js";

/** Exchanges (and, without HTTP, the whole log) known to speak 2026-07-28, by the client's requests. */
export class Eras {
  private readonly exchanges = new Map<number, string>();
  /** The revision the client's last request named (logs without HTTP). */
  last: string | undefined;
  /** The revision `initialize` settled on: its result's protocolVersion. */
  negotiated: string | undefined;

  note(p: Paired): void {
    if (p.shape.kind === "response" && p.request?.method === "initialize" && isRecord(p.shape.result)) {
      const version = p.shape.result["protocolVersion"];
      if (typeof version === "string") this.negotiated = version;
    }
    if (p.shape.kind !== "request" || p.event.from !== "client" || !p.request?.revision) return;
    this.last = p.request.revision;
    const exchange = p.event.http?.exchange;
    if (exchange !== undefined) {
      this.exchanges.set(exchange, p.request.revision);
      if (this.exchanges.size > 10_000) this.exchanges.delete(this.exchanges.keys().next().value!);
    }
  }

  /**
   * The revision a message is judged by: the one its request names (`_meta`, header), else the
   * exchange's, else what `initialize` settled on; undefined when the log does not say.
   */
  specRevisionOf(p: Paired): string | undefined {
    // One connection (no HTTP): a request that names no revision speaks the one its client's requests name.
    const connection = p.event.http ? undefined : this.last;
    if (p.shape.kind === "response" && p.request)
      return p.request.revision ?? (p.request.method === "initialize" ? undefined : (this.negotiated ?? connection));
    if (p.shape.kind === "request" && p.event.from === "client")
      return p.request?.revision ?? (p.shape.method === "initialize" ? undefined : (this.negotiated ?? connection));
    return this.revisionOf(p) ?? this.negotiated;
  }

  revisionOf(p: Paired): string | undefined {
    const exchange = p.event.http?.exchange;
    const header = p.event.http?.headers["mcp-protocol-version"];
    return (exchange !== undefined ? this.exchanges.get(exchange) : undefined) ?? header ?? this.last;
  }
}

export function checkHttp(p: Paired, ctx: RuleContext, eras: Eras): void {
  const { event, shape } = p;
  if (shape.kind !== "request") return;
  if (event.from === "server") {
    if (eras.revisionOf(p) === STATELESS_REVISION)
      ctx.report(
        "server-request-2026",
        event.line,
        shape.id,
        `the server sends request ${shape.method} to a client speaking ${STATELESS_REVISION}${event.http ? ` (exchange ${event.http.exchange})` : ""}`,
      );
    return;
  }
  const http = event.http;
  if (!http) return;
  const headers = http.headers;
  const params = isRecord(shape.params) ? shape.params : {};
  const meta = isRecord(params["_meta"]) ? params["_meta"][PROTOCOL_VERSION_META] : undefined;
  const modern = meta === STATELESS_REVISION || headers["mcp-protocol-version"] === STATELESS_REVISION;
  if (!modern) return;
  const problems: string[] = [];
  const version = headers["mcp-protocol-version"];
  if (version === undefined) problems.push(`MCP-Protocol-Version is missing (the body's _meta names ${String(meta)})`);
  else if (typeof meta === "string" && version !== meta) problems.push(`MCP-Protocol-Version is ${version} but the body's _meta names ${meta}`);
  const methodHeader = headers["mcp-method"];
  if (methodHeader === undefined) problems.push(`Mcp-Method is missing (the body's method is ${shape.method})`);
  else if (methodHeader !== shape.method) problems.push(`Mcp-Method is ${methodHeader} but the body's method is ${shape.method}`);
  const field = NAME_HEADER_SOURCE[shape.method];
  const bodyValue = field !== undefined && typeof params[field] === "string" ? params[field] : undefined;
  if (field !== undefined && bodyValue !== undefined) {
    const raw = headers["mcp-name"];
    const decoded = raw === undefined ? undefined : decodeHeaderValue(raw);
    if (raw === undefined) problems.push(`Mcp-Name is missing (the body's params.${field} is ${JSON.stringify(bodyValue)})`);
    else if (decoded === undefined) problems.push("Mcp-Name holds a broken =?base64?...?= value");
    else if (decoded !== bodyValue) problems.push(`Mcp-Name is ${JSON.stringify(decoded)} but the body's params.${field} is ${JSON.stringify(bodyValue)}`);
  }
  if (shape.method === "tools/call" && typeof params["name"] === "string") {
    const tool = ctx.catalog.tools.get(params["name"]);
    if (tool) {
      // HTTP header names are case-insensitive: a trace keeps them lower-cased, a manifest declares them as written.
      const problem = checkParamHeaders(paramHeaderDeclarations(tool.inputSchema), params["arguments"], { get: (name) => headers[name.toLowerCase()] ?? null });
      if (problem) problems.push(problem);
    }
  }
  for (const problem of problems) ctx.report("header-mismatch", event.line, shape.id, `${shape.method} on exchange ${http.exchange}: ${problem}`);
}
