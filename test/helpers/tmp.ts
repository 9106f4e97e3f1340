/** Temporary project folders for tests; removed after each test file. */
import { existsSync, mkdtempSync, mkdirSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll } from "vitest";

const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

/**
 * A fresh folder holding `files` (paths relative to it). A project (one with a package.json) gets
 * this checkout's @mcpgen/runtime installed too, as `npm install` gives a real one: generated code
 * imports it, and generate warns where an npm project lacks it (`runtime-missing`).
 */
export function tempProject(files: Record<string, string> = {}): string {
  const dir = mkdtempSync(path.join(tmpdir(), "mcpgen-test-"));
  made.push(dir);
  for (const [rel, text] of Object.entries(files)) {
    const abs = path.join(dir, rel);
    mkdirSync(path.dirname(abs), { recursive: true });
    writeFileSync(abs, text);
  }
  if (Object.hasOwn(files, "package.json")) linkRuntime(dir);
  return dir;
}

/**
 * Installs this checkout's @mcpgen/runtime in `dir` (node_modules/@mcpgen/runtime, a link to
 * packages/runtime), as `npm install` does in a project generated in the default package mode.
 */
function linkRuntime(dir: string): string {
  mkdirSync(path.join(dir, "node_modules/@mcpgen"), { recursive: true });
  symlinkSync(fileURLToPath(new URL("../../packages/runtime", import.meta.url)), path.join(dir, "node_modules/@mcpgen/runtime"), "dir");
  return dir;
}

/** Gives `dir` this checkout's node_modules (the SDK, TypeScript, @mcpgen/runtime...), in place of any it has. */
export function linkNodeModules(dir: string): void {
  rmSync(path.join(dir, "node_modules"), { recursive: true, force: true });
  symlinkSync(fileURLToPath(new URL("../../node_modules", import.meta.url)), path.join(dir, "node_modules"), "dir");
}

/**
 * Links each package of this checkout's node_modules into `dir/node_modules` (kept where `dir`
 * has its own), and mcpgen itself when `withMcpgen`: a project as `npm install` leaves it, without
 * the install.
 */
export function linkPackages(dir: string, withMcpgen = false): void {
  const root = fileURLToPath(new URL("../../", import.meta.url));
  mkdirSync(path.join(dir, "node_modules"), { recursive: true });
  for (const entry of readdirSync(path.join(root, "node_modules"))) {
    const target = path.join(dir, "node_modules", entry);
    if (!entry.startsWith(".") && !existsSync(target)) symlinkSync(path.join(root, "node_modules", entry), target, "dir");
  }
  if (withMcpgen) symlinkSync(root, path.join(dir, "node_modules/mcpgen"), "dir");
}

/**
 * A project's packages as `npm install` leaves those init writes: this checkout's, mcpgen itself
 * (its starter test and harness import it), and TypeScript 7, the range init's package.json asks
 * for, in place of the checkout's own TypeScript.
 */
export function linkStarterPackages(dir: string): void {
  linkPackages(dir, true);
  rmSync(path.join(dir, "node_modules/typescript"));
  symlinkSync(fileURLToPath(new URL("../typescript/7/node_modules/typescript", import.meta.url)), path.join(dir, "node_modules/typescript"), "dir");
}
