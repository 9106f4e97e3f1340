/**
 * The documentation: the reference pages are what mcpgen's tables produce, every relative link
 * and #anchor resolves in a fresh clone, and every ```ts snippet compiles against the committed
 * generated/ output.
 */
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { referencePages } from "../src/reference/docs/pages.js";
import { markdownFiles, parseMarkdown, readMarkdown, type CodeBlock, type MarkdownDoc } from "./helpers/markdown.js";
import { linkNodeModules, tempProject } from "./helpers/tmp.js";
import { tsc, writeTsconfig } from "./helpers/tsc.js";

const ROOT = fileURLToPath(new URL("..", import.meta.url));

describe("reference pages (docs/reference/, written by npm run docs)", () => {
  for (const page of referencePages()) {
    it(`${page.path} is current`, () => {
      const committed = existsSync(path.join(ROOT, page.path)) ? readFileSync(path.join(ROOT, page.path), "utf8") : "(missing)";
      expect(committed === page.text, `${page.path} is not what the tables produce: run npm run docs, then read and commit the diff`).toBe(true);
    });
  }
});

/** Every link of the published Markdown that does not resolve, as `file:line: target (why)`. */
function brokenLinks(docs: ReadonlyMap<string, MarkdownDoc>): string[] {
  const broken: string[] = [];
  const local: { from: string; line: number; target: string; file: string }[] = [];
  for (const [from, doc] of docs) {
    for (const { target, line } of doc.links) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith("//")) continue; // external: not fetched
      const [rawPath, anchor] = splitTarget(target);
      const file = rawPath === "" ? from : path.posix.normalize(path.posix.join(path.posix.dirname(from), decodeURIComponent(rawPath)));
      if (file.startsWith("..")) {
        broken.push(`${from}:${line}: ${target} (outside the repository)`);
        continue;
      }
      if (rawPath !== "" && !existsSync(path.join(ROOT, file))) {
        broken.push(`${from}:${line}: ${target} (no such file)`);
        continue;
      }
      if (rawPath !== "") local.push({ from, line, target, file });
      if (anchor === undefined || !file.endsWith(".md") || (rawPath !== "" && statSync(path.join(ROOT, file)).isDirectory())) continue;
      const anchors = docs.get(file)?.anchors ?? readMarkdown(path.join(ROOT, file)).anchors;
      if (!anchors.has(anchor)) broken.push(`${from}:${line}: ${target} (no heading with the anchor #${anchor} in ${file})`);
    }
  }
  // A fresh clone has only what git keeps: a link into dist/, node_modules/ or .cache/ would not resolve there.
  const ignored = new Set(gitIgnored([...new Set(local.map((l) => l.file))]));
  for (const l of local) if (ignored.has(l.file)) broken.push(`${l.from}:${l.line}: ${l.target} (ignored by git: not in a fresh clone)`);
  return broken;
}

function splitTarget(target: string): [string, string | undefined] {
  const hash = target.indexOf("#");
  return hash === -1 ? [target, undefined] : [target.slice(0, hash), decodeURIComponent(target.slice(hash + 1))];
}

function gitIgnored(files: string[]): string[] {
  if (files.length === 0) return [];
  const result = spawnSync("git", ["check-ignore", "--stdin"], { cwd: ROOT, input: files.join("\n"), encoding: "utf8" });
  // 0: some are ignored, 1: none; anything else (no git, not a repository) cannot tell.
  if (result.status !== 0 && result.status !== 1) return [];
  return result.stdout.split("\n").filter(Boolean);
}

describe("links in README.md, CONTRIBUTING.md and docs/", () => {
  it("every relative link and #anchor resolves", () => {
    const files = markdownFiles(ROOT);
    expect(files).toContain("docs/reference/manifest.md");
    expect(brokenLinks(new Map(files.map((f) => [f, readMarkdown(path.join(ROOT, f))])))).toEqual([]);
  });

  it("the checker finds a missing file, a missing anchor and an ignored path, and takes GitHub's anchors", () => {
    const doc = parseMarkdown(
      [
        "# Portability lint: `lint`",
        "## Multi round-trip requests (2026-07-28)",
        "## Tasks",
        "## Tasks",
        '<a id="custom"></a>',
        "```md",
        "[inside a fence](nowhere.md)",
        "```",
        '`[inside code](nowhere.md)` and [a link](guides/x.md#y "title") and ![img](<a b.png>)',
      ].join("\n"),
    );
    expect([...doc.anchors]).toEqual(["portability-lint-lint", "multi-round-trip-requests-2026-07-28", "tasks", "tasks-1", "custom"]);
    expect(doc.links).toEqual([
      { target: "guides/x.md#y", line: 9 },
      { target: "a b.png", line: 9 },
    ]);
    expect(doc.blocks).toEqual([{ info: "md", code: "[inside a fence](nowhere.md)", line: 6 }]);
    // A page in docs/ (not on disk: only its links are read) linking to real and broken places.
    const probe = parseMarkdown(
      "[a](reference/cli.md#mcpgen-pull) [b](reference/cli.md#nope) [c](nope.md) [d](../dist/index.js) [e](https://example.com/x) [f](#here)\n# Here\n",
    );
    expect(brokenLinks(new Map([["docs/probe.md", probe]]))).toEqual([
      "docs/probe.md:1: reference/cli.md#nope (no heading with the anchor #nope in docs/reference/cli.md)",
      "docs/probe.md:1: nope.md (no such file)",
      "docs/probe.md:1: ../dist/index.js (ignored by git: not in a fresh clone)",
    ]);
  });
});

