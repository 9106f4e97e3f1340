/**
 * serveHttp: both protocol eras on one endpoint (2025-era sessions or stateless serving, 2026-07-28
 * requests), DNS-rebinding protection, the 2026-07-28 header rules (Mcp-Method, Mcp-Name,
 * Mcp-Param-*), cancellation by closing the stream, bad requests answered in JSON-RPC, and the
 * connection timeouts, which cut slow requests but never an answer or a stream.
 */
import { afterEach, describe, expect, it } from "vitest";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { Client as V1Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as V1HttpTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { createClient } from "../../examples/gift-server/generated/gift-server/index.js";
import { serveHttp } from "../../examples/gift-server/generated/gift-server/serve.js";
import type { ServerDefinition } from "../../packages/runtime/src/shared/definition.js";
import { serveHttpWith } from "../helpers/runtime.js";
import { createManifestServerFactory } from "../helpers/runtime.js";
import { giftHandlers } from "../servers/gift.js";
import { createClient as createConformanceClient } from "../../generated/mcp-conformance-test-server/index.js";
import { serveHttp as serveConformanceHttp } from "../../generated/mcp-conformance-test-server/serve.js";
import { handlers as conformanceHandlers } from "../../conformance/handlers.js";
import { post } from "../helpers/http.js";
import { sleep, until } from "../helpers/wait.js";
import { envelope } from "../helpers/wire.js";

let stop: (() => Promise<void>) | undefined;
afterEach(async () => {
  await stop?.();
  stop = undefined;
});

const INIT = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } },
});

