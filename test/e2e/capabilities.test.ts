/**
 * Each MCP capability of the generated conformance server, through the official SDK Client:
 * progress in order, logging levels, completion, sampling, elicitation, subscriptions,
 * pagination walking every page, prompts with embedded resources and images.
 */
import { readFileSync } from "node:fs";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Client } from "@modelcontextprotocol/client";
import { createServerFactory, type ServerOptions } from "../../generated/mcp-conformance-test-server/index.js";
import { handlers } from "../../conformance/handlers.js";
import type { ServerDefinition } from "../../packages/runtime/src/shared/definition.js";
import { createManifestServerFactory } from "../helpers/runtime.js";
import { connectInMemory, ERAS, type Era, type Factory } from "../helpers/connect.js";
import { sleep, until } from "../helpers/wait.js";
import { rawSession } from "../helpers/wire.js";

const fixture = (name: string) => JSON.parse(readFileSync(new URL(`../../generated/mcp-conformance-test-server/fixtures/${name}`, import.meta.url), "utf8"));

let closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers) await close();
  closers = [];
});

let era: Era = "legacy";
async function connect(options?: ServerOptions, factory: Factory = createServerFactory(handlers, options), setup?: (client: Client) => void) {
  const { sdk, close } = await connectInMemory(factory, { era, capabilities: { sampling: {}, elicitation: { form: {} } }, ...(setup ? { setup } : {}) });
  closers.push(close);
  return sdk;
}
/** A result without what 2026-07-28 adds to every result (the server's identity in _meta). */
const plain = <T extends Record<string, unknown>>(result: T) => {
  const { _meta, ...rest } = result as T & { _meta?: Record<string, unknown> };
  const { "io.modelcontextprotocol/serverInfo": _, ...meta } = _meta ?? {};
  return Object.keys(meta).length ? { ...rest, _meta: meta } : rest;
};

