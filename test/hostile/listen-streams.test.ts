/**
 * subscriptions/listen streams that follow tasks (2026-07-28, the tasks extension) and clients
 * that never read them, against a server in a process of its own with a small heap
 * (test/servers/listen-heap.ts): 100 finished tasks with 1 MiB results each, and 4 listen
 * requests of about 4 KB naming all of them, whose sockets are never read. Before, each stream
 * queued its own serialized copy of every result (and kept another to compare): the heap grew by
 * hundreds of MiB. Now what waits for a client is bounded (maxTaskListenQueueBytes), a task's
 * state is serialized once for every stream, a client that reads gets every state whole, and a
 * stream whose client does not read while other notifications pile up is closed.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { connect, type Socket } from "node:net";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { readSse } from "../helpers/sse.js";
import { sleep, until, type PollOptions } from "../helpers/wait.js";
import { envelope, modernHeaders, postModern } from "../helpers/wire.js";

const SERVER = fileURLToPath(new URL("../servers/listen-heap.ts", import.meta.url));
const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const EXTENSION = "io.modelcontextprotocol/tasks";
const CAPS = { extensions: { [EXTENSION]: {} } };
const SUB = "io.modelcontextprotocol/subscriptionId";
const WATCHED = "test://watched";
const MiB = 1024 * 1024;
const RESULT_BYTES = MiB;
/** The budget of each wait below: 20 s, polled every 50 ms. */
const POLL: PollOptions = { timeout: 20_000, every: 50 };

interface Heap {
  heapUsed: number;
  external: number;
}

