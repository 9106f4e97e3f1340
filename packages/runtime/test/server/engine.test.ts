import { describe, expect, it, vi } from "vitest";
import { Engine } from "../../src/server/engine.js";
import type { RuntimeHandlers, ServerOptions } from "../../src/server/engine/handlerTypes.js";
import { tasks } from "../../src/server/tasks/index.js";
import type { ServerDefinition, WireTool } from "../../src/shared/definition.js";
import { definition, fakeCall } from "./engine-test-kit.js";

/** An engine with the tasks part, as the generated server.ts of a server with task tools makes it. */
const engineOf = (served: ServerDefinition, handlers: RuntimeHandlers, options: ServerOptions) => new Engine(served, handlers, options, { tasks });

const echo: WireTool = { name: "echo", inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] } };
const sum: WireTool = {
  name: "sum",
  inputSchema: { type: "object" },
  outputSchema: { type: "object", properties: { total: { type: "number" } }, required: ["total"] },
};
const slow: WireTool = { name: "slow", inputSchema: { type: "object" }, execution: { taskSupport: "optional" } };
/** A definition's parts with `slow` as the task tool it is. */
const slowParts = { capabilities: { tools: {} }, tools: [slow], taskSupport: { slow: "optional" } } as const;

describe("the method table", () => {
  it.each([
    ["nothing", {}, [], []],
    ["tools", { capabilities: { tools: {} }, tools: [echo] }, ["tools/list", "tools/call"], ["tools/list", "tools/call"]],
    [
      "resources",
      { capabilities: { resources: {} } },
      ["resources/list", "resources/templates/list", "resources/read"],
      ["resources/list", "resources/templates/list", "resources/read"],
    ],
    [
      "resources with subscribe (2025 era only)",
      { capabilities: { resources: { subscribe: true } } },
      ["resources/list", "resources/templates/list", "resources/read", "resources/subscribe", "resources/unsubscribe"],
      ["resources/list", "resources/templates/list", "resources/read"],
    ],
    ["prompts", { capabilities: { prompts: {} } }, ["prompts/list", "prompts/get"], ["prompts/list", "prompts/get"]],
    ["completions", { capabilities: { completions: {} } }, ["completion/complete"], ["completion/complete"]],
    [
      "a task tool (each era's task methods)",
      { capabilities: { tools: {} }, tools: [slow], taskSupport: { slow: "optional" } },
      ["tools/list", "tools/call", "tasks/get", "tasks/result", "tasks/list", "tasks/cancel"],
      ["tools/list", "tools/call", "tasks/get", "tasks/update", "tasks/cancel"],
    ],
    [
      "a tool whose wire `execution` the definition's taskSupport does not name (no task methods: mcpgen decided)",
      { capabilities: { tools: {} }, tools: [slow] },
      ["tools/list", "tools/call"],
      ["tools/list", "tools/call"],
    ],
  ] as const)("offers the methods of %s in each era", (_, parts, legacy, modern) => {
    const engine = engineOf(definition(parts), {}, {});
    expect(engine.methods("legacy")).toEqual(legacy);
    expect(engine.methods("modern")).toEqual(modern);
  });

  it("answers -32601 for a method it does not offer in the request's era", async () => {
    const resources = [{ resource: { uri: "a://b", name: "b" }, content: { text: "b" } }];
    const engine = engineOf(definition({ capabilities: { resources: { subscribe: true } }, resources }), {}, {});
    await expect(engine.handle("tools/list", {}, fakeCall("legacy"), new Set())).rejects.toMatchObject({ code: -32601 });
    await expect(engine.handle("resources/subscribe", { uri: "a://b" }, fakeCall("modern"), new Set())).rejects.toMatchObject({ code: -32601 });
    const subscriptions = new Set<string>();
    await engine.handle("resources/subscribe", { uri: "a://b" }, fakeCall("legacy"), subscriptions);
    expect([...subscriptions]).toEqual(["a://b"]);
    await engine.handle("resources/unsubscribe", { uri: "a://b" }, fakeCall("legacy"), subscriptions);
    expect(subscriptions.size).toBe(0);
    await expect(engine.handle("resources/subscribe", { url: "a://b" }, fakeCall("legacy"), subscriptions)).rejects.toMatchObject({
      code: -32602,
      message: "Invalid params for resources/subscribe: expected 'uri' (string); got 'url'",
    });
    // A URI no resource or template serves is not found, as a read of it would be.
    await expect(engine.handle("resources/subscribe", { uri: "a://c" }, fakeCall("legacy"), subscriptions)).rejects.toMatchObject({
      code: -32602,
      message: "Resource not found",
    });
    expect(subscriptions.size).toBe(0);
  });
});

