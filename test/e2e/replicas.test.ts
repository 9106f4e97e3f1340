/**
 * Three replicas of the generated conformance server, each its own process on a loopback port,
 * behind a round-robin proxy (test/helpers/replicas.ts). Those sharing a key run on Node
 * (serveHttp), Deno and Bun (the generated createFetchHandler):
 *
 * - a 2026-07-28 multi round-trip request whose rounds reach three different replicas completes
 *   when they share MCP_REQUEST_STATE_SECRET, and is refused with -32602 when each draws its own;
 * - key rotation across replicas: replicas on a new key with the old one as previous accept a
 *   round minted by a replica still on the old key;
 * - 2025-era sessions live in the replica that minted them: through a proxy sticky by
 *   Mcp-Session-Id a session works; through plain round-robin another replica answers HTTP 404
 *   "Session not found" (MCP's signal to start a new session).
 */
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { post } from "../helpers/http.js";
import { startReplicas, type ReplicaSet } from "../helpers/replicas.js";
import { rpcAnswer } from "../helpers/sse.js";
import { envelope } from "../helpers/wire.js";

interface RpcAnswer {
  id?: unknown;
  result?: Record<string, unknown>;
  error?: { code: number; message: string; data?: unknown };
}

const MULTI_ROUND = "test_input_required_result_multi_round";
const accept = (content: Record<string, unknown>) => ({ action: "accept", content });

/** One round of a 2026-07-28 tools/call through the proxy. */
async function round(url: string, extra: Record<string, unknown> = {}): Promise<RpcAnswer> {
  const body = JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    method: "tools/call",
    params: { name: MULTI_ROUND, arguments: {}, ...extra, _meta: envelope({ elicitation: {} }) },
  });
  const res = await post(url, body, { "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/call", "mcp-name": MULTI_ROUND });
  return rpcAnswer<RpcAnswer>(res.body);
}

/** The three rounds of the multi round-trip tool; stops at the first error. */
async function threeRounds(url: string): Promise<RpcAnswer[]> {
  const r1 = await round(url);
  if (r1.error) return [r1];
  const r2 = await round(url, { inputResponses: { step1: accept({ name: "Ada" }) }, requestState: r1.result!.requestState });
  if (r2.error) return [r1, r2];
  const r3 = await round(url, { inputResponses: { step2: accept({ color: "green" }) }, requestState: r2.result!.requestState });
  return [r1, r2, r3];
}

const LEGACY = { "mcp-protocol-version": "2025-11-25" };
const INIT = JSON.stringify({
  jsonrpc: "2.0",
  id: 0,
  method: "initialize",
  params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "replicas", version: "1" } },
});

/** Opens a 2025-era session through the proxy: its id, and a function that sends a request in it. */
async function legacySession(url: string) {
  const init = await post(url, INIT);
  expect(init.status).toBe(200);
  const sessionId = String(init.headers["mcp-session-id"]);
  const headers = { ...LEGACY, "mcp-session-id": sessionId };
  expect((await post(url, JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }), headers)).status).toBe(202);
  let id = 0;
  const send = (method: string, params: Record<string, unknown> = {}) => post(url, JSON.stringify({ jsonrpc: "2.0", id: ++id, method, params }), headers);
  return { sessionId, send };
}

const SECRET = randomBytes(32).toString("base64url");
/** A round minted on one runtime is read on the others. */
const RUNTIMES = ["node", "deno", "bun"] as const;
const TIMEOUT = 120_000;

