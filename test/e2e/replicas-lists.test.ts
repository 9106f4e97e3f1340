/**
 * Issue 31's proof across replicas: a real redis-server, three replica processes of a generated
 * server whose lists change (test/fixtures/lists/replica-lists.yaml, served by
 * test/servers/replica-lists-http.ts with REDIS_URL), and every request through the round-robin
 * proxy of test/helpers/replicas.ts, whose log says which replica served it. The replicas run on
 * Node (serveHttp), Deno and Bun (the generated createFetchHandler).
 *
 * 1. A switch made on one replica: each replica announces it once to its own 2026-07-28 listen
 *    stream and its own 2025-era session (SDK v2 Client), and every replica's next list and call
 *    follow it.
 * 2. A replica started after a switch serves the current lists (it announces nothing at start).
 * 3. A resource update told on one replica reaches a listen stream and a subscribed 2025-era
 *    session on two others, once each.
 */
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mcpgen, ROOT } from "../helpers/cli.js";
import { startRedis, type RedisServer } from "../helpers/redis.js";
import { startReplicas, type ReplicaSet } from "../helpers/replicas.js";
import { linkNodeModules, tempProject } from "../helpers/tmp.js";
import { sleep, until, untilValue } from "../helpers/wait.js";
import { openListen, postModern } from "../helpers/wire.js";

const SERVER = fileURLToPath(new URL("../servers/replica-lists-http.ts", import.meta.url));
const COUNT = 3;
const RUNTIMES = ["node", "deno", "bun"] as const;
const SUB = "io.modelcontextprotocol/subscriptionId";

/** GET streams a replica has answered, through the proxy (from then on, the session's notifications reach its client). */
const openGetStreams = () => set.proxy.log.filter((r) => r.method === "GET" && r.status === 200).length;

let redis: RedisServer;
let set: ReplicaSet;
let replicaEnv: Record<string, string>;

beforeAll(async () => {
  const dir = tempProject({
    "package.json": '{"type":"module"}',
    "manifests/replica-lists.yaml": readFileSync(path.join(ROOT, "test/fixtures/lists/replica-lists.yaml"), "utf8"),
  });
  linkNodeModules(dir);
  const run = mcpgen(["generate", "--out", "out"], dir);
  if (run.code !== 0) throw new Error(`mcpgen generate failed (${run.code}):\n${run.stderr}${run.stdout}`);
  redis = await startRedis();
  replicaEnv = {
    REDIS_URL: redis.url,
    MCP_TASKS_REDIS_PREFIX: `lists-${randomBytes(4).toString("hex")}:`,
    LISTS_SERVE_MODULE: path.join(dir, "out/replica-lists/serve.ts"),
  };
  set = await startReplicas({ count: COUNT, server: SERVER, legacyRouting: "sticky", env: replicaEnv, runtime: (i) => RUNTIMES[i]! });
}, 120_000);

afterAll(async () => {
  await set?.close();
  await redis?.stop();
}, 30_000);

/** One 2026-07-28 request through the proxy, and the replica that served it. */
async function modern(method: string, params: Record<string, unknown>, name?: string) {
  const at = set.proxy.log.length;
  const answer = await postModern(set.proxy.url, method, params, name === undefined ? {} : { name });
  return { ...answer, replica: set.proxy.log[at]!.replica };
}

const toolNames = (answer: { result?: Record<string, any> }) => (answer.result!.tools as { name: string }[]).map((t) => t.name);

/** The tools each replica lists, asked through the proxy (round-robin: one request per replica). */
async function listsOfEachReplica(): Promise<Map<number, string[]>> {
  const seen = new Map<number, string[]>();
  for (let i = 0; i < COUNT; i++) {
    const answer = await modern("tools/list", {});
    seen.set(answer.replica, toolNames(answer));
  }
  return seen;
}

/** Three 2025-era sessions, one per replica (initialize is round-robin, the rest sticky), counting tools/list_changed. */
async function legacySessions() {
  const sessions: { client: Client; seen: { tools: number } }[] = [];
  for (let i = 0; i < COUNT; i++) {
    const client = new Client({ name: `legacy-${i}`, version: "1" });
    const seen = { tools: 0 };
    client.setNotificationHandler("notifications/tools/list_changed", () => void seen.tools++);
    await client.connect(new StreamableHTTPClientTransport(new URL(set.proxy.url)));
    sessions.push({ client, seen });
  }
  expect(new Set(set.proxy.sessions.values()).size).toBe(COUNT);
  return sessions;
}