describe("lists", () => {
  const prompts = ["a", "b", "c"].map((name) => ({ prompt: { name } }));
  const cache = { "prompts/list": { ttlMs: 60_000, cacheScope: "private" as const } };

  it("pages with the page size and adds the cache hint on 2026-07-28 only", async () => {
    const engine = engineOf(definition({ capabilities: { prompts: {} }, prompts, cache }), {}, { pageSize: 2 });
    const first = await engine.handle("prompts/list", {}, fakeCall("modern"), new Set());
    expect(first).toEqual({ prompts: [{ name: "a" }, { name: "b" }], nextCursor: "prompts.2", ttlMs: 60_000, cacheScope: "private" });
    expect(await engine.handle("prompts/list", { cursor: "prompts.2" }, fakeCall("legacy"), new Set())).toEqual({ prompts: [{ name: "c" }] });
  });

  it("serves the manifest's lists frozen", async () => {
    const engine = engineOf(definition({ capabilities: { tools: {} }, tools: [structuredClone(echo)] }), {}, {});
    const { tools } = (await engine.handle("tools/list", {}, fakeCall("legacy"), new Set())) as { tools: WireTool[] };
    expect(Object.isFrozen(tools[0]!.inputSchema)).toBe(true);
  });
});

describe("tools/call", () => {
  const tools = [echo, sum];
  it("checks arguments, runs the handler and checks its output", async () => {
    const onError = vi.fn();
    const engine = engineOf(
      definition({ capabilities: { tools: {} }, tools }),
      { tools: { echo: (args: { text: string }) => args.text.toUpperCase(), sum: () => ({ total: "many" }) } },
      { onError },
    );
    const call = (params: object) => engine.handle("tools/call", params as never, fakeCall("legacy"), new Set());
    expect(await call({ name: "echo", arguments: { text: "hi" } })).toEqual({ content: [{ type: "text", text: "HI" }] });
    expect(await call({ name: "echo", arguments: {} })).toMatchObject({
      isError: true,
      content: [{ text: expect.stringContaining("Invalid arguments for tool echo") }],
    });
    expect(await call({ name: "sum" })).toMatchObject({ isError: true, content: [{ text: expect.stringContaining("does not match its outputSchema") }] });
    expect(onError).toHaveBeenCalledTimes(1);
    await expect(call({ tool: "echo", args: {} })).rejects.toMatchObject({
      code: -32602,
      message: "Invalid params for tools/call: expected 'name' (string) and optional 'arguments' (object); got 'tool', 'args'",
    });
    await expect(call({ name: "nope" })).rejects.toMatchObject({ code: -32602, message: "Unknown tool: nope" });
  });

  it("passes a handler's JSON-RPC error through and answers other failures as isError", async () => {
    const onError = vi.fn();
    const handlers = {
      echo: () => {
        throw Object.assign(new Error("gone"), { code: -32002 });
      },
      sum: () => {
        throw new Error("boom");
      },
    };
    const engine = engineOf(definition({ capabilities: { tools: {} }, tools }), { tools: handlers }, { onError });
    await expect(engine.handle("tools/call", { name: "echo", arguments: { text: "x" } }, fakeCall("modern"), new Set())).rejects.toMatchObject({
      code: -32002,
      message: "gone",
    });
    expect(await engine.handle("tools/call", { name: "sum" }, fakeCall("modern"), new Set())).toEqual({
      content: [{ type: "text", text: "Tool sum failed: boom" }],
      isError: true,
    });
    expect(onError).toHaveBeenCalledTimes(1);
  });
});

