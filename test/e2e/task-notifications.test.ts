/**
 * notifications/tasks/status (MCP 2025-11-25): every status change of a task goes to the 2025-era
 * connection or session that created it, received here by the official SDK v2 Client in memory
 * (the stdio entry) and over Streamable HTTP: working -> completed, -> cancelled, and through
 * input_required while the task waits for the client's answer.
 */
import { afterEach, describe, expect, it } from "vitest";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { createServerFactory } from "../../generated/mcp-conformance-test-server/index.js";
import { redisTaskStore, serveHttp } from "../../generated/mcp-conformance-test-server/serve.js";
import { handlers } from "../../conformance/handlers.js";
import { connectInMemory } from "../helpers/connect.js";
import { startRedis } from "../helpers/redis.js";
import { sleep, until } from "../helpers/wait.js";

let closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers) await close();
  closers = [];
});

const PARAMS = { "~standard": { version: 1 as const, vendor: "test", validate: (value: unknown) => ({ value }) } };
const ANY = { "~standard": { version: 1, vendor: "test", validate: (value: unknown) => ({ value }) } } as never;

type Status = { taskId: string; status: string; statusMessage?: string; ttl: number; pollInterval: number; createdAt: string; lastUpdatedAt: string };

/** Connects a client that records the status notifications and answers elicitation (after a beat). */
function recorder(client: Client, statuses: Status[]): void {
  // The 2025-11-25 method is not in SDK 2.4's typed notification map: the schema form takes it as sent.
  client.setNotificationHandler("notifications/tasks/status", { params: PARAMS }, (params) => void statuses.push(params as Status));
  client.setRequestHandler("elicitation/create", async () => {
    await sleep(50);
    return { action: "accept", content: { confirm: true } };
  });
}

/** Five seconds for a notification to arrive, the budget these polls have always had. */
const WAIT = { timeout: 5_000 };

/** The three journeys, on a connected 2025-era client. */
async function journeys(sdk: Client, statuses: Status[]): Promise<void> {
  const start = async (name: string, args: Record<string, unknown>) =>
    ((await sdk.request({ method: "tools/call", params: { name, arguments: args, task: { ttl: 60_000 } } }, ANY)) as unknown as { task: { taskId: string } })
      .task.taskId;
  const of = (taskId: string) => statuses.filter((s) => s.taskId === taskId).map((s) => s.status);

  const done = await start("slow_compute", { seconds: 0.1 });
  await until(() => of(done).includes("completed"), "the completed notification of the quick task", WAIT);
  expect(of(done)).toEqual(["completed"]);
  // The notification is the task as tasks/get shows it.
  const got = (await sdk.request({ method: "tasks/get", params: { taskId: done } }, ANY)) as unknown as Status;
  expect(statuses.find((s) => s.taskId === done)).toEqual(got);

  const long = await start("slow_compute", { seconds: 60 });
  await sdk.request({ method: "tasks/cancel", params: { taskId: long } }, ANY);
  await until(() => of(long).includes("cancelled"), "the cancelled notification of the long task", WAIT);
  expect(of(long)).toEqual(["cancelled"]);
  expect(statuses.find((s) => s.taskId === long)).toMatchObject({ statusMessage: "Cancelled by the client", ttl: 60_000, pollInterval: 500 });

  const asking = await start("confirm_delete", { filename: "a.txt" });
  await until(() => of(asking).includes("completed"), "the completed notification of the task that asked", WAIT);
  expect(of(asking)).toEqual(["input_required", "working", "completed"]);
}

describe("notifications/tasks/status (2025 era)", () => {
  it("reaches an SDK v2 Client in memory (the stdio entry) on every status change", async () => {
    const statuses: Status[] = [];
    const c = await connectInMemory(createServerFactory(handlers), {
      era: "legacy",
      capabilities: { elicitation: {} },
      setup: (client) => recorder(client, statuses),
    });
    closers.push(c.close);
    await journeys(c.sdk, statuses);
  });

  it("reaches an SDK v2 Client over Streamable HTTP, on its session's stream", async () => {
    const handle = await serveHttp(handlers, { port: 0 });
    closers.push(handle.close);
    const statuses: Status[] = [];
    const sdk = new Client({ name: "notified", version: "1" }, { capabilities: { elicitation: {} } });
    recorder(sdk, statuses);
    await sdk.connect(new StreamableHTTPClientTransport(new URL(handle.url)));
    closers.unshift(() => sdk.close());
    await journeys(sdk, statuses);
  });

  it("goes only to the connection that created the task", async () => {
    const factory = createServerFactory(handlers);
    const mine: Status[] = [];
    const theirs: Status[] = [];
    const a = await connectInMemory(factory, { era: "legacy", capabilities: { elicitation: {} }, setup: (client) => recorder(client, mine) });
    const b = await connectInMemory(factory, { era: "legacy", capabilities: { elicitation: {} }, setup: (client) => recorder(client, theirs) });
    closers.push(a.close, b.close);
    const taskId = (
      (await a.sdk.request({ method: "tools/call", params: { name: "slow_compute", arguments: { seconds: 0.05 }, task: {} } }, ANY)) as unknown as {
        task: { taskId: string };
      }
    ).task.taskId;
    await until(() => mine.some((s) => s.taskId === taskId && s.status === "completed"), "the creating connection's completed notification", WAIT);
    // A while longer: the other connection must hear nothing.
    await sleep(50);
    expect(theirs).toEqual([]);
  });
});

