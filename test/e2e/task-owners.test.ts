/**
 * Tasks belong to their caller (issue 27, item 1), driven as the attack: a second client that
 * holds a task's id tries every task method on it.
 *
 * - 2026-07-28 with `auth`, against a real authorization server (oidc-provider on loopback): a
 *   task belongs to the principal whose token created it; another principal's token gets the
 *   unknown-task answer from tasks/get, tasks/update (it cannot answer the task's question),
 *   tasks/cancel and subscriptions/listen, and the owner's task goes on untouched.
 * - 2025-11-25: a task belongs to its session (here, a stdio connection); another one gets the
 *   unknown-task answer from tasks/get, tasks/result, tasks/cancel and sees nothing in tasks/list;
 *   a 2026-07-28 request does not reach a 2025-era task either. (Across replicas on Redis:
 *   test/e2e/task-notifications.test.ts.)
 * - 2026-07-28 without `auth` nothing identifies a caller: the id is the capability, 128 bits from
 *   a CSPRNG, never written to the server's logs.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { ServerDefinition } from "../../packages/runtime/src/shared/definition.js";
import { createManifestServerFactory, type ToolContext } from "../helpers/runtime.js";
import { serveHttpWith } from "../helpers/runtime.js";
import { basic, startAuthServer, type AuthServer } from "../helpers/authServer.js";
import { readSse } from "../helpers/sse.js";
import { sleep, until } from "../helpers/wait.js";
import { envelope, modernHeaders, postModern, rawSession } from "../helpers/wire.js";

const EXTENSION = "io.modelcontextprotocol/tasks";
const CAPS = { elicitation: {}, extensions: { [EXTENSION]: {} } };
const RESOURCE = "https://tasks.example.test/mcp";
const SCOPE = "tasks.use";

const tools: ServerDefinition["tools"] = [
  {
    name: "confirm_delete",
    inputSchema: { type: "object", properties: { filename: { type: "string" } }, required: ["filename"] },
    execution: { taskSupport: "optional" },
  },
  {
    name: "slow",
    inputSchema: { type: "object", properties: { fail: { type: "boolean" }, quick: { type: "boolean" } } },
    execution: { taskSupport: "optional" },
  },
  { name: "big", inputSchema: { type: "object", properties: {} }, execution: { taskSupport: "optional" } },
];
const base: ServerDefinition = {
  serverInfo: { name: "owners", version: "1" },
  capabilities: { tools: {} },
  tools,
  taskSupport: { confirm_delete: "optional", slow: "optional", big: "optional" },
  resources: [],
  resourceTemplates: [],
  prompts: [],
};
const handlers = {
  tools: {
    confirm_delete: async (args: { filename: string }, ctx: ToolContext) => {
      await ctx.startTask();
      const answer = await ctx.elicit({
        message: `Delete ${args.filename}?`,
        requestedSchema: { type: "object", properties: { confirm: { type: "boolean" } }, required: ["confirm"] },
      });
      return answer.action === "accept" && answer.content?.["confirm"] === true ? `Deleted ${args.filename}` : `Kept ${args.filename}`;
    },
    slow: async (args: { fail?: boolean; quick?: boolean }, ctx: ToolContext) => {
      await ctx.startTask();
      if (args.fail) throw new Error("the slow tool failed on purpose");
      if (args.quick) return "done";
      await new Promise((resolve) => ctx.signal.addEventListener("abort", resolve, { once: true }));
      return "stopped";
    },
    big: async (_args: object, ctx: ToolContext) => {
      await ctx.startTask();
      return "x".repeat(4000);
    },
  },
};

let closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const close of closers.reverse()) await close();
  closers = [];
});

/** Five seconds for each thing awaited here, the budget these polls have always had. */
const WAIT = { timeout: 5_000 };

type Rpc = { result?: Record<string, any>; error?: { code: number; message: string; data?: unknown } };

/** One 2026-07-28 request with a bearer token (or none), its JSON-RPC answer. */
async function asPrincipal(url: string, token: string | undefined, method: string, params: Record<string, unknown>, name?: string): Promise<Rpc> {
  const response = await fetch(url, {
    method: "POST",
    headers: { ...modernHeaders(method, name), ...(token === undefined ? {} : { authorization: `Bearer ${token}` }) },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params: { ...params, _meta: envelope(CAPS) } }),
  });
  const text = await response.text();
  if (!text.trimStart().startsWith("{")) throw new Error(`not a JSON answer (${response.status}): ${text.slice(0, 200)}`);
  return JSON.parse(text) as Rpc;
}

