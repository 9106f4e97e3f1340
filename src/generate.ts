/**
 * The pipeline: load -> validate -> model -> emit -> write. Usable as a library; the CLI is a thin
 * shell around `runPipeline`.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { readdir, readFile, stat } from "node:fs/promises";
import * as path from "node:path";
import { applyLevels, hasErrors, sortDiagnostics, type Diagnostic, type DiagnosticLevels } from "./diagnostics.js";
import { RunRecords, sha256, stampOf, type FileStamp, type ManifestRecord } from "./load/incremental.js";
import { diagnosticAt } from "./load/loadManifest.js";
import { ParseCache } from "./load/parseCache.js";
import type { ServerModel } from "./model/types.js";
import { emitRuntime, RUNTIME_FOLDER } from "./emit/runtime.js";
import { recoverOutput } from "./write/recover.js";
import { applyPlan, planOutput, type ServerOutput, type WritePlan } from "./write/writeOutput.js";
import type { OutputFile } from "./emit/common.js";
import type { ProcessOptions } from "./processManifest.js";

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
  /** The command that regenerates this output, named in every file's header (default `mcpgen generate`). */
  command?: string;
  /** Client-only output (types, client, fixtures; no server files): every server, or these. */
  clientOnly?: boolean | string[];
  /** Levels of warning codes (the config's `diagnostics`): off, warn or error. Errors stay errors. */
  levels?: DiagnosticLevels;
  /** Where news that is not a problem goes (what was recovered from an interrupted run); default stderr. */
  notice?: (line: string) => void;
}

export interface PipelineResult {
  diagnostics: Diagnostic[];
  models: ServerModel[];
  /** Set when the manifests were valid and the mode was write or check. */
  plan?: WritePlan;
  /**
   * Set when writing failed part-way (a file system error), was refused (another run is writing
   * the output), or (check) an interrupted run left the output to be recovered by `generate`.
   */
  writeError?: string;
  /** Servers skipped because nothing they depend on changed since the last run. */
  reused: { server: string; files: number }[];
  /**
   * The warnings of the skipped manifests, as recorded when they were last read (levels applied):
   * kept apart from `diagnostics`, which holds what this run found, so a caller can say them
   * briefly. A skipped manifest's warning set to `error` is in `diagnostics` instead.
   */
  reusedWarnings: Diagnostic[];
}

