import { describe, expect, it } from "vitest";
import { uriTemplateProblems } from "../../../../src/generator/validate/uriTemplates.js";

describe("uriTemplateProblems: what the server cannot serve, and the level-1 template to write", () => {
  it("accepts level-1 templates", () => {
    expect(uriTemplateProblems("x://{id}")).toEqual([]);
    expect(uriTemplateProblems("file:///{dir}/{name}.{ext}")).toEqual([]);
  });

  it.each([
    [
      "x://{+path}",
      "expression {+path} is beyond RFC 6570 level 1, which is what mcpgen serves; a level-1 value may hold / and ?: clients send them percent-encoded (%2F, %3F) and the handler gets them decoded, so write {path}; or, for a path of known depth, one variable per segment ({dir}/{name})",
    ],
    [
      "x://{id}{?q,lang}",
      "expression {?q,lang} is beyond RFC 6570 level 1, which is what mcpgen serves: write the query yourself: ?q={q}&lang={lang} (every variable is then required; declare optional inputs as a tool's arguments)",
    ],
    [
      "x://r{/a,b}",
      "expression {/a,b} is beyond RFC 6570 level 1, which is what mcpgen serves: write the slash yourself: /{a}/{b} (a value's own / is sent as %2F)",
    ],
    ["x://f{.ext}", "expression {.ext} is beyond RFC 6570 level 1, which is what mcpgen serves: write the dot yourself: .{ext}"],
    ["x://p{#frag}", "expression {#frag} is beyond RFC 6570 level 1, which is what mcpgen serves: write the # yourself: #{frag}"],
    ["x://m{;v}", "expression {;v} is beyond RFC 6570 level 1, which is what mcpgen serves: write the parameters yourself: ;v={v}"],
    ["x://q?a={a}{&b}", "expression {&b} is beyond RFC 6570 level 1, which is what mcpgen serves: write the query yourself: &b={b}"],
    [
      "x://{list*}",
      "expression {list*} is beyond RFC 6570 level 1, which is what mcpgen serves: modifiers (* explode, :N prefix) are not served; write {list}",
    ],
    [
      "x://{name:3}",
      "expression {name:3} is beyond RFC 6570 level 1, which is what mcpgen serves: modifiers (* explode, :N prefix) are not served; write {name}",
    ],
    [
      "x://{a,b}",
      "expression {a,b} is beyond RFC 6570 level 1, which is what mcpgen serves: one variable per expression, with a literal between them: {a},{b}",
    ],
    ["x://{a-b}", "expression {a-b} is beyond RFC 6570 level 1, which is what mcpgen serves: use expressions like {id} (letters, digits, _)"],
  ])("%s", (template, message) => {
    expect(uriTemplateProblems(template)).toEqual([message]);
  });

  it("names duplicates, neighbours, unbalanced braces and templates without a variable", () => {
    expect(uriTemplateProblems("x://{a}/{a}")).toEqual(["variable {a} appears twice"]);
    expect(uriTemplateProblems("x://{a}{b}")).toEqual(["two expressions side by side ({a}{b}) cannot be told apart in a URI; put a literal between them"]);
    expect(uriTemplateProblems("x://{a")).toEqual(["unbalanced { or } in the template"]);
    expect(uriTemplateProblems("x://fixed")).toEqual(["a template needs at least one {variable}; a fixed URI is a resource"]);
  });
});
