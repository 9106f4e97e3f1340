/** diff: a tool's securitySchemes, classified by what a caller then needs (a token, scopes). */
import { describe, expect, it } from "vitest";
import { classify, type Surface } from "../../../../src/commands/diff/classify.js";

const surface = (tools: object[]): Surface => ({ source: "x", tools: tools as Surface["tools"], resources: [], resourceTemplates: [], prompts: [] });
const tool = (schemes?: object[], meta?: object) => ({
  name: "t",
  inputSchema: { type: "object" },
  ...(schemes ? { securitySchemes: schemes } : {}),
  ...(meta ? { _meta: meta } : {}),
});
const oauth2 = (...scopes: string[]) => ({ type: "oauth2", scopes });
const noauth = { type: "noauth" };
/** Each change as `code clients:… [behaviour]: message`. */
const rows = (before: object, after: object) =>
  classify(surface([before]), surface([after])).map(
    (c) => `${c.change} ${c.path} clients:${c.clients ? "BREAK" : "ok"} servers:${c.servers ? "BREAK" : "ok"}${c.behaviour ? " behaviour" : ""}: ${c.message}`,
  );

describe("securitySchemes in diff", () => {
  const cases: [string, object, object, string[]][] = [
    ["unchanged", tool([oauth2("a")]), tool([oauth2("a")]), []],
    ["the same scopes in another order", tool([oauth2("a", "b")]), tool([oauth2("b", "a")]), []],
    [
      "a scope added to the oauth2 scheme breaks clients",
      tool([oauth2("a")]),
      tool([oauth2("a", "b")]),
      ["scope-added securitySchemes clients:BREAK servers:ok: scope b added: tokens without it are refused (403 insufficient_scope)"],
    ],
    [
      "a scope removed is compatible",
      tool([oauth2("a", "b")]),
      tool([oauth2("a")]),
      ["scope-removed securitySchemes clients:ok servers:ok: scope b removed: a token needs less"],
    ],
    [
      "a scope swapped: breaking (added) and compatible (removed)",
      tool([oauth2("a")]),
      tool([oauth2("b")]),
      [
        "scope-added securitySchemes clients:BREAK servers:ok: scope b added: tokens without it are refused (403 insufficient_scope)",
        "scope-removed securitySchemes clients:ok servers:ok: scope a removed: a token needs less",
      ],
    ],
    [
      "noauth -> oauth2 breaks clients",
      tool([noauth]),
      tool([oauth2("a")]),
      ["token-required securitySchemes clients:BREAK servers:ok: a token is now required with a: calls without one are refused"],
    ],
    [
      "noauth+oauth2 -> oauth2 (anonymous calls dropped) breaks clients",
      tool([noauth, oauth2("a")]),
      tool([oauth2("a")]),
      ["token-required securitySchemes clients:BREAK servers:ok: a token is now required with a: calls without one are refused"],
    ],
    [
      "oauth2 -> noauth+oauth2 is compatible",
      tool([oauth2("a")]),
      tool([noauth, oauth2("a")]),
      ["token-optional securitySchemes clients:ok servers:ok: it is now callable without a token"],
    ],
    [
      "oauth2 -> noauth is compatible",
      tool([oauth2("a")]),
      tool([noauth]),
      [
        "token-optional securitySchemes clients:ok servers:ok: it is now callable without a token",
        "scope-removed securitySchemes clients:ok servers:ok: scope a removed: a token needs less",
      ],
    ],
    [
      "securitySchemes appearing with oauth2 only breaks clients",
      tool(),
      tool([oauth2("a", "b")]),
      [
        "security-schemes-added securitySchemes clients:BREAK servers:ok: securitySchemes added: calls now need a token with a, b (callers without one are refused)",
      ],
    ],
    [
      "securitySchemes appearing with noauth is compatible",
      tool(),
      tool([noauth, oauth2("a")]),
      ["security-schemes-added securitySchemes clients:ok servers:ok: securitySchemes added: it stays callable without a token"],
    ],
    [
      "securitySchemes dropped is compatible",
      tool([oauth2("a")]),
      tool(),
      ["security-schemes-removed securitySchemes clients:ok servers:ok: securitySchemes removed: clients are no longer told whether it needs a token"],
    ],
    [
      "a scope added to a tool callable without a token: behaviour, not breaking",
      tool([noauth, oauth2("a")]),
      tool([noauth, oauth2("a", "b")]),
      [
        "scope-added securitySchemes clients:ok servers:ok behaviour: scope b added to its oauth2 scheme: still callable without a token; clients that link accounts ask for more",
      ],
    ],
    [
      "read from the _meta mirror when the top level has none; the mirror is not also a meta-changed row",
      tool(undefined, { securitySchemes: [oauth2("a")], k: 1 }),
      tool(undefined, { securitySchemes: [oauth2("a", "b")], k: 1 }),
      ["scope-added securitySchemes clients:BREAK servers:ok: scope b added: tokens without it are refused (403 insufficient_scope)"],
    ],
    [
      "top level and mirror changed together: one row; another _meta key still is meta-changed",
      tool([oauth2("a")], { securitySchemes: [oauth2("a")], k: 1 }),
      tool([oauth2("a", "b")], { securitySchemes: [oauth2("a", "b")], k: 2 }),
      [
        "scope-added securitySchemes clients:BREAK servers:ok: scope b added: tokens without it are refused (403 insufficient_scope)",
        "meta-changed _meta clients:ok servers:ok: _meta changed",
      ],
    ],
    [
      "a scheme of a type mcpgen does not read changed: listed, compatible",
      tool([{ type: "apiKey" }]),
      tool([{ type: "apiKey", in: "header" }]),
      ["security-schemes-changed securitySchemes clients:ok servers:ok: securitySchemes changed"],
    ],
    [
      "oauth2 without scopes -> with one: a token was needed already",
      tool([{ type: "oauth2" }]),
      tool([oauth2("a")]),
      ["scope-added securitySchemes clients:BREAK servers:ok: scope a added: tokens without it are refused (403 insufficient_scope)"],
    ],
  ];
  it.each(cases)("%s", (_, before, after, want) => {
    expect(rows(before, after)).toEqual(want);
  });
});

describe("securitySchemes in diff, from manifests with auth:", () => {
  it("a scope added to a tool's scopes is breaking; auth: none -> scopes is token-required", async () => {
    const { diffManifestTexts } = await import("../../../../src/commands/diff/report.js");
    const manifest = (buy: string, hello: string) => `server: {name: g, version: '1'}
auth:
  resource: https://g.example.com/mcp
  authorizationServers: [https://auth.example.com]
  jwt: {issuer: https://auth.example.com, jwksUri: https://auth.example.com/jwks}
tools:
  - {name: buy, ${buy}, inputSchema: {type: object}}
  - {name: hello, ${hello}, inputSchema: {type: object}}
`;
    const changes = await diffManifestTexts(manifest("scopes: [a]", "auth: none"), manifest("scopes: [a, b]", "scopes: [a]"), "/nowhere/m.yaml", "/nowhere");
    expect(changes.map((c) => `${c.change} ${c.name} ${c.path} clients:${c.clients ? "BREAK" : "ok"}`)).toEqual([
      "scope-added buy securitySchemes clients:BREAK",
      "token-required hello securitySchemes clients:BREAK",
    ]);
  });
});
