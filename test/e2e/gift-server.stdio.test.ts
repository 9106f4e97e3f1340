/**
 * The generated gift-server in its own process over stdio, driven by the official SDK v2 Client
 * and the generated client, in both protocol eras: the same answers as in memory, through real
 * pipes and JSON lines. The 2026-07-28 client probes with server/discover first (SDK `auto`).
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { createClient, ToolError } from "../../examples/gift-server/generated/gift-server/index.js";
import { ERAS, type Era } from "../helpers/connect.js";

const read = (name: string) => JSON.parse(readFileSync(new URL(`../../examples/gift-server/generated/gift-server/fixtures/${name}`, import.meta.url), "utf8"));
const serverScript = fileURLToPath(new URL("../servers/gift-stdio.ts", import.meta.url));

async function start(era: Era, env: Record<string, string> = {}) {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ["--import", "tsx", serverScript],
    env: { ...(process.env as Record<string, string>), ...env },
    stderr: "pipe",
  });
  const sdk = new Client({ name: "stdio-test", version: "1.0.0" }, era === "modern" ? { versionNegotiation: { mode: "auto" } } : {});
  await sdk.connect(transport);
  expect(sdk.getProtocolEra()).toBe(era);
  return sdk;
}

describe.each(ERAS)("gift-server over stdio (%s era)", (era: Era) => {
  let sdk: Client;
  const listed = (name: string) => {
    if (era === "legacy") return read(name);
    const { resultType: _, ...rest } = read(`2026-07-28/${name}`);
    return rest;
  };
  beforeAll(async () => {
    sdk = await start(era);
  });
  afterAll(async () => {
    await sdk?.close();
  });

  it("announces itself and answers every list with its fixture", async () => {
    expect(sdk.getServerVersion()).toEqual({ name: "gift-server", version: "1.0.0", title: "Gift ideas" });
    expect(sdk.getServerCapabilities()).toEqual({ tools: {}, resources: {}, prompts: {} });
    expect(await sdk.listTools()).toEqual(listed("tools-list.json"));
    expect(await sdk.listResources()).toEqual(listed("resources-list.json"));
    expect(await sdk.listResourceTemplates()).toEqual(listed("resource-templates-list.json"));
    expect(await sdk.listPrompts()).toEqual(listed("prompts-list.json"));
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
    await expect(sdk.callTool({ name: "nope", arguments: {} })).rejects.toMatchObject({ code: -32602, message: "Unknown tool: nope" });
    expect(await sdk.callTool({ name: "suggest_gifts", arguments: { occasion: "x" } })).toMatchObject({
      content: [{ type: "text", text: "Invalid arguments for tool suggest_gifts: Missing required property 'budget'" }],
      isError: true,
    });
    await expect(sdk.readResource({ uri: "mcp://elsewhere" })).rejects.toMatchObject({ code: -32602, data: { uri: "mcp://elsewhere" } });
    await expect(sdk.getPrompt({ name: "nope" })).rejects.toMatchObject({ code: -32602 });
    const anything = { "~standard": { version: 1, vendor: "test", validate: (value: unknown) => ({ value }) } };
    await expect(sdk.request({ method: "tools/col" }, anything as never)).rejects.toMatchObject({ code: -32601 });
    expect((await sdk.getPrompt({ name: "gift_congrats_style", arguments: { tone: "funny" } })).messages).toEqual([
      { role: "user", content: { type: "text", text: "Write a short, funny birthday note to go with the gift." } },
    ]);
  });

  it("answers -32602 for invalid arguments when started with invalidArguments: 'protocol-error'", async () => {
    const strict = await start(era, { INVALID_ARGUMENTS: "protocol-error" });
    try {
      await expect(strict.callTool({ name: "suggest_gifts", arguments: { occasion: "x" } })).rejects.toMatchObject({
        code: -32602,
        message: "Invalid arguments for tool suggest_gifts: Missing required property 'budget'",
      });
    } finally {
      await strict.close();
    }
  });
});