describe("notifications/tasks/status across replicas (Redis)", () => {
  it("a task belongs to the session that created it on every replica: another session, on another replica, gets the unknown-task answer", async () => {
    const redis = await startRedis();
    closers.push(redis.stop);
    // Replica A takes its store from the environment, replica B from its options.
    const saved = { url: process.env.REDIS_URL, prefix: process.env.MCP_TASKS_REDIS_PREFIX };
    process.env.REDIS_URL = redis.url;
    process.env.MCP_TASKS_REDIS_PREFIX = "notify:";
    let a: Awaited<ReturnType<typeof serveHttp>>;
    try {
      a = await serveHttp(handlers, { port: 0 });
    } finally {
      for (const [name, value] of [
        ["REDIS_URL", saved.url],
        ["MCP_TASKS_REDIS_PREFIX", saved.prefix],
      ] as const) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    }
    closers.unshift(a.close);
    const storeB = redisTaskStore({ url: redis.url, prefix: "notify:" });
    const b = await serveHttp(handlers, { port: 0, taskStore: storeB });
    // A store passed in the options is the caller's to close, after its server.
    closers.unshift(b.close, () => storeB.close());

    const statuses: Status[] = [];
    const onA = new Client({ name: "on-a", version: "1" }, { capabilities: { elicitation: {} } });
    recorder(onA, statuses);
    await onA.connect(new StreamableHTTPClientTransport(new URL(a.url)));
    closers.unshift(() => onA.close());
    const onB = new Client({ name: "on-b", version: "1" });
    await onB.connect(new StreamableHTTPClientTransport(new URL(b.url)));
    closers.unshift(() => onB.close());

    const taskId = (
      (await onA.request({ method: "tools/call", params: { name: "slow_compute", arguments: { seconds: 60 }, task: {} } }, ANY)) as unknown as {
        task: { taskId: string };
      }
    ).task.taskId;
    // B's session holds the id, on a replica that reads the same Redis: every task method answers as for an unknown task.
    const unknown = { code: -32602, message: `Failed to retrieve task: Task not found (${taskId})` };
    for (const method of ["tasks/get", "tasks/cancel", "tasks/result"])
      await expect(onB.request({ method, params: { taskId } }, ANY)).rejects.toMatchObject(unknown);
    expect(((await onB.request({ method: "tasks/list", params: {} }, ANY)) as unknown as { tasks: unknown[] }).tasks).toEqual([]);
    expect(await onB.request({ method: "tasks/get", params: { taskId: "no-such-task" } }, ANY).catch((e: { code: number }) => e.code)).toBe(-32602);
    // The task still runs, and its own session reads, lists and cancels it (and hears of it).
    expect(await onA.request({ method: "tasks/get", params: { taskId } }, ANY)).toMatchObject({ taskId, status: "working" });
    expect(((await onA.request({ method: "tasks/list", params: {} }, ANY)) as unknown as { tasks: { taskId: string }[] }).tasks.map((t) => t.taskId)).toEqual([
      taskId,
    ]);
    expect(await onA.request({ method: "tasks/cancel", params: { taskId } }, ANY)).toMatchObject({ taskId, status: "cancelled" });
    await until(() => statuses.some((s) => s.taskId === taskId && s.status === "cancelled"), "the cancelled notification on replica A's session", WAIT);
  });

  it("refuses to start when REDIS_URL names a Redis that does not answer", async () => {
    const saved = process.env.REDIS_URL;
    process.env.REDIS_URL = "redis://127.0.0.1:1";
    try {
      await expect(serveHttp(handlers, { port: 0 })).rejects.toThrow("The task store cannot reach Redis at redis://127.0.0.1:1");
    } finally {
      if (saved === undefined) delete process.env.REDIS_URL;
      else process.env.REDIS_URL = saved;
    }
  });
});
