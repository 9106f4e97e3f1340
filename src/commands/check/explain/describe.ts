/**
 * One message of a log in words, as a reader of raw MCP would say it: who sent it, what it asks
 * or answers, which request a reply belongs to and how long it took, whether an error is a broken
 * request or a refusal by the business.
 */
import type { ServerLogLine, TraceHttp } from "../../trace/record.js";
import { isRecord } from "../model.js";
import { showId } from "../pair/classify.js";
import type { Paired, PendingRequest } from "../pair/pairer.js";
import { isBusinessFailure } from "../rules/results.js";
import { codeMeaning, firstText, quote, summarize, text } from "./words.js";

export function describe(p: Paired): string {
  const { shape } = p;
  switch (shape.kind) {
    case "invalid":
      return `not a JSON-RPC message: ${shape.why}`;
    case "request":
      return `request #${showId(shape.id)} ${shape.method}${requestDetail(shape.method, shape.params)}`;
    case "notification":
      return `notification ${shape.method}${shape.id === undefined ? "" : ` (with id ${showId(shape.id)}: notifications have none)`}${notificationDetail(shape.method, shape.params)}`;
    case "response": {
      const r = p.request;
      if (!r && p.answersExchange) {
        const asked = p.answersExchange.map((q) => `#${showId(q.id)} ${q.method} (line ${q.line})`).join(", ");
        const e = isRecord(shape.error) ? shape.error : {};
        return `an HTTP error with id null, answering ${asked} on its exchange: error ${String(e["code"])}: ${codeMeaning(e["code"])}${typeof e["message"] === "string" ? `: ${quote(e["message"])}` : ""}`;
      }
      if (!r)
        return shape.id === undefined ? "a reply without an id: it answers no request" : `reply to #${showId(shape.id)}, which answers no pending request`;
      const took = p.durationMs === undefined ? "" : `, ${p.durationMs} ms`;
      const head = `reply to #${showId(shape.id)} ${r.method}${r.name ? ` ${r.name}` : ""} (line ${r.line}${took})`;
      if (shape.hasError && isRecord(shape.error)) {
        const e = shape.error;
        const message = typeof e["message"] === "string" ? e["message"] : "";
        const business =
          r.method === "tools/call" && isBusinessFailure(e["code"], message)
            ? " (reads like a business failure: a result with isError: true would say so)"
            : "";
        return `${head}: error ${String(e["code"])}: ${codeMeaning(e["code"])}${message ? `: ${quote(message)}` : ""}${business}`;
      }
      return `${head}: ${resultDetail(r, shape.result)}`;
    }
  }
}

function requestDetail(method: string, params: unknown): string {
  const p = isRecord(params) ? params : {};
  if (method === "tools/call" || method === "prompts/get") {
    const args = p["arguments"];
    const names = isRecord(args) ? ` {${Object.keys(args).join(", ")}}` : "";
    return typeof p["name"] === "string" ? ` ${p["name"]}${names}` : " (no name)";
  }
  if (method.startsWith("resources/") && typeof p["uri"] === "string") return ` ${p["uri"]}`;
  if (method === "initialize") {
    const client = isRecord(p["clientInfo"]) ? ` from ${String(p["clientInfo"]["name"])} ${text(p["clientInfo"]["version"], "")}`.trimEnd() : "";
    return `: protocol ${String(p["protocolVersion"])}${client}`;
  }
  if (typeof p["cursor"] === "string") return ` (page after cursor ${quote(p["cursor"], 20)})`;
  return "";
}

function notificationDetail(method: string, params: unknown): string {
  const p = isRecord(params) ? params : {};
  switch (method) {
    case "notifications/initialized":
      return ": the client is ready (the handshake is done)";
    case "notifications/progress":
      return `: progress ${String(p["progress"])}${p["total"] === undefined ? "" : `/${text(p["total"])}`} of token ${summarize(p["progressToken"])}${typeof p["message"] === "string" ? ` ${quote(p["message"])}` : ""}`;
    case "notifications/message":
      return `: log ${String(p["level"])}${typeof p["logger"] === "string" ? ` from ${p["logger"]}` : ""}: ${typeof p["data"] === "string" ? quote(p["data"]) : summarize(p["data"])}`;
    case "notifications/cancelled":
      return `: cancels request #${showId(p["requestId"])}${typeof p["reason"] === "string" ? ` (${quote(p["reason"])})` : ""}`;
    case "notifications/resources/updated":
      return `: ${String(p["uri"])} changed (read it again)`;
    default: {
      const list = /^notifications\/(tools|resources|prompts|roots)\/list_changed$/.exec(method);
      if (list) return `: the ${list[1]} list changed (call ${list[1]}/list again)`;
      if (isRecord(params) && ("content" in p || "structuredContent" in p || "result" in p))
        return `: carries a result ${summarize(params)}, answering no request`;
      return "";
    }
  }
}