/** A subscriptions/listen naming `taskIds` with this token: every message until `stop` says so, then the stream is dropped. */
async function listenAs(url: string, token: string, taskIds: string[], stop: (messages: any[]) => boolean): Promise<any[]> {
  const aborter = new AbortController();
  const response = await fetch(url, {
    method: "POST",
    headers: { ...modernHeaders("subscriptions/listen"), authorization: `Bearer ${token}` },
    body: JSON.stringify({ jsonrpc: "2.0", id: "l", method: "subscriptions/listen", params: { notifications: { taskIds }, _meta: envelope(CAPS) } }),
    signal: aborter.signal,
  });
  expect(response.status).toBe(200);
  const messages: any[] = [];
  try {
    // Read until the server ends the stream, or `stop` holds (the abort ends the read).
    await readSse(response.body!, (data) => {
      messages.push(JSON.parse(data));
      if (stop(messages)) aborter.abort();
    });
  } finally {
    aborter.abort();
  }
  return messages;
}

const unknownTask = (taskId: string) => ({ code: -32602, message: `Failed to retrieve task: Task not found (${taskId})` });

describe("2026-07-28 with auth: a task belongs to the principal whose token created it", () => {
  let as: AuthServer;
  /** A second machine client, registered at the authorization server (open dynamic registration). */
  let other: { id: string; secret: string };

  beforeAll(async () => {
    as = await startAuthServer({ scopes: [SCOPE] });
    as.addResource(RESOURCE, { scopes: [SCOPE] });
    const registered = await fetch(`${as.issuer}/reg`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ grant_types: ["client_credentials"], response_types: [], redirect_uris: [], token_endpoint_auth_method: "client_secret_basic" }),
    });
    const client = (await registered.json()) as { client_id: string; client_secret: string };
    expect(registered.status).toBe(201);
    other = { id: client.client_id, secret: client.client_secret };
  });
  afterAll(async () => {
    await as?.close();
  });

  async function otherToken(): Promise<string> {
    const body = new URLSearchParams({ grant_type: "client_credentials", resource: RESOURCE, scope: SCOPE });
    const res = await fetch(as.tokenEndpoint, { method: "POST", headers: { authorization: basic(other.id, other.secret) }, body });
    const answer = (await res.json()) as { access_token?: string };
    if (!res.ok || typeof answer.access_token !== "string") throw new Error(`token endpoint: ${res.status} ${JSON.stringify(answer)}`);
    return answer.access_token;
  }

  async function protectedServer(options: Record<string, number> = {}): Promise<string> {
    const definition: ServerDefinition = {
      ...base,
      auth: {
        resource: RESOURCE,
        authorizationServers: [as.issuer],
        verifier: { kind: "jwt", issuer: as.issuer, jwksUri: as.jwksUri, algorithms: ["ES256"] },
        tools: { confirm_delete: [SCOPE], slow: [SCOPE], big: [SCOPE] },
        resources: {},
        resourceTemplates: {},
        prompts: {},
      },
    };
    const handle = await serveHttpWith(createManifestServerFactory(definition, handlers as never, { onError: () => {}, ...options }), definition, { port: 0 });
    closers.push(handle.close);
    return handle.url;
  }

  it("another principal holding the id gets the unknown-task answer from every task method and from listen; the owner's task goes on", async () => {
    const url = await protectedServer();
    const owner = await as.clientCredentials(RESOURCE, [SCOPE]);
    const intruder = await otherToken();

    const taskId = String(
      (await asPrincipal(url, owner, "tools/call", { name: "confirm_delete", arguments: { filename: "a.txt" } }, "confirm_delete")).result!.taskId,
    );
    await until(
      async () => (await asPrincipal(url, owner, "tasks/get", { taskId }, taskId)).result?.status === "input_required",
      "the task to ask its question",
      WAIT,
    );
    const asked = (await asPrincipal(url, owner, "tasks/get", { taskId }, taskId)).result!;
    const key = Object.keys(asked.inputRequests)[0]!;

    // The attack: the intruder answers the question (confirms the deletion), cancels, reads, follows.
    const confirm = { [key]: { action: "accept", content: { confirm: true } } };
    expect((await asPrincipal(url, intruder, "tasks/update", { taskId, inputResponses: confirm }, taskId)).error).toEqual(unknownTask(taskId));
    expect((await asPrincipal(url, intruder, "tasks/cancel", { taskId }, taskId)).error).toEqual(unknownTask(taskId));
    expect((await asPrincipal(url, intruder, "tasks/get", { taskId }, taskId)).error).toEqual(unknownTask(taskId));
    // Exactly what an id that names no task gets: nothing tells the two apart.
    const none = "AAAAAAAAAAAAAAAAAAAAAA";
    expect((await asPrincipal(url, intruder, "tasks/get", { taskId: none }, none)).error).toEqual(unknownTask(none));
    const refused = await listenAs(url, intruder, [taskId], () => false);
    expect(refused.map((m) => m.method ?? "result")).toEqual(["notifications/subscriptions/acknowledged", "result"]);
    expect(refused[0].params.notifications).toEqual({});

    // The owner's task is as it was: still asking, not cancelled; the owner follows it, answers it, and it completes.
    // (A pause first, for an intruder's request that was wrongly taken to show.)
    await sleep(100);
    expect((await asPrincipal(url, owner, "tasks/get", { taskId }, taskId)).result).toMatchObject({
      status: "input_required",
      inputRequests: asked.inputRequests,
    });
    const followed = await listenAs(url, owner, [taskId], (messages) => messages.some((m) => m.method === "notifications/tasks"));
    expect(followed[0].params.notifications).toEqual({ taskIds: [taskId] });
    expect(followed[1].params).toMatchObject({ taskId, status: "input_required" });
    const keep = { [key]: { action: "accept", content: { confirm: false } } };
    expect((await asPrincipal(url, owner, "tasks/update", { taskId, inputResponses: keep }, taskId)).result).toMatchObject({ resultType: "complete" });
    await until(
      async () => (await asPrincipal(url, owner, "tasks/get", { taskId }, taskId)).result?.status === "completed",
      "the answered task to complete",
      WAIT,
    );
    expect((await asPrincipal(url, owner, "tasks/get", { taskId }, taskId)).result!.result).toMatchObject({ content: [{ type: "text", text: "Kept a.txt" }] });
    // Tokens of the same principal reach it (a token is not the principal: its subject and client are).
    expect((await asPrincipal(url, await as.clientCredentials(RESOURCE, [SCOPE]), "tasks/get", { taskId }, taskId)).result).toMatchObject({
      status: "completed",
    });
  });
  it("one principal's flood of large results never evicts another's; past its share of running tasks it is refused with -32005", async () => {
    // Shares of 10,000 bytes and 3 tasks; 4,000-character results (4,065 bytes of JSON with their envelope).
    const url = await protectedServer({ maxStoredResultBytes: 40_000, maxStoredResultBytesPerOwner: 10_000, maxTasks: 100, maxTasksPerOwner: 3 });
    const owner = await as.clientCredentials(RESOURCE, [SCOPE]);
    const intruder = await otherToken();
    const run = async (token: string, name: string, args: Record<string, unknown> = {}) =>
      String((await asPrincipal(url, token, "tools/call", { name, arguments: args }, name)).result!.taskId);
    const completed = async (token: string, taskId: string) =>
      until(async () => (await asPrincipal(url, token, "tasks/get", { taskId }, taskId)).result?.status === "completed", "the task to complete", WAIT);

    const kept = await run(owner, "big");
    await completed(owner, kept);
    // The attack: 18 large results, one after the other (each ended before the next starts).
    const flood: string[] = [];
    for (let i = 0; i < 18; i++) {
      flood.push(await run(intruder, "big"));
      await completed(intruder, flood.at(-1)!);
    }
    const read = await asPrincipal(url, owner, "tasks/get", { taskId: kept }, kept);
    expect(read.result).toMatchObject({ status: "completed", result: { content: [{ type: "text", text: "x".repeat(4000) }] } });
    // The intruder's own results made room: its first ones are gone, its last two are kept.
    expect((await asPrincipal(url, intruder, "tasks/get", { taskId: flood[0]! }, flood[0]!)).error).toEqual(unknownTask(flood[0]!));
    for (const taskId of flood.slice(-2))
      expect((await asPrincipal(url, intruder, "tasks/get", { taskId }, taskId)).result).toMatchObject({ status: "completed" });

    // Three tasks that run: a fourth is refused with a message that says why; the owner still starts tasks.
    const running = [await run(intruder, "slow"), await run(intruder, "slow"), await run(intruder, "slow")];
    const refused = await asPrincipal(url, intruder, "tools/call", { name: "slow", arguments: {} }, "slow");
    expect(refused.error).toEqual({
      code: -32005,
      message: "Too many tasks of yours: the 3 tasks kept for you are all running (the server's maxTasksPerOwner); retry when one has ended",
      data: { limit: 3 },
    });
    const mine = await run(owner, "slow", { quick: true });
    await completed(owner, mine);
    for (const taskId of running) await asPrincipal(url, intruder, "tasks/cancel", { taskId }, taskId);
  });
});

