/**
 * The bodies of the endpoint's requests and answers, on the web's streams (every platform has
 * them): a request body read under a size limit, an answer whose end is known (what it holds, a
 * session's request in flight or a standing stream's place, is given back then), and a standing
 * stream that says nothing for too long ended.
 */

/** What reading a request body came to: its text, or why there is none. */
export type BodyText = string | { failed: "too-large" | "gone" };

/**
 * The body of `request` as text, at most `maxBytes` of it: "too-large" past it (a declared
 * Content-Length over it is refused before reading), "gone" when the body stopped with an error
 * (the client left).
 */
export async function readText(request: Request, maxBytes: number): Promise<BodyText> {
  const declared = Number(request.headers.get("content-length") ?? Number.NaN);
  if (Number.isFinite(declared) && declared > maxBytes) {
    await request.body?.cancel().catch(() => {});
    return { failed: "too-large" };
  }
  if (request.body === null) return "";
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes) {
        await reader.cancel().catch(() => {});
        return { failed: "too-large" };
      }
      chunks.push(value);
    }
  } catch {
    return { failed: "gone" };
  }
  const whole = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    whole.set(chunk, at);
    at += chunk.byteLength;
  }
  return new TextDecoder().decode(whole);
}

/** Whether an answer is a stream of events (SSE), which lasts; any other is done once made. */
function isEventStream(response: Response): boolean {
  return response.body !== null && (response.headers.get("content-type") ?? "").startsWith("text/event-stream");
}

const COLON = 0x3a;
/** The comment a standing stream opens with: SSE clients skip it. */
const OPENING = new TextEncoder().encode(": open\n\n");

/**
 * `response`, with `done` called once its body has been sent, cancelled (the client went away) or
 * failed; at once for an answer that is not a stream of events. With `idleMs` (a standing stream,
 * which may have nothing to say for long), the stream opens with a comment (`: open`), so that a
 * platform that sends the headers with the first bytes (Bun) sends them now, and the stream is
 * ended once nothing but keep-alive comments (`: keepalive`, not activity) went out for that long:
 * its body cancelled (the SDK frees what it holds for it) and the stream closed, so the client
 * opens a new one.
 */
export function whenSent(response: Response, done: () => void, idleMs?: number): Response {
  if (!isEventStream(response)) {
    done();
    return response;
  }
  let ended = false;
  const end = () => {
    if (ended) return;
    ended = true;
    clearTimeout(idle);
    done();
  };
  const source = response.body!.getReader();
  let idle: ReturnType<typeof setTimeout> | undefined;
  // Timers are numbers outside Node (no refresh()): a new one each time.
  let arm = () => {};
  const body = new ReadableStream<Uint8Array>(
    {
      start(controller) {
        if (idleMs === undefined) return;
        controller.enqueue(OPENING);
        arm = () => {
          clearTimeout(idle);
          idle = setTimeout(() => {
            void source.cancel().catch(() => {});
            try {
              controller.close();
            } catch {
              // Already closed or errored.
            }
            end();
          }, idleMs);
        };
        arm();
      },
      async pull(controller) {
        try {
          const { done: finished, value } = await source.read();
          if (finished) {
            if (!ended) controller.close();
            end();
            return;
          }
          if (ended) return;
          if (value[0] !== COLON) arm();
          controller.enqueue(value);
        } catch (error) {
          if (!ended) controller.error(error);
          end();
        }
      },
      async cancel(reason) {
        end();
        await source.cancel(reason).catch(() => {});
      },
      // Nothing read ahead: a chunk is taken from the source only when the client's side asks for
      // one, so the end is seen once the last chunk was taken up by the client (a client that stops
      // reading keeps the answer, and what it holds, until it is cut off), not when the source ended.
    },
    { highWaterMark: 0 },
  );
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
}

/** The standing streams of an endpoint (2025-era GET streams, 2026-07-28 listens), counted against their cap. */
export class StandingStreams {
  private open = 0;

  constructor(readonly max: number) {}

  /** A place for one more stream, and the function that gives it back (once); undefined when all `max` are taken. */
  take(): (() => void) | undefined {
    if (this.open >= this.max) return undefined;
    this.open++;
    let given = false;
    return () => {
      if (given) return;
      given = true;
      this.open--;
    };
  }
}
