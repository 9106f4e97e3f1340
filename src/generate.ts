/**
 * The pipeline: load -> validate -> model -> emit -> write. Usable as a library; the CLI is a thin
 * shell around `runPipeline`.
 */
import { existsSync } from "node:fs";
import { readdir, stat } from "node:fs/promises";
import * as path from "node:path";
import { hasErrors, sortDiagnostics, type Diagnostic } from "./diagnostics.js";
import { emitServerFiles } from "./emit/index.js";
import { loadManifest, diagnosticAt, type LoadedManifest } from "./load/loadManifest.js";
import { ParseCache } from "./load/parseCache.js";
import { buildModel } from "./model/build.js";
import type { ServerModel } from "./model/types.js";
import { validateSchemas } from "./validate/schemas.js";
import { validateSemantics } from "./validate/semantics.js";
import { validateShape } from "./validate/shape.js";
import { planStubs, stubImportBase } from "./stubs/stubs.js";
import { applyPlan, planOutput, type ServerOutput, type WritePlan } from "./write/writeOutput.js";

export interface PipelineOptions {
  /** Manifest files or folders (folders: every *.yaml / *.yml in them, sorted). */
  manifests: string[];
  /** Output folder; each server goes to `<out>/<server.name>/`. */
  out: string;
  /** Base for relative paths. */
  cwd?: string;
  /** What to do with the output: compare only (`check`), write, or nothing (`validate`). */
  mode: "write" | "check" | "validate";
  /** Reuse parsed manifests from node_modules/.cache/mcpgen (default true). */
  cache?: boolean;
  /** Folder of user-owned handler stubs; none when absent. */
  stubs?: string;
  /** Folder of template overrides. */
  templates?: string;
  /** Default `invalidArguments` of the generated servers. */
  invalidArguments?: "tool-error" | "protocol-error";
  /** Comment lines added under the standard header. */
  header?: string[];
}

export interface PipelineResult {
  diagnostics: Diagnostic[];
  models: ServerModel[];
  /** Set when the manifests were valid and the mode was write or check. */
  plan?: WritePlan;
  /** Set when writing failed part-way (a file system error). */
  writeError?: string;
}

export async function runPipeline(options: PipelineOptions): Promise<PipelineResult> {
  const cwd = options.cwd ?? process.cwd();
  const { files, diagnostics } = await resolveManifests(options.manifests, cwd);
  const cache = options.cache === false ? undefined : ParseCache.forProject(projectRoot(cwd));
  const models: ServerModel[] = [];
  const loaded: LoadedManifest[] = [];

  for (const absPath of files) {
    const result = await loadManifest(absPath, toPosix(path.relative(cwd, absPath)), cache);
    if (!result.ok) {
      diagnostics.push(...result.diagnostics);
      continue;
    }
    const manifest = result.manifest;
    const shape = validateShape(manifest);
    diagnostics.push(...shape);
    if (hasErrors(shape)) continue;
    const more = [...validateSchemas(manifest), ...validateSemantics(manifest)];
    diagnostics.push(...more);
    if (hasErrors(more)) continue;
    const built = await buildModel(manifest, displayPath(absPath), {
      headerLines: options.header ?? [],
      ...(options.invalidArguments ? { invalidArguments: options.invalidArguments } : {}),
    });
    diagnostics.push(...built.diagnostics);
    if (built.model) {
      models.push(built.model);
      loaded.push(manifest);
      // Cached only once valid, so a cached manifest never needs its positions in a normal run.
      if (cache && manifest.cacheKey && !manifest.fromCache) cache.set(manifest.cacheKey, manifest.value);
    }
  }

  const seen = new Map<string, ServerModel>();
  models.forEach((model, i) => {
    const first = seen.get(model.name);
    if (first) {
      diagnostics.push(diagnosticAt(loaded[i]!, ["server", "name"], "duplicate-server", `server name ${JSON.stringify(model.name)} is also used by ${first.manifestFile}; both would write ${path.join(options.out, model.name)}`));
    } else seen.set(model.name, model);
  });

  const sorted = sortDiagnostics(diagnostics);
  if (hasErrors(sorted) || options.mode === "validate") return { diagnostics: sorted, models };

  const outDir = path.resolve(cwd, options.out);
  const stubsDir = options.stubs === undefined ? undefined : path.resolve(cwd, options.stubs);
  if (stubsDir) for (const model of models) model.options.stubs = { importBase: stubImportBase(stubsDir, outDir, model.name) };
  const outputs: ServerOutput[] = models.map((model) => ({ name: model.name, files: emitServerFiles(model) }));
  const plan = await planOutput(outDir, outputs, cwd);
  if (stubsDir) {
    const stubPlan = await planStubs(models, { stubsDir, outDir, cwd, ...(options.templates ? { templatesDir: path.resolve(cwd, options.templates) } : {}) });
    plan.changes.push(...stubPlan.changes);
    sorted.push(...sortDiagnostics(stubPlan.diagnostics));
  }
  const writeError = options.mode === "write" && plan.conflicts.length === 0 ? await applyPlan(plan) : undefined;
  return { diagnostics: sorted, models, plan, ...(writeError ? { writeError } : {}) };
}

async function resolveManifests(inputs: string[], cwd: string): Promise<{ files: string[]; diagnostics: Diagnostic[] }> {
  const files: string[] = [];
  const diagnostics: Diagnostic[] = [];
  for (const input of inputs) {
    const abs = path.resolve(cwd, input);
    let info;
    try {
      info = await stat(abs);
    } catch {
      const shown = toPosix(path.relative(cwd, abs)) || input;
      diagnostics.push({ severity: "error", code: "file-unreadable", message: `no such manifest file or folder: ${shown}`, file: shown, line: 1, col: 1, path: "" });
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

/** The nearest folder with a package.json at or above `dir`, else `dir` itself. */
function projectRoot(dir: string): string {
  for (let d = dir; ; ) {
    if (existsSync(path.join(d, "package.json"))) return d;
    const parent = path.dirname(d);
    if (parent === d) return dir;
    d = parent;
  }
}

function toPosix(p: string): string {
  return p.split(path.sep).join("/");
}