describe("2025-11-25: a task belongs to the session that created it", () => {
  it("another session gets the unknown-task answer from tasks/get, tasks/result and tasks/cancel, and an empty tasks/list", async () => {
    const factory = createManifestServerFactory(base, handlers as never, { onError: () => {} });
    const mine = await rawSession(factory, { era: "legacy" });
    const theirs = await rawSession(factory, { era: "legacy" });
    const modern = await rawSession(factory, { era: "modern", capabilities: CAPS });
    closers.push(mine.close, theirs.close, modern.close);
    const taskId = (
      (await mine.request("tools/call", { name: "slow", arguments: {}, task: {} })).result!.task as {
        taskId: string;
      }
    ).taskId;
    for (const method of ["tasks/get", "tasks/result", "tasks/cancel"]) expect((await theirs.request(method, { taskId })).error).toEqual(unknownTask(taskId));
    expect((await theirs.request("tasks/list")).result!.tasks).toEqual([]);
    // A 2026-07-28 request (here a connection that identifies nobody) does not reach a 2025-era task either.
    expect((await modern.request("tasks/get", { taskId })).error).toEqual(unknownTask(taskId));
    expect((await modern.request("tasks/cancel", { taskId })).error).toEqual(unknownTask(taskId));

    expect((await mine.request("tasks/get", { taskId })).result).toMatchObject({ taskId, status: "working" });
    expect(((await mine.request("tasks/list")).result!.tasks as { taskId: string }[]).map((t) => t.taskId)).toEqual([taskId]);
    expect((await mine.request("tasks/cancel", { taskId })).result).toMatchObject({ taskId, status: "cancelled" });
  });
});

