/**
 * Emits `<out>/_runtime/**` in `runtime: vendor` mode: the files of the `@mcpgen/runtime` package
 * (its TypeScript sources, as this mcpgen depends on them) that the output's generated files
 * import, and what those import in turn. A server without tasks or authorization gets none of
 * their files. In the default `runtime: package` mode generated code imports the package and
 * nothing is copied.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import * as path from "node:path";
import type { Diagnostic } from "../../common/diagnostics.js";
import { RUNTIME_FOLDER, RUNTIME_PACKAGE } from "../model/modules.js";
import { generatedHeader, type OutputFile } from "./common.js";

/** The runtime package's folder, as this mcpgen resolves it (a workspace link in mcpgen's own checkout). */
export function runtimePackageDir(): string {
  return path.dirname(createRequire(import.meta.url).resolve(`${RUNTIME_PACKAGE}/package.json`));
}

/**
 * The header of a copied runtime file. No version: the copy changes only where the runtime's
 * code does, so an upgrade of mcpgen rewrites only the files that changed.
 */
const header = (command: string | undefined) =>
  generatedHeader(`: a copy of ${RUNTIME_PACKAGE}, the runtime of the servers in this folder`, command, [], false);

/** Every TypeScript source of the runtime package, by path under its `src/` (`server/index.ts`), read once. */
let sources: Map<string, string> | undefined;

export function runtimeSources(): ReadonlyMap<string, string> {
  if (!sources) {
    const src = path.join(runtimePackageDir(), "src");
    sources = new Map(
      readdirSync(src, { recursive: true, encoding: "utf8" })
        .map((name) => name.replaceAll("\\", "/"))
        .filter((name) => name.endsWith(".ts") && !name.endsWith(".d.ts"))
        .sort()
        .map((name) => [name, readFileSync(path.join(src, name), "utf8").replace(/\r\n/g, "\n")]),
    );
  }
  return sources;
}

/**
 * The module specifiers of a source's static imports and re-exports (`import type` included:
 * the copy must compile) and of its dynamic imports of a literal specifier (`import("./ajv.js")`:
 * a module the runtime loads only when needed must be in the copy too). The runtime's own code is
 * formatted by prettier, so a statement starts a line and a comment line starts with `*` or `//`;
 * test/unit/generator/emit/runtime.test.ts checks this reading against the TypeScript parser on
 * every runtime file.
 */
export function importedModules(source: string): string[] {
  const found: string[] = [];
  for (const match of source.matchAll(
    /^[ \t]*(?:import|export)\b(?:[^;"'`]|\n)*?\bfrom\s*["']([^"']+)["']|^[ \t]*import\s*["']([^"']+)["']|\bimport\(\s*["']([^"']+)["']\s*\)/gm,
  ))
    found.push((match[1] ?? match[2] ?? match[3])!);
  return found;
}

/**
 * The runtime files (paths under `_runtime/`, `.ts`) that `files` import, and their imports in
 * turn: `files` are the output's generated files, with paths relative to `<out>`.
 */
function runtimeClosure(files: readonly OutputFile[]): string[] {
  const all = runtimeSources();
  const wanted = new Set<string>();
  const visit = (file: string) => {
    if (wanted.has(file)) return;
    if (!all.has(file)) throw new Error(`mcpgen: generated code imports ${RUNTIME_FOLDER}/${file}, which ${RUNTIME_PACKAGE} does not have`);
    wanted.add(file);
    for (const module of importedModules(all.get(file)!)) {
      if (module.startsWith(".")) visit(path.posix.normalize(path.posix.join(path.posix.dirname(file), module)).replace(/\.js$/, ".ts"));
    }
  };
  for (const file of files) {
    if (!file.path.endsWith(".ts")) continue;
    for (const module of importedModules(file.content)) {
      const target = path.posix.normalize(path.posix.join(path.posix.dirname(file.path), module));
      if (target.startsWith(`${RUNTIME_FOLDER}/`)) visit(target.slice(RUNTIME_FOLDER.length + 1).replace(/\.js$/, ".ts"));
    }
  }
  return [...wanted].sort();
}

/** The copied runtime for an output whose generated files are `files` (paths relative to `<out>`). */
export function emitRuntime(files: readonly OutputFile[], command?: string): OutputFile[] {
  const first = header(command);
  const all = runtimeSources();
  return runtimeClosure(files).map((file) => ({ path: file, content: `${first}\n${all.get(file)!}` }));
}

/** The versions of the runtime this mcpgen's output runs on: the same minor line, at least this patch (`^0.1.3`). */
function runtimeRange(mcpgen: string): string {
  return `^${mcpgen}`;
}

interface Version {
  core: [number, number, number];
  pre: string[];
}

function parseVersion(text: string): Version | undefined {
  const m = /^(\d+)\.(\d+)\.(\d+)(?:-([0-9A-Za-z.-]+))?(?:\+[0-9A-Za-z.-]+)?$/.exec(text);
  return m ? { core: [Number(m[1]), Number(m[2]), Number(m[3])], pre: m[4] === undefined ? [] : m[4].split(".") } : undefined;
}

