/**
 * send(): a web Response streamed to a node response with backpressure: a client that stops
 * reading is cut off after stallMs, and one that goes away stops the wait; either way the body is
 * cancelled (the SDK frees what it holds for it). (Standing streams that idle: bodies.test.ts.)
 */
import { createServer, type Server, type ServerResponse } from "node:http";
import { connect } from "node:net";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { send, type SendLimits } from "../../../src/server/node/httpIo.js";
import { until } from "../../../../../test/helpers/wait.js";

const servers: Server[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    await new Promise((r) => s.close(r));
  }
});

/** A server answering every request with `body()` through send(); resolves with its port, the responses, and what became of each send. */
async function serving(body: () => ReadableStream<Uint8Array>, limits: SendLimits) {
  const sent: Promise<void>[] = [];
  const responses: ServerResponse[] = [];
  const server = createServer((_req, res) => {
    responses.push(res);
    sent.push(send(res, new Response(body(), { headers: { "content-type": "text/event-stream" } }), new AbortController(), limits));
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return { port: (server.address() as AddressInfo).port, responses, sent };
}

/** An SSE body writing `frame(i)` every `ms`, until it returns undefined; records its cancellation. */
function ticking(ms: number, frame: (i: number) => string | undefined, cancelled: { value: boolean }): ReadableStream<Uint8Array> {
  let timer: ReturnType<typeof setInterval>;
  return new ReadableStream({
    start(controller) {
      let i = 0;
      timer = setInterval(() => {
        const text = frame(i++);
        if (text !== undefined) controller.enqueue(new TextEncoder().encode(text));
      }, ms);
    },
    cancel() {
      clearInterval(timer);
      cancelled.value = true;
    },
  });
}

/** GETs the stream and resolves with its whole text when the server ends it. */
async function readAll(port: number): Promise<string> {
  const res = await fetch(`http://127.0.0.1:${port}/`);
  return res.text();
}

describe("send", () => {
  it("sends a body larger than the socket's buffers whole, though its stream has ended before the last write drained", async () => {
    const big = "x".repeat(4 * 1024 * 1024);
    const body = () => new ReadableStream<Uint8Array>({ start: (c) => (c.enqueue(new TextEncoder().encode(big)), c.close()) });
    const { port } = await serving(body, { stallMs: 60_000 });
    expect((await readAll(port)).length).toBe(big.length);
  });

  it("cuts off a client that stops reading after stallMs, and cancels the body", async () => {
    const cancelled = { value: false };
    const chunk = new Uint8Array(1024 * 1024).fill(120);
    const { port, sent } = await serving(() => ticking(1, () => new TextDecoder().decode(chunk), cancelled), { stallMs: 300 });
    // A client that sends its request and never reads.
    const socket = connect(port, "127.0.0.1");
    socket.write("GET / HTTP/1.1\r\nHost: x\r\n\r\n");
    const closed = new Promise((r) => socket.on("close", r));
    socket.on("error", () => {});
    await until(() => sent.length > 0, "the server to take the request", { every: 10 });
    await sent[0];
    expect(cancelled.value).toBe(true);
    socket.resume();
    await closed;
  });

  it("returns when the client goes away while its writes wait to drain", async () => {
    const cancelled = { value: false };
    const chunk = new Uint8Array(1024 * 1024).fill(120);
    const { port, responses, sent } = await serving(() => ticking(1, () => new TextDecoder().decode(chunk), cancelled), { stallMs: 600_000 });
    const socket = connect(port, "127.0.0.1");
    socket.on("error", () => {});
    socket.write("GET / HTTP/1.1\r\nHost: x\r\n\r\n");
    // Wait until the server's buffers are full (a write of send() waits for drain: nothing runs between this check and the close), then leave.
    await until(() => responses[0]?.writableNeedDrain === true, "the server's writes to wait for drain", { every: 10 });
    socket.destroy();
    // Before, this never settled: the drain it waited for never comes after a close.
    await sent[0];
    expect(cancelled.value).toBe(true);
  });
});