describe("2025-era tasks", () => {
  it("lists the connection's tasks a page at a time and answers tasks/result as the call would have", async () => {
    const engine = engineOf(definition(slowParts), { tools: { slow: () => "done" } }, { pageSize: 1 });
    const call = fakeCall("legacy", { owner: "me" });
    const created = (await engine.handle("tools/call", { name: "slow", task: {} }, call, new Set())) as { task: { taskId: string } };
    await engine.handle("tools/call", { name: "slow", task: {} }, call, new Set());
    await engine.handle("tools/call", { name: "slow", task: {} }, fakeCall("legacy", { owner: "someone else" }), new Set());
    const first = (await engine.handle("tasks/list", {}, call, new Set())) as { tasks: { taskId: string }[]; nextCursor: string };
    expect(first.tasks.map((t) => t.taskId)).toEqual([created.task.taskId]);
    expect(first.nextCursor).toBe("tasks.1");
    const second = (await engine.handle("tasks/list", { cursor: first.nextCursor }, call, new Set())) as { tasks: object[]; nextCursor?: string };
    expect(second.tasks).toHaveLength(1);
    expect(second.nextCursor).toBeUndefined();
    const result = await engine.handle("tasks/result", { taskId: created.task.taskId }, call, new Set());
    expect(result).toEqual({ content: [{ type: "text", text: "done" }], _meta: { "io.modelcontextprotocol/related-task": { taskId: created.task.taskId } } });
  });

  it("takes each tool's task support from the definition's taskSupport, not from its wire `execution`", async () => {
    const plain: WireTool = { ...echo, execution: { taskSupport: "required" } };
    const engine = engineOf(
      definition({ capabilities: { tools: {} }, tools: [slow, plain], taskSupport: { slow: "required" } }),
      { tools: { slow: () => "done", echo: () => "done" } },
      {},
    );
    await expect(engine.handle("tools/call", { name: "slow", arguments: {} }, fakeCall("legacy"), new Set())).rejects.toMatchObject({
      code: -32601,
      message: "Tool slow requires task-augmented execution: call it with params.task",
    });
    await expect(engine.handle("tools/call", { name: "echo", arguments: { text: "a" }, task: {} }, fakeCall("legacy"), new Set())).rejects.toMatchObject({
      code: -32601,
      message: 'Tool echo does not support task-augmented execution (its execution.taskSupport is "forbidden")',
    });
    expect(await engine.handle("tools/call", { name: "echo", arguments: { text: "a" } }, fakeCall("legacy"), new Set())).toEqual({
      content: [{ type: "text", text: "done" }],
    });
  });

  it("refuses 2026-07-28 task methods to a client without the tasks extension", async () => {
    const engine = engineOf(definition(slowParts), {}, {});
    await expect(engine.handle("tasks/get", { taskId: "x" }, fakeCall("modern"), new Set())).rejects.toMatchObject({ code: -32021 });
  });
});

describe("prompts, resources and completion", () => {
  const parts = {
    capabilities: { prompts: {}, resources: {}, completions: {} },
    prompts: [
      {
        prompt: { name: "greet", description: "Says hello", arguments: [{ name: "who", required: true }] },
        messages: [{ role: "user", content: { type: "text", text: "Hello {{who}}" } }],
      },
    ],
    resources: [{ resource: { uri: "mem://readme", name: "readme", mimeType: "text/plain" }, content: { text: "read me" } }],
    resourceTemplates: [{ uriTemplate: "mem://notes/{id}", name: "note" }],
    completions: [{ ref: "prompt" as const, name: "greet", argument: "who", values: ["ann", "bob", "anna"] }],
  };

  it("fills a prompt's placeholders and checks its arguments", async () => {
    const engine = engineOf(definition(parts), {}, {});
    expect(await engine.handle("prompts/get", { name: "greet", arguments: { who: "Ann" } }, fakeCall("legacy"), new Set())).toEqual({
      description: "Says hello",
      messages: [{ role: "user", content: { type: "text", text: "Hello Ann" } }],
    });
    await expect(engine.handle("prompts/get", { name: "greet" }, fakeCall("legacy"), new Set())).rejects.toMatchObject({
      code: -32602,
      message: "Missing required argument 'who' for prompt greet",
    });
  });

  it("reads static resources and templates through their handler, and -32602 for an unknown URI", async () => {
    const engine = engineOf(definition(parts), { resourceTemplates: { note: (vars: { id: string }) => `note ${vars.id}` } }, {});
    expect(await engine.handle("resources/read", { uri: "mem://readme" }, fakeCall("modern"), new Set())).toEqual({
      contents: [{ uri: "mem://readme", mimeType: "text/plain", text: "read me" }],
    });
    expect(await engine.handle("resources/read", { uri: "mem://notes/7" }, fakeCall("legacy"), new Set())).toEqual({
      contents: [{ uri: "mem://notes/7", text: "note 7" }],
    });
    await expect(engine.handle("resources/read", { uri: "mem://other" }, fakeCall("legacy"), new Set())).rejects.toMatchObject({
      code: -32602,
      message: "Resource not found",
      data: { uri: "mem://other" },
    });
  });

  it("completes from the static values, and refuses an unknown prompt", async () => {
    const engine = engineOf(definition(parts), {}, {});
    const complete = (ref: object, value: string) =>
      engine.handle("completion/complete", { ref, argument: { name: "who", value } }, fakeCall("modern"), new Set());
    expect(await complete({ type: "ref/prompt", name: "greet" }, "an")).toEqual({ completion: { values: ["ann", "anna"], total: 2, hasMore: false } });
    expect(await complete({ type: "ref/resource", uri: "mem://notes/{id}" }, "")).toEqual({ completion: { values: [], total: 0, hasMore: false } });
    await expect(complete({ type: "ref/prompt", name: "nope" }, "")).rejects.toMatchObject({ code: -32602, message: "Unknown prompt: nope" });
    await expect(complete({ type: "ref/resource", uri: "mem://nope" }, "")).rejects.toMatchObject({ code: -32602, message: "Unknown resource: mem://nope" });
  });
});