/** Semantic versioning's precedence: the numbers, then a prerelease below its release, identifier by identifier. */
function compareVersions(a: Version, b: Version): number {
  for (let i = 0; i < 3; i++) if (a.core[i] !== b.core[i]) return a.core[i]! - b.core[i]!;
  if (a.pre.length === 0 || b.pre.length === 0) return b.pre.length - a.pre.length;
  for (let i = 0; i < Math.min(a.pre.length, b.pre.length); i++) {
    const [x, y] = [a.pre[i]!, b.pre[i]!];
    if (x === y) continue;
    const [nx, ny] = [/^\d+$/.test(x), /^\d+$/.test(y)];
    if (nx && ny) return Number(x) - Number(y);
    return nx ? -1 : ny ? 1 : x < y ? -1 : 1;
  }
  return a.pre.length - b.pre.length;
}

/**
 * Whether `version` is in `^base`, as npm reads the caret: at least `base`, below the next
 * major (below 1.0.0, the next minor; below 0.1.0, the next patch); a prerelease only of the
 * base's own numbers.
 */
export function inCaretRange(version: string, base: string): boolean {
  const v = parseVersion(version);
  const b = parseVersion(base);
  if (!v || !b || compareVersions(v, b) < 0) return false;
  const [major, minor, patch] = b.core;
  const upper: Version = { core: major > 0 ? [major + 1, 0, 0] : minor > 0 ? [0, minor + 1, 0] : [0, 0, patch + 1], pre: ["0"] };
  if (compareVersions(v, upper) >= 0) return false;
  return v.pre.length === 0 || (b.pre.length > 0 && v.core.every((n, i) => n === b.core[i]));
}

/**
 * In package mode, the `@mcpgen/runtime` that the output folder resolves (as Node and TypeScript
 * do from there): an error when its version is not in this mcpgen's range, a warning when there
 * is none in an npm project (a package.json at or above the output folder). A folder outside any
 * npm project is not checked: nothing there installs packages. `outDir` absolute; `display` turns
 * a path into what diagnostics show.
 */
export function checkRuntimePackage(outDir: string, mcpgen: string, display: (abs: string) => string): Diagnostic[] {
  const range = runtimeRange(mcpgen);
  const install = `npm install ${RUNTIME_PACKAGE}@${range}`;
  const manifest = nearestPackageJson(outDir);
  const at = manifest ? dependencyPosition(manifest.text) : { line: 1, col: 1 };
  const where = { file: manifest ? display(manifest.path) : display(outDir), ...at, path: manifest ? `dependencies.${RUNTIME_PACKAGE}` : "" };
  let found: { version: string; dir: string } | undefined;
  try {
    const resolved = createRequire(path.join(outDir, "index.js")).resolve(`${RUNTIME_PACKAGE}/package.json`);
    found = { version: (JSON.parse(readFileSync(resolved, "utf8")) as { version: string }).version, dir: path.dirname(resolved) };
  } catch {
    found = undefined;
  }
  if (!found && !manifest) return [];
  if (!found) {
    const declared = manifest !== undefined && declares(manifest.text);
    return [
      {
        severity: "warning",
        code: "runtime-missing",
        message: `the generated code imports ${RUNTIME_PACKAGE}, which is not installed where ${display(outDir)}/ can import it`,
        fix: declared
          ? `run \`npm install\` (${display(manifest.path)} names it)`
          : `run \`${install}\` (or set "runtime": "vendor" in mcpgen.config.json to copy the runtime into the output)`,
        ...where,
      },
    ];
  }
  if (inCaretRange(found.version, mcpgen)) return [];
  return [
    {
      severity: "error",
      code: "runtime-version",
      message: `${RUNTIME_PACKAGE} ${found.version} (${display(found.dir)}) does not run code generated by mcpgen ${mcpgen}, which needs ${range}`,
      fix: `run \`${install}\` (mcpgen and its runtime move in lockstep), or set "runtime": "vendor" in mcpgen.config.json`,
      ...where,
    },
  ];
}

function nearestPackageJson(dir: string): { path: string; text: string } | undefined {
  for (let d = dir; ;) {
    const file = path.join(d, "package.json");
    if (existsSync(file)) return { path: file, text: readFileSync(file, "utf8") };
    const parent = path.dirname(d);
    if (parent === d) return undefined;
    d = parent;
  }
}

/** Whether a package.json lists the runtime among its dependencies. */
function declares(text: string): boolean {
  try {
    const manifest = JSON.parse(text) as Record<string, unknown>;
    return ["dependencies", "devDependencies", "optionalDependencies"].some((field) => {
      const deps = manifest[field];
      return typeof deps === "object" && deps !== null && Object.hasOwn(deps, RUNTIME_PACKAGE);
    });
  } catch {
    return false;
  }
}

/** Where package.json names the runtime (1:1 when it does not). */
function dependencyPosition(text: string): { line: number; col: number } {
  const at = text.indexOf(JSON.stringify(RUNTIME_PACKAGE));
  if (at < 0) return { line: 1, col: 1 };
  const before = text.slice(0, at).split("\n");
  return { line: before.length, col: before.at(-1)!.length + 1 };
}
