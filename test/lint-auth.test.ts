/** `mcpgen lint` on a manifest with `auth:`: a write tool any token can call, at its file:line:col, with the fix. */
import { describe, expect, it } from "vitest";
import { mcpgen } from "./helpers/cli.js";
import { tempProject } from "./helpers/tmp.js";

const MANIFEST = `server: {name: gifts, version: 1.0.0}
auth:
  resource: https://gifts.example.com/mcp
  authorizationServers: [https://auth.example.com]
  scopesSupported: [gifts.read, gifts.write]
  jwt: {issuer: https://auth.example.com, jwksUri: https://auth.example.com/jwks}
tools:
  - name: suggest_gifts
    inputSchema: {type: object}
    annotations: {readOnlyHint: true}
  - name: buy_gift
    inputSchema: {type: object}
  - name: cancel_order
    scopes: []
    inputSchema: {type: object}
  - name: wrap_gift
    scopes: [gifts.write]
    inputSchema: {type: object}
  - name: hello
    auth: none
    inputSchema: {type: object}
`;

describe("mcpgen lint: write-tool-without-scopes", () => {
  it("warns at the tool's name (or its empty scopes), exit 0; --rule turns it into an error", () => {
    const dir = tempProject({ "manifests/gifts.yaml": MANIFEST });
    const r = mcpgen(["lint"], dir);
    expect(r.code).toBe(0);
    const fix =
      "any token issued for this server can call it; give it the scopes a caller must hold (`scopes: [...]`, from gifts.read, gifts.write), or mark it `readOnlyHint: true` if it only reads";
    expect(r.stderr.trimEnd().split("\n")).toEqual([
      `manifests/gifts.yaml:11:5: warning write-tool-without-scopes: tool "buy_gift" may change things (no \`annotations.readOnlyHint: true\`) and has no \`scopes\` and no \`auth.defaultScopes\`: ${fix}`,
      `manifests/gifts.yaml:14:5: warning write-tool-without-scopes: tool "cancel_order" may change things (no \`annotations.readOnlyHint: true\`) and has \`scopes: []\`: ${fix}`,
    ]);
    expect(r.stdout).toBe("mcpgen: linted 1 manifest: 0 errors, 2 warnings.\n");
    expect(mcpgen(["lint", "--rule", "write-tool-without-scopes=error"], dir).code).toBe(1);
  });
});