describe.each(ERAS)("capabilities (%s era)", (current: Era) => {
  beforeEach(() => {
    era = current;
  });

  it("declares exactly what the manifest serves and opts into", async () => {
    const sdk = await connect();
    // Task support: the 2025-11-25 capability, or the 2026-07-28 extension.
    const tasks =
      era === "legacy" ? { tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } } } : { extensions: { "io.modelcontextprotocol/tasks": {} } };
    expect(sdk.getServerCapabilities()).toEqual({ tools: {}, resources: { subscribe: true }, prompts: {}, completions: {}, logging: {}, ...tasks });
  });

  it("sends progress notifications in order, only for a request with a progressToken", async () => {
    const sdk = await connect();
    const seen: unknown[] = [];
    const result = await sdk.callTool({ name: "test_tool_with_progress", arguments: {} }, { onprogress: (p) => void seen.push(p) });
    expect(seen).toEqual([
      { progress: 0, total: 100, message: "Completed step 0 of 100" },
      { progress: 50, total: 100, message: "Completed step 50 of 100" },
      { progress: 100, total: 100, message: "Completed step 100 of 100" },
    ]);
    expect(result.content).toEqual([{ type: "text", text: expect.stringMatching(/^\d+$/) }]);
  });

  it("logs through notifications/message: logging/setLevel in the 2025 era, the request's logLevel in 2026-07-28", async () => {
    const logs: unknown[] = [];
    if (era === "legacy") {
      const sdk = await connect();
      sdk.setNotificationHandler("notifications/message", (n) => void logs.push(n.params));
      await sdk.setLoggingLevel("warning");
      await sdk.callTool({ name: "test_tool_with_logging", arguments: {} });
      expect(logs).toEqual([]);
      await sdk.setLoggingLevel("debug");
      await sdk.callTool({ name: "test_tool_with_logging", arguments: {} });
    } else {
      const s = await rawSession(createServerFactory(handlers), { era });
      closers.push(s.close);
      // Without a logLevel in the request, 2026-07-28 servers send no log at all.
      await s.request("tools/call", { name: "test_tool_with_logging", arguments: {} });
      await s.request("tools/call", { name: "test_tool_with_logging", arguments: {}, _meta: { "io.modelcontextprotocol/logLevel": "warning" } });
      expect(s.notifications).toEqual([]);
      await s.request("tools/call", { name: "test_tool_with_logging", arguments: {}, _meta: { "io.modelcontextprotocol/logLevel": "debug" } });
      logs.push(...s.notifications.filter((n) => n.method === "notifications/message").map((n) => n.params));
    }
    expect(logs).toEqual([
      { level: "info", data: "Tool execution started" },
      { level: "info", data: "Tool processing data" },
      { level: "info", data: "Tool execution completed" },
    ]);
  });

  it("completes prompt arguments and template variables from lists and handlers", async () => {
    const sdk = await connect();
    const prompt = { type: "ref/prompt" as const, name: "test_prompt_with_arguments" };
    expect((await sdk.complete({ ref: prompt, argument: { name: "arg1", value: "test-" } })).completion).toEqual({
      values: ["test-a", "test-b"],
      total: 2,
      hasMore: false,
    });
    expect((await sdk.complete({ ref: prompt, argument: { name: "arg2", value: "t" } })).completion).toEqual({
      values: ["testValue2"],
      total: 1,
      hasMore: false,
    });
    expect(
      (await sdk.complete({ ref: { type: "ref/resource", uri: "test://template/{id}/data" }, argument: { name: "id", value: "4" } })).completion.values,
    ).toEqual(["456"]);
    expect((await sdk.complete({ ref: { type: "ref/prompt", name: "test_simple_prompt" }, argument: { name: "x", value: "" } })).completion.values).toEqual([]);
    await expect(sdk.complete({ ref: { type: "ref/prompt", name: "nope" }, argument: { name: "x", value: "" } })).rejects.toMatchObject({ code: -32602 });
  });

  it("asks the client for sampling and elicitation from inside a tool (2026-07-28: input_required, fulfilled by the client)", async () => {
    const sdk = await connect(undefined, undefined, (client) => {
      client.setRequestHandler("sampling/createMessage", async (request) => ({
        role: "assistant",
        content: { type: "text", text: `echo: ${(request.params.messages[0]!.content as { text: string }).text}` },
        model: "test",
      }));
      client.setRequestHandler("elicitation/create", async () => ({ action: "accept", content: { response: "yes" } }));
    });
    expect((await sdk.callTool({ name: "test_sampling", arguments: { prompt: "hi" } })).content).toEqual([{ type: "text", text: "LLM response: echo: hi" }]);
    expect((await sdk.callTool({ name: "test_elicitation", arguments: { message: "ok?" } })).content).toEqual([
      { type: "text", text: 'User response: action=accept, content={"response":"yes"}' },
    ]);
  });

  it("walks every page of every list, and the pages concatenate to the fixtures", async () => {
    const sdk = await connect({ pageSize: 3 });
    const walk = async <K extends string>(key: K, list: (cursor?: string) => Promise<Record<K, unknown[]> & { nextCursor?: string }>) => {
      const items: unknown[] = [];
      let cursor: string | undefined;
      let pages = 0;
      do {
        const page = await list(cursor);
        expect(page[key].length).toBeLessThanOrEqual(3);
        items.push(...page[key]);
        cursor = page.nextCursor;
        pages++;
      } while (cursor !== undefined);
      return { [key]: items, pages };
    };
    // One page per request (the SDK's listTools() would walk them all itself).
    const page = (method: "tools/list" | "resources/list" | "prompts/list") => (cursor?: string) =>
      sdk.request({ method, params: cursor ? { cursor } : {} }) as Promise<never>;
    const tools = await walk("tools", page("tools/list"));
    // 2026-07-28 pages carry no execution (the tasks extension replaced it): its own fixture.
    const listed = (name: string) => fixture(era === "modern" ? `2026-07-28/${name}` : name);
    expect(tools.pages).toBe(Math.ceil(listed("tools-list.json").tools.length / 3));
    expect(tools.tools).toEqual(listed("tools-list.json").tools);
    const resources = await walk("resources", page("resources/list"));
    expect(resources.resources).toEqual(listed("resources-list.json").resources);
    const prompts = await walk("prompts", page("prompts/list"));
    expect(prompts.prompts).toEqual(listed("prompts-list.json").prompts);
    await expect(page("tools/list")("garbage")).rejects.toMatchObject({ code: -32602 });
    await expect(page("prompts/list")("tools.3")).rejects.toMatchObject({ code: -32602 });
  });

  it("fills placeholders in embedded resource URIs and serves image messages", async () => {
    const sdk = await connect();
    const embedded = await sdk.getPrompt({ name: "test_prompt_with_embedded_resource", arguments: { resourceUri: "test://example-resource" } });
    expect(embedded.messages[0]!.content).toEqual({
      type: "resource",
      resource: { uri: "test://example-resource", mimeType: "text/plain", text: "Embedded resource content for testing." },
    });
    const image = await sdk.getPrompt({ name: "test_prompt_with_image" });
    expect(image.messages.map((m) => m.content.type)).toEqual(["image", "text"]);
  });
});

