/** The Markdown pieces the reference pages are made of, and GitHub's heading anchors. */
import { describe, expect, it } from "vitest";
import { block, code, prose, slug, table } from "../../../../src/reference/docs/markdown.js";

describe("slug: the anchor GitHub gives a heading", () => {
  const cases: [string, string][] = [
    ["Tasks", "tasks"],
    ["Portability lint: `lint`", "portability-lint-lint"],
    ["Multi round-trip requests (2026-07-28)", "multi-round-trip-requests-2026-07-28"],
    ["Why the low-level `Server`, not `registerTool` with `fromJsonSchema`", "why-the-low-level-server-not-registertool-with-fromjsonschema"],
    ["`tools[].annotations`", "toolsannotations"],
    ["`resource_link`", "resource_link"],
    ["Servers you consume: `pull` and client-only output", "servers-you-consume-pull-and-client-only-output"],
    ["A [link](x.md) and **bold**", "a-link-and-bold"],
    ["Cache hints (2026-07-28)", "cache-hints-2026-07-28"],
    ["Ünïcode – dash", "ünïcode--dash"],
  ];
  for (const [heading, want] of cases) it(heading, () => expect(slug(heading)).toBe(want));
});

describe("code spans, prose and tables", () => {
  it("a code span holds backticks", () => {
    expect(code("plain")).toBe("`plain`");
    expect(code("a`b")).toBe("``a`b``");
    expect(code("`x`")).toBe("`` `x` ``");
  });

  it("prose escapes what Markdown would eat, outside code spans only", () => {
    expect(prose("in <out>/<server>/, *.yaml")).toBe("in &lt;out>/&lt;server>/, \\*.yaml");
    expect(prose("`<Tool>Input` stays, <b> does not")).toBe("`<Tool>Input` stays, &lt;b> does not");
  });

  it("a table escapes pipes and newlines in cells", () => {
    expect(table(["a", "b"], [["x | y", "line\nbreak"]])).toBe("| a | b |\n|---|---|\n| x \\| y | line break |");
  });

  it("a block's fence is longer than any run of backticks inside", () => {
    expect(block("x")).toBe("```text\nx\n```");
    expect(block("a ``` b", "md")).toBe("````md\na ``` b\n````");
  });
});