describe("2026-07-28 without auth: the task id is the capability", () => {
  it("is 128 bits from a CSPRNG (22 base64url characters, every bit varies), reaches any client that holds it, and is never logged", async () => {
    // What the server writes to the console (its default onError among it), taken off the console here.
    const written: string[] = [];
    for (const method of ["error", "warn", "info", "log"] as const) {
      const original = console[method];
      console[method] = (...args: unknown[]) => void written.push(args.map((a) => (a instanceof Error ? `${a.message}\n${a.stack}` : String(a))).join(" "));
      closers.push(async () => void (console[method] = original));
    }
    // The default onError: unexpected failures go to stderr.
    const handle = await serveHttpWith(createManifestServerFactory(base, handlers as never), base, { port: 0 });
    closers.push(handle.close);
    const call = (args: Record<string, unknown>) =>
      postModern(handle.url, "tools/call", { name: "slow", arguments: args }, { name: "slow", capabilities: CAPS });

    const ids: string[] = [];
    for (let i = 0; i < 128; i++) ids.push(String((await call(i % 32 === 31 ? { fail: true } : { quick: true })).result!.taskId));
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9_-]{22}$/);
    // Every one of the 128 bits is 0 in some id and 1 in another (a UUID's version and variant bits never vary).
    const bytes = ids.map((id) => Buffer.from(id, "base64url"));
    for (const b of bytes) expect(b).toHaveLength(16);
    for (let bit = 0; bit < 128; bit++) {
      const set = bytes.filter((b) => (b[bit >> 3]! >> (7 - (bit & 7))) & 1).length;
      expect(set, `bit ${bit}`).toBeGreaterThan(0);
      expect(set, `bit ${bit}`).toBeLessThan(bytes.length);
    }

    // Any client holding the id reaches the task: here a request with nothing in common with the creating one.
    const running = String((await call({})).result!.taskId);
    expect((await postModern(handle.url, "tasks/get", { taskId: running }, { name: running, capabilities: CAPS })).result).toMatchObject({ status: "working" });
    expect((await postModern(handle.url, "tasks/cancel", { taskId: running }, { name: running, capabilities: CAPS })).result).toMatchObject({
      resultType: "complete",
    });
    // A thrown error is an isError result: the task completed.
    await until(
      async () => (await postModern(handle.url, "tasks/get", { taskId: ids[127]! }, { name: ids[127]!, capabilities: CAPS })).result?.status === "completed",
      "the last failing task to complete",
      WAIT,
    );

    // The failures were reported on stderr, without a task id.
    const log = written.join("");
    expect(log).toContain("the slow tool failed on purpose");
    for (const id of [...ids, running]) expect(log).not.toContain(id);
  });
});