describe("three replicas sharing MCP_REQUEST_STATE_SECRET", () => {
  let set: ReplicaSet;
  beforeAll(async () => {
    set = await startReplicas({ count: 3, env: { MCP_REQUEST_STATE_SECRET: SECRET }, runtime: (i) => RUNTIMES[i]! });
  }, TIMEOUT);
  afterAll(async () => set?.close(), TIMEOUT);

  it("completes a multi round-trip request whose three rounds reach three different replicas", async () => {
    set.proxy.resetHits();
    const rounds = await threeRounds(set.proxy.url);
    expect(rounds.map((r) => r.error)).toEqual([undefined, undefined, undefined]);
    expect(rounds[2]!.result).toMatchObject({ resultType: "complete", content: [{ type: "text", text: "Ada likes green" }] });
    expect(new Set(set.proxy.log.map((r) => r.replica)).size).toBe(3);
    expect(set.proxy.hits).toEqual([1, 1, 1]);
  });

  it("a 2025-era session works through a proxy sticky by Mcp-Session-Id: every request reaches the replica that minted it", async () => {
    set.proxy.legacyRouting = "sticky";
    set.proxy.resetHits();
    const { sessionId, send } = await legacySession(set.proxy.url);
    const minter = set.proxy.sessions.get(sessionId);
    expect(minter).toBeDefined();
    for (let i = 0; i < 4; i++) {
      const listed = await send("tools/list");
      expect(listed.status).toBe(200);
      expect((rpcAnswer<RpcAnswer>(listed.body).result!.tools as unknown[]).length).toBeGreaterThan(10);
      const called = await send("tools/call", { name: "test_simple_text", arguments: {} });
      expect(rpcAnswer<RpcAnswer>(called.body).result).toMatchObject({ content: [{ type: "text", text: "This is a simple text response for testing." }] });
    }
    const inSession = set.proxy.log.filter((r) => r.sessionId === sessionId);
    expect(inSession).toHaveLength(9);
    expect(inSession.every((r) => r.replica === minter && r.status !== 404)).toBe(true);
    // 2026-07-28 traffic through the same proxy still spreads over every replica.
    set.proxy.resetHits();
    await threeRounds(set.proxy.url);
    expect(set.proxy.hits).toEqual([1, 1, 1]);
  });

  it("a 2025-era session through plain round-robin: a request reaching another replica gets HTTP 404 Session not found", async () => {
    set.proxy.legacyRouting = "round-robin";
    set.proxy.resetHits();
    const init = await post(set.proxy.url, INIT);
    const sessionId = String(init.headers["mcp-session-id"]);
    const minter = set.proxy.log[0]!.replica;
    const answers = [];
    for (let i = 0; i < 3; i++)
      answers.push(await post(set.proxy.url, JSON.stringify({ jsonrpc: "2.0", id: i + 1, method: "ping" }), { ...LEGACY, "mcp-session-id": sessionId }));
    const routed = set.proxy.log.slice(1);
    expect(new Set(routed.map((r) => r.replica))).toEqual(new Set([0, 1, 2]));
    answers.forEach((res, i) => {
      if (routed[i]!.replica === minter) {
        expect(res.status).toBe(200);
      } else {
        expect(res.status).toBe(404);
        expect(JSON.parse(res.body)).toMatchObject({ jsonrpc: "2.0", error: { code: -32001, message: "Session not found" } });
      }
    });
    set.proxy.legacyRouting = "sticky";
  });

  it(
    "rotation: replicas on a new key that keep the old one as previous accept a round minted on the old key",
    async () => {
      const NEW = randomBytes(32).toString("base64url");
      await Promise.all([set.replicas[1]!.stop(), set.replicas[2]!.stop()]);
      await Promise.all([1, 2].map((i) => set.replicas[i]!.start({ MCP_REQUEST_STATE_SECRET: NEW, MCP_REQUEST_STATE_PREVIOUS_SECRETS: SECRET })));
      set.proxy.resetHits();
      // Round 1 on replica 0 (old key), round 2 on replica 1 (new key, old as previous), round 3 on replica 2 (new key).
      const rounds = await threeRounds(set.proxy.url);
      expect(set.proxy.log.map((r) => r.replica)).toEqual([0, 1, 2]);
      expect(rounds[2]?.result).toMatchObject({ resultType: "complete", content: [{ type: "text", text: "Ada likes green" }] });
      // Once the old key is dropped (after requestStateTtlMs), what it signed is refused.
      const old = await round(set.replicas[0]!.url);
      const step1 = { inputResponses: { step1: accept({ name: "Ada" }) }, requestState: old.result!.requestState };
      expect((await round(set.replicas[2]!.url, step1)).result).toMatchObject({ resultType: "input_required" });
      await set.replicas[2]!.stop();
      await set.replicas[2]!.start({ MCP_REQUEST_STATE_SECRET: NEW });
      expect((await round(set.replicas[2]!.url, step1)).error).toEqual({
        code: -32602,
        message: "Invalid or expired requestState",
        data: { reason: "requestState failed its integrity check" },
      });
    },
    TIMEOUT,
  );
});

describe("three replicas without a shared key (the documented failure mode)", () => {
  let set: ReplicaSet;
  beforeAll(async () => {
    set = await startReplicas({ count: 3 });
  }, TIMEOUT);
  afterAll(async () => set?.close(), TIMEOUT);

  it("refuses the round that reaches another replica with -32602: each replica drew its own key", async () => {
    set.proxy.resetHits();
    const rounds = await threeRounds(set.proxy.url);
    expect(rounds).toHaveLength(2);
    expect(rounds[0]!.result).toMatchObject({ resultType: "input_required" });
    expect(rounds[1]!.error).toEqual({ code: -32602, message: "Invalid or expired requestState", data: { reason: "requestState failed its integrity check" } });
    expect(set.proxy.log.map((r) => r.replica)).toEqual([0, 1]);
  });

  it("the harness: a killed replica is skipped by the round-robin, and starts again on the same port", async () => {
    const victim = set.replicas[1]!;
    const url = victim.url;
    await victim.kill();
    expect(victim.running).toBe(false);
    set.proxy.resetHits();
    const discover = () =>
      post(set.proxy.url, JSON.stringify({ jsonrpc: "2.0", id: 1, method: "server/discover", params: { _meta: envelope() } }), {
        "mcp-protocol-version": "2026-07-28",
        "mcp-method": "server/discover",
      });
    for (let i = 0; i < 4; i++) expect((await discover()).status).toBe(200);
    expect(set.proxy.hits).toEqual([2, 0, 2]);
    await victim.start();
    expect(victim.url).toBe(url);
    set.proxy.resetHits();
    for (let i = 0; i < 3; i++) expect((await discover()).status).toBe(200);
    expect(set.proxy.hits).toEqual([1, 1, 1]);
  });
});
