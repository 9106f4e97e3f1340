/**
 * A HAR file of a Streamable HTTP session (what a browser's devtools or a proxy saves): each
 * entry's request body holds the client's message (or batch), its response body the server's,
 * as JSON or as server-sent events. A HAR is one JSON document, so it is read whole: at most
 * MAX_HAR_BYTES (a browser's export of a long session is far below). Each message is located at
 * the line where its entry starts, found by one scan of the text.
 */
import { readFile, stat } from "node:fs/promises";
import { deeperThan, MAX_DEPTH } from "./lines.js";
import type { TraceHttp } from "../../trace/record.js";
import { isRecord, parseTime, type LogEvent, type Side } from "../model.js";

/** The largest HAR read (bytes): it is parsed whole. */
const MAX_HAR_BYTES = 256 * 1024 * 1024;

/** A HAR that cannot be read: too large, or no HAR at all. */
export class UnreadableHar extends Error {}

/** The headers a trace keeps (src/commands/trace/record.ts TraceHttp), names lower-cased. */
function keptHeaders(list: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (!Array.isArray(list)) return out;
  for (const h of list) {
    if (!isRecord(h) || typeof h["name"] !== "string" || typeof h["value"] !== "string") continue;
    const name = h["name"].toLowerCase();
    if (name === "authorization" || name === "cookie") out[name] = "[redacted]";
    else if (name.startsWith("mcp-") || ["content-type", "accept", "last-event-id", "www-authenticate"].includes(name)) out[name] = h["value"];
  }
  return out;
}

/** The messages of a body: JSON (a message or a batch), or server-sent events whose data is JSON. */
function bodyMessages(text: string): { message: unknown; sse?: { id?: string; event?: string }; batch?: true }[] | undefined {
  const trimmed = text.trim();
  if (trimmed === "") return [];
  if (trimmed.startsWith("{") || trimmed.startsWith("[")) {
    try {
      const value: unknown = JSON.parse(trimmed);
      return Array.isArray(value) ? value.map((message) => ({ message, batch: true as const })) : [{ message: value }];
    } catch {
      return undefined;
    }
  }
  const out: { message: unknown; sse?: { id?: string; event?: string }; batch?: true }[] = [];
  for (const block of trimmed.split(/\r?\n\r?\n/)) {
    let data = "";
    const sse: { id?: string; event?: string } = {};
    for (const row of block.split(/\r?\n/)) {
      const m = /^(data|id|event):\s?(.*)$/.exec(row);
      if (!m) continue;
      if (m[1] === "data") data += data ? `\n${m[2]}` : m[2];
      else sse[m[1] as "id" | "event"] = m[2]!;
    }
    if (data.trim() === "") continue;
    try {
      const value: unknown = JSON.parse(data);
      if (Array.isArray(value)) for (const message of value) out.push({ message, sse, batch: true });
      else out.push({ message: value, sse });
    } catch {
      return undefined;
    }
  }
  return out;
}

/**
 * The 1-based line where each element of `log.entries` starts, by one pass over the text that
 * follows strings and nesting (no second parse).
 */
export function entryLines(text: string): number[] {
  const lines: number[] = [];
  const stack: string[] = [];
  let line = 1;
  let lastString = "";
  let key = "";
  let entriesDepth = -1;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === "\n") line++;
    else if (c === '"') {
      const start = i + 1;
      i++;
      while (i < text.length && text[i] !== '"') {
        if (text[i] === "\\") i++;
        else if (text[i] === "\n") line++;
        i++;
      }
      lastString = text.slice(start, i);
    } else if (c === ":") key = lastString;
    else if (c === "{" || c === "[") {
      if (entriesDepth !== -1 && stack.length === entriesDepth) lines.push(line);
      if (c === "[" && key === "entries" && stack.length === 2 && entriesDepth === -1) entriesDepth = stack.length + 1;
      stack.push(c);
      key = "";
    } else if (c === "}" || c === "]") stack.pop();
    else if (c === ",") key = "";
  }
  return lines;
}

export async function* readHar(file: string): AsyncGenerator<LogEvent> {
  const size = (await stat(file)).size;
  if (size > MAX_HAR_BYTES)
    throw new UnreadableHar(
      `${file} is ${size} bytes: a HAR is read whole, and at most ${MAX_HAR_BYTES} bytes; record the session with \`mcpgen trace\` instead (JSONL, streamed)`,
    );
  const text = (await readFile(file, "utf8")).replace(/^\uFEFF/, "");
  const har: unknown = JSON.parse(text);
  if (!isRecord(har) || !isRecord(har["log"]) || !Array.isArray(har["log"]["entries"]))
    throw new UnreadableHar(`JSON but no HAR (no log.entries); a file of JSON-RPC messages holds one message per line (--input jsonl)`);
  const entries = har["log"]["entries"] as unknown[];
  const starts = entryLines(text);
  for (const [index, entry] of entries.entries()) {
    if (!isRecord(entry) || !isRecord(entry["request"])) continue;
    const line = starts[index] ?? 1;
    const request = entry["request"];
    const response = isRecord(entry["response"]) ? entry["response"] : {};
    let path = "/";
    try {
      const url = new URL(String(request["url"]));
      path = url.pathname + url.search;
    } catch {
      // A relative or missing URL: the path stays "/".
    }
    const base = { exchange: index + 1, method: typeof request["method"] === "string" ? request["method"] : "POST", path };
    const started = parseTime(entry["startedDateTime"]);
    const ended = started !== undefined && typeof entry["time"] === "number" ? started + entry["time"] : started;
    const sides: [Side, unknown, TraceHttp, number | undefined][] = [
      ["client", isRecord(request["postData"]) ? request["postData"]["text"] : undefined, { ...base, headers: keptHeaders(request["headers"]) }, started],
      [
        "server",
        isRecord(response["content"]) ? response["content"]["text"] : undefined,
        { ...base, ...(typeof response["status"] === "number" ? { status: response["status"] } : {}), headers: keptHeaders(response["headers"]) },
        ended,
      ],
    ];
    for (const [from, body, http, time] of sides) {
      if (typeof body !== "string") continue;
      const messages = bodyMessages(body);
      const at = { line, ...(time === undefined ? {} : { time }), entry: index };
      const deep = messages !== undefined && messages.some((m) => deeperThan(m.message, MAX_DEPTH));
      if (messages === undefined || deep) {
        yield {
          kind: "note",
          ...at,
          note: `HAR entry ${index}: the ${from === "client" ? "request" : "response"} body ${deep ? `nests more than ${MAX_DEPTH} levels deep: not judged` : "is not JSON"}`,
          unreadable: true,
          text: body.slice(0, 200),
          http,
        };
        continue;
      }
      for (const { message, sse, batch } of messages)
        yield { kind: "message", ...at, from, message, ...(batch ? { batch } : {}), http: sse && Object.keys(sse).length ? { ...http, sse } : http };
    }
  }
}
