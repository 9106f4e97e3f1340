/**
 * server/http/bodies.ts, on the web's streams alone (what every platform has): a request body read
 * under its limit, an answer whose end is known (sent, cancelled by a client that left, failed),
 * a standing stream ended when only keep-alive comments went out, and the standing streams' cap.
 */
import { describe, expect, it } from "vitest";
import { readText, StandingStreams, whenSent } from "../../../src/server/http/bodies.js";
import { sseData } from "../../../../../test/helpers/sse.js";

const encoder = new TextEncoder();

/** A body that gives `chunks`, then ends (or errors with `error`). */
function bodyOf(chunks: string[], error?: Error): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
      if (error) controller.error(error);
      else controller.close();
    },
  });
}

const post = (body: string | ReadableStream<Uint8Array> | null, headers: Record<string, string> = {}) =>
  new Request("http://127.0.0.1/mcp", { method: "POST", body, headers, ...(body instanceof ReadableStream ? { duplex: "half" } : {}) } as RequestInit);

describe("readText", () => {
  it("reads a body in several chunks, a character cut between two of them included", async () => {
    const bytes = encoder.encode('{"name":"Zoë 🎁"}');
    const parts = [bytes.slice(0, 11), bytes.slice(11, 14), bytes.slice(14)];
    const stream = new ReadableStream<Uint8Array>({ start: (c) => (parts.forEach((p) => c.enqueue(p)), c.close()) });
    expect(await readText(post(stream), 1024)).toBe('{"name":"Zoë 🎁"}');
  });

  it("is too large past the limit, counted in bytes, with a Content-Length over it refused before reading", async () => {
    expect(await readText(post("é".repeat(6)), 12)).toBe("é".repeat(6));
    expect(await readText(post("é".repeat(7)), 12)).toEqual({ failed: "too-large" });
    let pulled = false;
    const never = new ReadableStream<Uint8Array>({ pull: () => void (pulled = true) });
    expect(await readText(post(never, { "content-length": "13" }), 12)).toEqual({ failed: "too-large" });
    expect(pulled).toBe(false);
  });

  it("is too large when a body without a length keeps coming, and stops reading it", async () => {
    let chunks = 0;
    const endless = new ReadableStream<Uint8Array>({ pull: (c) => void (chunks++, c.enqueue(new Uint8Array(1000))) });
    expect(await readText(post(endless), 10_000)).toEqual({ failed: "too-large" });
    expect(chunks).toBeLessThan(20);
  });

  it("is gone when the body fails (the client left)", async () => {
    expect(await readText(post(bodyOf(['{"a":'], new Error("reset"))), 1024)).toEqual({ failed: "gone" });
  });

  it("is empty for a request without a body", async () => {
    expect(await readText(new Request("http://127.0.0.1/mcp", { method: "POST" }), 10)).toBe("");
  });
});

describe("whenSent", () => {
  const sse = (body: ReadableStream<Uint8Array>) => new Response(body, { headers: { "content-type": "text/event-stream" } });

  it("is done at once for an answer that is not a stream of events", () => {
    let done = 0;
    const json = Response.json({ ok: true });
    expect(whenSent(json, () => done++)).toBe(json);
    whenSent(new Response(null, { status: 202 }), () => done++);
    expect(done).toBe(2);
  });

  it("is done once the stream has been read to its end, with every frame and the status and headers kept", async () => {
    let done = 0;
    const sent = whenSent(
      new Response(bodyOf(["data: 1\n\n", "data: 2\n\n"]), { status: 200, headers: { "content-type": "text/event-stream", "mcp-session-id": "s" } }),
      () => done++,
    );
    expect(done).toBe(0);
    expect(sent.headers.get("mcp-session-id")).toBe("s");
    expect(await sent.text()).toBe("data: 1\n\ndata: 2\n\n");
    expect(done).toBe(1);
  });

  it("is not done while the client has not taken up the last chunk (nothing is read ahead of it)", async () => {
    let done = 0;
    const reader = whenSent(sse(bodyOf(["data: 1\n\n", "data: 2\n\n"])), () => done++).body!.getReader();
    await reader.read();
    await reader.read();
    // Both chunks taken, the source already ended (and time for any read ahead): the client has yet to see the end.
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(done).toBe(0);
    expect((await reader.read()).done).toBe(true);
    expect(done).toBe(1);
  });

  it("is done once, and cancels the stream, when the client cancels it", async () => {
    let done = 0;
    let cancelled = false;
    const body = new ReadableStream<Uint8Array>({ pull: () => new Promise(() => {}), cancel: () => void (cancelled = true) });
    await whenSent(sse(body), () => done++).body!.cancel();
    expect([done, cancelled]).toEqual([1, true]);
  });

  it("is done when the stream fails, and the failure reaches the reader", async () => {
    let done = 0;
    const sent = whenSent(sse(bodyOf(["data: 1\n\n"], new Error("broken"))), () => done++);
    await expect(sent.text()).rejects.toThrow("broken");
    expect(done).toBe(1);
  });

  /** An SSE body writing `frame(i)` every `ms`; records its cancellation. */
  function ticking(ms: number, frame: (i: number) => string, cancelled: { value: boolean }): ReadableStream<Uint8Array> {
    let timer: ReturnType<typeof setInterval>;
    return new ReadableStream({
      start(controller) {
        let i = 0;
        timer = setInterval(() => controller.enqueue(encoder.encode(frame(i++))), ms);
      },
      cancel() {
        clearInterval(timer);
        cancelled.value = true;
      },
    });
  }

  it("opens a standing stream with a comment, before its body says anything (Bun sends the headers with the first bytes)", async () => {
    const reader = whenSent(sse(new ReadableStream({ pull: () => new Promise(() => {}) })), () => {}, 60_000).body!.getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toBe(": open\n\n");
    await reader.cancel();
  });

  it("ends a standing stream on which only keep-alive comments went out for idleMs, and cancels its body", async () => {
    const cancelled = { value: false };
    let done = 0;
    const text = await whenSent(sse(ticking(20, () => ": keepalive\n\n", cancelled)), () => done++, 300).text();
    expect(text).toMatch(/^: open\n\n(: keepalive\n\n)+$/);
    expect([cancelled.value, done]).toEqual([true, 1]);
  });

  it("keeps a standing stream while messages go out, and ends it once they stop", async () => {
    const cancelled = { value: false };
    // 30 messages 20 ms apart (600 ms, twice the idle limit), then only comments.
    const frame = (i: number) => (i < 30 ? `event: message\ndata: ${i}\n\n` : ": keepalive\n\n");
    const text = await whenSent(sse(ticking(20, frame, cancelled)), () => {}, 300).text();
    expect(sseData(text)).toHaveLength(30);
    expect(cancelled.value).toBe(true);
  });
});

describe("StandingStreams", () => {
  it("gives at most max places, each back once however often it is given back", () => {
    const streams = new StandingStreams(2);
    const a = streams.take();
    expect(streams.take()).toBeDefined();
    expect(streams.take()).toBeUndefined();
    a!();
    a!();
    expect(streams.take()).toBeDefined();
    expect(streams.take()).toBeUndefined();
  });
});
