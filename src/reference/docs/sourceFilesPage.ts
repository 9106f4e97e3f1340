/**
 * docs/reference/source-files.md: every source file of mcpgen and of its runtime package, by
 * layer, with the first sentence of its doc comment. Written from the layer tables
 * (reference/layers.ts) and the files themselves, so it cannot miss a file or keep a gone one.
 */
import { readdirSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { RUNTIME_LAYERS, SOURCE_LAYERS } from "../layers.js";
import { code, generatedNote, prose, table } from "./markdown.js";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));

/** The TypeScript files under `dir` of the repository (paths relative to it, `/`, sorted); generated ones left out. */
function sourceFiles(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { recursive: true, encoding: "utf8" })
    .map((f) => f.split(path.sep).join("/"))
    .filter((f) => /\.tsx?$/.test(f) && !f.endsWith(".d.ts") && !f.endsWith(".generated.ts"))
    .sort();
}

/**
 * The first sentence of a file's leading doc comment (after a `#!` line): its text up to the
 * first full stop that ends a sentence, or its first paragraph. Undefined without one.
 */
export function firstDocSentence(text: string): string | undefined {
  const comment = /^(?:#![^\n]*\n)?\s*\/\*\*([\s\S]*?)\*\//.exec(text);
  if (!comment) return undefined;
  const lines = comment[1]!.split("\n").map((line) => line.replace(/^\s*\*?\s?/, ""));
  const paragraph: string[] = [];
  for (const line of lines) {
    if (line.trim() === "") {
      if (paragraph.length > 0) break;
      continue;
    }
    paragraph.push(line.trim());
  }
  const joined = paragraph.join(" ");
  // A full stop ends the sentence when a space or the end follows it (not in `index.ts`), and it
  // does not end an abbreviation (`e.g.`).
  const end = [...joined.matchAll(/[.!?](?=\s|$)/g)].find((m) => !/\b(e\.g|i\.e|etc|vs)$/.test(joined.slice(0, m.index)));
  const sentence = end ? joined.slice(0, end.index + 1) : joined;
  return sentence === "" ? undefined : sentence;
}

/** The rows of one layer's files: the file (linked) and what it is. */
function rows(root: string, files: readonly string[]): string[][] {
  return files.map((file) => {
    const text = readFileSync(path.join(ROOT, root, file), "utf8");
    const what = firstDocSentence(text);
    if (what === undefined) throw new Error(`mcpgen: ${root}/${file} has no doc comment to say what it is`);
    return [`[${code(file)}](../../${root}/${file})`, what];
  });
}

export function sourceFilesPage(): string {
  const src = sourceFiles("src");
  const layerOf = (file: string) =>
    SOURCE_LAYERS.filter(({ layer }) => file === layer || file.startsWith(`${layer}/`)).reduce<string | undefined>(
      (found, { layer }) => (found === undefined || layer.length > found.length ? layer : found),
      undefined,
    );
  const runtime = sourceFiles("packages/runtime/src");
  const runtimeLayerOf = (file: string) => path.posix.dirname(file);
  const out = [
    generatedNote(["src/reference/layers.ts", "the first sentence of each source file's doc comment"]),
    "# Source files",
    "Every source file of mcpgen (`src/`) and of its runtime package (`packages/runtime/src/`), by layer. A file imports its own layer and the layers above it in this page, never one below (test/unit/layers.test.ts); the runtime's folders import what their row of the runtime table allows (packages/runtime/test/layers.test.ts). Neither has an import cycle. [Architecture](../architecture.md) says how the layers work together.",
    "## mcpgen (`src/`)",
    ...SOURCE_LAYERS.flatMap(({ layer, what }) => {
      const files = src.filter((file) => layerOf(file) === layer);
      return [`### ${code(layer)}`, prose(what), table(["file", "what it is"], rows("src", files))];
    }),
    "## The runtime (`packages/runtime/src/`)",
    table(
      ["folder", "what it holds", "imports of the runtime", "packages"],
      RUNTIME_LAYERS.map((layer) => [
        code(layer.folder),
        layer.what,
        [...layer.layers.map(code), ...(layer.typeLayers ?? []).map((t) => `${code(t)} (types)`)].join(", "),
        layer.packages.length > 0 ? layer.packages.map(code).join(", ") : "none",
      ]),
    ),
    ...RUNTIME_LAYERS.flatMap(({ folder }) => {
      const files = runtime.filter((file) => runtimeLayerOf(file) === folder);
      return [`### ${code(folder === "." ? "packages/runtime/src" : folder)}`, table(["file", "what it is"], rows("packages/runtime/src", files))];
    }),
  ];
  return `${out.join("\n\n")}\n`;
}
