/**
 * `mcpgen dev`'s type checking: the project's own TypeScript compiler (`tsc --noEmit`) run on the
 * project's tsconfig.json and on the tsconfig.json of each widget's source folder, after each
 * build, as Vite's checker plugin does. esbuild bundles without checking types, so without this a
 * widget reading `args.nme` or a handler returning `{ greting }` rebuilds silently.
 */
import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import * as path from "node:path";

/** What a check found: `problems`, one line each (file:line:col: error TSnnnn: message, its detail indented under it). */
export interface TypeCheck {
  /** The compiler that checked: `typescript 7.0.2`. */
  compiler: string;
  /** The tsconfig files checked, relative to the project root. */
  projects: string[];
  problems: string[];
}

/** A check that has not ended by then is stopped and reported as such. */
const CHECK_TIMEOUT_MS = 120_000;
/** What is kept of a compiler's output: past it, the rest is cut (a project with thousands of errors). */
const MAX_OUTPUT_BYTES = 4 * 1024 * 1024;

/**
 * The compiler the project has (its node_modules/typescript), or undefined: mcpgen does not check
 * with a compiler of its own, whose version the project did not choose.
 */
export function projectCompiler(root: string): { tsc: string; version: string } | undefined {
  try {
    const require = createRequire(path.join(root, "package.json"));
    const manifest = require.resolve("typescript/package.json");
    const { version, bin } = JSON.parse(readFileSync(manifest, "utf8")) as { version?: string; bin?: { tsc?: string } };
    const tsc = path.join(path.dirname(manifest), bin?.tsc ?? "bin/tsc");
    return existsSync(tsc) ? { tsc, version: version ?? "unknown" } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The tsconfig files to check: the project's, and the nearest one above each widget's entry (up
 * to the project root), each once.
 */
export function checkedProjects(root: string, widgetEntries: readonly string[]): string[] {
  const projects = new Set<string>();
  if (existsSync(path.join(root, "tsconfig.json"))) projects.add(path.join(root, "tsconfig.json"));
  for (const entry of widgetEntries) {
    for (let dir = path.dirname(entry); dir.startsWith(root); dir = path.dirname(dir)) {
      if (existsSync(path.join(dir, "tsconfig.json"))) {
        projects.add(path.join(dir, "tsconfig.json"));
        break;
      }
      if (dir === root || path.dirname(dir) === dir) break;
    }
  }
  return [...projects];
}

/** Runs `tsc --noEmit -p` on each project in turn; the problems of all, each once. */
export async function typecheck(options: { root: string; compiler: { tsc: string; version: string }; projects: readonly string[] }): Promise<TypeCheck> {
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const project of options.projects) {
    const output = await runTsc(options.compiler.tsc, project, options.root);
    for (const problem of parseProblems(output)) {
      if (seen.has(problem)) continue;
      seen.add(problem);
      problems.push(problem);
    }
  }
  return { compiler: `typescript ${options.compiler.version}`, projects: options.projects.map((p) => path.relative(options.root, p)), problems };
}

function runTsc(tsc: string, project: string, cwd: string): Promise<string> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [tsc, "--noEmit", "--pretty", "false", "-p", project], { cwd, stdio: ["ignore", "pipe", "pipe"] });
    const chunks: Buffer[] = [];
    let size = 0;
    const take = (chunk: Buffer) => {
      if (size >= MAX_OUTPUT_BYTES) return;
      chunks.push(chunk);
      size += chunk.length;
    };
    child.stdout.on("data", take);
    child.stderr.on("data", take);
    const timer = setTimeout(() => child.kill("SIGKILL"), CHECK_TIMEOUT_MS);
    child.on("error", (error) => {
      clearTimeout(timer);
      resolve(`error: ${path.relative(cwd, project)}: the compiler did not start: ${error.message}\n`);
    });
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      let text = Buffer.concat(chunks).toString("utf8");
      if (signal === "SIGKILL") text += `error: ${path.relative(cwd, project)}: type checking took over ${CHECK_TIMEOUT_MS / 1000} s and was stopped\n`;
      else if (code !== 0 && text.trim() === "") text = `error: ${path.relative(cwd, project)}: the compiler exited with code ${code} and said nothing\n`;
      resolve(text);
    });
  });
}

/**
 * tsc's `--pretty false` output as one problem per error: `file(line,col): error TS2339: ...`
 * becomes `file:line:col: error TS2339: ...` (as mcpgen prints its own diagnostics), the lines
 * indented under it (the detail of a long message) kept with it.
 */
export function parseProblems(output: string): string[] {
  const problems: string[] = [];
  for (const line of output.split(/\r?\n/)) {
    if (line.trim() === "") continue;
    const located = /^(.+?)\((\d+),(\d+)\): (error|warning) (TS\d+: .*)$/.exec(line);
    if (located) problems.push(`${located[1]}:${located[2]}:${located[3]}: ${located[4]} ${located[5]}`);
    else if (/^\s/.test(line) && problems.length > 0) problems[problems.length - 1] += `\n${line}`;
    else problems.push(line);
  }
  return problems;
}
