import { describe, expect, it } from "vitest";
import { parseUriTemplate, uriTemplateProblems } from "../../../../src/runtime/shared/uriTemplate.js";

describe("URI templates (RFC 6570 level 1)", () => {
  const t = parseUriTemplate("notes://{folder}/notes/{id}.json");

  it("matches and decodes variables, never across '/', '?' or '#'", () => {
    expect(t.variables).toEqual(["folder", "id"]);
    expect(t.match("notes://work/notes/a%20b.json")).toEqual({ folder: "work", id: "a b" });
    expect(t.match("notes://work/x/notes/1.json")).toBeUndefined();
    expect(t.match("notes://work/notes/.json")).toBeUndefined();
    expect(t.match("notes://w/notes/%E0%A4%A.json")).toBeUndefined();
    expect(t.match("notes://w/notes/1.jsonx")).toBeUndefined();
  });

  it("expands with percent-encoding, and round-trips", () => {
    const uri = t.expand({ folder: "a/b", id: "x?y" });
    expect(uri).toBe("notes://a%2Fb/notes/x%3Fy.json");
    expect(t.match(uri)).toEqual({ folder: "a/b", id: "x?y" });
  });

  it("treats regex characters in the literal parts literally", () => {
    expect(parseUriTemplate("a+b://(x)/{id}").match("a+b://(x)/1")).toEqual({ id: "1" });
    expect(parseUriTemplate("a.b://{id}").match("axb://1")).toBeUndefined();
  });

  it("names what it cannot serve", () => {
    expect(uriTemplateProblems("x://{id}")).toEqual([]);
    expect(uriTemplateProblems("x://{+path}")).toEqual(["expression {+path} is not supported: use level-1 expressions like {id} (letters, digits, _)"]);
    expect(uriTemplateProblems("x://{a}/{a}")).toEqual(["variable {a} appears twice"]);
    expect(uriTemplateProblems("x://{a")).toEqual(["unbalanced { or } in the template"]);
  });
});
