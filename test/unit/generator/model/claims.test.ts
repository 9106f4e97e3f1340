/** model/claims.ts: the one object every entity builder reserves identifiers with. */
import { describe, expect, it } from "vitest";
import { formatDiagnostic } from "../../../../src/common/diagnostics.js";
import { buildDefs } from "../../../../src/generator/model/defs.js";
import { contextOf } from "../../../helpers/model.js";

/** A manifest with lines 3.. to point claims at: `defs:` keys, then tools. */
const MANIFEST =
  "server: {name: s, version: '1'}\ndefs:\n  Note: {type: object}\n  Folder: {type: object}\ntools:\n  - {name: a, inputSchema: {type: object}}\n  - {name: b, inputSchema: {type: object}}\n";

describe("IdentifierClaims", () => {
  it("gives a type name to the first claim and reports the second at its `name:` value, naming the first and its line", async () => {
    const ctx = await contextOf(MANIFEST);
    ctx.claims.type("AInput", 'tool "a"', ["tools", 0, "name"]);
    ctx.claims.type("AInput", 'tool "b"', ["tools", 1, "name"]);
    expect(ctx.diagnostics.map(formatDiagnostic)).toEqual([
      'm.yaml:7:12: error identifier-collision: tool "b" and tool "a" (line 6) both become the TypeScript type name AInput; rename one of them',
    ]);
  });

  it("reports a def at its key (defs are named by their keys)", async () => {
    const ctx = await contextOf(MANIFEST);
    ctx.claims.type("Note", 'tool "a"', ["tools", 0, "name"]);
    ctx.claims.type("Note", 'def "Note"', ["defs", "Note"]);
    expect(ctx.diagnostics.map(formatDiagnostic)).toEqual([
      'm.yaml:3:3: error identifier-collision: def "Note" and tool "a" (line 6) both become the TypeScript type name Note; rename one of them',
    ]);
  });

  it.each([
    ["mcpgen's built-in types", "ToolInputs", "mcpgen's built-in type ToolInputs"],
    ["the client interface", "SClient", "the generated client interface SClient"],
  ])("holds %s before any manifest name", async (_, id, owner) => {
    const ctx = await contextOf(MANIFEST);
    ctx.claims.type(id, 'tool "a"', ["tools", 0, "name"]);
    expect(ctx.diagnostics.map((d) => d.message)).toEqual([`tool "a" and ${owner} both become the TypeScript type name ${id}; rename one of them`]);
  });

  it.each([
    ["a free name", "suggestGifts", "suggestGifts"],
    ["an Object.prototype member", "hasOwnProperty", "hasOwnProperty$"],
    ["then (the client would become a thenable)", "then", "then$"],
    ["a built-in client method", "callTool", "callTool$"],
    ["the SDK client underneath", "sdk", "sdk$"],
  ])("chooses a client member for %s", async (_, candidate, want) => {
    const ctx = await contextOf(MANIFEST);
    expect(ctx.claims.member(candidate, 'tool "a"', ["tools", 0, "name"])).toBe(want);
    expect(ctx.diagnostics).toEqual([]);
  });

  it("keeps types and client members apart: the same text in both is no clash", async () => {
    const ctx = await contextOf(MANIFEST);
    ctx.claims.type("note", 'tool "a"', ["tools", 0, "name"]);
    ctx.claims.member("note", 'tool "b"', ["tools", 1, "name"]);
    expect(ctx.diagnostics).toEqual([]);
  });

  it("reports a member that a reserved one became with its suffix", async () => {
    const ctx = await contextOf(MANIFEST);
    expect(ctx.claims.member("then", 'tool "a"', ["tools", 0, "name"])).toBe("then$");
    expect(ctx.claims.member("then$", 'tool "b"', ["tools", 1, "name"])).toBe("then$");
    expect(ctx.diagnostics.map((d) => d.message)).toEqual(['tool "b" and tool "a" (line 6) both become the client method name then$; rename one of them']);
  });

  it.each([
    ["free: the shared entry's type is named after it", false, "Tag"],
    ["taken by a later entity: the entity keeps it, the entry is named as the first schema's", true, "AInputTag"],
  ])("names the schemas' own $defs last; a name %s", async (_, taken, want) => {
    const ctx = await contextOf(MANIFEST);
    const tagged = { type: "object", $defs: { Tag: { type: "string" } }, properties: { t: { $ref: "#/$defs/Tag" } } };
    const a = ctx.claims.schema(tagged, "AInput", 'tool "a"', ["tools", 0, "inputSchema"]);
    const b = ctx.claims.schema(structuredClone(tagged), "BInput", 'tool "b"', ["tools", 1, "inputSchema"]);
    if (taken) ctx.claims.type("Tag", 'prompt "tag" (its arguments type)', ["tools", 1, "name"]);
    expect(a.localTypeNames).toEqual(new Map());
    ctx.claims.nameLocalDefs();
    expect([a.localTypeNames, b.localTypeNames]).toEqual([new Map([["$defs/Tag", want]]), new Map([["$defs/Tag", want]])]);
    expect([a.declares, b.declares]).toEqual([["$defs/Tag"], []]);
    expect(ctx.diagnostics).toEqual([]);
  });
});

describe("defs", () => {
  it("are named after their keys, in order", async () => {
    const ctx = await contextOf("server: {name: s, version: '1'}\ndefs:\n  gift-idea: {type: object}\n  Note: {type: string}\n");
    expect(buildDefs(ctx)).toEqual([
      { name: "gift-idea", typeName: "GiftIdea", schema: { type: "object" } },
      { name: "Note", typeName: "Note", schema: { type: "string" } },
    ]);
  });
});
