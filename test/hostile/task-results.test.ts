/**
 * Issue 27, item 2, in memory: tasks with 1 MiB results no longer grow a server without bound.
 * A server in a child process with a 160 MiB heap (226 such tasks crashed a 256 MiB one; this
 * one, before the bound, dies) runs 300 of them at the default limits: it stays up, its heap
 * after collection grows by about maxStoredResultBytes (64 MiB), not by 300 MiB, the oldest
 * results are evicted, and a result over maxTaskResultBytes fails its task instead of being kept.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { until, untilValue } from "../helpers/wait.js";
import { postModern } from "../helpers/wire.js";

const SERVER = fileURLToPath(new URL("../servers/task-results-http.ts", import.meta.url));
const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const MiB = 1024 * 1024;
const EXTENSION = "io.modelcontextprotocol/tasks";
const capabilities = { extensions: { [EXTENSION]: {} } };

interface Child {
  url: string;
  process: ChildProcess;
  /** The child's heap after full collections, in bytes. */
  heap(): Promise<number>;
}

let children: ChildProcess[] = [];
afterEach(async () => {
  for (const child of children) {
    if (child.exitCode === null) {
      child.stdin!.end();
      await new Promise((resolve) => child.once("exit", resolve));
    }
  }
  children = [];
});

/** The server in a child process with a heap of `heapMiB`; `options` are its server options. */
async function server(heapMiB: number, options: Record<string, number> = {}): Promise<Child> {
  const child = spawn(process.execPath, [`--max-old-space-size=${heapMiB}`, "--expose-gc", "--import", "tsx", SERVER], {
    cwd: ROOT,
    env: { ...process.env, SERVER_OPTIONS: JSON.stringify(options) },
    stdio: ["pipe", "pipe", "pipe"],
  });
  children.push(child);
  let stderr = "";
  child.stderr!.on("data", (d) => (stderr += d));
  const lines: string[] = [];
  const waiting: ((line: string) => void)[] = [];
  let buffered = "";
  child.stdout!.on("data", (d) => {
    buffered += d;
    let end: number;
    while ((end = buffered.indexOf("\n")) >= 0) {
      const line = buffered.slice(0, end);
      buffered = buffered.slice(end + 1);
      const next = waiting.shift();
      if (next) next(line);
      else lines.push(line);
    }
  });
  const line = () =>
    new Promise<string>((resolve, reject) => {
      const queued = lines.shift();
      if (queued !== undefined) return resolve(queued);
      waiting.push(resolve);
      child.once("exit", (code, signal) => reject(new Error(`the server exited (${code ?? signal}): ${stderr}`)));
    });
  const url = /^listening on (\S+)$/.exec(await line())![1]!;
  return {
    url,
    process: child,
    heap: async () => {
      child.stdin!.write("heap\n");
      return Number(/^heap (\d+)$/.exec(await line())![1]);
    },
  };
}

const call = (url: string, bytes: number) => postModern(url, "tools/call", { name: "job", arguments: { bytes } }, { name: "job", capabilities });
const get = (url: string, taskId: string) => postModern(url, "tasks/get", { taskId }, { name: taskId, capabilities });

describe("tasks keep a bounded number of bytes in memory", () => {
  it("300 tasks with 1 MiB results in a 160 MiB heap, at the defaults: the server stays up, its heap grows by about maxStoredResultBytes", async () => {
    const child = await server(160);
    // The first requests of a process grow the heap whatever they do (compiled code, caches).
    for (let i = 0; i < 20; i++) await call(child.url, 10);
    const before = await child.heap();
    const ids: string[] = [];
    for (let i = 0; i < 300; i++) {
      const answer = await call(child.url, MiB);
      expect(answer.result).toMatchObject({ resultType: "task" });
      ids.push(String(answer.result!.taskId));
    }
    const last = ids[299]!;
    await until(async () => (await get(child.url, last)).result?.status === "completed", "the last task to complete", { every: 10 });
    const grown = (await child.heap()) - before;
    // 63 results of 1 MiB are kept, within the default 64 MiB (300 MiB without the bound: the process died).
    expect(grown).toBeGreaterThan(56 * MiB);
    expect(grown).toBeLessThan(80 * MiB);
    expect(child.process.exitCode).toBeNull();
    expect((await get(child.url, ids[0]!)).error).toMatchObject({ code: -32602 });
    expect(((await get(child.url, last)).result!.result.content as { text: string }[])[0]!.text).toHaveLength(MiB);
    console.log(`[task-results] heap grown by ${(grown / MiB).toFixed(1)} MiB for 300 results of 1 MiB (maxStoredResultBytes: the default 64 MiB)`);
  }, 120_000);

  it("24 results of 1.3 million empty objects (3.9 MB of JSON each) in a 256 MiB heap: kept as their JSON, the heap grows by about the budget", async () => {
    const child = await server(256);
    for (let i = 0; i < 20; i++) await call(child.url, 10);
    const before = await child.heap();
    const empties = 1_300_000;
    const ids: string[] = [];
    for (let i = 0; i < 24; i++) {
      const answer = await postModern(child.url, "tools/call", { name: "job", arguments: { empties } }, { name: "job", capabilities });
      expect(answer.result).toMatchObject({ resultType: "task" });
      ids.push(String(answer.result!.taskId));
    }
    const last = ids[23]!;
    await until(async () => (await get(child.url, last)).result?.status === "completed", "the last task to complete", { every: 20 });
    const grown = (await child.heap()) - before;
    // 16 results of 3.9 MB fit the default 64 MiB as JSON (24 make it evict); kept as objects, 40 held 1,356 MB, and this heap died.
    expect(child.process.exitCode).toBeNull();
    expect(grown).toBeLessThan(100 * MiB);
    const read = (await get(child.url, last)).result!.result as { structuredContent: { items: unknown[] } };
    expect(read.structuredContent.items).toHaveLength(empties);
    console.log(`[task-results] heap grown by ${(grown / MiB).toFixed(1)} MiB for 24 results of ${empties} empty objects`);
  }, 180_000);

  it("a result over maxTaskResultBytes fails its task with -32603 and is not kept", async () => {
    const child = await server(160, { maxTaskResultBytes: MiB });
    const taskId = String((await call(child.url, 2 * MiB)).result!.taskId);
    const task = (await untilValue(
      async () => (await get(child.url, taskId)).result,
      (t) => t?.status === "failed",
      "the task to fail",
      { every: 10 },
    ))!;
    expect(task).toMatchObject({
      status: "failed",
      statusMessage: expect.stringMatching(/^The task's result was too large to keep: 2097\d{3} bytes, more than the server's maxTaskResultBytes \(1048576\)$/),
      error: { code: -32603, message: task.statusMessage },
    });
    expect(task.result).toBeUndefined();
  }, 60_000);
});
