/**
 * Generated code compiles under the strict flags projects turn on, with the oldest TypeScript
 * mcpgen promises and with TypeScript 7 (the native compiler): every committed golden output tree,
 * and new projects from `mcpgen init` with and without a widget (their own tsconfig files, plus the
 * flags). And the flags bite: the same compile over a copy with one unused import fails with TS6133.
 *
 * The two compilers are devDependencies of their own (test/typescript/<version>/package.json), so
 * their `tsc` bins never replace the project's own in node_modules/.bin.
 */
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import * as path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { mcpgen, ROOT } from "./helpers/cli.js";
import { tempProject } from "./helpers/tmp.js";

/** What `strict` leaves out and many projects turn on (Vite's templates have the noUnused* pair). */
const FLAGS = {
  strict: true,
  noUnusedLocals: true,
  noUnusedParameters: true,
  exactOptionalPropertyTypes: true,
  noUncheckedIndexedAccess: true,
  noPropertyAccessFromIndexSignature: true,
  verbatimModuleSyntax: true,
  isolatedModules: true,
};

const COMPILERS = [
  { folder: "test/typescript/5.4", major: "5.4", role: "the oldest mcpgen promises" },
  { folder: "test/typescript/7", major: "7", role: "the native compiler" },
];

/** Folders under the repository that hold a generated `_runtime/`: generated/, and any other committed output. */
function goldenTrees(): string[] {
  const trees: string[] = [];
  const walk = (rel: string, depth: number) => {
    for (const entry of readdirSync(path.join(ROOT, rel), { withFileTypes: true })) {
      if (!entry.isDirectory() || entry.name.startsWith(".") || ["node_modules", "dist", "test"].includes(entry.name)) continue;
      const child = rel ? `${rel}/${entry.name}` : entry.name;
      if (existsSync(path.join(ROOT, child, "_runtime"))) trees.push(child);
      else if (depth < 3) walk(child, depth + 1);
    }
  };
  walk("", 0);
  return trees.sort();
}

function tsc(compiler: string, cwd: string, project: string): { ok: boolean; output: string } {
  try {
    execFileSync(process.execPath, [compiler, "-p", project, "--pretty", "false"], { cwd, encoding: "utf8", stdio: "pipe" });
    return { ok: true, output: "" };
  } catch (error) {
    const e = error as { stdout?: string; stderr?: string };
    return { ok: false, output: `${e.stdout ?? ""}${e.stderr ?? ""}` };
  }
}

/** A tree and, for an example project's output (`examples/<name>/generated`), the handlers its handlers.ts imports (`src/`). */
const withHandlers = (tree: string): string[] => {
  const example = /^(examples\/[^/]+)\/generated$/.exec(tree);
  return example ? [tree, `${example[1]}/src`] : [tree];
};

const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

/** A project holding a copy of each golden tree, compiled as a project would: Node's types, the DOM for the widgets. */
function goldenProject(trees: readonly string[]): string {
  const dir = tempProject({
    "package.json": '{"type":"module"}\n',
    "tsconfig.json": json({
      compilerOptions: {
        target: "ES2022",
        module: "NodeNext",
        moduleResolution: "NodeNext",
        lib: ["ES2023", "DOM"],
        types: ["node"],
        skipLibCheck: true,
        noEmit: true,
        ...FLAGS,
      },
      include: trees.flatMap(withHandlers),
    }),
  });
  symlinkSync(path.join(ROOT, "node_modules"), path.join(dir, "node_modules"), "dir");
  for (const tree of trees.flatMap(withHandlers)) cpSync(path.join(ROOT, tree), path.join(dir, tree), { recursive: true });
  return dir;
}

/**
 * A new project from `mcpgen init`, on this repository's packages (linked, not installed; mcpgen
 * itself is this checkout), with a `tsconfig.strict.json` next to each of its tsconfig files.
 */
function initProject(parent: string, name: string, widget: boolean, auth = false): { dir: string; projects: string[] } {
  const made = mcpgen(["init", name, ...(widget ? ["--widget"] : []), ...(auth ? ["--auth"] : []), "--mcpgen", "file:../mcpgen"], parent);
  expect(made.stderr).toBe("");
  const dir = path.join(parent, name);
  mkdirSync(path.join(dir, "node_modules"));
  for (const entry of readdirSync(path.join(ROOT, "node_modules")))
    if (!entry.startsWith(".")) symlinkSync(path.join(ROOT, "node_modules", entry), path.join(dir, "node_modules", entry), "dir");
  symlinkSync(ROOT, path.join(dir, "node_modules/mcpgen"), "dir");
  const projects = ["tsconfig.json", ...(widget ? ["manifests/widgets/tsconfig.json"] : [])].map((config) => {
    const strict = config.replace(/\.json$/, ".strict.json");
    writeFileSync(path.join(dir, strict), json({ extends: `./${path.basename(config)}`, compilerOptions: { noEmit: true, ...FLAGS } }));
    return strict;
  });
  return { dir, projects };
}

const trees = goldenTrees();
let golden: string;
let bitten: string;
let inits: { dir: string; projects: string[] }[];

beforeAll(() => {
  golden = goldenProject(trees);
  // The copy with one unused import: a value import, which every TypeScript reports as TS6133.
  bitten = goldenProject(trees);
  const index = path.join(bitten, "generated/notes-server/index.ts");
  const lines = readFileSync(index, "utf8").split("\n");
  lines.splice(lines.indexOf("/* eslint-disable */") + 1, 0, 'import { createServer as unused } from "./server.js";');
  writeFileSync(index, lines.join("\n"));
  const parent = tempProject();
  inits = [initProject(parent, "plain", false), initProject(parent, "shop", true), initProject(parent, "guard", false, true)];
}, 120_000);

describe.each(COMPILERS)("strict flags with TypeScript $major ($role)", ({ folder, major }) => {
  // The package's own `bin` (TypeScript 7 exports no ./bin/tsc subpath).
  const pkgFile = createRequire(path.join(ROOT, folder, "package.json")).resolve("typescript/package.json");
  const pkg = JSON.parse(readFileSync(pkgFile, "utf8")) as { version: string; bin: { tsc: string } };
  const compiler = path.join(path.dirname(pkgFile), pkg.bin.tsc);
  const version = pkg.version;

  it("is the version it says", () => {
    expect(version.startsWith(`${major}.`)).toBe(true);
    expect(trees).toContain("generated");
  });

  it("compiles every golden output tree", () => {
    const result = tsc(compiler, golden, "tsconfig.json");
    expect(result.output).toBe("");
    expect(result.ok).toBe(true);
  }, 180_000);

  it("compiles a new project from mcpgen init, with and without a widget, and with --auth (its handler stub, main.ts, harness and widget included)", () => {
    for (const { dir, projects } of inits) {
      for (const project of projects) {
        const result = tsc(compiler, dir, project);
        expect(result.output, `${path.basename(dir)}/${project}`).toBe("");
        expect(result.ok).toBe(true);
      }
    }
  }, 180_000);

  it("fails on the same compile with one unused import added (the flags bite)", () => {
    const result = tsc(compiler, bitten, "tsconfig.json");
    expect(result.ok).toBe(false);
    expect(result.output.trim()).toMatch(/^generated\/notes-server\/index\.ts\(3,\d+\): error TS6133: 'unused' is declared but its value is never read\.$/);
  }, 180_000);
});
