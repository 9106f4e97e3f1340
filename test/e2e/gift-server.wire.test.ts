/**
 * The generated gift-server on the wire: every behaviour of the issue, as raw JSON-RPC, with exact
 * codes and messages, over InMemoryTransport, in both protocol eras: a 2025-era client (initialize
 * handshake) and 2026-07-28 requests (the `_meta` envelope on each), served by the same factory.
 */
import { readFileSync } from "node:fs";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createServerFactory } from "../../examples/gift-server/generated/gift-server/index.js";
import { giftHandlers } from "../servers/gift.js";
import { ERAS, type Era } from "../helpers/connect.js";
import { rawSession } from "../helpers/wire.js";

const read = (path: string) => JSON.parse(readFileSync(new URL(`../../examples/gift-server/generated/gift-server/fixtures/${path}`, import.meta.url), "utf8"));
const SERVER_INFO = { name: "gift-server", version: "1.0.0", title: "Gift ideas" };

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

describe.each(ERAS)("gift-server on the wire (%s era)", (era: Era) => {
  const modern = era === "modern";
  /** The fixture of the era: fixtures/ for 2025-era clients, fixtures/2026-07-28/ for 2026-07-28. */
  const fixture = (name: string) => read(modern ? `2026-07-28/${name}` : name);
  /** A result as it reaches a client of this era (2026-07-28 adds resultType and the server's identity). */
  const wire = (result: Record<string, unknown>, cache: Record<string, unknown> = {}) =>
    modern
      ? { ...result, ...cache, resultType: "complete", _meta: { ...(result._meta as object | undefined), "io.modelcontextprotocol/serverInfo": SERVER_INFO } }
      : result;
  const STATIC = { ttlMs: 300000, cacheScope: "public" };

  async function session(options?: Parameters<typeof createServerFactory>[1], handlers = giftHandlers) {
    const s = await rawSession(createServerFactory(handlers, options), { era });
    close = s.close;
    return s;
  }

  it("declares the capabilities the manifest needs, and its serverInfo and instructions", async () => {
    const s = await session();
    const instructions =
      "Use suggest_gifts to find gift ideas for an occasion and a budget in dollars. The gift_catalog resource lists the categories the suggestions come from.";
    if (!modern) {
      expect(s.init!.result).toEqual({
        protocolVersion: "2025-11-25",
        capabilities: { tools: {}, resources: {}, prompts: {} },
        serverInfo: SERVER_INFO,
        instructions,
      });
    } else {
      const discover = await s.request("server/discover");
      expect(discover.result).toEqual(fixture("server-discover.json"));
      expect(discover.result).toEqual(
        wire({ supportedVersions: ["2026-07-28"], capabilities: { tools: {}, resources: {}, prompts: {} }, instructions }, STATIC),
      );
    }
  });

  it("answers each list method with its fixture, byte for byte", async () => {
    const { request } = await session();
    expect((await request("tools/list")).result).toEqual(fixture("tools-list.json"));
    expect((await request("tools/list", { cursor: null })).result).toEqual(fixture("tools-list.json"));
    expect((await request("resources/list", {})).result).toEqual(fixture("resources-list.json"));
    expect((await request("resources/templates/list")).result).toEqual(fixture("resource-templates-list.json"));
    expect((await request("prompts/list")).result).toEqual(fixture("prompts-list.json"));
  });

  it("serves each schema self-contained: the shared Gift def is bundled under $defs", async () => {
    const { request } = await session();
    const tool = ((await request("tools/list")).result!.tools as Record<string, any>[])[0]!;
    expect(tool.outputSchema.properties.gifts.items).toEqual({ $ref: "#/$defs/Gift" });
    expect(Object.keys(tool.outputSchema.$defs)).toEqual(["Gift"]);
    // MCP Apps' ui (from `widget:` and `visibility:`), and ChatGPT's aliases (the widget has `chatgpt:`).
    expect(tool._meta).toEqual({
      ui: { resourceUri: "ui://widget/gifts.html", visibility: ["model"] },
      "openai/outputTemplate": "ui://widget/gifts.html",
      "openai/widgetAccessible": false,
      "openai/visibility": "public",
      "openai/toolInvocation/invoking": "Looking for gift ideas",
      "openai/toolInvocation/invoked": "Here are some gift ideas",
    });
    expect(tool).not.toHaveProperty("examples");
    expect(tool).not.toHaveProperty("widget");
    expect(tool).not.toHaveProperty("visibility");
  });

  it("serves the widget as an MCP Apps resource: its HTML, with _meta.ui on the list entry and on the read item", async () => {
    const { request } = await session();
    const resources = (await request("resources/list")).result!.resources as Record<string, any>[];
    const entry = resources.find((r) => r.uri === "ui://widget/gifts.html")!;
    const meta = {
      ui: { prefersBorder: true },
      "openai/widgetDescription": "The gift ideas as cards, each with its details on demand.",
      "openai/widgetPrefersBorder": true,
      "openai/widgetCSP": { connect_domains: [], resource_domains: [] },
    };
    expect(entry).toEqual({
      uri: "ui://widget/gifts.html",
      name: "gifts",
      title: "Gift ideas",
      description: "The gift ideas as cards, each with its details on demand.",
      mimeType: "text/html;profile=mcp-app",
      _meta: meta,
    });
    const read = (await request("resources/read", { uri: "ui://widget/gifts.html" })).result!.contents as Record<string, any>[];
    expect(read).toHaveLength(1);
    expect(read[0]).toMatchObject({ uri: "ui://widget/gifts.html", mimeType: "text/html;profile=mcp-app", _meta: meta });
    expect(read[0]!.text).toMatch(/^<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">/);
    expect(read[0]!.text).toContain("<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; script-src 'sha256-");
    // The app-only tool: visible to views, not to the model; in ChatGPT's aliases too (it opens no widget).
    const tools = (await request("tools/list")).result!.tools as Record<string, any>[];
    expect(tools.find((t) => t.name === "gift_details")!._meta).toEqual({
      ui: { visibility: ["app"] },
      "openai/widgetAccessible": true,
      "openai/visibility": "private",
    });
  });

  it("calls a tool with outputSchema: structuredContent plus a JSON text block", async () => {
    const { request } = await session();
    const response = await request("tools/call", { name: "suggest_gifts", arguments: { occasion: "birthday", budget: 30 } });
    const gifts = [
      { name: "Dice set", price: 20 },
      { name: "Book: The Hobbit", price: 15 },
    ];
    expect(response.result).toEqual(wire({ content: [{ type: "text", text: JSON.stringify({ gifts }) }], structuredContent: { gifts } }));
  });

  it("answers an unknown tool with JSON-RPC -32602 'Unknown tool: <name>'", async () => {
    const { request } = await session();
    const response = await request("tools/call", { name: "suggest_gift", arguments: {} });
    expect(response.error).toEqual({ code: -32602, message: "Unknown tool: suggest_gift" });
  });

  it("answers invalid arguments with an isError result naming the property and the rule", async () => {
    const { request } = await session();
    const missing = await request("tools/call", { name: "suggest_gifts", arguments: { occasion: "anniversary" } });
    expect(missing.result).toEqual(
      wire({
        content: [{ type: "text", text: "Invalid arguments for tool suggest_gifts: Missing required property 'budget'" }],
        isError: true,
      }),
    );
    const wrongType = await request("tools/call", { name: "suggest_gifts", arguments: { occasion: "birthday", budget: "cent dollars" } });
    expect(wrongType.result).toEqual(
      wire({
        content: [{ type: "text", text: "Invalid arguments for tool suggest_gifts: Property 'budget' must be number" }],
        isError: true,
      }),
    );
    const negative = await request("tools/call", { name: "suggest_gifts", arguments: { occasion: "birthday", budget: -1 } });
    expect((negative.result!.content as { text: string }[])[0]!.text).toBe("Invalid arguments for tool suggest_gifts: Property 'budget' must be >= 0");
  });

  it("answers invalid arguments with JSON-RPC -32602 under invalidArguments: 'protocol-error'", async () => {
    const { request } = await session({ invalidArguments: "protocol-error" });
    const response = await request("tools/call", { name: "suggest_gifts", arguments: { occasion: "anniversary" } });
    expect(response.error).toEqual({ code: -32602, message: "Invalid arguments for tool suggest_gifts: Missing required property 'budget'" });
  });

  it("names the expected fields when a client sends tool/args instead of name/arguments", async () => {
    const { request } = await session();
    const response = await request("tools/call", { tool: "suggest_gifts", args: { occasion: "birthday", budget: 100 } });
    expect(response.error).toEqual({
      code: -32602,
      message: "Invalid params for tools/call: expected 'name' (string) and optional 'arguments' (object); got 'tool', 'args'",
    });
    const notObject = await request("tools/call", { name: "suggest_gifts", arguments: [1, 2] });
    expect(notObject.error).toEqual({ code: -32602, message: "Invalid params: 'arguments' of tools/call must be an object" });
  });

  it("turns a thrown ToolError into isError with its message", async () => {
    const { request } = await session();
    const response = await request("tools/call", { name: "suggest_gifts", arguments: { occasion: "birthday", budget: 1 } });
    expect(response.result).toEqual(wire({ content: [{ type: "text", text: "No gift ideas under $1 for a birthday" }], isError: true }));
  });

  it("turns any other exception into isError, logs it to stderr, and keeps serving", async () => {
    const errors: unknown[] = [];
    const spy = vi.spyOn(console, "error").mockImplementation((...args) => void errors.push(args));
    try {
      const s = await session(undefined, {
        tools: {
          ...giftHandlers.tools,
          suggest_gifts: () => {
            throw new TypeError("catalog offline");
          },
        },
      });
      const response = await s.request("tools/call", { name: "suggest_gifts", arguments: { occasion: "birthday", budget: 10 } });
      expect(response.result).toEqual(wire({ content: [{ type: "text", text: "Tool suggest_gifts failed: catalog offline" }], isError: true }));
      expect(errors).toHaveLength(1);
      expect(String((errors[0] as unknown[])[0])).toContain("tools/call suggest_gifts failed");
      expect((await s.request("tools/list")).result).toEqual(fixture("tools-list.json"));
    } finally {
      spy.mockRestore();
    }
  });

  it("never sends output that breaks the outputSchema as success", async () => {
    const spy = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      const s = await session(undefined, { tools: { ...giftHandlers.tools, suggest_gifts: () => ({ gifts: [{ name: "Kite", price: "cheap" }] }) as never } });
      const response = await s.request("tools/call", { name: "suggest_gifts", arguments: { occasion: "birthday", budget: 10 } });
      expect(response.result).toEqual(
        wire({
          content: [
            { type: "text", text: "Tool suggest_gifts returned output that does not match its outputSchema: Property 'gifts[0].price' must be number" },
          ],
          isError: true,
        }),
      );
      expect(spy).toHaveBeenCalledTimes(1);
    } finally {
      spy.mockRestore();
    }
  });

  it("reads the static resource, and answers an unknown URI with -32602 and data.uri", async () => {
    const { request } = await session();
    expect((await request("resources/read", { uri: "mcp://gift-server/resources/gift_catalog" })).result).toEqual(
      wire(
        { contents: [{ uri: "mcp://gift-server/resources/gift_catalog", mimeType: "application/json", text: '{"categories":["boardgames","books"]}' }] },
        STATIC,
      ),
    );
    // 2026-07-28 requires -32602; the SDK sends it in both eras (2025-11-25 said -32002, which clients still accept).
    expect((await request("resources/read", { uri: "mcp://gift-server/resources/nope" })).error).toEqual({
      code: -32602,
      message: "Resource not found",
      data: { uri: "mcp://gift-server/resources/nope" },
    });
    expect((await request("resources/read", { resourceId: "gift_catalog" })).error).toEqual({
      code: -32602,
      message: "Invalid params for resources/read: expected 'uri' (string); got 'resourceId'",
    });
  });

  it("fills prompt placeholders, and rejects unknown prompts with -32602", async () => {
    const { request } = await session();
    expect((await request("prompts/get", { name: "gift_congrats_style", arguments: { tone: "warm" } })).result).toEqual(
      wire({
        description: "Style guide for birthday congratulations in a friendly tone",
        messages: [{ role: "user", content: { type: "text", text: "Write a short, warm birthday note to go with the gift." } }],
      }),
    );
    expect((await request("prompts/get", { name: "gift_congrats_style" })).result!.messages).toEqual([
      { role: "user", content: { type: "text", text: "Write a short,  birthday note to go with the gift." } },
    ]);
    expect((await request("prompts/get", { name: "nope" })).error).toEqual({ code: -32602, message: "Unknown prompt: nope" });
    expect((await request("prompts/get", { name: "gift_congrats_style", arguments: { tone: 3 } })).error).toEqual({
      code: -32602,
      message: "Argument 'tone' of prompt gift_congrats_style must be a string",
    });
  });

  it("answers an unknown method with -32601, and a cursor it never issued with -32602", async () => {
    const { request } = await session();
    expect((await request("tools/col")).error).toEqual({ code: -32601, message: "Method not found" });
    expect((await request("resources/get", { uri: "x" })).error).toEqual({ code: -32601, message: "Method not found" });
    expect((await request("tools/list", { cursor: "abc" })).error).toEqual({
      code: -32602,
      message: "Invalid cursor: pass the nextCursor of the previous page, or none for the first page",
    });
  });

  it("validates arguments and outputs with the validators mcpgen printed: ajv compiles nothing at run time", async () => {
    const { Ajv2020 } = await import("ajv/dist/2020.js");
    const compile = vi.spyOn(Ajv2020.prototype, "compile");
    try {
      const { request } = await session();
      for (let i = 0; i < 3; i++)
        expect((await request("tools/call", { name: "suggest_gifts", arguments: { occasion: "x", budget: 10 } })).result?.isError).toBeFalsy();
      const invalid = await request("tools/call", { name: "suggest_gifts", arguments: { occasion: "x" } });
      expect(JSON.stringify(invalid.result ?? invalid.error)).toContain("Missing required property 'budget'");
      expect(compile).not.toHaveBeenCalled();
    } finally {
      compile.mockRestore();
    }
  });
});
