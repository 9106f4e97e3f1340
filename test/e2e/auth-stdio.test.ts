/**
 * A server with `auth` served on stdio checks no token (MCP: stdio servers take credentials from
 * their environment). It says so once on stderr when it starts, so whoever runs it knows; a server
 * without `auth` says nothing.
 */
import { PassThrough } from "node:stream";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { ServerDefinition } from "../../packages/runtime/src/shared/definition.js";
import { createManifestServerFactory, serveStdioWith } from "../helpers/runtime.js";

const base: ServerDefinition = {
  serverInfo: { name: "guarded", version: "1.0.0" },
  capabilities: { tools: {} },
  tools: [{ name: "secret", inputSchema: { type: "object" } }],
  resources: [],
  resourceTemplates: [],
  prompts: [],
};
const auth = {
  resource: "https://mcp.example.com/mcp",
  authorizationServers: ["https://as.example.com"],
  verifier: { kind: "jwt", issuer: "https://as.example.com", jwksUri: "https://as.example.com/jwks", algorithms: ["RS256"] },
  tools: { secret: ["admin"] },
  resources: {},
  resourceTemplates: {},
  prompts: {},
} as const;

afterEach(() => vi.restoreAllMocks());

describe("stdio and a manifest with auth", () => {
  it.each([
    ["with auth: one line saying no token is checked", { ...base, auth } as ServerDefinition, 1],
    ["without auth: nothing", base, 0],
  ])("%s", async (_, definition, lines) => {
    const said: string[] = [];
    vi.spyOn(console, "error").mockImplementation((...args: unknown[]) => void said.push(args.join(" ")));
    const factory = createManifestServerFactory(definition, { tools: { secret: () => "s3cret" } });
    const handle = await serveStdioWith(factory as never, { input: new PassThrough(), output: new PassThrough() });
    await handle.close();
    const warnings = said.filter((s) => s.includes("declares auth, and stdio checks no tokens"));
    expect(warnings).toHaveLength(lines);
    if (lines) expect(warnings[0]).toMatch(/^\[mcpgen\] guarded declares auth/);
  });
});
