/**
 * Bytes in and out of the Node HTTP server for the Streamable HTTP endpoint: the request as a web
 * Request (the SDK's HTTP entries speak fetch), its body read under a size limit, and a web
 * Response written back, an SSE body streamed frame by frame with two time limits: a client that
 * stops reading is cut off, and a standing stream with nothing to say is ended.
 */
import type { IncomingMessage, ServerResponse } from "node:http";

/** The node request as a web-standard Request (the SDK's HTTP entries speak fetch). */
export function toWebRequest(req: IncomingMessage, body: string | undefined, signal: AbortSignal): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v);
  }
  const url = `http://${req.headers.host ?? "localhost"}${req.url ?? "/"}`;
  return new Request(url, { method: req.method ?? "GET", headers, signal, ...(body === undefined ? {} : { body }) });
}

/** Time limits of one response (see HttpOptions). */
export interface SendLimits {
  /** Once the socket's buffer is full, how long the client has to read before the connection is closed. */
  stallMs: number;
  /** A standing stream: ended when no frame but keep-alive comments went out for this long. */
  idleMs?: number;
}

/**
 * Writes a web Response to the node response, streaming an SSE body as it comes. `aborter` aborts
 * when the client goes away (that cancels the body, and on 2026-07-28 the request); it is aborted
 * here too when the body must stop: the client stopped reading for `stallMs`, or a standing
 * stream said nothing for `idleMs`.
 */
export async function send(res: ServerResponse, response: Response, aborter: AbortController, limits: SendLimits): Promise<void> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => (headers[name] = value));
  res.writeHead(response.status, headers);
  if (!response.body) {
    res.end();
    return;
  }
  const reader = response.body.getReader();
  aborter.signal.addEventListener("abort", () => void reader.cancel().catch(() => {}), { once: true });
  // The SDK's keep-alive comments (`: keepalive`) tell the client the stream lives; they are not activity.
  const idle = limits.idleMs === undefined ? undefined : setTimeout(() => aborter.abort(), limits.idleMs);
  // A body that errors (a listen stream whose client does not read) stops the wait for `drain`
  // too; one that ends normally does not (its last chunk may still be on its way out).
  const failed = new Promise<false>((resolve) => void reader.closed.catch(() => resolve(false)));
  // Each SSE frame goes out as soon as the SDK writes it.
  res.flushHeaders();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (idle !== undefined && value[0] !== COLON) idle.refresh();
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
  } finally {
    clearTimeout(idle);
  }
  if (!res.destroyed) res.end();
}

const COLON = 0x3a;

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