/** `ts` blocks are compiled; `ts not-compiled: <why>` ones are not, and must say why. */
const NOT_COMPILED = /^(?:ts|typescript)\s+not-compiled:\s*(.*)$/;
/** `ts file=src/handlers/x.ts`: the block is that file of the snippet project. */
const FILE = /^(?:ts|typescript)\s+file=(\S+\.ts)$/;

function snippets(): { file: string; block: CodeBlock }[] {
  return markdownFiles(ROOT).flatMap((file) =>
    readMarkdown(path.join(ROOT, file))
      .blocks.filter((b) => /^(ts|typescript)(\s|$)/.test(b.info))
      .map((block) => ({ file, block })),
  );
}

describe("TypeScript snippets in the docs", () => {
  it("every ```ts block compiles against the committed generated/ output (strict, NodeNext)", () => {
    const all = snippets();
    const skipped = all.filter((s) => NOT_COMPILED.test(s.block.info));
    for (const s of skipped) expect(NOT_COMPILED.exec(s.block.info)![1], `${s.file}:${s.block.line}: say why it is not compiled`).not.toBe("");
    const compiled = all.filter((s) => !NOT_COMPILED.test(s.block.info));
    expect(compiled.length).toBeGreaterThan(10);
    expect(skipped.length).toBeLessThanOrEqual(3);

    // A project whose root holds generated/ (links to the committed server folders: the root's,
    // and the example project's gift-server) and the repository's node_modules (@mcpgen/runtime
    // among them), so a snippet imports "./generated/gift-server/index.js" as the docs write it.
    const dir = tempProject();
    const example = path.join(ROOT, "examples/gift-server/generated");
    mkdirSync(path.join(dir, "generated"));
    for (const name of readdirSync(path.join(ROOT, "generated"))) symlinkSync(path.join(ROOT, "generated", name), path.join(dir, "generated", name), "dir");
    symlinkSync(path.join(example, "gift-server"), path.join(dir, "generated", "gift-server"), "dir");
    // The example's handler files, which its handlers.ts imports (copied: a `file=` block may replace one).
    cpSync(path.join(ROOT, "examples/gift-server/src/handlers"), path.join(dir, "src/handlers"), { recursive: true });
    linkNodeModules(dir);
    writeFileSync(path.join(dir, "package.json"), JSON.stringify({ type: "module" }));
    // A block whose info string says `file=<path>` is that file of the project (a handler stub under
    // src/handlers/..., importing generated/ by its relative path); the others are snippet-N.ts.
    const names = compiled.map((s, i) => FILE.exec(s.block.info)?.[1] ?? `snippet-${i + 1}.ts`);
    compiled.forEach((s, i) => {
      mkdirSync(path.dirname(path.join(dir, names[i]!)), { recursive: true });
      writeFileSync(path.join(dir, names[i]!), `${s.block.code}\nexport {};\n`);
    });
    writeTsconfig(dir, {
      files: names,
      // Snippets are fragments (a value declared to show its type is never read), and mcpgen and
      // mcpgen/harness are this checkout's sources, which build without exactOptionalPropertyTypes
      // and noPropertyAccessFromIndexSignature (tsconfig.json): those four flags stay off.
      compilerOptions: {
        noUnusedLocals: false,
        noUnusedParameters: false,
        exactOptionalPropertyTypes: false,
        noPropertyAccessFromIndexSignature: false,
        lib: ["ES2023", "DOM"],
        paths: { "mcpgen/harness": [path.join(ROOT, "src/harness/index.ts")], mcpgen: [path.join(ROOT, "src/index.ts")] },
      },
    });
    const run = tsc(dir);
    // Each error at its line in the doc: snippet-N.ts(L,C) is the block's L-th line.
    const errors = run.output
      .split("\n")
      .filter(Boolean)
      .map((line) => {
        const m = /^(.*\.ts)\((\d+),(\d+)\): (.*)$/.exec(line);
        const at = m ? names.findIndex((name) => m[1] === name || m[1]!.endsWith(`/${name}`)) : -1;
        if (!m || at < 0) return line;
        const s = compiled[at]!;
        return `${s.file}:${s.block.line + Number(m[2])}:${m[3]}: ${m[4]}`;
      });
    expect(errors).toEqual([]);
    expect(run.status).toBe(0);
  }, 240_000);
});

// Not fetched, but kept honest: a README that no longer says how to run the tests breaks .ci/run.
describe("README.md", () => {
  it("names the test command .ci/run runs, and its prerequisites", () => {
    const readme = readFileSync(path.join(ROOT, "README.md"), "utf8");
    expect(readFileSync(path.join(ROOT, ".ci/run"), "utf8")).toContain("npm test");
    for (const said of ["npm install && npm run generate", "npm test", "Node.js 20", "chromium", "redis-server"]) expect(readme, said).toContain(said);
  });
});
