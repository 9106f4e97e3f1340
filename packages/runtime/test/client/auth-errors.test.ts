/** ToolAuthorizationError: from a WWW-Authenticate challenge, the SDK's InsufficientScopeError, or an `mcp/www_authenticate` result. */
import { InsufficientScopeError, UnauthorizedError } from "@modelcontextprotocol/client";
import { describe, expect, it } from "vitest";
import { fromAuthenticateResult, fromSdkScopeError, parseBearerChallenge } from "../../src/client/authErrors.js";
import { ManifestClient, ToolAuthorizationError, type SdkClientV2 } from "../../src/client/client.js";
import { ToolCallError } from "../../src/shared/errors.js";
import type { ServerDefinition } from "../../src/shared/definition.js";
import type { CallToolResult } from "../../src/shared/mcp.js";

const PRM = "https://gifts.example.com/.well-known/oauth-protected-resource/mcp";

describe("parseBearerChallenge", () => {
  const cases: [string, string, ReturnType<typeof parseBearerChallenge>][] = [
    [
      "the 403 mcpgen and the SDK send",
      `Bearer error="insufficient_scope", error_description="buy_gift needs gifts.read gifts.write", scope="gifts.read gifts.write", resource_metadata="${PRM}"`,
      {
        error: "insufficient_scope",
        errorDescription: "buy_gift needs gifts.read gifts.write",
        scopes: ["gifts.read", "gifts.write"],
        resourceMetadataUrl: PRM,
      },
    ],
    [
      "the tool-error form, resource_metadata first",
      `Bearer resource_metadata="${PRM}", error="insufficient_scope", scope="a"`,
      { error: "insufficient_scope", scopes: ["a"], resourceMetadataUrl: PRM },
    ],
    ["token values, odd spacing, a case-insensitive scheme and names", "bearer   Error=invalid_token ,SCOPE = a", { error: "invalid_token", scopes: ["a"] }],
    ["escapes and commas inside quotes", 'Bearer error_description="say \\"no\\", twice", scope="x"', { errorDescription: 'say "no", twice', scopes: ["x"] }],
    ["a Bearer challenge after others (parameters, then a token68)", `Basic realm="r", Negotiate abc==, Bearer scope="s1 s2"`, { scopes: ["s1", "s2"] }],
    ["the first parameter of a name counts", 'Bearer scope="a", scope="b"', { scopes: ["a"] }],
    ["no parameters", "Bearer", { scopes: [] }],
    ["wrapped in stray single quotes (the OpenAI docs' example)", `'Bearer resource_metadata="${PRM}"'`, { scopes: [], resourceMetadataUrl: PRM }],
    ["no Bearer challenge", 'Basic realm="x"', undefined],
    ["not a challenge", "", undefined],
  ];
  it.each(cases)("%s", (_, header, want) => {
    expect(parseBearerChallenge(header)).toEqual(want);
  });
});

describe("fromSdkScopeError", () => {
  it("maps the SDK's InsufficientScopeError, keeping it as the cause; any other error is not mapped", () => {
    const sdkError = new InsufficientScopeError({ requiredScope: "gifts.read gifts.write", resourceMetadataUrl: new URL(PRM), errorDescription: "more" });
    const error = fromSdkScopeError("buy_gift", sdkError);
    expect(error).toBeInstanceOf(ToolAuthorizationError);
    expect(error).toMatchObject({
      name: "ToolAuthorizationError",
      tool: "buy_gift",
      error: "insufficient_scope",
      errorDescription: "more",
      scopes: ["gifts.read", "gifts.write"],
      resourceMetadataUrl: PRM,
      cause: sdkError,
      message: `Tool 'buy_gift' was refused for want of authorization: it needs a token with gifts.read gifts.write (authorization servers in ${PRM})`,
    });
    expect(error?.result).toBeUndefined();
    expect(fromSdkScopeError("t", new InsufficientScopeError({}))).toMatchObject({ scopes: [], message: "Tool 't' was refused for want of authorization" });
    expect(fromSdkScopeError("t", new UnauthorizedError("no"))).toBeUndefined();
    expect(fromSdkScopeError("t", new Error("InsufficientScopeError"))).toBeUndefined();
    expect(fromSdkScopeError("t", "InsufficientScopeError")).toBeUndefined();
  });

  it("knows the error by the SDK's brand even when another copy's class (a renamed one) threw it", () => {
    const foreign = Object.assign(new Error("x"), { requiredScope: "a" });
    Object.defineProperty(foreign, Symbol.for("mcp.sdk.errorBrands"), { value: new Set(["mcp.OAuthClientFlowError", "mcp.InsufficientScopeError"]) });
    expect(fromSdkScopeError("t", foreign)?.scopes).toEqual(["a"]);
  });
});

