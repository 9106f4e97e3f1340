/**
 * tasks/update (2026-07-28, issue 27 item 9): an update of an ended task is refused with -32602
 * before anything is published, and only answers to questions the task's record shows waiting,
 * that fit their question, ever travel to the replica running it. Run on both stores with two
 * replicas (memory: two engines on one store object; Redis: two stores with one prefix on a real
 * redis-server), watching the events the other replica hears; then over Streamable HTTP on two
 * replicas of the conformance server sharing Redis.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { Tasks } from "../../packages/runtime/src/server/tasks/tasks.js";
import type { TaskCaller } from "../../packages/runtime/src/server/engine/owner.js";
import { memoryTaskStore, type TaskEvent, type TaskStore } from "@mcpgen/runtime/server/tasks";
import { redisTaskStore } from "@mcpgen/runtime/server/redis";
import { redisTaskStore as generatedRedisStore, serveHttp } from "../../generated/mcp-conformance-test-server/serve.js";
import { handlers } from "../../conformance/handlers.js";
import { postModern } from "../helpers/wire.js";
import { startRedis, type RedisServer } from "../helpers/redis.js";
import { untilValue } from "../helpers/wait.js";

let redis: RedisServer;
beforeAll(async () => {
  redis = await startRedis();
});
afterAll(async () => {
  await redis?.stop();
});
let closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const close of closers.reverse()) await close();
  closers = [];
});

/** Five seconds for each thing awaited here, the budget these polls have always had. */
const WAIT = { timeout: 5_000 };

const OWNER: TaskCaller = { era: "modern", owner: "o" };
const FORM = { mode: "form", message: "Name?", requestedSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] } };
let prefixes = 0;

/** Two replicas on one store, and what a third link on that store hears (the events any other replica gets). */
async function replicas(kind: "memory" | "redis"): Promise<{ a: Tasks; b: Tasks; heard: TaskEvent[] }> {
  let make: () => TaskStore;
  if (kind === "memory") {
    const shared = memoryTaskStore();
    closers.push(() => shared.close());
    make = () => shared;
  } else {
    const prefix = `update${++prefixes}:`;
    make = () => {
      const store = redisTaskStore({ url: redis.url, prefix });
      closers.push(() => store.close());
      return store;
    };
  }
  const one = async () => {
    const tasks = new Tasks({ taskStore: make() }, (error) => expect.fail(String(error)));
    await tasks.open();
    closers.push(() => tasks.close());
    return tasks;
  };
  const [a, b] = [await one(), await one()];
  const heard: TaskEvent[] = [];
  const listener = make();
  await listener.open();
  const link = listener.link((event) => heard.push(event));
  closers.push(async () => link.close());
  return { a, b, heard };
}

describe.each(["memory", "redis"] as const)("tasks/update across replicas: %s", (kind) => {
  it("publishes only answers to waiting questions, and refuses an ended task (-32602) without publishing anything", async () => {
    const { a, b, heard } = await replicas(kind);
    const updates = () => heard.filter((e) => e.kind === "update");
    const live = await a.create("modern", "o", { elicitation: {} });
    const first = a.channel(live).ask({ method: "elicitation/create", params: FORM }, "first");
    const asked = await untilValue(
      () => b.get(live.id, OWNER),
      (t) => t.status === "input_required",
      "the task's question on the other replica",
      WAIT,
    );

    // Keys not waiting, and an answer that does not fit its question: dropped here, nothing travels.
    await b.update(asked, { other: { action: "accept", content: { name: "x" } }, first: { action: "maybe" } });
    // The valid answer travels to the replica running the task (a sync point: events on one channel keep their order).
    await b.update(asked, { first: { action: "accept", content: { name: "Ada" } }, other: { action: "accept" } });
    expect(await first).toEqual({ action: "accept", content: { name: "Ada" } });
    await untilValue(updates, (u) => u.length === 1, "the one update published", WAIT);
    expect(updates()).toEqual([{ kind: "update", taskId: live.id, responses: { first: { action: "accept", content: { name: "Ada" } } } }]);

    // Working again, with no question: an update is acknowledged and dropped.
    const working = await untilValue(
      () => b.get(live.id, OWNER),
      (t) => t.status === "working",
      "the answered task to work again",
      WAIT,
    );
    await b.update(working, { first: { action: "accept", content: { name: "Again" } } });

    // Ended: refused, before anything is published.
    await a.finish(live, { result: { content: [{ type: "text", text: "done" }] } });
    const ended = await b.get(live.id, OWNER);
    expect(ended.status).toBe("completed");
    await expect(b.update(ended, { first: { action: "accept", content: { name: "Late" } } })).rejects.toMatchObject({
      code: -32602,
      message: "Cannot update task: already in terminal status 'completed'",
    });

    // A second task's answer, published after all of the above, is the next update anyone hears.
    const next = await a.create("modern", "o", { elicitation: {} });
    const second = a.channel(next).ask({ method: "elicitation/create", params: FORM }, "second");
    const nextAsked = await untilValue(
      () => b.get(next.id, OWNER),
      (t) => t.status === "input_required",
      "the second task's question on the other replica",
      WAIT,
    );
    await b.update(nextAsked, { second: { action: "decline" } });
    expect(await second).toEqual({ action: "decline" });
    await untilValue(updates, (u) => u.length === 2, "the second task's update published", WAIT);
    expect(updates()[1]).toEqual({ kind: "update", taskId: next.id, responses: { second: { action: "decline" } } });
  });
});

describe("tasks/update over Streamable HTTP on two replicas sharing Redis", () => {
  it("answers -32602 for an ended task, and the task keeps its outcome", async () => {
    const serve = async () => {
      const store = generatedRedisStore({ url: redis.url, prefix: "http-update:" });
      const handle = await serveHttp(handlers, { port: 0, taskStore: store });
      closers.push(handle.close, () => store.close());
      return handle.url;
    };
    const [a, b] = [await serve(), await serve()];
    const caps = { elicitation: {}, extensions: { "io.modelcontextprotocol/tasks": {} } };
    const modern = (url: string, method: string, params: Record<string, unknown>, name: string) =>
      postModern(url, method, params, { name, capabilities: caps });
    const taskId = String((await modern(a, "tools/call", { name: "confirm_delete", arguments: { filename: "x.txt" } }, "confirm_delete")).result!.taskId);
    const asked = await untilValue(
      () => modern(b, "tasks/get", { taskId }, taskId),
      (r) => r.result?.status === "input_required",
      "the task's question on replica B",
      WAIT,
    );
    const key = Object.keys(asked.result!.inputRequests)[0]!;
    expect((await modern(b, "tasks/update", { taskId, inputResponses: { [key]: { action: "decline" } } }, taskId)).result).toMatchObject({
      resultType: "complete",
    });
    await untilValue(
      () => modern(a, "tasks/get", { taskId }, taskId),
      (r) => r.result?.status === "completed",
      "the declined task to complete on replica A",
      WAIT,
    );
    const late = await modern(b, "tasks/update", { taskId, inputResponses: { [key]: { action: "accept", content: { confirm: true } } } }, taskId);
    expect(late.error).toEqual({ code: -32602, message: "Cannot update task: already in terminal status 'completed'" });
    expect((await modern(a, "tasks/get", { taskId }, taskId)).result!.result).toMatchObject({ content: [{ type: "text", text: "Kept the file" }] });
  });
});
