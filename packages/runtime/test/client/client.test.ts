/** The generated client's object, built by the runtime from a table of method names. */
import { describe, expect, it } from "vitest";
import { clientObject, ManifestClient, type SdkClientV1 } from "../../src/client/client.js";
import type { JsonObject, ServerDefinition } from "../../src/shared/definition.js";

describe("clientObject", () => {
  it("defines one own method per table entry, odd names included, each calling what the table says", async () => {
    const calls: unknown[][] = [];
    const sdk = {
      callTool: async (params: unknown) => (calls.push(["callTool", params]), { content: [{ type: "text", text: "ok" }] }),
      readResource: async (params: unknown) => (calls.push(["readResource", params]), { contents: [] }),
      getPrompt: async (params: unknown) => (calls.push(["getPrompt", params]), { messages: [] }),
    } as unknown as SdkClientV1;
    const definition: ServerDefinition = {
      serverInfo: { name: "s", version: "1" },
      capabilities: { tools: {} },
      tools: [{ name: "a.b", inputSchema: { type: "object" } }],
      resources: [],
      resourceTemplates: [],
      prompts: [],
    };
    type Client = Record<string, (...args: unknown[]) => Promise<unknown>> & { sdk: SdkClientV1 };
    const client = clientObject<Client>(
      new ManifestClient(sdk, definition),
      JSON.parse('{"aB": {"tool": "a.b"}, "__proto__": {"tool": "a.b"}, "readX": {"resource": "x://1"}, "readT": {"template": "x://t/{id}"}}'),
    );

    expect(Object.getPrototypeOf(client)).toBe(Object.prototype);
    // In the order of the generated interface: sdk, tool methods, callTool, listTools, onListChanged, readResource, resource and template readers, getPrompt.
    expect(Object.keys(client)).toEqual(["sdk", "aB", "__proto__", "callTool", "listTools", "onListChanged", "readResource", "readX", "readT", "getPrompt"]);
    expect(client.sdk).toBe(sdk);
    await client.aB!({ n: 1 });
    await client["__proto__"]!();
    await client.readX!();
    await client.readT!({ id: "a b" });
    await client.getPrompt!("p", { k: "v" });
    expect(calls).toEqual([
      ["callTool", { name: "a.b", arguments: { n: 1 } }],
      ["callTool", { name: "a.b", arguments: {} }],
      ["readResource", { uri: "x://1" }],
      ["readResource", { uri: "x://t/a%20b" }],
      ["getPrompt", { name: "p", arguments: { k: "v" } }],
    ]);
  });

  it("has `tasks` exactly when the definition's taskSupport names a tool (what mcpgen decided, not the wire's `execution`)", () => {
    const sdk = { callTool: async () => ({}), readResource: async () => ({}), getPrompt: async () => ({}) } as unknown as SdkClientV1;
    const withTools = (execution: JsonObject | undefined, taskSupport?: ServerDefinition["taskSupport"]): ServerDefinition => ({
      serverInfo: { name: "s", version: "1" },
      capabilities: { tools: {} },
      tools: [{ name: "t", inputSchema: { type: "object" }, ...(execution ? { execution } : {}) }],
      ...(taskSupport ? { taskSupport } : {}),
      resources: [],
      resourceTemplates: [],
      prompts: [],
    });
    const tasksOf = (definition: ServerDefinition) => Object.keys(clientObject<{ tasks?: object }>(new ManifestClient(sdk, definition), {}).tasks ?? {});
    expect(tasksOf(withTools({ taskSupport: "optional" }, { t: "optional" }))).toEqual(["start", "run", "resume", "get", "cancel"]);
    expect(tasksOf(withTools({ taskSupport: "required" }, { t: "required" }))).toEqual(["start", "run", "resume", "get", "cancel"]);
    expect(tasksOf(withTools({ taskSupport: "optional" }))).toEqual([]);
    expect(tasksOf(withTools(undefined))).toEqual([]);
  });

  it("calls an SDK v2 Client with (params, options + toolDefinition without outputSchema), an SDK 1.x one with (params, undefined, options)", async () => {
    const definition: ServerDefinition = {
      serverInfo: { name: "s", version: "1" },
      capabilities: { tools: {} },
      tools: [{ name: "t", inputSchema: { type: "object", properties: { r: { type: "string", "x-mcp-header": "R" } } }, outputSchema: { type: "object" } }],
      resources: [],
      resourceTemplates: [],
      prompts: [],
    };
    const seen: unknown[][] = [];
    const answer = { content: [], structuredContent: { ok: 1 } };
    const v2 = {
      getProtocolEra: () => "modern",
      callTool: async (...args: unknown[]) => (seen.push(args), answer),
      readResource: async () => ({}),
      getPrompt: async () => ({}),
    };
    const v1 = { callTool: async (...args: unknown[]) => (seen.push(args), answer), readResource: async () => ({}), getPrompt: async () => ({}) };
    const signal = new AbortController().signal;
    await new ManifestClient(v2 as never, definition).callToolOutput("t", { r: "x" }, { signal });
    await new ManifestClient(v1 as never, definition).callToolOutput("t", { r: "x" }, { signal });
    expect(seen).toEqual([
      [
        { name: "t", arguments: { r: "x" } },
        { signal, toolDefinition: { name: "t", inputSchema: definition.tools[0]!.inputSchema } },
      ],
      [{ name: "t", arguments: { r: "x" } }, undefined, { signal }],
    ]);
  });
});
