/**
 * Compiling in tests: the strict flags projects turn on, a tsconfig.json made of them, and `tsc`
 * run on a project with this checkout's TypeScript or with one of the private compilers the
 * strict-compile test holds (test/typescript/<version>/, each a package of its own).
 */
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { ROOT } from "./cli.js";

/**
 * The strict settings projects turn on: `strict` and what it leaves out (Vite's templates have the
 * noUnused* pair), as docs/reference/generated-code.md ("Compiling and headers") lists them.
 * Generated code must compile under every one of them (test/strict-compile.test.ts holds the list
 * to that page).
 */
export const STRICT_FLAGS = {
  strict: true,
  noUnusedLocals: true,
  noUnusedParameters: true,
  exactOptionalPropertyTypes: true,
  noUncheckedIndexedAccess: true,
  noPropertyAccessFromIndexSignature: true,
  verbatimModuleSyntax: true,
  isolatedModules: true,
} as const;

/**
 * The rest of a test project's options: an ES module on Node (NodeNext, Node's types), the
 * libraries' declarations taken as they are, nothing written.
 */
const PROJECT_OPTIONS = {
  target: "ES2022",
  module: "NodeNext",
  moduleResolution: "NodeNext",
  types: ["node"],
  skipLibCheck: true,
  noEmit: true,
};

export interface Tsconfig {
  /** The file to write, relative to the folder (default tsconfig.json). */
  file?: string;
  include?: string[];
  files?: string[];
  /** Options over the strict ones: lib, types, paths, outDir with `noEmit: false`, a flag turned off... */
  compilerOptions?: Record<string, unknown>;
}

/** Writes `dir`/tsconfig.json (or `config.file`): the strict flags and a Node ES module project's options, then `config`'s own. */
export function writeTsconfig(dir: string, config: Tsconfig): void {
  const { file = "tsconfig.json", compilerOptions, ...rest } = config;
  const tsconfig = { compilerOptions: { ...PROJECT_OPTIONS, ...STRICT_FLAGS, ...compilerOptions }, ...rest };
  writeFileSync(path.join(dir, file), `${JSON.stringify(tsconfig, null, 2)}\n`);
}

/** The compilers a test may run: this checkout's TypeScript, and the two the strict-compile test brings (the oldest supported, the native one). */
export type Compiler = "root" | "5.4" | "7";

/** The folder of each compiler's own package.json, whose node_modules holds its typescript. */
const HOMES: Record<Compiler, string> = { root: ROOT, "5.4": path.join(ROOT, "test/typescript/5.4"), "7": path.join(ROOT, "test/typescript/7") };

/** The typescript package a compiler runs from: its version and its `tsc` script (TypeScript 7 exports no ./bin/tsc subpath: its package's `bin` says where). */
function typescriptOf(compiler: Compiler): { version: string; tsc: string } {
  const home = path.join(HOMES[compiler], "node_modules/typescript");
  const pkg = JSON.parse(readFileSync(path.join(home, "package.json"), "utf8")) as { version: string; bin: { tsc: string } };
  return { version: pkg.version, tsc: path.join(home, pkg.bin.tsc) };
}

/** The version of TypeScript a compiler is (5.4.5, 7.0.2...). */
export function tscVersion(compiler: Compiler): string {
  return typescriptOf(compiler).version;
}

/**
 * Runs `tsc -p <project>` in `dir` (project: a tsconfig file or a folder, relative to `dir`;
 * tsconfig.json by default) with `compiler`, and returns its exit status and what it printed:
 * status 0 and "" when the project compiles, its diagnostics (`file(line,col): error TSxxxx: ...`,
 * paths relative to `dir`) when it does not.
 *
 * The compiler is TypeScript 7 unless a test says otherwise: the current major, what a new project
 * gets, and native (several times faster than 5.x on the SDK's declarations). The repository's own
 * tsconfig files need `root`: they set `esModuleInterop: false`, an option TypeScript 7 removed.
 */
export function tsc(dir: string, options: { project?: string; compiler?: Compiler; args?: string[] } = {}): { status: number | null; output: string } {
  const { project = "tsconfig.json", compiler = "7", args = [] } = options;
  const run = spawnSync(process.execPath, [typescriptOf(compiler).tsc, "-p", project, "--pretty", "false", ...args], { cwd: dir, encoding: "utf8" });
  // A compiler that could not start says why in the output, with no status.
  return { status: run.status, output: `${run.stdout ?? ""}${run.stderr ?? ""}${run.error ? String(run.error) : ""}` };
}
