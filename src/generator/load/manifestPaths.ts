/**
 * Where a run's manifests are: the files and folders given, each folder's *.yaml / *.yml files
 * sorted; and how a manifest's path is shown (relative to its project's root, whatever the working
 * directory).
 */
import { existsSync } from "node:fs";
import { readdir, stat } from "node:fs/promises";
import * as path from "node:path";
import type { Diagnostic } from "../../common/diagnostics.js";
import { toPosix } from "../../common/paths.js";

/** The manifest files of `inputs` (files, or folders of *.yaml / *.yml), each once; a path that does not exist is a diagnostic. */
export async function resolveManifests(inputs: string[], cwd: string): Promise<{ files: string[]; diagnostics: Diagnostic[] }> {
  const files: string[] = [];
  const diagnostics: Diagnostic[] = [];
  for (const input of inputs) {
    const abs = path.resolve(cwd, input);
    let info;
    try {
      info = await stat(abs);
    } catch {
      const shown = toPosix(path.relative(cwd, abs)) || input;
      diagnostics.push({
        severity: "error",
        code: "file-unreadable",
        message: `no such manifest file or folder: ${shown}; run \`mcpgen init\` to start a project here, or name your manifests with --manifests PATH (or \`manifests\` in mcpgen.config.json)`,
        file: shown,
        line: 1,
        col: 1,
        path: "",
      });
      continue;
    }
    if (info.isDirectory()) {
      const names = (await readdir(abs)).filter((n) => /\.ya?ml$/.test(n)).sort();
      files.push(...names.map((n) => path.join(abs, n)));
    } else files.push(abs);
  }
  return { files: [...new Set(files)], diagnostics };
}

/**
 * The path shown in diagnostics and written in headers: relative to the project root (the
 * nearest folder with a package.json above the manifest), so it never depends on the working
 * directory and never leaks an absolute path.
 */
export function displayPath(absPath: string): string {
  return toPosix(path.relative(projectRoot(path.dirname(absPath)), absPath));
}

const roots = new Map<string, string>();

/** The nearest folder with a package.json at or above `dir`, else `dir` itself (memoized). */
export function projectRoot(dir: string): string {
  let root = roots.get(dir);
  if (root === undefined) {
    root = dir;
    for (let d = dir; ;) {
      if (existsSync(path.join(d, "package.json"))) {
        root = d;
        break;
      }
      const parent = path.dirname(d);
      if (parent === d) break;
      d = parent;
    }
    roots.set(dir, root);
  }
  return root;
}
