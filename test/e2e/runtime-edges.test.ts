/**
 * The runtime engine on the wire with handlers that misbehave and names that are prototype keys:
 * every answer stays a valid MCP answer, and the server keeps serving.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { ServerDefinition } from "../../packages/runtime/src/shared/definition.js";
import { RpcError } from "../../packages/runtime/src/shared/errors.js";
import { createManifestServerFactory, type RuntimeHandlers } from "../helpers/runtime.js";
import { ajvValidators } from "../../packages/runtime/src/shared/ajvValidators.js";
import { ERAS, type Era } from "../helpers/connect.js";
import { rawSession } from "../helpers/wire.js";

const definition: ServerDefinition = {
  serverInfo: { name: "edges", version: "1" },
  capabilities: { tools: {}, resources: {}, prompts: {} },
  tools: [
    {
      name: "structured",
      inputSchema: { type: "object", properties: { constructor: { type: "string" }, n: { type: "number" } } },
      outputSchema: { type: "object", properties: { n: { type: "number" } }, required: ["n"] },
    },
    { name: "text", inputSchema: { type: "object", required: ["toString"] } },
    { name: "toString", inputSchema: { type: "object" } },
  ],
  resources: [{ resource: { uri: "x://r", name: "r" } }],
  resourceTemplates: [],
  prompts: [{ prompt: { name: "p" } }],
};

let close: (() => Promise<void>) | undefined;
let errors: unknown[][];
beforeEach(() => {
  errors = [];
  vi.spyOn(console, "error").mockImplementation((...args) => void errors.push(args));
});
afterEach(async () => {
  vi.restoreAllMocks();
  await close?.();
  close = undefined;
});

let era: Era = "legacy";
async function session(handlers: RuntimeHandlers) {
  const s = await rawSession(createManifestServerFactory(definition, handlers), { era });
  close = s.close;
  return s.request;
}

const text = (r: { result?: Record<string, unknown> }) => (r.result!.content as { text: string }[])[0]!.text;

describe.each(ERAS)("runtime edges (%s era)", (current: Era) => {
  beforeEach(() => {
    era = current;
  });

  it("does not count inherited members as arguments (own properties only)", async () => {
    const request = await session({ tools: { structured: () => ({ n: 1 }), text: () => "ok" } });
    expect((await request("tools/call", { name: "structured", arguments: { n: 1 } })).result).toMatchObject({ structuredContent: { n: 1 } });
    expect(text(await request("tools/call", { name: "text", arguments: {} }))).toBe("Invalid arguments for tool text: Missing required property 'toString'");
    expect(text(await request("tools/call", { name: "text", arguments: JSON.parse('{"toString": 1}') }))).toBe("ok");
  });

  it("checks structured output as JSON will carry it: NaN becomes null, BigInt is not JSON", async () => {
    const outputs: unknown[] = [{ n: Number.NaN }, { n: 10n }];
    const request = await session({ tools: { structured: () => outputs.shift() } });
    expect(text(await request("tools/call", { name: "structured", arguments: {} }))).toBe(
      "Tool structured returned output that does not match its outputSchema: Property 'n' must be number",
    );
    const big = await request("tools/call", { name: "structured", arguments: {} });
    expect(big.result!.isError).toBe(true);
    expect(text(big)).toMatch(/^Tool structured returned output that is not JSON: Do not know how to serialize a BigInt/);
    expect(errors).toHaveLength(2);
  });

  it("answers isError when a tool returns a malformed CallToolResult", async () => {
    const request = await session({ tools: { text: () => ({ content: [{ type: "txt" }] }) } });
    const r = await request("tools/call", { name: "text", arguments: { toString: 1 } });
    expect(r.result!.isError).toBe(true);
    expect(text(r)).toMatch(/^Tool text returned neither a string nor a valid CallToolResult: content\.0 /);
  });

  it("answers -32603 for malformed resource and prompt results", async () => {
    const resources = [{ contents: [{ text: "no uri" }] }, { blob: "not base64!!" }];
    const request = await session({
      resources: { r: () => resources.shift() },
      prompts: { p: () => ({ messages: [{ role: "system", content: { type: "text", text: "x" } }] }) },
    });
    expect((await request("resources/read", { uri: "x://r" })).error).toMatchObject({
      code: -32603,
      message: expect.stringMatching(/^Resource r: the handler returned neither text, \{ blob: base64 \} nor a valid ReadResourceResult \(contents\.0/),
    });
    expect((await request("resources/read", { uri: "x://r" })).error).toMatchObject({
      code: -32603,
      message: expect.stringContaining("(contents.0.blob Invalid Base64 string)"),
    });
    expect((await request("prompts/get", { name: "p" })).error).toMatchObject({
      code: -32603,
      message: expect.stringMatching(/^Prompt p: the handler did not return a valid GetPromptResult \(messages\.0\.role/),
    });
  });

  it("passes JSON-RPC error codes through, and turns other codes into -32603", async () => {
    const thrown = [Object.assign(new Error("Resource not found"), { code: -32002, data: { uri: "x://r" } }), Object.assign(new Error("nope"), { code: 404 })];
    const request = await session({
      resources: {
        r: () => {
          throw thrown.shift()!;
        },
      },
    });
    // The SDK sends -32002 as -32602 in both eras (what 2026-07-28 requires); the data goes with it.
    expect((await request("resources/read", { uri: "x://r" })).error).toEqual({ code: -32602, message: "Resource not found", data: { uri: "x://r" } });
    expect((await request("resources/read", { uri: "x://r" })).error).toEqual({ code: -32603, message: "resources/read r failed: nope" });
    expect(errors).toHaveLength(1);
  });

  it("answers a tool's thrown RpcError as that JSON-RPC error, and other errors as isError", async () => {
    const thrown: Error[] = [new RpcError(-32050, "Quota exceeded", { retryAfter: 3 }), new Error("boom")];
    const request = await session({
      tools: {
        text: () => {
          throw thrown.shift()!;
        },
      },
    });
    expect((await request("tools/call", { name: "text", arguments: { toString: 1 } })).error).toEqual({
      code: -32050,
      message: "Quota exceeded",
      data: { retryAfter: 3 },
    });
    expect(text(await request("tools/call", { name: "text", arguments: { toString: 1 } }))).toBe("Tool text failed: boom");
  });

  it("never takes an inherited function for a handler", async () => {
    const request = await session({ tools: {} });
    expect(text(await request("tools/call", { name: "toString", arguments: {} }))).toBe("Tool toString has no handler on this server");
  });
});

describe("SchemaValidators", () => {
  it("compiles a schema once and describes problems", () => {
    const v = ajvValidators();
    const schema = {
      type: "object",
      properties: { tags: { type: "array", items: { type: "string" } }, mode: { enum: ["a", "b"] } },
      additionalProperties: false,
    };
    expect(v.validator(schema)).toBe(v.validator(schema));
    expect(v.check(schema, { tags: ["x", 2], mode: "c", extra: 1 })).toBe(
      "Unknown property 'extra'; Property 'tags[1]' must be string; Property 'mode' must be one of \"a\", \"b\"",
    );
  });
});