describe.each(ERAS)("tool results (%s era)", (current: Era) => {
  beforeEach(() => {
    era = current;
  });
  it("carries annotations on blocks and _meta on the result through to the client", async () => {
    const definition: ServerDefinition = {
      serverInfo: { name: "blocks", version: "1" },
      capabilities: { tools: {} },
      tools: [{ name: "rich", inputSchema: { type: "object" } }],
      resources: [],
      resourceTemplates: [],
      prompts: [],
    };
    const result = {
      content: [
        { type: "text", text: "hi", annotations: { audience: ["user"], priority: 0.5 } },
        { type: "resource_link", uri: "x://doc", name: "doc", mimeType: "text/plain" },
        { type: "audio", data: "UklGRg==", mimeType: "audio/wav", _meta: { "x/k": 1 } },
      ],
      _meta: { "example/trace": "abc" },
    };
    const sdk = await connect(undefined, createManifestServerFactory(definition, { tools: { rich: () => result } }));
    expect(plain(await sdk.callTool({ name: "rich", arguments: {} }))).toEqual(result);
  });
});

describe("subscriptions", () => {
  const definition: ServerDefinition = {
    serverInfo: { name: "subs", version: "1" },
    capabilities: { tools: {}, resources: { subscribe: true } },
    tools: [{ name: "touch", inputSchema: { type: "object", properties: { uri: { type: "string" } } } }],
    resources: [{ resource: { uri: "x://a", name: "a" }, content: { text: "a" } }],
    resourceTemplates: [],
    prompts: [],
  };

  const touch = () =>
    createManifestServerFactory(definition, {
      tools: {
        touch: async (args: { uri: string }, ctx: { notifyResourceUpdated(uri: string): Promise<void> }) => {
          await ctx.notifyResourceUpdated(args.uri);
          return "touched";
        },
      },
    });

  it("2025 era: sends notifications/resources/updated only for subscribed URIs, until unsubscribed", async () => {
    era = "legacy";
    const sdk = await connect(undefined, touch());
    const updates: string[] = [];
    sdk.setNotificationHandler("notifications/resources/updated", (n) => void updates.push(n.params.uri));
    await sdk.callTool({ name: "touch", arguments: { uri: "x://a" } });
    await sdk.subscribeResource({ uri: "x://a" });
    await sdk.callTool({ name: "touch", arguments: { uri: "x://a" } });
    await sdk.callTool({ name: "touch", arguments: { uri: "x://other" } });
    await sdk.unsubscribeResource({ uri: "x://a" });
    await sdk.callTool({ name: "touch", arguments: { uri: "x://a" } });
    expect(updates).toEqual(["x://a"]);
  });

  it("2026-07-28: delivers them on the subscriptions/listen streams that name the URI, until closed", async () => {
    era = "modern";
    const sdk = await connect(undefined, touch());
    const updates: string[] = [];
    sdk.setNotificationHandler("notifications/resources/updated", (n) => void updates.push(n.params.uri));
    await sdk.callTool({ name: "touch", arguments: { uri: "x://a" } });
    const subscription = await sdk.listen({ resourceSubscriptions: ["x://a"] });
    expect(subscription.honoredFilter).toEqual({ resourceSubscriptions: ["x://a"] });
    await sdk.callTool({ name: "touch", arguments: { uri: "x://a" } });
    await sdk.callTool({ name: "touch", arguments: { uri: "x://other" } });
    await until(() => updates.length > 0, "the x://a update on the listen stream", { timeout: 5_000 });
    // A moment more before closing: an x://other update, if one were sent, would arrive now.
    await sleep(20);
    await subscription.close();
    await sdk.callTool({ name: "touch", arguments: { uri: "x://a" } });
    expect(updates).toEqual(["x://a"]);
    // resources/subscribe is gone from 2026-07-28.
    const raw = await rawSession(touch(), { era });
    closers.push(raw.close);
    expect((await raw.request("resources/subscribe", { uri: "x://a" })).error).toEqual({ code: -32601, message: "Method not found" });
  });
});
