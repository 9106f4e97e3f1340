/**
 * What the HTTP recorder makes of one exchange's bodies: the request's JSON-RPC message (or
 * batch) from the client; the response's message from the server, whether the body is JSON or an
 * event stream (each event whose data is JSON, with its id and event name in `http.sse`); a note
 * for a request or response that carries no message (a GET, a 202, a 405, an HTML error page).
 */
import type { IncomingHttpHeaders } from "node:http";
import type { TraceHttp } from "./record.js";
import { rmSync } from "node:fs";
import type { Copied, CopyOptions } from "./copy.js";
import { redactBody } from "./redactLog.js";
import { bodyCopy, decodedSide, type SideStream } from "./sideStream.js";
import { SseParser } from "./sse.js";
import { noteText, recordCopied, type Side, type TraceSink } from "./writer.js";

/** The largest body (or server-sent event) recorded: past it, noted and forwarded unrecorded. Past 1 MiB it is spooled to disk, not held. */
const MAX_BODY_BYTES = 64 * 1024 * 1024;

/**
 * Where an exchange goes: the MCP endpoint (its messages recorded as sent), or another path of the
 * upstream's origin (an authorization server's endpoint, a metadata document): its bodies' credential
 * fields are redacted (redactBody), and a body too large to hold is not recorded.
 */
export type Endpoint = "mcp" | "other";

/** The side copy of a request body: the message recorded when the body ends. */
export function requestSide(trace: TraceSink, http: TraceHttp, headers: IncomingHttpHeaders, endpoint: Endpoint, maxBytes = MAX_BODY_BYTES): SideStream {
  const body = bodyCopy(
    copyOptions(trace, maxBytes, (size) => tooLong(trace, "client", `a request body of more than ${maxBytes} bytes (${size} so far)`, http)),
    (copied, size) => {
      if (size === 0 || copied.kind === "empty") return trace.note(`${http.method} request`, { from: "client", http });
      recordCopied(trace, "client", redacted(trace, copied, endpoint, header(headers, "content-type")), "a request body that is not JSON", http);
    },
  );
  return decodedSide(header(headers, "content-encoding"), body, (reason) => trace.note(reason, { from: "client", http }));
}

/** The side copy of a response body, by its content type. */
export function responseSide(trace: TraceSink, http: TraceHttp, headers: IncomingHttpHeaders, endpoint: Endpoint, maxBytes = MAX_BODY_BYTES): SideStream {
  const type = (header(headers, "content-type") ?? "").split(";")[0]!.trim().toLowerCase();
  let sink: SideStream;
  if (type === "text/event-stream") {
    let events = 0;
    const parser = new SseParser({
      ...copyOptions(trace, maxBytes, (size) => tooLong(trace, "server", `an event of more than ${maxBytes} bytes (${size} so far)`, http)),
      onEvent(event) {
        const sse = { ...(event.id !== undefined ? { id: event.id } : {}), ...(event.event !== undefined ? { event: event.event } : {}) };
        if (recordCopied(trace, "server", redacted(trace, event.data, endpoint, "application/json"), "an event whose data is not JSON", { ...http, sse }))
          events++;
      },
    });
    sink = {
      write: (chunk) => parser.push(chunk),
      end() {
        parser.end();
        trace.note(`the event stream ended (${events} message${events === 1 ? "" : "s"})`, { from: "server", http });
      },
    };
  } else {
    const json = type === "application/json" || type.endsWith("+json");
    sink = bodyCopy(
      copyOptions(trace, maxBytes, (size) => tooLong(trace, "server", `a response body of more than ${maxBytes} bytes (${size} so far)`, http)),
      (copied, size) => {
        if (size === 0 || copied.kind === "empty") return trace.note(`HTTP ${http.status} without a body`, { from: "server", http });
        copied = redacted(trace, copied, endpoint, type);
        if (json) return recordCopied(trace, "server", copied, `HTTP ${http.status}: a body that is not JSON`, http);
        if (copied.kind === "spooled") rmSync(copied.spooled.file, { force: true });
        const text = copied.kind === "bytes" ? noteText(copied.bytes) : copied.kind === "not-json" ? noteText(copied.head) : undefined;
        trace.note(`HTTP ${http.status} without a message (${type || "no content type"})`, { from: "server", ...(text !== undefined ? { text } : {}), http });
      },
    );
  }
  return decodedSide(header(headers, "content-encoding"), sink, (reason) => trace.note(reason, { from: "server", http }));
}

/** What of a body off the MCP endpoint the log keeps: its credentials redacted; nothing of one too large to hold. */
function redacted(trace: TraceSink, copied: Copied, endpoint: Endpoint, contentType: string | undefined): Copied {
  if (endpoint === "mcp") return copied;
  if (copied.kind === "bytes") return { kind: "bytes", bytes: redactBody(copied.bytes, contentType ?? "") };
  if (copied.kind === "spooled") {
    rmSync(copied.spooled.file, { force: true });
    trace.note(`a body of ${copied.spooled.size} bytes off the MCP endpoint: not recorded`);
    return { kind: "empty" };
  }
  // Not JSON and large: its head could hold a credential.
  if (copied.kind === "not-json") return { kind: "not-json", head: Buffer.from("[not recorded: a large body off the MCP endpoint]") };
  return copied;
}

function copyOptions(trace: TraceSink, maxBytes: number, onOverflow: (size: number) => void): CopyOptions {
  return { maxBytes, onOverflow, spoolPath: () => trace.spoolPath() };
}

function tooLong(trace: TraceSink, from: Side, what: string, http: TraceHttp): void {
  trace.note(`${what}: forwarded, not recorded`, { from, http, event: "not-recorded" });
}

function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value.join(", ") : value;
}
