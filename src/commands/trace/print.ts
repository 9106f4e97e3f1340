/**
 * `mcpgen trace --print`: one line per message on stderr, as it crosses the recorder.
 *
 *     12:03:04.512 → #3 tools/call suggest_gifts
 *     12:03:04.524 ← reply #3 tools/call suggest_gifts 12 ms
 *     12:03:04.530 ← reply #4 tools/call suggest_gifts 3 ms ERROR -32602 Unknown tool: nope
 *
 * Replies are paired with their requests by id, per direction (on HTTP by exchange first, so two
 * sessions using the same ids do not mix).
 */
import type { TraceMessage, TraceNote } from "./record.js";

interface Pending {
  method: string;
  name?: string;
  at: number;
}

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value);

/** A printer: give it each record, it writes the lines. */
export function livePrinter(out: (line: string) => void): (record: TraceMessage | TraceNote) => void {
  const pending = new Map<string, Pending>();
  return (record) => {
    const time = record.time.slice(11, 23);
    if (!("message" in record)) {
      const status = record.http?.status;
      out(`${time} · ${record.note}${status !== undefined && !record.note.includes(`HTTP ${status}`) ? ` (HTTP ${status})` : ""}`);
      return;
    }
    const arrow = record.from === "client" ? "→" : "←";
    const at = Date.parse(record.time);
    const exchange = record.http ? `x${record.http.exchange}|` : "";
    for (const message of Array.isArray(record.message) ? record.message : [record.message]) {
      if (!isObject(message)) {
        out(`${time} ${arrow} (not a JSON-RPC message)`);
        continue;
      }
      const id = message.id;
      const shownId = typeof id === "string" || typeof id === "number" ? ` #${id}` : "";
      if (typeof message.method === "string") {
        const name = nameOf(message);
        if (shownId) {
          const entry: Pending = { method: message.method, at, ...(name ? { name } : {}) };
          const key = `${record.from}|${String(id)}`;
          pending.set(key, entry);
          if (exchange) pending.set(exchange + key, entry);
        }
        out(`${time} ${arrow}${shownId} ${message.method}${name ? ` ${name}` : ""}`);
        continue;
      }
      const asker = record.from === "client" ? "server" : "client";
      const key = `${asker}|${String(id)}`;
      const request = pending.get(exchange + key) ?? pending.get(key);
      pending.delete(key);
      if (exchange) pending.delete(exchange + key);
      const what = request ? ` ${request.method}${request.name ? ` ${request.name}` : ""} ${Math.max(0, at - request.at)} ms` : "";
      out(`${time} ${arrow} reply${shownId}${what}${outcome(message)}`);
    }
  };
}

/** The tool, prompt or resource a request names. */
function nameOf(message: Json): string | undefined {
  const params = isObject(message.params) ? message.params : undefined;
  if (!params) return undefined;
  if (message.method === "tools/call" || message.method === "prompts/get") return typeof params.name === "string" ? params.name : undefined;
  if (message.method === "resources/read") return typeof params.uri === "string" ? params.uri : undefined;
  return undefined;
}

function outcome(message: Json): string {
  if (isObject(message.error)) {
    const { code, message: text } = message.error;
    return ` ERROR ${typeof code === "number" ? code : "?"} ${typeof text === "string" ? text.slice(0, 200) : ""}`.trimEnd();
  }
  if (isObject(message.result) && message.result.isError === true) return " isError";
  return "";
}
