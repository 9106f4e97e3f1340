/**
 * The generated gift-server in its own process over stdio, driven by the official SDK Client and
 * the generated client: the same answers as in memory, through real pipes and JSON lines.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { createClient, ToolError } from "../../generated/gift-server/index.js";

const fixture = (name: string) => JSON.parse(readFileSync(new URL(`../../generated/gift-server/fixtures/${name}`, import.meta.url), "utf8"));
const serverScript = fileURLToPath(new URL("../servers/gift-stdio.ts", import.meta.url));

async function start(env: Record<string, string> = {}) {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ["--import", "tsx", serverScript],
    env: { ...(process.env as Record<string, string>), ...env },
    stderr: "pipe",
  });
  const sdk = new Client({ name: "stdio-test", version: "1.0.0" });
  await sdk.connect(transport);
  return sdk;
}

describe("gift-server over stdio", () => {
  let sdk: Client;
  beforeAll(async () => {
    sdk = await start();
  });
  afterAll(async () => {
    await sdk?.close();
  });

  it("announces itself and answers every list with its fixture", async () => {
    expect(sdk.getServerVersion()).toEqual({ name: "gift-server", version: "1.0.0", title: "Gift ideas" });
    expect(sdk.getServerCapabilities()).toEqual({ tools: {}, resources: {}, prompts: {} });
    expect(await sdk.listTools()).toEqual(fixture("tools-list.json"));
    expect(await sdk.listResources()).toEqual(fixture("resources-list.json"));
    expect(await sdk.listResourceTemplates()).toEqual(fixture("resource-templates-list.json"));
    expect(await sdk.listPrompts()).toEqual(fixture("prompts-list.json"));
  });

  it("calls the tool through the generated client, typed output and ToolError included", async () => {
    const client = createClient(sdk);
    expect(await client.suggestGifts({ occasion: "birthday", budget: 20, recipient: "friend" })).toEqual({
      gifts: [
        { name: "Dice set", price: 20 },
        { name: "Book: The Hobbit", price: 15 },
      ],
    });
    await expect(client.suggestGifts({ occasion: "birthday", budget: 2 })).rejects.toThrow(ToolError);
    await expect(client.suggestGifts({ occasion: "birthday", budget: 2 })).rejects.toThrow("No gift ideas under $2 for a birthday");
  });

  it("answers the error cases with the same codes and messages as in memory", async () => {
    await expect(sdk.callTool({ name: "nope", arguments: {} })).rejects.toMatchObject({ code: -32602, message: "MCP error -32602: Unknown tool: nope" });
    expect(await sdk.callTool({ name: "suggest_gifts", arguments: { occasion: "x" } })).toEqual({
      content: [{ type: "text", text: "Invalid arguments for tool suggest_gifts: Missing required property 'budget'" }],
      isError: true,
    });
    await expect(sdk.readResource({ uri: "mcp://elsewhere" })).rejects.toMatchObject({ code: -32002, data: { uri: "mcp://elsewhere" } });
    await expect(sdk.getPrompt({ name: "nope" })).rejects.toMatchObject({ code: -32602 });
    await expect(sdk.request({ method: "tools/col" } as never, (await import("@modelcontextprotocol/sdk/types.js")).EmptyResultSchema)).rejects.toMatchObject({ code: -32601 });
    expect((await sdk.getPrompt({ name: "gift_congrats_style", arguments: { tone: "funny" } })).messages).toEqual([
      { role: "user", content: { type: "text", text: "Write a short, funny birthday note to go with the gift." } },
    ]);
  });

  it("answers -32602 for invalid arguments when started with invalidArguments: 'protocol-error'", async () => {
    const strict = await start({ INVALID_ARGUMENTS: "protocol-error" });
    try {
      await expect(strict.callTool({ name: "suggest_gifts", arguments: { occasion: "x" } })).rejects.toMatchObject({
        code: -32602,
        message: "MCP error -32602: Invalid arguments for tool suggest_gifts: Missing required property 'budget'",
      });
    } finally {
      await strict.close();
    }
  });
});