describe("serveHttp", () => {
  it("answers a body over the size limit with 413 instead of reading it into memory", async () => {
    const handle = await serveHttp(giftHandlers, { port: 0, maxMessageBytes: 1000 });
    stop = handle.close;
    const big = await post(handle.url, JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { pad: "x".repeat(5000) } }));
    expect(big.status).toBe(413);
    expect(JSON.parse(big.body)).toEqual({ jsonrpc: "2.0", id: null, error: { code: -32600, message: "Invalid Request: body larger than 1000 bytes" } });
    expect((await post(handle.url, INIT)).status).toBe(200);
  });

  const GIFTS = {
    gifts: [
      { name: "Dice set", price: 20 },
      { name: "Book: The Hobbit", price: 15 },
    ],
  };
  for (const stateless of [false, true]) {
    it(`serves a 2025-era client, a 2026-07-28 client and an SDK 1.x client on one endpoint (${stateless ? "stateless" : "sessions"})`, async () => {
      const handle = await serveHttp(giftHandlers, { port: 0, stateless });
      stop = handle.close;
      expect(handle.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
      for (const mode of ["legacy", "auto"] as const) {
        const sdk = new Client({ name: "http", version: "1" }, { versionNegotiation: { mode } });
        const transport = new StreamableHTTPClientTransport(new URL(handle.url));
        await sdk.connect(transport);
        expect(sdk.getProtocolEra()).toBe(mode === "auto" ? "modern" : "legacy");
        // Sessions exist for 2025-era clients only (and not in stateless mode).
        expect(transport.sessionId !== undefined).toBe(mode === "legacy" && !stateless);
        const result = await sdk.callTool({ name: "suggest_gifts", arguments: { occasion: "x", budget: 20 } });
        expect(result.structuredContent).toEqual(GIFTS);
        expect(await createClient(sdk).suggestGifts({ occasion: "x", budget: 20 })).toEqual(GIFTS);
        await sdk.close();
      }
      const v1 = new V1Client({ name: "http-v1", version: "1" });
      await v1.connect(new V1HttpTransport(new URL(handle.url)));
      expect(await createClient(v1).suggestGifts({ occasion: "x", budget: 20 })).toEqual(GIFTS);
      await v1.close();
    });
  }

  it("refuses a foreign Host or Origin with 403, and accepts loopback ones", async () => {
    const handle = await serveHttp(giftHandlers, { port: 0 });
    stop = handle.close;
    const port = new URL(handle.url).port;
    expect((await post(handle.url, INIT, { host: "evil.example.com" })).status).toBe(403);
    expect((await post(handle.url, INIT, { origin: "http://evil.example.com" })).status).toBe(403);
    expect((await post(handle.url, INIT, { host: `localhost:${port}`, origin: `http://localhost:${port}` })).status).toBe(200);
  });

  it("answers bad requests with a JSON-RPC error and a 4xx, and keeps serving", async () => {
    const handle = await serveHttp(giftHandlers, { port: 0 });
    stop = handle.close;
    const notJson = await post(handle.url, "{not json");
    expect(notJson.status).toBe(400);
    expect(JSON.parse(notJson.body)).toEqual({ jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error: the body is not JSON" } });
    const wrongType = await post(handle.url, INIT, { "content-type": "text/plain" });
    expect(wrongType.status).toBe(415);
    expect(JSON.parse(wrongType.body).error.code).toBe(-32000);
    const unknownSession = await post(handle.url, INIT, { "mcp-session-id": "nope" });
    expect(unknownSession.status).toBe(404);
    const wrongPath = await post(handle.url.replace("/mcp", "/other"), INIT);
    expect(wrongPath.status).toBe(404);
    expect((await post(handle.url, INIT)).status).toBe(200);
  });

  describe("2026-07-28 requests, as raw HTTP", () => {
    const modern = (method: string, params: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) =>
      JSON.stringify({ jsonrpc: "2.0", id: 7, method, params: { ...params, _meta: envelope() }, ...extra });
    const headers = (method: string, name?: string) => ({
      "mcp-protocol-version": "2026-07-28",
      "mcp-method": method,
      ...(name === undefined ? {} : { "mcp-name": name }),
    });

    it("answers server/discover, an unsupported version -32022, a missing envelope -32602, an unknown method 404", async () => {
      const handle = await serveHttp(giftHandlers, { port: 0 });
      stop = handle.close;
      const discover = await post(handle.url, modern("server/discover"), headers("server/discover"));
      expect(discover.status).toBe(200);
      expect(JSON.parse(discover.body).result).toMatchObject({
        supportedVersions: ["2026-07-28"],
        resultType: "complete",
        ttlMs: 300000,
        cacheScope: "public",
      });
      const future = JSON.stringify({
        jsonrpc: "2.0",
        id: 8,
        method: "tools/list",
        params: { _meta: { ...envelope(), "io.modelcontextprotocol/protocolVersion": "2099-01-01" } },
      });
      const unsupported = await post(handle.url, future, { ...headers("tools/list"), "mcp-protocol-version": "2099-01-01" });
      expect(unsupported.status).toBe(400);
      expect(JSON.parse(unsupported.body).error).toMatchObject({ code: -32022, data: { supported: ["2026-07-28"], requested: "2099-01-01" } });
      const bare = await post(handle.url, JSON.stringify({ jsonrpc: "2.0", id: 9, method: "tools/list", params: {} }), headers("tools/list"));
      expect(bare.status).toBe(400);
      expect(JSON.parse(bare.body).error.code).toBe(-32602);
      const removed = await post(handle.url, modern("logging/setLevel", { level: "info" }), headers("logging/setLevel"));
      expect(removed.status).toBe(404);
      expect(JSON.parse(removed.body)).toEqual({ jsonrpc: "2.0", id: 7, error: { code: -32601, message: "Method not found" } });
      const mismatch = await post(handle.url, modern("tools/list"), headers("prompts/list"));
      expect(mismatch.status).toBe(400);
      expect(JSON.parse(mismatch.body).error.code).toBe(-32020);
    });

    it("checks Mcp-Param-* headers against x-mcp-header arguments: 400 with -32020 on a mismatch or a missing header", async () => {
      const definition: ServerDefinition = {
        serverInfo: { name: "regions", version: "1" },
        capabilities: { tools: {} },
        tools: [
          {
            name: "deploy",
            inputSchema: {
              type: "object",
              properties: { region: { type: "string", "x-mcp-header": "Region" }, count: { type: "integer", "x-mcp-header": "Count" } },
            },
          },
        ],
        resources: [],
        resourceTemplates: [],
        prompts: [],
      };
      const handle = await serveHttpWith(
        createManifestServerFactory(definition, { tools: { deploy: (args: { region?: string }) => `to ${args.region}` } }),
        definition,
        { port: 0 },
      );
      stop = handle.close;
      const call = (args: Record<string, unknown>, more: Record<string, string>) =>
        post(handle.url, modern("tools/call", { name: "deploy", arguments: args }), { ...headers("tools/call", "deploy"), ...more });
      const ok = await call({ region: "eu-west", count: 3 }, { "mcp-param-region": "eu-west", "mcp-param-count": "3" });
      expect((await call({ count: -12 }, { "mcp-param-count": "-12" })).status).toBe(200);
      expect(ok.status).toBe(200);
      expect(JSON.parse(ok.body).result.content).toEqual([{ type: "text", text: "to eu-west" }]);
      // Base64 for values a header cannot carry as they are.
      expect((await call({ region: "Zürich" }, { "mcp-param-region": `=?base64?${Buffer.from("Zürich").toString("base64")}?=` })).status).toBe(200);
      for (const [args, more, why] of [
        [{ region: "eu-west" }, {}, "is missing"],
        [{ region: "eu-west" }, { "mcp-param-region": "us-east" }, "does not match"],
        [{ region: "eu-west", count: 3 }, { "mcp-param-region": "eu-west", "mcp-param-count": "4" }, "does not match"],
        // An integer in decimal, as JSON writes it: other spellings of 5 do not match 5.
        ...["0x5", "5e0", "+5", "5.0", "05", " 5 x"].map((count) => [{ count: 5 }, { "mcp-param-count": count }, "does not match"] as const),
        [{ region: "Hello" }, { "mcp-param-region": "=?base64?SGVsbG8?=" }, "not valid =?base64?...?= encoding"],
      ] as const) {
        const refused = await call(args, more);
        expect(refused.status).toBe(400);
        expect(JSON.parse(refused.body)).toMatchObject({ id: 7, error: { code: -32020, message: expect.stringContaining(why) } });
      }
      // Absent arguments need no header.
      expect((await call({}, {})).status).toBe(200);
    });

    it("the generated client passes the tool's definition, so the SDK v2 Client mirrors x-mcp-header arguments without a tools/list", async () => {
      const handle = await serveConformanceHttp(conformanceHandlers, { port: 0 });
      stop = handle.close;
      const sent: string[] = [];
      const counting: typeof fetch = async (url, init) => {
        const h = new Headers(init?.headers);
        sent.push(`${h.get("mcp-method")}${h.get("mcp-param-region") === null ? "" : ` Mcp-Param-Region=${h.get("mcp-param-region")}`}`);
        return fetch(url, init);
      };
      const sdk = new Client({ name: "http", version: "1" }, { versionNegotiation: { mode: "auto" } });
      await sdk.connect(new StreamableHTTPClientTransport(new URL(handle.url), { fetch: counting }));
      const client = createConformanceClient(sdk);
      sent.length = 0;
      expect(await client.testXMcpHeader({ region: "Zürich", level: 2 })).toMatchObject({ content: [{ type: "text", text: "region=Zürich level=2" }] });
      // One request, the header in it (base64: not plain ASCII).
      expect(sent).toEqual([`tools/call Mcp-Param-Region==?base64?${Buffer.from("Zürich").toString("base64")}?=`]);
      // The bare SDK call has no definition: refused with -32020, the SDK lists the tools and tries again.
      sent.length = 0;
      await sdk.callTool({ name: "test_x_mcp_header", arguments: { region: "x" } });
      expect(sent).toEqual(["tools/call", "tools/list", "tools/call Mcp-Param-Region=x"]);
      await sdk.close();
    });

    it("cancels a call when the client closes its stream: the handler's signal aborts", async () => {
      let aborted: (() => void) | undefined;
      const gotAbort = new Promise<void>((resolve) => (aborted = resolve));
      let started = false;
      const handle = await serveHttp(
        {
          tools: {
            ...giftHandlers.tools,
            suggest_gifts: (_args, ctx) => {
              started = true;
              return new Promise((_, reject) => ctx.signal.addEventListener("abort", () => (aborted!(), reject(new Error("stopped")))));
            },
          },
        },
        { port: 0 },
      );
      stop = handle.close;
      const sdk = new Client({ name: "http", version: "1" }, { versionNegotiation: { mode: "auto" } });
      await sdk.connect(new StreamableHTTPClientTransport(new URL(handle.url)));
      const controller = new AbortController();
      const call = sdk.callTool({ name: "suggest_gifts", arguments: { occasion: "x", budget: 9 } }, { signal: controller.signal });
      await until(() => started, "the handler to be running", { timeout: 5_000 });
      controller.abort();
      await expect(call).rejects.toThrow();
      await gotAbort;
      await sdk.close();
    });
  });

  describe("connection timeouts cut slow requests, never answers or streams", () => {
    const definition: ServerDefinition = {
      serverInfo: { name: "long", version: "1" },
      capabilities: { tools: {}, resources: { subscribe: true } },
      tools: [
        { name: "slow", inputSchema: { type: "object", properties: { ms: { type: "integer" } } }, execution: { taskSupport: "optional" } },
        { name: "touch", inputSchema: { type: "object" } },
      ],
      taskSupport: { slow: "optional" },
      resources: [{ resource: { uri: "x://a", name: "a" }, content: { text: "a" } }],
      resourceTemplates: [],
      prompts: [],
    };
    const handlers = {
      tools: {
        slow: async (args: { ms: number }, ctx: { progress(p: number): Promise<void> }) => {
          for (let step = 1; step * 200 <= args.ms; step++) {
            await sleep(200);
            await ctx.progress(step);
          }
          return `slept ${args.ms}`;
        },
        touch: async (_args: object, ctx: { notifyResourceUpdated(uri: string): Promise<void> }) => {
          await ctx.notifyResourceUpdated("x://a");
          return "touched";
        },
      },
    };
    // Every timeout far shorter than the calls and streams below.
    const SHORT = { headersTimeoutMs: 200, requestTimeoutMs: 300, keepAliveTimeoutMs: 100 };
    const LONG = 1500;

    it("2025 era: a long call with and without progress, a tasks/result wait and the GET stream outlive every timeout", async () => {
      const handle = await serveHttpWith(createManifestServerFactory(definition, handlers as never), definition, { port: 0, ...SHORT });
      stop = handle.close;
      const sdk = new Client({ name: "long", version: "1" }, { versionNegotiation: { mode: "legacy" } });
      // The client's GET stream: opened once, never cut (the SDK client would open it again).
      let gets = 0;
      const transport = new StreamableHTTPClientTransport(new URL(handle.url), {
        fetch: (url, init) => {
          if (init?.method === "GET") gets++;
          return fetch(url, init);
        },
      });
      await sdk.connect(transport);
      const steps: number[] = [];
      const withProgress = await sdk.callTool({ name: "slow", arguments: { ms: LONG } }, { onprogress: (p) => void steps.push(p.progress) });
      expect(withProgress.content).toEqual([{ type: "text", text: `slept ${LONG}` }]);
      expect(steps).toEqual([1, 2, 3, 4, 5, 6, 7]);
      expect((await sdk.callTool({ name: "slow", arguments: { ms: LONG } })).content).toEqual([{ type: "text", text: `slept ${LONG}` }]);
      // tasks/result waits for the task to end.
      const session = { "mcp-session-id": transport.sessionId!, "mcp-protocol-version": "2025-11-25" };
      const created = await post(
        handle.url,
        JSON.stringify({ jsonrpc: "2.0", id: 90, method: "tools/call", params: { name: "slow", arguments: { ms: LONG }, task: {} } }),
        session,
      );
      const taskId = /"taskId":"([^"]+)"/.exec(created.body)![1]!;
      const result = await post(handle.url, JSON.stringify({ jsonrpc: "2.0", id: 91, method: "tasks/result", params: { taskId } }), session);
      expect(result.body).toContain(`slept ${LONG}`);
      // The GET stream, open longer than every timeout, still carries what the server sends.
      const updates: string[] = [];
      sdk.setNotificationHandler("notifications/resources/updated", (n) => void updates.push(n.params.uri));
      await sdk.subscribeResource({ uri: "x://a" });
      // Idle past every timeout: the stream must not be cut meanwhile.
      await sleep(LONG);
      await sdk.callTool({ name: "touch", arguments: {} });
      await until(() => updates.length > 0, "the update on the GET stream", { timeout: 5_000 });
      expect(updates).toEqual(["x://a"]);
      expect(gets).toBe(1);
      await sdk.close();
    });

    it("2026-07-28: a long call with and without progress and a listen stream outlive every timeout", async () => {
      const handle = await serveHttpWith(createManifestServerFactory(definition, handlers as never), definition, { port: 0, ...SHORT });
      stop = handle.close;
      const sdk = new Client({ name: "long", version: "1" }, { versionNegotiation: { mode: "auto" } });
      await sdk.connect(new StreamableHTTPClientTransport(new URL(handle.url)));
      expect(sdk.getProtocolEra()).toBe("modern");
      const steps: number[] = [];
      const withProgress = await sdk.callTool({ name: "slow", arguments: { ms: LONG } }, { onprogress: (p) => void steps.push(p.progress) });
      expect(withProgress.content).toEqual([{ type: "text", text: `slept ${LONG}` }]);
      expect(steps).toEqual([1, 2, 3, 4, 5, 6, 7]);
      // Without progress the answer is one JSON body after 1.5 s of silence on the connection.
      expect((await sdk.callTool({ name: "slow", arguments: { ms: LONG } })).content).toEqual([{ type: "text", text: `slept ${LONG}` }]);
      const updates: string[] = [];
      sdk.setNotificationHandler("notifications/resources/updated", (n) => void updates.push(n.params.uri));
      const subscription = await sdk.listen({ resourceSubscriptions: ["x://a"] });
      // Idle past every timeout: the stream must not be cut meanwhile.
      await sleep(LONG);
      await sdk.callTool({ name: "touch", arguments: {} });
      await until(() => updates.length > 0, "the update on the listen stream", { timeout: 5_000 });
      expect(updates).toEqual(["x://a"]);
      await subscription.close();
      await sdk.close();
    });

    it("a resource update reaches every client subscribed to it: another 2025 session than the caller's, a 2026-07-28 stream, and none unsubscribed; the handle tells it from outside a request", async () => {
      const handle = await serveHttpWith(createManifestServerFactory(definition, handlers as never), definition, { port: 0 });
      stop = handle.close;
      const connect = async (mode: "legacy" | "auto") => {
        const sdk = new Client({ name: mode, version: "1" }, { versionNegotiation: { mode } });
        // Once the server has answered a session's GET, its notifications reach the client.
        const client = { sdk, updates: [] as string[], getStreamOpen: false };
        const fetchNoting = async (url: string | URL, init?: RequestInit) => {
          const response = await fetch(url, init);
          if (init?.method === "GET" && response.ok) client.getStreamOpen = true;
          return response;
        };
        await sdk.connect(new StreamableHTTPClientTransport(new URL(handle.url), { fetch: fetchNoting }));
        sdk.setNotificationHandler("notifications/resources/updated", (n) => void client.updates.push(n.params.uri));
        return client;
      };
      const [subscriber, caller, bystander, modern] = [await connect("legacy"), await connect("legacy"), await connect("legacy"), await connect("auto")];
      expect(modern.sdk.getProtocolEra()).toBe("modern");
      await subscriber.sdk.subscribeResource({ uri: "x://a" });
      const subscription = await modern.sdk.listen({ resourceSubscriptions: ["x://a"] });
      // The sessions' GET streams open before the update.
      await until(() => [subscriber, caller, bystander].every((one) => one.getStreamOpen), "the 2025 sessions' GET streams to open", { timeout: 5_000 });
      await caller.sdk.callTool({ name: "touch", arguments: {} });
      /** Waits for update `n` on the subscribed clients, then a while longer: nobody else gets one. */
      const settle = async (n: number, subscribed = [subscriber, modern], quiet = 50) => {
        await until(() => subscribed.every((one) => one.updates.length >= n), `update ${n} to reach the subscribed clients`, { timeout: 5_000 });
        await sleep(quiet);
      };
      await settle(1);
      expect([subscriber.updates, caller.updates, bystander.updates, modern.updates]).toEqual([["x://a"], [], [], ["x://a"]]);
      await handle.notifyResourceUpdated("x://a");
      await settle(2);
      expect([subscriber.updates, caller.updates, bystander.updates, modern.updates]).toEqual([["x://a", "x://a"], [], [], ["x://a", "x://a"]]);
      await subscriber.sdk.unsubscribeResource({ uri: "x://a" });
      await handle.notifyResourceUpdated("x://a");
      // Only the 2026-07-28 stream is still subscribed; the longer pause gives a wrong third update to the 2025 subscriber time to arrive.
      await settle(3, [modern], 200);
      expect(subscriber.updates).toHaveLength(2);
      expect(modern.updates).toHaveLength(3);
      await subscription.close();
      for (const one of [subscriber, caller, bystander, modern]) await one.sdk.close();
    });
  });
});
