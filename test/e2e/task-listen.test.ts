/**
 * notifications/tasks (2026-07-28, the tasks extension) on subscriptions/listen streams over
 * Streamable HTTP, driven with raw HTTP: the acknowledgement names the honored task ids (and the
 * SDK's resource fields of a mixed filter), each named task is sent as tasks/get shows it on every
 * change, stamped with the subscription id, also when another replica on the same Redis changes
 * it; a listen without taskIds is the SDK's, unchanged.
 */
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { redisTaskStore, serveHttp } from "../../generated/mcp-conformance-test-server/serve.js";
import type { Handlers } from "../../generated/mcp-conformance-test-server/index.js";
import { handlers as conformance } from "../../conformance/handlers.js";
import { openListen, postModern } from "../helpers/wire.js";
import { redisPath, startRedis, type RedisServer } from "../helpers/redis.js";
import { sleep, until } from "../helpers/wait.js";

const EXTENSION = "io.modelcontextprotocol/tasks";
const SUB = "io.modelcontextprotocol/subscriptionId";
const WATCHED = "test://watched-resource";
const CAPS = { elicitation: {}, extensions: { [EXTENSION]: {} } };

/** The conformance handlers, with greet also announcing an update of the watched resource. */
const handlers: Handlers = {
  ...conformance,
  tools: {
    ...conformance.tools,
    greet: async ({ name }, ctx) => {
      await ctx.notifyResourceUpdated(WATCHED);
      return `Hello, ${name}!`;
    },
  },
};

let redis: RedisServer | undefined;
let closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers) await close().catch(() => {});
  closers = [];
});
afterAll(async () => {
  await redis?.stop();
});

/** One 2026-07-28 request (the client declares elicitation and the tasks extension). */
function modern(url: string, method: string, params: Record<string, unknown>, name?: string) {
  return postModern(url, method, params, { ...(name === undefined ? {} : { name }), capabilities: CAPS });
}

/** A subscriptions/listen stream read message by message (the client declares the tasks extension). */
function listen(
  url: string,
  id: string | number,
  notifications: Record<string, unknown>,
  capabilities: Record<string, unknown> = CAPS,
  extraHeaders: Record<string, string> = {},
) {
  return openListen(url, id, notifications, capabilities, extraHeaders);
}

/** Five seconds for each thing awaited here, the budget these polls have always had. */
const WAIT = { timeout: 5_000 };

/** The task as tasks/get shows it, with the subscription id a notification adds. */
const stamped = (task: Record<string, any>, id: string | number) => {
  const { resultType: _, ...rest } = task;
  return { ...rest, _meta: { [SUB]: id } };
};

async function server(options: Parameters<typeof serveHttp>[1] = {}) {
  const handle = await serveHttp(handlers, { port: 0, ...options });
  closers.push(handle.close);
  return handle;
}

