/** The generated client's object, built by the runtime from a table of method names. */
import { describe, expect, it } from "vitest";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { clientObject, ManifestClient } from "../../src/runtime/client.js";
import type { ServerDefinition } from "../../src/runtime/definition.js";

describe("clientObject", () => {
  it("defines one own method per table entry, odd names included, each calling what the table says", async () => {
    const calls: unknown[][] = [];
    const sdk = {
      callTool: async (params: unknown) => (calls.push(["callTool", params]), { content: [{ type: "text", text: "ok" }] }),
      readResource: async (params: unknown) => (calls.push(["readResource", params]), { contents: [] }),
      getPrompt: async (params: unknown) => (calls.push(["getPrompt", params]), { messages: [] }),
    } as unknown as Client;
    const definition: ServerDefinition = {
      serverInfo: { name: "s", version: "1" },
      capabilities: { tools: {} },
      tools: [{ name: "a.b", inputSchema: { type: "object" } }],
      resources: [],
      resourceTemplates: [],
      prompts: [],
    };
    const client = clientObject(new ManifestClient(sdk, definition), {
      tools: JSON.parse('{"aB": "a.b", "__proto__": "a.b"}'),
      resources: { readX: "x://1" },
      templates: { readT: "x://t/{id}" },
    }) as Record<string, (...args: unknown[]) => Promise<unknown>> & { sdk: Client };

    expect(Object.getPrototypeOf(client)).toBe(Object.prototype);
    expect(Object.keys(client).sort()).toEqual(["__proto__", "aB", "callTool", "getPrompt", "readResource", "readT", "readX", "sdk"]);
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
});
