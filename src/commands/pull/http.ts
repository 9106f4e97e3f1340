/**
 * The `fetch` pull gives the SDK's Streamable HTTP transport: every response body counted as it
 * arrives, so an answer past the `Budget`'s limits stops the download (and the pull) before it is
 * parsed, instead of being read whole into memory.
 */
import type { Budget } from "./limits.js";

/** Statuses whose responses have no body (the Response constructor refuses one). */
const NO_BODY = new Set([101, 204, 205, 304]);

export function limitedFetch(budget: Budget): typeof fetch {
  return async (input, init) => {
    const response = await fetch(input, init);
    if (response.body === null || NO_BODY.has(response.status)) return response;
    const declared = Number(response.headers.get("content-length") ?? "");
    if (Number.isFinite(declared)) {
      try {
        budget.declare(declared);
      } catch (error) {
        await response.body.cancel().catch(() => {});
        throw error;
      }
    }
    let size = 0;
    const counted = response.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          size += chunk.byteLength;
          try {
            budget.read(chunk.byteLength);
            budget.answer(size, "body");
            controller.enqueue(chunk);
          } catch (error) {
            // Errors the body for the SDK and cancels the download.
            controller.error(error);
          }
        },
      }),
    );
    const limited = new Response(counted, { status: response.status, statusText: response.statusText, headers: response.headers });
    // What a constructed Response cannot be given: the SDK reads them to report a redirect.
    for (const key of ["url", "type", "redirected"] as const) Object.defineProperty(limited, key, { value: response[key] });
    return limited;
  };
}