describe("lists that change, three replicas on one redis-server", () => {
  it("a switch on one replica is announced by each replica to its own listen stream and session, once, and every replica lists and calls accordingly", async () => {
    set.proxy.resetHits();
    const streams = [];
    for (let i = 0; i < COUNT; i++) streams.push(await openListen(set.proxy.url, `listen-${i}`, { toolsListChanged: true }));
    expect(set.proxy.log.map((r) => r.replica)).toEqual([0, 1, 2]);
    for (const stream of streams) await until(() => stream.of("notifications/subscriptions/acknowledged").length === 1, "the acknowledgements");
    const sessions = await legacySessions();
    // The sessions' standalone GET streams must be open before the change.
    await until(() => openGetStreams() >= COUNT, "the sessions' GET streams to open");
    try {
      expect([...(await listsOfEachReplica()).values()]).toEqual([
        ["search", "switch_tool", "touch"],
        ["search", "switch_tool", "touch"],
        ["search", "switch_tool", "touch"],
      ]);
      const switched = await modern("tools/call", { name: "switch_tool", arguments: { name: "search", enabled: false } }, "switch_tool");
      expect(switched.result).toMatchObject({ content: [{ type: "text", text: "search disabled" }] });
      for (const stream of streams) await until(() => stream.of("notifications/tools/list_changed").length === 1, "a listen stream's notification");
      for (const session of sessions) await until(() => session.seen.tools === 1, "a session's notification");
      // A while longer, then once each: a replica does not also relay the others' announcements.
      await sleep(200);
      expect(streams.map((s) => s.of("notifications/tools/list_changed"))).toEqual(streams.map((_, i) => [{ _meta: { [SUB]: `listen-${i}` } }]));
      expect(sessions.map((s) => s.seen.tools)).toEqual([1, 1, 1]);

      const after = await listsOfEachReplica();
      expect([...after.keys()].sort((a, b) => a - b)).toEqual([0, 1, 2]);
      for (const tools of after.values()) expect(tools).toEqual(["switch_tool", "touch"]);
      for (let i = 0; i < COUNT; i++) {
        const call = await modern("tools/call", { name: "search", arguments: {} }, "search");
        expect(call.error).toMatchObject({ code: -32602, message: expect.stringContaining("Unknown tool: search") });
      }
      for (const session of sessions) expect((await session.client.listTools()).tools.map((t) => t.name)).toEqual(["switch_tool", "touch"]);

      // Back on, from a session on another replica than the one that switched it off.
      const other = sessions.find((_, i) => [...set.proxy.sessions.values()][i] !== switched.replica)!;
      await other.client.callTool({ name: "switch_tool", arguments: { name: "search", enabled: true } });
      for (const stream of streams) await until(() => stream.of("notifications/tools/list_changed").length === 2, "the second notification");
      for (const session of sessions) await until(() => session.seen.tools === 2, "the sessions' second notification");
      for (const tools of (await listsOfEachReplica()).values()) expect(tools).toEqual(["search", "switch_tool", "touch"]);
      expect((await modern("tools/call", { name: "search", arguments: {} }, "search")).result).toMatchObject({ content: [{ type: "text", text: "found" }] });
    } finally {
      for (const stream of streams) stream.close();
      for (const session of sessions) await session.client.close();
    }
  });

  it("a replica started after a switch serves the current lists", async () => {
    const late = set.replicas[2]!;
    await late.stop();
    try {
      const switched = await modern("tools/call", { name: "switch_tool", arguments: { name: "admin_reset", enabled: true } }, "switch_tool");
      expect(switched.replica).not.toBe(2);
      expect(switched.result).toMatchObject({ content: [{ type: "text", text: "admin_reset enabled" }] });
      await late.start();
      // Asked of the late replica itself: the manifest has admin_reset off at start.
      const listed = await postModern(late.url, "tools/list", {});
      expect(toolNames(listed)).toEqual(["search", "admin_reset", "switch_tool", "touch"]);
      expect((await postModern(late.url, "tools/call", { name: "admin_reset", arguments: {} }, { name: "admin_reset" })).result).toMatchObject({
        content: [{ type: "text", text: "reset" }],
      });
      // And a switch made on the late replica reaches the others.
      await postModern(late.url, "tools/call", { name: "switch_tool", arguments: { name: "admin_reset", enabled: false } }, { name: "switch_tool" });
      for (const [i, replica] of set.replicas.slice(0, 2).entries()) {
        const tools = await untilValue(
          async () => toolNames(await postModern(replica.url, "tools/list", {})),
          (listed) => !listed.includes("admin_reset"),
          `replica ${i} to list admin_reset as switched off`,
          { timeout: 5_000 },
        );
        expect(tools).toEqual(["search", "switch_tool", "touch"]);
      }
    } finally {
      if (!late.running) await late.start(replicaEnv);
    }
  });

  it("a resource update told on one replica reaches a listen stream and a subscribed 2025 session on the others, once each", async () => {
    set.proxy.resetHits();
    const stream = await openListen(set.proxy.url, "resources", { resourceSubscriptions: ["lists://readme"] });
    const session = new Client({ name: "subscriber", version: "1" });
    const updates: string[] = [];
    session.setNotificationHandler("notifications/resources/updated", (n) => void updates.push(n.params.uri));
    try {
      await until(() => stream.of("notifications/subscriptions/acknowledged").length === 1, "the acknowledgement");
      expect(stream.of("notifications/subscriptions/acknowledged")[0]).toMatchObject({ notifications: { resourceSubscriptions: ["lists://readme"] } });
      // initialize is routed round-robin (to replica 1), the session's other requests to it.
      await session.connect(new StreamableHTTPClientTransport(new URL(set.proxy.url)));
      await session.subscribeResource({ uri: "lists://readme" });
      const sessionReplica = set.proxy.sessions.get(session.transport instanceof StreamableHTTPClientTransport ? session.transport.sessionId! : "")!;
      // The session's standalone GET stream must be open before the update.
      await until(() => openGetStreams() >= 1, "the session's GET stream to open");
      const touched = await modern("tools/call", { name: "touch", arguments: { uri: "lists://readme" } }, "touch");
      const other = await modern("tools/call", { name: "touch", arguments: { uri: "lists://other" } }, "touch");
      // Three replicas: the stream's, the session's and the one that was told, all different.
      expect(new Set([set.proxy.log[0]!.replica, sessionReplica, touched.replica]).size).toBe(3);
      expect(other.replica).not.toBe(touched.replica);
      await until(() => stream.of("notifications/resources/updated").length === 1 && updates.length === 1, "the updates");
      // A while longer: no second update, and none for lists://other.
      await sleep(200);
      expect(stream.of("notifications/resources/updated")).toEqual([{ uri: "lists://readme", _meta: { [SUB]: "resources" } }]);
      expect(updates).toEqual(["lists://readme"]);
    } finally {
      stream.close();
      await session.close();
    }
  });
});