function resultDetail(r: PendingRequest, result: unknown): string {
  if (!isRecord(result)) return `ok: ${summarize(result)}`;
  const listed = (key: string, name: string) => {
    const items = Array.isArray(result[key]) ? (result[key] as unknown[]) : [];
    const names = items.map((i) => (isRecord(i) ? text(i["name"] ?? i["uri"] ?? i["uriTemplate"]) : "?"));
    return `ok: ${items.length} ${name}${items.length === 1 ? "" : "s"}${names.length ? `: ${names.slice(0, 8).join(", ")}${names.length > 8 ? ", …" : ""}` : ""}${typeof result["nextCursor"] === "string" ? " (more: nextCursor)" : ""}`;
  };
  // A result without its method's member (a wrapped one): say what it holds instead.
  const member = {
    "tools/list": "tools",
    "resources/list": "resources",
    "resources/templates/list": "resourceTemplates",
    "prompts/list": "prompts",
    "resources/read": "contents",
    "prompts/get": "messages",
  }[r.method];
  if (member !== undefined && !Array.isArray(result[member])) return `ok, but no \`${member}\`: ${summarize(result)}`;
  switch (r.method) {
    case "tools/call": {
      if (result["resultType"] === "input_required") return `input required: ${summarize(result["inputRequests"])}`;
      if (result["isError"] === true) return `isError: business failure: ${quote(firstText(result["content"]) ?? "(no text)")}`;
      const parts = [
        result["structuredContent"] === undefined
          ? `content [${blockTypes(result["content"])}]`
          : `structuredContent ${summarize(result["structuredContent"])}`,
      ];
      const meta = isRecord(result["_meta"]) ? result["_meta"] : {};
      const ui = isRecord(meta["ui"]) ? meta["ui"]["resourceUri"] : undefined;
      if (typeof ui === "string") parts.push(`_meta ui resourceUri ${ui}`);
      if (typeof meta["openai/outputTemplate"] === "string") parts.push(`_meta openai/outputTemplate ${meta["openai/outputTemplate"]}`);
      return `ok: ${parts.join(", ")}`;
    }
    case "tools/list":
      return listed("tools", "tool");
    case "resources/list":
      return listed("resources", "resource");
    case "resources/templates/list":
      return listed("resourceTemplates", "template");
    case "prompts/list":
      return listed("prompts", "prompt");
    case "initialize": {
      const info = isRecord(result["serverInfo"]) ? `${String(result["serverInfo"]["name"])} ${String(result["serverInfo"]["version"])}` : "a server";
      const caps = isRecord(result["capabilities"]) ? Object.keys(result["capabilities"]).join(", ") : "";
      return `ok: ${info}, protocol ${String(result["protocolVersion"])}${caps ? `, capabilities ${caps}` : ""}`;
    }
    case "resources/read": {
      const contents = Array.isArray(result["contents"]) ? result["contents"].filter(isRecord) : [];
      const each = contents.map(
        (c) => `${text(c["mimeType"], "no mimeType")}, ${typeof c["text"] === "string" ? `${c["text"].length} chars of text` : "blob"}`,
      );
      return `ok: ${contents.length} content${contents.length === 1 ? "" : "s"}${each.length ? ` (${each.slice(0, 3).join("; ")})` : ""}`;
    }
    case "prompts/get": {
      const messages = Array.isArray(result["messages"]) ? result["messages"].filter(isRecord) : [];
      return `ok: ${messages.length} message${messages.length === 1 ? "" : "s"}${messages.length ? ` (${messages.map((m) => String(m["role"])).join(", ")})` : ""}`;
    }
    default:
      return Object.keys(result).length === 0 ? "ok (empty result)" : `ok: ${summarize(result)}`;
  }
}

function blockTypes(content: unknown): string {
  return Array.isArray(content) ? content.map((b) => (isRecord(b) ? String(b["type"]) : "?")).join(", ") : "";
}

/** `  [HTTP POST /mcp #3, 200, SSE]`. */
export function describeHttp(http: TraceHttp | undefined): string {
  if (!http) return "";
  const parts = [`${http.method} ${http.path} exchange ${http.exchange}`];
  if (http.status !== undefined) parts.push(String(http.status));
  if (http.sse) parts.push(`SSE${http.sse.id ? ` id ${http.sse.id}` : ""}`);
  if (http.headers["mcp-protocol-version"]) parts.push(`MCP-Protocol-Version ${http.headers["mcp-protocol-version"]}`);
  return `  [HTTP ${parts.join(", ")}]`;
}

/** A line of a generated server's own log. */
export function describeServerLog(log: ServerLogLine): string {
  const what = log.id === undefined ? `notification ${log.method}` : `request #${showId(log.id)} ${log.method}`;
  const name = log.name ? ` ${log.name}` : "";
  const took = log.durationMs === undefined ? "" : ` (${log.durationMs} ms)`;
  const outcome =
    log.outcome === "ok"
      ? ": ok"
      : log.outcome === "business-error"
        ? `: isError: business failure: ${quote(log.error?.message ?? "")}`
        : log.outcome === "protocol-error"
          ? `: error ${String(log.error?.code)}: ${codeMeaning(log.error?.code)}: ${quote(log.error?.message ?? "")}`
          : "";
  return `${what}${name}${outcome}${took}`;
}