describe("notifications/tasks on subscriptions/listen (2026-07-28, Streamable HTTP)", () => {
  it("acknowledges the known task ids and the resource subscription, then sends input_required -> working -> completed as tasks/get shows them", async () => {
    const { url } = await server();
    const taskId = String((await modern(url, "tools/call", { name: "confirm_delete", arguments: { filename: "x.txt" } }, "confirm_delete")).result!.taskId);
    await until(async () => (await modern(url, "tasks/get", { taskId }, taskId)).result?.status === "input_required", "the task to ask its question", WAIT);
    const asked = (await modern(url, "tasks/get", { taskId }, taskId)).result!;

    const stream = await listen(url, "listen-1", { taskIds: [taskId, "no-such-task", taskId], resourceSubscriptions: [WATCHED], toolsListChanged: false });
    expect(stream.response.status).toBe(200);
    await until(() => stream.tasks().length === 1, "the task's first notification", WAIT);
    expect(stream.received[0]).toEqual({
      jsonrpc: "2.0",
      method: "notifications/subscriptions/acknowledged",
      params: { notifications: { resourceSubscriptions: [WATCHED], taskIds: [taskId] }, _meta: { [SUB]: "listen-1" } },
    });
    expect(stream.tasks()[0]).toEqual(stamped(asked, "listen-1"));

    const key = Object.keys(asked.inputRequests)[0]!;
    await modern(url, "tasks/update", { taskId, inputResponses: { [key]: { action: "accept", content: { confirm: true } } } }, taskId);
    await until(() => stream.tasks().some((t) => t.status === "completed"), "the completed notification", WAIT);
    expect(stream.tasks().map((t) => t.status)).toEqual(["input_required", "working", "completed"]);
    expect(stream.tasks()[2]).toEqual(stamped((await modern(url, "tasks/get", { taskId }, taskId)).result!, "listen-1"));
    expect(stream.tasks()[2].result.content).toEqual([{ type: "text", text: "Deleted x.txt" }]);

    // The mixed filter's resource part, from the SDK's event bus.
    await modern(url, "tools/call", { name: "greet", arguments: { name: "a" } }, "greet");
    await until(() => stream.received.some((m) => m.method === "notifications/resources/updated"), "the resource update", WAIT);
    expect(stream.received.find((m) => m.method === "notifications/resources/updated")!.params).toEqual({ uri: WATCHED, _meta: { [SUB]: "listen-1" } });
    stream.close();
  });

  it("sends cancelled when the task is cancelled, and ends the stream with its result when the server closes", async () => {
    const handle = await server();
    const taskId = String((await modern(handle.url, "tools/call", { name: "slow_compute", arguments: { seconds: 60 } }, "slow_compute")).result!.taskId);
    const stream = await listen(handle.url, 7, { taskIds: [taskId] });
    await until(() => stream.tasks().length === 1, "the task's first notification", WAIT);
    expect(stream.tasks()[0]).toMatchObject({ taskId, status: "working", _meta: { [SUB]: 7 } });
    await modern(handle.url, "tasks/cancel", { taskId }, taskId);
    await until(() => stream.tasks().length === 2, "the cancelled notification", WAIT);
    expect(stream.tasks()[1]).toEqual(stamped((await modern(handle.url, "tasks/get", { taskId }, taskId)).result!, 7));
    expect(stream.tasks()[1].status).toBe("cancelled");
    await handle.close();
    await until(() => stream.ended(), "the server's close to end the stream", WAIT);
    expect(stream.received.at(-1)).toEqual({ jsonrpc: "2.0", id: 7, result: { resultType: "complete", _meta: { [SUB]: 7 } } });
  });

  it("refuses taskIds without the tasks extension (-32021), keeps the SDK's header checks, and closes at once when nothing is honored", async () => {
    const { url } = await server();
    const bare = await listen(url, 1, { taskIds: ["x"] }, { elicitation: {} });
    expect(bare.response.status).toBe(400);
    expect(await bare.response.json()).toMatchObject({ id: 1, error: { code: -32021, data: { requiredCapabilities: { extensions: { [EXTENSION]: {} } } } } });
    const mismatch = await listen(url, 2, { taskIds: ["x"] }, CAPS, { "mcp-method": "tools/list" });
    expect(mismatch.response.status).toBe(400);
    expect(((await mismatch.response.json()) as { error: { code: number } }).error.code).toBe(-32020);
    const empty = await listen(url, 3, { taskIds: ["no-such-task"] });
    await until(() => empty.ended(), "the stream that honors nothing to end", WAIT);
    expect(empty.received).toEqual([
      { jsonrpc: "2.0", method: "notifications/subscriptions/acknowledged", params: { notifications: {}, _meta: { [SUB]: 3 } } },
      { jsonrpc: "2.0", id: 3, result: { resultType: "complete", _meta: { [SUB]: 3 } } },
    ]);
  });

  it("keeps at most maxTaskListenStreams open (503, -32005) and frees a stream when its client goes away", async () => {
    const { url } = await server({ maxTaskListenStreams: 1 });
    const taskId = String((await modern(url, "tools/call", { name: "slow_compute", arguments: { seconds: 60 } }, "slow_compute")).result!.taskId);
    const first = await listen(url, 1, { taskIds: [taskId] });
    await until(() => first.tasks().length === 1, "the first stream's notification", WAIT);
    const second = await listen(url, 2, { taskIds: [taskId] });
    expect(second.response.status).toBe(503);
    expect(((await second.response.json()) as { error: { code: number } }).error.code).toBe(-32005);
    first.close();
    await until(
      async () => {
        const third = await listen(url, 3, { taskIds: [taskId] });
        third.close();
        return third.response.status === 200;
      },
      "the closed stream's place to be free",
      WAIT,
    );
  });

  it("leaves a listen without taskIds to the SDK, as before", async () => {
    const { url } = await server();
    const stream = await listen(url, "plain", { resourceSubscriptions: [WATCHED], taskIdz: ["typo"] });
    await until(() => stream.received.length === 1, "the acknowledgement", WAIT);
    expect(stream.received[0]!.params).toEqual({ notifications: { resourceSubscriptions: [WATCHED] }, _meta: { [SUB]: "plain" } });
    await modern(url, "tools/call", { name: "greet", arguments: { name: "a" } }, "greet");
    await until(() => stream.received.length === 2, "the resource update", WAIT);
    expect(stream.received[1]).toEqual({ jsonrpc: "2.0", method: "notifications/resources/updated", params: { uri: WATCHED, _meta: { [SUB]: "plain" } } });
    stream.close();
  });

  it("a task changed on another replica sharing Redis reaches a stream on this one", async () => {
    redis ??= await startRedis();
    const stores = [redisTaskStore({ url: redis.url, prefix: "listen:" }), redisTaskStore({ url: redis.url, prefix: "listen:" })] as const;
    const a = await server({ taskStore: stores[0] });
    const b = await server({ taskStore: stores[1] });
    // Stores passed in the options are the test's to close, after the servers (closers run in order).
    closers.push(...stores.map((store) => () => store.close()));
    const taskId = String((await modern(b.url, "tools/call", { name: "confirm_delete", arguments: { filename: "y.txt" } }, "confirm_delete")).result!.taskId);
    await until(async () => (await modern(b.url, "tasks/get", { taskId }, taskId)).result?.status === "input_required", "the task to ask its question", WAIT);
    const stream = await listen(a.url, "on-a", { taskIds: [taskId] });
    await until(() => stream.tasks().length === 1, "the task's first notification on replica A", WAIT);
    expect(stream.tasks()[0]).toEqual(stamped((await modern(a.url, "tasks/get", { taskId }, taskId)).result!, "on-a"));
    const key = Object.keys(stream.tasks()[0].inputRequests)[0]!;
    await modern(b.url, "tasks/update", { taskId, inputResponses: { [key]: { action: "accept", content: { confirm: true } } } }, taskId);
    await until(() => stream.tasks().some((t) => t.status === "completed"), "the completed notification of the task changed on replica B", WAIT);
    expect(stream.tasks().map((t) => t.status)).toEqual(["input_required", "working", "completed"]);
    expect(stream.tasks()[2]).toEqual(stamped((await modern(b.url, "tasks/get", { taskId }, taskId)).result!, "on-a"));
    stream.close();
  });
  it("a state read before a change the stream heard of is read again: a task cancelled elsewhere while its state is read after an outage reaches the stream", async () => {
    redis ??= await startRedis();
    const path = await redisPath(redis);
    closers.push(() => path.close());
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    closers.push(async () => void logged.mockRestore());
    const cutOff = redisTaskStore({ url: path.url, prefix: "stale:", commandTimeoutMs: 300 });
    const direct = redisTaskStore({ url: redis.url, prefix: "stale:" });
    // Replica A's reads can be held once their answer is in: a read that began before a change.
    let armed = false;
    let release = () => {};
    let holding: () => void = () => {};
    const held = new Promise<void>((resolve) => (holding = resolve));
    const gated = new Proxy(cutOff, {
      get(target, property) {
        if (property === "get")
          return async (...args: Parameters<typeof target.get>) => {
            const found = await target.get(...args);
            if (armed) {
              armed = false;
              await new Promise<void>((resolve) => ((release = resolve), holding()));
            }
            return found;
          };
        const value: unknown = Reflect.get(target, property, target);
        return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(target) : value;
      },
    });
    const a = await server({ taskStore: gated });
    const b = await server({ taskStore: direct });
    closers.push(
      () => cutOff.close(),
      () => direct.close(),
    );
    const taskId = String((await modern(b.url, "tools/call", { name: "confirm_delete", arguments: { filename: "z.txt" } }, "confirm_delete")).result!.taskId);
    await until(async () => (await modern(b.url, "tasks/get", { taskId }, taskId)).result?.status === "input_required", "the task to ask its question", WAIT);
    const stream = await listen(a.url, "on-a", { taskIds: [taskId] });
    await until(() => stream.tasks().length === 1, "the task's first notification on replica A", WAIT);

    // A's network to Redis fails and comes back: A reads the task again, and that read is held with its answer.
    armed = true;
    path.cut();
    path.mend();
    await held;
    // Meanwhile B cancels the task, and A hears of it (the event carries no record: it ended).
    await modern(b.url, "tasks/cancel", { taskId }, taskId);
    await sleep(300);
    release();
    await until(() => stream.tasks().at(-1)?.status === "cancelled", "the cancelled state to reach the stream on A", WAIT);
    stream.close();
  });
});