export async function runPipeline(options: PipelineOptions): Promise<PipelineResult> {
  const cwd = options.cwd ?? process.cwd();
  const { files, diagnostics } = await resolveManifests(options.manifests, cwd);
  const cache = options.cache === false ? undefined : ParseCache.forProject(projectRoot(cwd));
  const models: ServerModel[] = [];
  const outDir = path.resolve(cwd, options.out);
  const stubsDir = options.stubs === undefined ? undefined : path.resolve(cwd, options.stubs);
  const templatesDir = options.templates === undefined ? undefined : path.resolve(cwd, options.templates);
  // Before anything reads the output (run records included): what a killed run left is put back
  // on every write path (generate, watch), and only reported by a check.
  let pendingRecovery: string | undefined;
  if (options.mode !== "validate") {
    const recovery = await recoverOutput(outDir, { ...(stubsDir ? { stubsDir } : {}), dryRun: options.mode === "check", cwd });
    if (recovery.refused) return { diagnostics: [], models, plan: { changes: [], unchanged: 0, conflicts: [], folders: [] }, reused: [], reusedWarnings: [], writeError: recovery.refused };
    if (recovery.report && options.mode === "check") pendingRecovery = recovery.report;
    else if (recovery.report) (options.notice ?? ((line) => process.stderr.write(`${line}\n`)))(`mcpgen: ${recovery.report}`);
  }
  const records =
    cache && options.mode !== "validate"
      ? RunRecords.open(cache.root, `${outDir}\0${stubsDir ?? ""}`, { outDir, stubsDir, templates: templatesDir && hashFolder(templatesDir), header: options.header ?? [], command: options.command ?? null, invalidArguments: options.invalidArguments ?? null, clientOnly: options.clientOnly ?? false })
      : undefined;
  const reused: { absPath: string; record: ManifestRecord }[] = [];
  const pending: { absPath: string; file: string; text: string; hash: string; stamp: FileStamp }[] = [];

  for (const absPath of files) {
    const file = toPosix(path.relative(cwd, absPath));
    let text: string;
    let stamp: FileStamp;
    try {
      const info = await stat(absPath);
      // Provably the file read last time, with its output untouched: not even read.
      const known = records?.knownHash(absPath, info);
      const record = known === undefined ? undefined : records!.reusable(absPath, known, outDir);
      if (record) {
        reused.push({ absPath, record });
        continue;
      }
      stamp = stampOf(info, Date.now());
      text = await readFile(absPath, "utf8");
    } catch (error) {
      diagnostics.push({ severity: "error", code: "file-unreadable", message: `cannot read manifest: ${(error as Error).message}`, file, line: 1, col: 1, path: "" });
      continue;
    }
    const hash = sha256(text);
    // Unchanged since the last successful run, with its output untouched: nothing to do.
    const record = records?.reusable(absPath, hash, outDir);
    if (record) {
      records!.restamp(absPath, stamp);
      reused.push({ absPath, record });
    } else pending.push({ absPath, file, text, hash, stamp });
  }

  const stages = pending.length > 0 ? await import("./stages.js") : undefined;
  const inputs = pending.map((p) => ({ ...p, display: displayPath(p.absPath) }));
  const processOptions: ProcessOptions = {
    ...(cache ? { cache } : {}),
    headerLines: options.header ?? [],
    ...(options.command ? { command: options.command } : {}),
    ...(options.invalidArguments ? { invalidArguments: options.invalidArguments } : {}),
    emit: options.mode !== "validate",
    ...(stubsDir ? { stubsDir } : {}),
    ...(options.clientOnly ? { clientOnly: options.clientOnly } : {}),
    outDir,
    cwd,
  };
  const processed = [];
  for (const input of inputs) processed.push(await stages!.processManifest(input, processOptions));
  const emitted: OutputFile[][] = [];
  const built: typeof inputs = [];
  const warningsOf: Diagnostic[][] = [];
  processed.forEach((result, i) => {
    diagnostics.push(...result.diagnostics);
    if (!result.model) return;
    models.push(result.model);
    built.push(inputs[i]!);
    emitted.push(result.files ?? []);
    warningsOf.push(result.diagnostics.filter((d) => d.severity === "warning"));
  });
  // A skipped manifest's warnings, as recorded, at this run's levels: the caller tells of them.
  const recorded = reused.flatMap(({ absPath, record }) => (record.warnings ?? []).map((d) => ({ ...d, file: toPosix(path.relative(cwd, absPath)) })));
  const reusedLevelled = applyLevels(recorded, options.levels, cwd);
  const reusedWarnings = sortDiagnostics(reusedLevelled.filter((d) => d.severity === "warning"));
  diagnostics.push(...reusedLevelled.filter((d) => d.severity === "error"));

  const seen = new Map<string, string>(reused.map(({ absPath, record }) => [record.server, displayPath(absPath)]));
  models.forEach((model, i) => {
    const first = seen.get(model.name);
    if (first) {
      // Positions come from parsing the text again: this is the only diagnostic that needs one here.
      const { absPath, file, text } = built[i]!;
      const again = stages!.loadManifestText(text, absPath, file);
      if (!again.ok) throw new Error(`${file} parsed once but not twice`);
      diagnostics.push(diagnosticAt(again.manifest, ["server", "name"], "duplicate-server", `server name ${JSON.stringify(model.name)} is also used by ${first}; both would write ${path.join(options.out, model.name)}`));
    } else seen.set(model.name, model.manifestFile);
  });

  const reusedServers = reused.map(({ record }) => ({ server: record.server, files: record.outputs.length }));
  const sorted = sortDiagnostics(applyLevels(diagnostics, options.levels, cwd));
  if (hasErrors(sorted) || options.mode === "validate") return { diagnostics: sorted, models, reused: reusedServers, reusedWarnings };

  const outputs: ServerOutput[] = models.map((model, i) => ({ name: model.name, files: emitted[i]! }));
  // The runtime all servers of this output folder share: checked (and kept current) on every run.
  // All client-only: the client's runtime only, so the output compiles without the server SDK.
  // With the widget engine when a server has widgets (a reused one: its output has widgets/).
  const widgets = models.some((m) => m.widgets.length > 0) || reused.some(({ record }) => record.outputs.some((o) => o.file.startsWith("widgets/")));
  if (models.length + reused.length > 0) outputs.push({ name: RUNTIME_FOLDER, files: emitRuntime({ clientOnly: options.clientOnly === true, widgets, ...(options.command ? { command: options.command } : {}) }) });
  const plan = await planOutput(outDir, outputs, cwd);
  if (stubsDir && stages) {
    const stubPlan = await stages.planStubs(models, { stubsDir, outDir, cwd, ...(templatesDir ? { templatesDir } : {}) });
    plan.changes.push(...stubPlan.changes);
    sorted.push(...sortDiagnostics(applyLevels(stubPlan.diagnostics, options.levels, cwd)));
    // `stub-orphan` set to error: nothing is written, as for any error.
    if (hasErrors(sorted)) return { diagnostics: sorted, models, reused: reusedServers, reusedWarnings };
  }
  const writeError = options.mode === "write" && plan.conflicts.length === 0 ? await applyPlan(plan) : undefined;
  if (records && options.mode === "write" && plan.conflicts.length === 0 && !writeError) {
    models.forEach((model, i) => {
      const stubs = stubsDir ? stages!.stubEntries(model).map((e) => path.join(stubsDir, model.name, e.file)) : [];
      records.record(built[i]!.absPath, built[i]!.hash, built[i]!.stamp, model.name, model.sourceFiles, outDir, stubs, stubsDir ? path.join(stubsDir, model.name) : undefined, warningsOf[i]!);
    });
    records.save(files);
  }
  plan.unchanged += reusedServers.reduce((n, r) => n + r.files, 0);
  const problem = writeError ?? pendingRecovery;
  return { diagnostics: sorted, models, plan, reused: reusedServers, reusedWarnings, ...(problem ? { writeError: problem } : {}) };
}

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

const roots = new Map<string, string>();

/** The nearest folder with a package.json at or above `dir`, else `dir` itself (memoized). */
function projectRoot(dir: string): string {
  let root = roots.get(dir);
  if (root === undefined) {
    root = dir;
    for (let d = dir; ; ) {
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

/** A hash of every file under `dir` (names and contents), for options that name a folder. */
function hashFolder(dir: string): string {
  const parts: string[] = [];
  const walk = (d: string) => {
    let entries;
    try {
      entries = readdirSync(d, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const abs = path.join(d, e.name);
      if (e.isDirectory()) walk(abs);
      else parts.push(`${abs}\0${sha256(readFileSync(abs))}`);
    }
  };
  walk(dir);
  return sha256(parts.join("\n"));
}

function toPosix(p: string): string {
  return p.split(path.sep).join("/");
}
