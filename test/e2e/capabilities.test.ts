/**
 * Each MCP capability of the generated conformance server, through the official SDK Client:
 * progress in order, logging levels, completion, sampling, elicitation, subscriptions,
 * pagination walking every page, prompts with embedded resources and images.
 */
import { readFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  LoggingMessageNotificationSchema,
  ResourceUpdatedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { createServer, type ServerOptions } from "../../generated/mcp-conformance-test-server/index.js";
import { handlers } from "../../conformance/handlers.js";
import type { ServerDefinition } from "../../src/runtime/definition.js";
import { createManifestServer } from "../../src/runtime/server.js";

const fixture = (name: string) => JSON.parse(readFileSync(new URL(`../../generated/mcp-conformance-test-server/fixtures/${name}`, import.meta.url), "utf8"));

let closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers) await close();
  closers = [];
});

async function connect(options?: ServerOptions, server = createServer(handlers, options)) {
  const [a, b] = InMemoryTransport.createLinkedPair();
  const sdk = new Client({ name: "caps", version: "1" }, { capabilities: { sampling: {}, elicitation: { form: {} } } });
  await Promise.all([server.connect(b), sdk.connect(a)]);
  closers.push(() => sdk.close());
  return sdk;
}

describe("capabilities", () => {
  it("declares exactly what the manifest serves and opts into", async () => {
    const sdk = await connect();
    expect(sdk.getServerCapabilities()).toEqual({ tools: {}, resources: { subscribe: true }, prompts: {}, completions: {}, logging: {} });
  });

  it("sends progress notifications in order, only for a request with a progressToken", async () => {
    const sdk = await connect();
    const seen: unknown[] = [];
    const result = await sdk.callTool({ name: "test_tool_with_progress", arguments: {} }, undefined, { onprogress: (p) => void seen.push(p) });
    expect(seen).toEqual([
      { progress: 0, total: 100, message: "Completed step 0 of 100" },
      { progress: 50, total: 100, message: "Completed step 50 of 100" },
      { progress: 100, total: 100, message: "Completed step 100 of 100" },
    ]);
    expect(result.content).toEqual([{ type: "text", text: expect.stringMatching(/^\d+$/) }]);
  });

  it("logs through notifications/message, honouring logging/setLevel", async () => {
    const sdk = await connect();
    const logs: unknown[] = [];
    sdk.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void logs.push(n.params));
    await sdk.setLoggingLevel("warning");
    await sdk.callTool({ name: "test_tool_with_logging", arguments: {} });
    expect(logs).toEqual([]);
    await sdk.setLoggingLevel("debug");
    await sdk.callTool({ name: "test_tool_with_logging", arguments: {} });
    expect(logs).toEqual([
      { level: "info", data: "Tool execution started" },
      { level: "info", data: "Tool processing data" },
      { level: "info", data: "Tool execution completed" },
    ]);
  });

  it("completes prompt arguments and template variables from lists and handlers", async () => {
    const sdk = await connect();
    const prompt = { type: "ref/prompt" as const, name: "test_prompt_with_arguments" };
    expect((await sdk.complete({ ref: prompt, argument: { name: "arg1", value: "test-" } })).completion).toEqual({ values: ["test-a", "test-b"], total: 2, hasMore: false });
    expect((await sdk.complete({ ref: prompt, argument: { name: "arg2", value: "t" } })).completion).toEqual({ values: ["testValue2"], total: 1, hasMore: false });
    expect((await sdk.complete({ ref: { type: "ref/resource", uri: "test://template/{id}/data" }, argument: { name: "id", value: "4" } })).completion.values).toEqual(["456"]);
    expect((await sdk.complete({ ref: { type: "ref/prompt", name: "test_simple_prompt" }, argument: { name: "x", value: "" } })).completion.values).toEqual([]);
    await expect(sdk.complete({ ref: { type: "ref/prompt", name: "nope" }, argument: { name: "x", value: "" } })).rejects.toMatchObject({ code: -32602 });
  });

  it("asks the client for sampling and elicitation from inside a tool", async () => {
    const sdk = await connect();
    sdk.setRequestHandler(CreateMessageRequestSchema, async (request) => ({
      role: "assistant",
      content: { type: "text", text: `echo: ${(request.params.messages[0]!.content as { text: string }).text}` },
      model: "test",
    }));
    sdk.setRequestHandler(ElicitRequestSchema, async () => ({ action: "accept", content: { response: "yes" } }));
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
    const tools = await walk("tools", (cursor) => sdk.listTools(cursor ? { cursor } : {}));
    expect(tools.pages).toBe(5);
    expect({ tools: tools.tools }).toEqual(fixture("tools-list.json"));
    const resources = await walk("resources", (cursor) => sdk.listResources(cursor ? { cursor } : {}));
    expect({ resources: resources.resources }).toEqual(fixture("resources-list.json"));
    const prompts = await walk("prompts", (cursor) => sdk.listPrompts(cursor ? { cursor } : {}));
    expect({ prompts: prompts.prompts }).toEqual(fixture("prompts-list.json"));
    await expect(sdk.listTools({ cursor: "garbage" })).rejects.toMatchObject({ code: -32602 });
    await expect(sdk.listPrompts({ cursor: "tools.3" })).rejects.toMatchObject({ code: -32602 });
  });

  it("fills placeholders in embedded resource URIs and serves image messages", async () => {
    const sdk = await connect();
    const embedded = await sdk.getPrompt({ name: "test_prompt_with_embedded_resource", arguments: { resourceUri: "test://example-resource" } });
    expect(embedded.messages[0]!.content).toEqual({ type: "resource", resource: { uri: "test://example-resource", mimeType: "text/plain", text: "Embedded resource content for testing." } });
    const image = await sdk.getPrompt({ name: "test_prompt_with_image" });
    expect(image.messages.map((m) => m.content.type)).toEqual(["image", "text"]);
  });
});

describe("tool results", () => {
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
    const sdk = await connect(undefined, createManifestServer(definition, { tools: { rich: () => result } }));
    expect(await sdk.callTool({ name: "rich", arguments: {} })).toEqual(result);
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

  it("sends notifications/resources/updated only for subscribed URIs, until unsubscribed", async () => {
    const server = createManifestServer(definition, {
      tools: {
        touch: async (args: { uri: string }, ctx: { notifyResourceUpdated(uri: string): Promise<void> }) => {
          await ctx.notifyResourceUpdated(args.uri);
          return "touched";
        },
      },
    });
    const sdk = await connect(undefined, server);
    const updates: string[] = [];
    sdk.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => void updates.push(n.params.uri));
    await sdk.callTool({ name: "touch", arguments: { uri: "x://a" } });
    await sdk.subscribeResource({ uri: "x://a" });
    await sdk.callTool({ name: "touch", arguments: { uri: "x://a" } });
    await sdk.callTool({ name: "touch", arguments: { uri: "x://other" } });
    await sdk.unsubscribeResource({ uri: "x://a" });
    await sdk.callTool({ name: "touch", arguments: { uri: "x://a" } });
    expect(updates).toEqual(["x://a"]);
  });
});
