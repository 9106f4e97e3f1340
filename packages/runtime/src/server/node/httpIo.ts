/**
 * Bytes in and out of the Node HTTP server for the Streamable HTTP endpoint: the request as a web
 * Request (the endpoint speaks fetch), its body read under a size limit, and a web Response
 * written back, an SSE body streamed frame by frame with backpressure: a client that stops reading
 * is cut off.
 */
import type { IncomingMessage, ServerResponse } from "node:http";

/**
 * A Request whose `signal` is the connection's, handed out as it is. Given to Request's
 * constructor, a signal is followed through a listener, a WeakRef and a finalizer per request
 * (about 10 µs of a request on Node 20). A Request made from this one (`clone()`, `new
 * Request(it)`) would follow its own signal instead, never aborted: nothing on the endpoint's path
 * makes one (the SDK clones a request only to read a body the endpoint has already parsed).
 */
class ConnectionRequest extends Request {
  constructor(url: string, init: RequestInit, connection: AbortSignal) {
    super(url, init);
    // Its own property, in front of Request's getter.
    Object.defineProperty(this, "signal", { value: connection, enumerable: true });
  }
}

/**
 * The node request as a web-standard Request (the endpoint speaks fetch), without its body: the
 * endpoint reads that from `req` with readBody, under its limit, when it wants it. Its `signal`
 * is `signal`, aborted when the client goes away.
 */
export function toWebRequest(req: IncomingMessage, signal: AbortSignal): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v);
  }
  const url = `http://${req.headers.host ?? "localhost"}${req.url ?? "/"}`;
  return new ConnectionRequest(url, { method: req.method ?? "GET", headers }, signal);
}

/** The time limit of one response (see HttpOptions). */
export interface SendLimits {
  /** Once the socket's buffer is full, how long the client has to read before the connection is closed. */
  stallMs: number;
}

/**
 * Writes a web Response to the node response, streaming an SSE body as it comes. `aborter` aborts
 * when the client goes away (that cancels the body, and on 2026-07-28 the request); it is aborted
 * here too when the client stopped reading for `stallMs`. (A standing stream that says nothing is
 * ended by the endpoint, server/http/bodies.ts.)
 */
export async function send(res: ServerResponse, response: Response, aborter: AbortController, limits: SendLimits): Promise<void> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => (headers[name] = value));
  if (!response.body) {
    res.writeHead(response.status, headers);
    res.end();
    return;
  }
  // A JSON answer is complete when it is made: read whole, it goes out with its headers in one
  // write (streamed, the headers would take a write of their own).
  if (!headers["content-type"]?.startsWith("text/event-stream")) {
    const bytes = new Uint8Array(await response.arrayBuffer());
    if (aborter.signal.aborted) {
      res.destroy();
      return;
    }
    headers["content-length"] = String(bytes.byteLength);
    res.writeHead(response.status, headers);
    if (!res.write(bytes) && !(await drained(res, limits.stallMs))) {
      res.destroy();
      aborter.abort();
      return;
    }
    res.end();
    return;
  }
  res.writeHead(response.status, headers);
  const reader = response.body.getReader();
  // Gone before its answer was ready: the body is cancelled (what it holds is given back) and nothing is written.
  if (aborter.signal.aborted) {
    await reader.cancel().catch(() => {});
    res.destroy();
    return;
  }
  aborter.signal.addEventListener("abort", () => void reader.cancel().catch(() => {}), { once: true });
  // A body that errors (a listen stream whose client does not read) stops the wait for `drain`
  // too; one that ends normally does not (its last chunk may still be on its way out).
  const failed = new Promise<false>((resolve) => void reader.closed.catch(() => resolve(false)));
  // Each SSE frame goes out as soon as the SDK writes it, the headers at once even before one:
  // what is written in one run of the event loop (the headers and a first frame, a frame and the
  // end of a one-answer stream) goes in one write.
  corkForThisTurn(res);
  res.flushHeaders();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      corkForThisTurn(res);
      if (!res.write(value) && !(await Promise.race([drained(res, limits.stallMs), failed]))) {
        // A client that does not read holds the connection and, on a 2025 session, its place.
        res.destroy();
        aborter.abort();
        break;
      }
    }
  } catch {
    // The client went away mid-stream, or the body errored: the response is torn down, not ended
    // as if complete (what it buffered goes too).
    res.destroy();
    void reader.cancel().catch(() => {});
  }
  if (!res.destroyed) res.end();
}

/** Holds what `res` writes until the end of this turn of the event loop (end() lets it go at once). */
function corkForThisTurn(res: ServerResponse): void {
  if (res.writableCorked > 0) return;
  res.cork();
  process.nextTick(() => res.uncork());
}

/** True once `res` can take more; false if it did not within `ms`, or closed. */
function drained(res: ServerResponse, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const done = (ok: boolean) => {
      clearTimeout(timer);
      res.off("drain", onDrain);
      res.off("close", onClose);
      resolve(ok);
    };
    const onDrain = () => done(true);
    const onClose = () => done(false);
    const timer = setTimeout(() => done(false), ms);
    res.once("drain", onDrain);
    res.once("close", onClose);
  });
}

/** A JSON-RPC error without an id, with its HTTP status. */
export function reply(res: ServerResponse, status: number, code: number, message: string): void {
  res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify({ jsonrpc: "2.0", id: null, error: { code, message } }));
}

/**
 * The body as text; "too-large" past `maxBytes` (the rest is read and dropped, not kept); "gone"
 * when the request ended before its body did (the client left, or node's requestTimeout answered
 * 408 and closed the connection).
 */
export function readBody(req: IncomingMessage, maxBytes: number): Promise<string | { failed: "too-large" | "gone" }> {
  return new Promise((resolve) => {
    const declared = Number(req.headers["content-length"]);
    let tooLarge = Number.isFinite(declared) && declared > maxBytes;
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      if (tooLarge) return;
      size += chunk.length;
      if (size > maxBytes) {
        tooLarge = true;
        chunks.length = 0;
      } else chunks.push(chunk);
    });
    req.on("end", () => resolve(tooLarge ? { failed: "too-large" } : Buffer.concat(chunks).toString("utf8")));
    // After "end", "close" changes nothing (a promise settles once).
    req.on("close", () => resolve({ failed: "gone" }));
    req.on("error", () => resolve({ failed: "gone" }));
  });
}
