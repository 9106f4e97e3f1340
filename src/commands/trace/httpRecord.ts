/**
 * What the HTTP recorder makes of one exchange's bodies: the request's JSON-RPC message (or
 * batch) from the client; the response's message from the server, whether the body is JSON or an
 * event stream (each event whose data is JSON, with its id and event name in `http.sse`); a note
 * for a request or response that carries no message (a GET, a 202, a 405, an HTML error page).
 */
import type { IncomingHttpHeaders } from "node:http";
import type { TraceHttp } from "./record.js";
import { collectBody, decodedSide, type SideStream } from "./sideStream.js";
import { SseParser } from "./sse.js";
import { noteText, parseJson, type Side, type TraceSink } from "./writer.js";

/** The largest body (or server-sent event) the side copy keeps: past it, noted and forwarded unrecorded. */
const MAX_BODY_BYTES = 64 * 1024 * 1024;

/** The side copy of a request body: the message recorded when the body ends. */
export function requestSide(trace: TraceSink, http: TraceHttp, headers: IncomingHttpHeaders, maxBytes = MAX_BODY_BYTES): SideStream {
  const body = collectBody(maxBytes, (bytes) => {
    if (!Buffer.isBuffer(bytes))
      return trace.note(`a request body of ${bytes.tooLong} bytes, more than ${maxBytes}: forwarded, not recorded`, {
        from: "client",
        http,
        event: "not-recorded",
      });
    if (bytes.length === 0) return trace.note(`${http.method} request`, { from: "client", http });
    recordJson(trace, "client", bytes, http, "a request body that is not JSON");
  });
  return decodedSide(header(headers, "content-encoding"), body, (reason) => trace.note(reason, { from: "client", http }));
}

/** The side copy of a response body, by its content type. */
export function responseSide(trace: TraceSink, http: TraceHttp, headers: IncomingHttpHeaders, maxBytes = MAX_BODY_BYTES): SideStream {
  const type = (header(headers, "content-type") ?? "").split(";")[0]!.trim().toLowerCase();
  let sink: SideStream;
  if (type === "text/event-stream") {
    let events = 0;
    const parser = new SseParser({
      maxEventBytes: maxBytes,
      onEvent(event) {
        const sse = { ...(event.id !== undefined ? { id: event.id } : {}), ...(event.event !== undefined ? { event: event.event } : {}) };
        // An event without data (the priming event of a resumable stream) carries no message.
        if (event.data === "") return;
        const parsed = parseJson(Buffer.from(event.data));
        if (parsed) {
          events++;
          trace.message("server", parsed.value, { ...http, sse });
        } else trace.note("an event whose data is not JSON", { from: "server", text: noteText(Buffer.from(event.data)), http: { ...http, sse } });
      },
      onOverflow(size) {
        trace.note(`an event of more than ${maxBytes} bytes (${size} so far): forwarded, not recorded`, { from: "server", http, event: "not-recorded" });
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
    sink = collectBody(maxBytes, (bytes) => {
      if (!Buffer.isBuffer(bytes))
        return trace.note(`a response body of ${bytes.tooLong} bytes, more than ${maxBytes}: forwarded, not recorded`, {
          from: "server",
          http,
          event: "not-recorded",
        });
      if (bytes.length === 0) return trace.note(`HTTP ${http.status} without a body`, { from: "server", http });
      if (type === "application/json" || type.endsWith("+json"))
        return recordJson(trace, "server", bytes, http, `HTTP ${http.status}: a body that is not JSON`);
      trace.note(`HTTP ${http.status} without a message (${type || "no content type"})`, { from: "server", text: noteText(bytes), http });
    });
  }
  return decodedSide(header(headers, "content-encoding"), sink, (reason) => trace.note(reason, { from: "server", http }));
}

function recordJson(trace: TraceSink, from: Side, bytes: Buffer, http: TraceHttp, otherwise: string): void {
  const parsed = parseJson(bytes);
  if (parsed) trace.message(from, parsed.value, http);
  else trace.note(otherwise, { from, text: noteText(bytes), http });
}

function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value.join(", ") : value;
}
