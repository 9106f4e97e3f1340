/** The first sentence of a file's doc comment, as the source-files page says what each file is. */
import { describe, expect, it } from "vitest";
import { firstDocSentence } from "../../../../src/reference/docs/sourceFilesPage.js";

describe("firstDocSentence", () => {
  it.each<[string, string, string | undefined]>([
    ["one line", "/** The plan of a run. */\nimport x;", "The plan of a run."],
    [
      "a paragraph over lines, up to its first full stop",
      "/**\n * Emits `index.ts`: the folder's\n * public surface. More here.\n */",
      "Emits `index.ts`: the folder's public surface.",
    ],
    ["file names and abbreviations are not the end", "/** Reads index.ts and e.g. x.js first. Then more. */", "Reads index.ts and e.g. x.js first."],
    [
      "the first paragraph without a full stop",
      "/**\n * `@mcpgen/runtime/server`: the core\n *\n * Second paragraph.\n */",
      "`@mcpgen/runtime/server`: the core",
    ],
    ["after a #! line", "#!/usr/bin/env node\n/** Entry point of the `mcpgen` binary. */", "Entry point of the `mcpgen` binary."],
    ["a line comment is no doc comment", "// @generated\n/** Late. */", undefined],
    ["no comment", "import x from 'y';", undefined],
  ])("%s", (_, text, want) => {
    expect(firstDocSentence(text)).toBe(want);
  });
});
