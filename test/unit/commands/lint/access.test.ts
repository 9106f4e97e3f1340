/** lint's write-tool-without-scopes: which tools of a manifest with `auth:` it reports, and where. */
import { describe, expect, it } from "vitest";
import { lintAccess } from "../../../../src/commands/lint/access.js";

const AUTH = {
  resource: "https://r.example/mcp",
  authorizationServers: ["https://as.example"],
  jwt: { issuer: "https://as.example", jwksUri: "https://as.example/jwks" },
};
const manifest = (auth: object | undefined, ...tools: object[]) => ({ server: { name: "s", version: "1" }, ...(auth ? { auth } : {}), tools });
const readOnly = { annotations: { readOnlyHint: true } };
/** Each finding as `path: start of message`. */
const found = (root: Record<string, unknown>) => lintAccess(root).map((f) => `${f.path.join(".")}: ${f.message.slice(0, f.message.indexOf(": any token"))}`);

describe("write-tool-without-scopes", () => {
  const cases: [string, Record<string, unknown>, string[]][] = [
    ["no auth: nothing to say", manifest(undefined, { name: "w" }), []],
    [
      "a write tool with no scopes and no defaultScopes",
      manifest(AUTH, { name: "w" }),
      ['tools.0.name: tool "w" may change things (no `annotations.readOnlyHint: true`) and has no `scopes` and no `auth.defaultScopes`'],
    ],
    [
      "a write tool with `scopes: []`, at its scopes",
      manifest({ ...AUTH, defaultScopes: ["a"] }, { name: "w", scopes: [] }),
      ['tools.0.scopes: tool "w" may change things (no `annotations.readOnlyHint: true`) and has `scopes: []`'],
    ],
    [
      "empty defaultScopes",
      manifest({ ...AUTH, defaultScopes: [] }, { name: "w" }),
      ['tools.0.name: tool "w" may change things (no `annotations.readOnlyHint: true`) and has no `scopes` (and `auth.defaultScopes` is empty)'],
    ],
    ["a write tool with scopes", manifest(AUTH, { name: "w", scopes: ["gifts.write"] }), []],
    ["a write tool covered by defaultScopes", manifest({ ...AUTH, defaultScopes: ["gifts.read"] }, { name: "w" }), []],
    ["a read-only tool with no scopes", manifest(AUTH, { name: "r", ...readOnly }), []],
    [
      "readOnlyHint: false counts as a write tool",
      manifest(AUTH, { name: "w", annotations: { readOnlyHint: false } }),
      ['tools.0.name: tool "w" may change things (no `annotations.readOnlyHint: true`) and has no `scopes` and no `auth.defaultScopes`'],
    ],
    ["auth: none is the author's explicit choice", manifest(AUTH, { name: "hello", auth: "none" }), []],
    [
      "only the tools that need it, by index",
      manifest(AUTH, { name: "a", scopes: ["x"] }, { name: "b" }, { name: "c", ...readOnly }),
      ['tools.1.name: tool "b" may change things (no `annotations.readOnlyHint: true`) and has no `scopes` and no `auth.defaultScopes`'],
    ],
  ];
  it.each(cases)("%s", (_, root, want) => {
    expect(found(root)).toEqual(want);
  });

  it("names the scopes to choose from when scopesSupported lists them, and both fixes", () => {
    const [finding] = lintAccess(manifest({ ...AUTH, scopesSupported: ["gifts.read", "gifts.write"] }, { name: "w" }));
    expect(finding?.rule).toBe("write-tool-without-scopes");
    expect(finding?.message).toContain(
      ": any token issued for this server can call it; give it the scopes a caller must hold (`scopes: [...]`, from gifts.read, gifts.write), or mark it `readOnlyHint: true` if it only reads",
    );
  });
});
