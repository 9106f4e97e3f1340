import { describe, expect, it } from "vitest";
import { IdentifierScope, toIdentifier } from "../../../../src/generator/model/identifiers.js";

describe("toIdentifier", () => {
  it.each([
    ["suggest_gifts", "SuggestGifts", "suggestGifts"],
    ["suggest-gifts", "SuggestGifts", "suggestGifts"],
    ["suggest.gifts", "SuggestGifts", "suggestGifts"],
    ["suggestGifts", "SuggestGifts", "suggestGifts"],
    ["HTTPServer2", "HttpServer2", "httpServer2"],
    ["3d-render", "_3dRender", "_3dRender"],
    ["delete", "Delete", "delete$"],
    ["class", "Class", "class$"],
    ["__proto__", "Proto", "proto"],
    ["!!!", "Unnamed", "unnamed"],
    ["string", "String", "string$"],
  ])("%s -> %s / %s", (name, pascal, camel) => {
    expect(toIdentifier(name, "pascal")).toBe(pascal);
    expect(toIdentifier(name, "camel")).toBe(camel);
  });
});

describe("IdentifierScope", () => {
  it("reports the first owner on a clash", () => {
    const scope = new IdentifierScope([["ToolName", "built-in"]]);
    expect(scope.claim("A", "tool a")).toBeUndefined();
    expect(scope.claim("A", "tool b")).toBe("tool a");
    expect(scope.claim("ToolName", "def ToolName")).toBe("built-in");
  });
});
