/** client.ts's `toolScopes`, read from each tool's `securitySchemes` as a pulled manifest carries them. */
import { describe, expect, it } from "vitest";
import { emitClient } from "../../../../src/generator/emit/client.js";
import { modelOf } from "../../../helpers/model.js";

const text = async (yaml: string) => {
  const files = emitClient(await modelOf(yaml));
  expect(files).toHaveLength(1);
  return files[0]!.content;
};

const PULLED = `
server: {name: gifts, version: '1'}
tools:
  - name: suggest_gifts
    inputSchema: {type: object}
    securitySchemes: [{type: oauth2, scopes: [gifts.read]}]
    _meta: {securitySchemes: [{type: oauth2, scopes: [gifts.read]}]}
  - name: buy-gift
    inputSchema: {type: object}
    securitySchemes: [{type: oauth2, scopes: [gifts.read, gifts.write]}]
  - name: hello
    inputSchema: {type: object}
    securitySchemes: [{type: noauth}]
  - name: search
    inputSchema: {type: object}
    securitySchemes: [{type: noauth}, {type: oauth2, scopes: ["search.read"]}]
  - name: mirrored_only
    inputSchema: {type: object}
    _meta: {securitySchemes: [{type: oauth2, scopes: ["a*/b"]}]}
  - name: any_token
    inputSchema: {type: object}
    securitySchemes: [{type: oauth2}]
  - name: plain
    inputSchema: {type: object}
`;

describe("toolScopes", () => {
  it("lists each tool with an oauth2 scheme and its scopes, as a const; noauth-only and scheme-less tools are left out", async () => {
    const out = await text(PULLED);
    const start = out.indexOf("export const toolScopes = {");
    expect(start).toBeGreaterThan(-1);
    expect(out.slice(start, out.indexOf("} as const;", start) + "} as const;".length)).toBe(
      [
        "export const toolScopes = {",
        "  /** `suggest_gifts` needs a token with gifts.read. */",
        '  suggest_gifts: ["gifts.read"],',
        "  /** `buy-gift` needs a token with gifts.read, gifts.write. */",
        '  "buy-gift": ["gifts.read", "gifts.write"],',
        "  /** `search` is callable without a token; with one, it needs a token with search.read. */",
        '  search: ["search.read"],',
        "  /** `mirrored_only` needs a token with a*\\/b. */",
        '  mirrored_only: ["a*/b"],',
        "  /** `any_token` needs a token (no particular scope). */",
        "  any_token: [],",
        "} as const;",
      ].join("\n"),
    );
  });

  it("is an empty const when no tool has an oauth2 scheme, so code importing it compiles either way", async () => {
    expect(await text("server: {name: s, version: '1'}\ntools:\n  - {name: a, inputSchema: {type: object}}\n")).toContain(
      "export const toolScopes = {} as const;\n",
    );
  });

  it("says on the method of a tool with an oauth2 scheme which error it rejects with, and only there", async () => {
    const out = await text(PULLED);
    expect(out).toContain("Rejects with ToolAuthorizationError when refused for want of authorization (a token with gifts.read, gifts.write: `toolScopes`).");
    expect(out.match(/Rejects with ToolAuthorizationError/g)).toHaveLength(5);
    expect(out).toMatch(/^import \{ [^}]*ToolAuthorizationError[^}]* \} from "@mcpgen\/runtime\/client";$/m);
    expect(out).toMatch(/^export \{ ToolAuthorizationError, [^}]*\};$/m);
  });
});

describe("toolScopes of a manifest with auth:", () => {
  it("comes from the securitySchemes mcpgen writes from scopes, defaultScopes and auth: none", async () => {
    const out = await text(`
server: {name: gifts, version: '1'}
auth:
  resource: https://gifts.example.com/mcp
  authorizationServers: [https://auth.example.com]
  defaultScopes: [gifts.read]
  jwt: {issuer: https://auth.example.com, jwksUri: https://auth.example.com/jwks}
tools:
  - {name: suggest, inputSchema: {type: object}}
  - {name: buy, scopes: [gifts.read, gifts.write], inputSchema: {type: object}}
  - {name: hello, auth: none, inputSchema: {type: object}}
  - {name: any, scopes: [], inputSchema: {type: object}}
`);
    expect(out).toContain('  suggest: ["gifts.read"],\n');
    expect(out).toContain('  buy: ["gifts.read", "gifts.write"],\n');
    expect(out).toContain("  any: [],\n");
    const scopes = out.slice(out.indexOf("export const toolScopes"), out.indexOf("} as const;"));
    expect(scopes).not.toContain("hello");
  });
});