/** The server process: its URL, and what JavaScript holds after full collections (the heap, array buffers and external strings). */
async function startServer(): Promise<{ url: string; memory(): Promise<number>; stop(): Promise<void> }> {
  const child: ChildProcess = spawn(process.execPath, ["--import", "tsx", "--max-old-space-size=256", SERVER], {
    cwd: ROOT,
    env: { ...process.env, RESULT_BYTES: String(RESULT_BYTES) },
    stdio: ["pipe", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr!.on("data", (d) => (stderr += d));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  let out = "";
  const waiting: ((line: string) => void)[] = [];
  child.stdout!.on("data", (d) => {
    out += d;
    for (let end = out.indexOf("\n"); end !== -1; end = out.indexOf("\n")) {
      const line = out.slice(0, end);
      out = out.slice(end + 1);
      waiting.shift()?.(line);
    }
  });
  const nextLine = () =>
    new Promise<string>((resolve, reject) => {
      waiting.push(resolve);
      void exited.then(() => reject(new Error(`the server exited; stderr:\n${stderr}`)));
    });
  const first = await nextLine();
  const url = /listening on (\S+)/.exec(first)?.[1];
  if (!url) throw new Error(`unexpected first line: ${first}; stderr:\n${stderr}`);
  return {
    url,
    async memory() {
      const answer = nextLine();
      child.stdin!.write("heap\n");
      const heap = JSON.parse((await answer).replace(/^heap /, "")) as Heap;
      return heap.heapUsed + heap.external;
    },
    async stop() {
      child.stdin!.end();
      const timer = setTimeout(() => child.kill("SIGKILL"), 5000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** A listen request (about 4 KB with 100 task ids) on a raw socket that is never read until `resume`. */
function stalledListen(url: string, id: string, taskIds: string[]) {
  const target = new URL(url);
  const body = JSON.stringify({
    jsonrpc: "2.0",
    id,
    method: "subscriptions/listen",
    params: { notifications: { taskIds, resourceSubscriptions: [WATCHED] }, _meta: envelope(CAPS) },
  });
  const headers = { ...modernHeaders("subscriptions/listen"), host: target.host, "content-length": String(Buffer.byteLength(body)) };
  const socket: Socket = connect(Number(target.port), target.hostname);
  socket.pause();
  socket.write(
    `POST ${target.pathname} HTTP/1.1\r\n${Object.entries(headers)
      .map(([k, v]) => `${k}: ${v}\r\n`)
      .join("")}\r\n${body}`,
  );
  let text = "";
  let ended = false;
  socket.on("data", (d: Buffer) => (text += d.toString("latin1")));
  socket.on("close", () => (ended = true));
  socket.on("error", () => (ended = true));
  return {
    bytes: Buffer.byteLength(body),
    resume: () => socket.resume(),
    ended: () => ended,
    text: () => text,
    destroy: () => socket.destroy(),
  };
}

/** A listen whose client reads: the notifications/tasks it got (parsed), and the others. */
async function readingListen(url: string, id: string, taskIds: string[]) {
  const aborter = new AbortController();
  const response = await fetch(url, {
    method: "POST",
    headers: modernHeaders("subscriptions/listen"),
    body: JSON.stringify({
      jsonrpc: "2.0",
      id,
      method: "subscriptions/listen",
      params: { notifications: { taskIds, resourceSubscriptions: [WATCHED] }, _meta: envelope(CAPS) },
    }),
    signal: aborter.signal,
  });
  const tasks: { taskId: string; status: string; text: string; sub: unknown }[] = [];
  let updates = 0;
  // Read until the test aborts it (a stream cut short is an end here too).
  void readSse(response.body!, (data) => {
    const message = JSON.parse(data) as { method?: string; params?: any };
    if (message.method === "notifications/tasks")
      tasks.push({
        taskId: message.params.taskId,
        status: message.params.status,
        text: message.params.result.content[0].text,
        sub: message.params._meta[SUB],
      });
    if (message.method === "notifications/resources/updated") updates++;
  }).catch(() => undefined);
  return { status: response.status, tasks, updates: () => updates, close: () => aborter.abort() };
}

const closers: (() => unknown)[] = [];
afterEach(async () => {
  while (closers.length) await closers.pop()!();
});

describe("task listen streams whose clients do not read", () => {
  it("hold a bounded number of bytes, share each task's serialized state, and close when notifications pile up; the server keeps serving", async () => {
    const server = await startServer();
    closers.push(server.stop);
    const modern = (method: string, params: Record<string, unknown>, name?: string) =>
      postModern(server.url, method, params, { ...(name === undefined ? {} : { name }), capabilities: CAPS });

    const taskIds: string[] = [];
    for (let n = 0; n < 100; n++) taskIds.push(String((await modern("tools/call", { name: "big", arguments: { n } }, "big")).result!.taskId));
    await until(async () => (await modern("tasks/get", { taskId: taskIds[99] }, taskIds[99])).result?.status === "completed", "the tasks to end", POLL);
    // Warm: a first listen read to its end (compiled code, the SDK's listen machinery).
    const warm = await readingListen(server.url, "warm", taskIds.slice(0, 2));
    await until(() => warm.tasks.length === 2, "the warm-up listen", POLL);
    warm.close();
    const before = await server.memory();

    // The attack: four listens naming the 100 tasks (each in its own order: nothing is shared by luck), never read.
    const stalled = [0, 1, 2, 3].map((i) => stalledListen(server.url, `stalled-${i}`, [...taskIds.slice(i * 25), ...taskIds.slice(0, i * 25)]));
    closers.push(() => stalled.forEach((s) => s.destroy()));
    expect(Math.max(...stalled.map((s) => s.bytes))).toBeLessThan(4500);
    // Given time to queue everything it would (it queued all of it at once before): a fixed pause, as what it must not do has no event to wait for.
    await sleep(1500);
    const grown = (await server.memory()) - before;
    // Each stream holds about two results on their way out: about 8 MiB for the four (791 MiB before: a
    // serialized copy of every result per stream, queued at once, and another kept to compare).
    expect(grown).toBeLessThan(24 * MiB);

    // Four more in the order of the first one: its results are queued once for all of them, not once per stream.
    const same = [0, 1, 2, 3].map((i) => stalledListen(server.url, `same-${i}`, [...taskIds]));
    closers.push(() => same.forEach((s) => s.destroy()));
    // Again given time to queue what they would. Queued once per stream, their first two results
    // would be 8 MiB; shared, what they add is the streams themselves (under 3 MiB in most runs, 3.2
    // MiB once on a loaded machine: the bound leaves room for that, not for a copy per stream).
    await sleep(1000);
    expect((await server.memory()) - before - grown).toBeLessThan(4 * MiB);

    // A client that reads gets every task's state whole, once, stamped with its subscription id.
    const reading = await readingListen(server.url, "reading", taskIds);
    closers.push(reading.close);
    expect(reading.status).toBe(200);
    await until(() => reading.tasks.length === 100, "the reading listen's 100 notifications", POLL);
    expect(new Set(reading.tasks.map((t) => t.taskId))).toEqual(new Set(taskIds));
    for (const t of reading.tasks) {
      expect(t).toMatchObject({ status: "completed", sub: "reading" });
      expect(t.text.length).toBe(RESULT_BYTES);
    }

    // Resource updates pile up behind the unread streams: past 256 KiB of them, those streams are closed.
    // The reading client takes them all, and its stream stays open.
    expect((await modern("tools/call", { name: "touch", arguments: { times: 2500 } }, "touch")).result).toMatchObject({ content: [{ text: "touched" }] });
    await until(() => reading.updates() === 2500, "the reading listen's 2,500 resource updates", POLL);
    for (const s of [...stalled, ...same]) s.resume();
    await until(() => [...stalled, ...same].every((s) => s.ended()), "the unread streams to close", POLL);
    // Torn down, not ended: no subscriptions/listen result closes them.
    for (const s of [...stalled, ...same]) expect(s.text()).not.toMatch(/"result":\{"resultType":"complete"/);

    // The server still serves, and what the closed streams held is freed.
    expect((await modern("tasks/get", { taskId: taskIds[0] }, taskIds[0])).result).toMatchObject({ status: "completed" });
    reading.close();
    expect((await server.memory()) - before).toBeLessThan(4 * MiB);
  }, 120_000);
});