describe("fromAuthenticateResult", () => {
  const result = (meta: unknown, isError = true): CallToolResult => ({
    isError,
    content: [{ type: "text", text: "sign in first" }],
    ...(meta === undefined ? {} : { _meta: { "mcp/www_authenticate": meta } }),
  });
  it("reads the first Bearer challenge of a list or a single string, and keeps the result", () => {
    const answer = result(['Basic realm="x"', `Bearer resource_metadata="${PRM}", error="insufficient_scope", scope="gifts.read"`]);
    expect(fromAuthenticateResult("suggest", answer)).toMatchObject({ tool: "suggest", scopes: ["gifts.read"], resourceMetadataUrl: PRM, result: answer });
    expect(fromAuthenticateResult("suggest", result('Bearer scope="a"'))?.scopes).toEqual(["a"]);
  });
  it("leaves results without the form (or not isError) alone", () => {
    expect(fromAuthenticateResult("t", result(undefined))).toBeUndefined();
    expect(fromAuthenticateResult("t", result('Bearer scope="a"', false))).toBeUndefined();
    expect(fromAuthenticateResult("t", result([42, 'Basic realm="x"']))).toBeUndefined();
  });
});

describe("ManifestClient and authorization", () => {
  const definition: ServerDefinition = {
    serverInfo: { name: "s", version: "1" },
    capabilities: { tools: {} },
    tools: [{ name: "t", inputSchema: { type: "object" } }],
    resources: [],
    resourceTemplates: [],
    prompts: [],
  };
  const sdk = (callTool: SdkClientV2["callTool"]): SdkClientV2 => ({
    getProtocolEra: () => "legacy",
    callTool,
    readResource: async () => ({}),
    getPrompt: async () => ({}),
    request: async () => ({}),
  });

  it("a tool method rejects with ToolAuthorizationError on the mcp/www_authenticate form, with ToolCallError on other isError results; callTool resolves to both", async () => {
    const form: CallToolResult = { isError: true, content: [{ type: "text", text: "no" }], _meta: { "mcp/www_authenticate": [`Bearer scope="gifts.read"`] } };
    const client = new ManifestClient(
      sdk(async (params) => (params.name === "t" ? form : { isError: true, content: [{ type: "text", text: "plain" }] })),
      definition,
    );
    await expect(client.callToolOutput("t", {})).rejects.toMatchObject({ name: "ToolAuthorizationError", scopes: ["gifts.read"], result: form });
    await expect(client.callToolOutput("other", {})).rejects.toBeInstanceOf(ToolCallError);
    await expect(client.callTool("t", {})).resolves.toBe(form);
  });

  it("callTool and the tool methods turn the SDK's InsufficientScopeError into ToolAuthorizationError, and pass other errors through", async () => {
    const thrown = new InsufficientScopeError({ requiredScope: "gifts.write", resourceMetadataUrl: new URL(PRM) });
    const client = new ManifestClient(
      sdk(async (params) => {
        if (params.name === "t") throw thrown;
        throw new Error("down");
      }),
      definition,
    );
    await expect(client.callTool("t", {})).rejects.toMatchObject({ name: "ToolAuthorizationError", tool: "t", scopes: ["gifts.write"], cause: thrown });
    await expect(client.callToolOutput("t", {})).rejects.toBeInstanceOf(ToolAuthorizationError);
    await expect(client.callTool("u", {})).rejects.toThrow("down");
  });
});
