/**
 * The pipeline: load -> validate -> model -> emit -> write. Usable as a library; the CLI is a thin
 * shell around `runPipeline`.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { readdir, readFile, stat } from "node:fs/promises";
import * as path from "node:path";
import { applyLevels, formatDiagnostic, hasErrors, sortDiagnostics, type Diagnostic, type DiagnosticLevels } from "./diagnostics.js";
import { RunRecords, sha256, stampOf, type FileStamp, type ManifestRecord } from "./load/incremental.js";
import { diagnosticAt, unreadableManifest } from "./load/loadManifest.js";
import { ParseCache } from "./load/parseCache.js";
import type { ServerModel } from "./model/types.js";
import { checkRuntimePackage, emitRuntime } from "./emit/runtime.js";
import { RUNTIME_FOLDER, type RuntimeMode } from "./serverFolder/modules.js";
import type { OutputFile } from "./emit/common.js";
import { version } from "./version.js";
import { interruptedRun } from "./write/problems.js";
import { recoverOutput } from "./write/recover.js";
import { applyPlan, planOutput, type ServerOutput, type WritePlan } from "./write/writeOutput.js";
import type { ManifestRun, RunOptions } from "./processManifest.js";
import { toPosix } from "./util/paths.js";

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
  /**
   * Where generated code finds mcpgen's runtime: the `@mcpgen/runtime` package (default), or a
   * copy of the files it imports under `<out>/_runtime/` (`vendor`).
   */
  runtime?: RuntimeMode;
  /** Levels of warning codes (the config's `diagnostics`): off, warn or error. Errors stay errors. */
  levels?: DiagnosticLevels;
  /**
   * Where the warning that a run was interrupted (and what was recovered) goes, as a formatted
   * diagnostic line; default stderr.
   */
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

/**
 * A run, as named steps over one record per manifest: recover, read (or reuse), compile, emit,
 * check duplicate names, plan, stubs, write, record.
 */
export async function runPipeline(options: PipelineOptions): Promise<PipelineResult> {
  const cwd = options.cwd ?? process.cwd();
  const { files, diagnostics } = await resolveManifests(options.manifests, cwd);
  const cache = options.cache === false ? undefined : ParseCache.forProject(projectRoot(cwd));
  const outDir = path.resolve(cwd, options.out);
  const stubsDir = options.stubs === undefined ? undefined : path.resolve(cwd, options.stubs);
  const templatesDir = options.templates === undefined ? undefined : path.resolve(cwd, options.templates);
  // Before anything reads the output (run records included): what a killed run left is put back
  // on every write path (generate, watch), and only reported by a check.
  let pendingRecovery: string | undefined;
  if (options.mode !== "validate") {
    const recovery = await recoverOutput(outDir, { ...(stubsDir ? { stubsDir } : {}), dryRun: options.mode === "check", cwd });
    if (recovery.refused)
      return {
        diagnostics: [],
        models: [],
        plan: { changes: [], unchanged: 0, conflicts: [], folders: [] },
        reused: [],
        reusedWarnings: [],
        writeError: recovery.refused,
      };
    if (recovery.report && options.mode === "check") pendingRecovery = recovery.report;
    else if (recovery.report) {
      const warning = interruptedRun(recovery.report, `${toPosix(path.relative(cwd, outDir)) || "."}/`);
      (options.notice ?? ((line) => process.stderr.write(`${line}\n`)))(formatDiagnostic(warning));
    }
  }
  const records =
    cache && options.mode !== "validate"
      ? RunRecords.open(cache.root, `${outDir}\0${stubsDir ?? ""}`, {
          outDir,
          stubsDir,
          templates: templatesDir && hashFolder(templatesDir),
          header: options.header ?? [],
          command: options.command ?? null,
          invalidArguments: options.invalidArguments ?? null,
          clientOnly: options.clientOnly ?? false,
          runtime: options.runtime ?? "package",
        })
      : undefined;

  const { runs, reused } = await readManifests(files, { cwd, outDir, records, diagnostics });
  const stages = runs.length > 0 ? await import("./stages.js") : undefined;
  const runOptions: RunOptions = {
    ...(cache ? { cache } : {}),
    headerLines: options.header ?? [],
    ...(options.command ? { command: options.command } : {}),
    ...(options.invalidArguments ? { invalidArguments: options.invalidArguments } : {}),
    ...(options.clientOnly ? { clientOnly: options.clientOnly } : {}),
    ...(options.runtime ? { runtime: options.runtime } : {}),
    // Stub imports only where files are emitted: a validated model names no stubs folder.
    ...(stubsDir && options.mode !== "validate" ? { stubsDir } : {}),
    outDir,
  };
  for (const run of runs) {
    await stages!.compileRun(run, runOptions);
    if (options.mode !== "validate") await stages!.emitRun(run, { outDir, cwd });
    diagnostics.push(...run.diagnostics);
  }
  const built = runs.filter((run): run is ManifestRun & { model: ServerModel } => run.model !== undefined);
  const models = built.map((run) => run.model);

  // A skipped manifest's warnings, as recorded, at this run's levels: the caller tells of them.
  const recorded = reused.flatMap(({ absPath, record }) => (record.warnings ?? []).map((d) => ({ ...d, file: toPosix(path.relative(cwd, absPath)) })));
  // Its stubs' warnings (recorded at their files, absolute) are said again in full: mcpgen lint,
  // which lists the others, does not read stubs.
  diagnostics.push(...reused.flatMap(({ record }) => (record.stubWarnings ?? []).map((d) => ({ ...d, file: toPosix(path.relative(cwd, d.file)) }))));
  const reusedLevelled = applyLevels(recorded, options.levels, cwd);
  const reusedWarnings = sortDiagnostics(reusedLevelled.filter((d) => d.severity === "warning"));
  diagnostics.push(...reusedLevelled.filter((d) => d.severity === "error"));
  diagnostics.push(...duplicateServers(built, reused, options.out));

  const reusedServers = reused.map(({ record }) => ({ server: record.server, files: record.outputs.length }));
  const sorted = sortDiagnostics(applyLevels(diagnostics, options.levels, cwd));
  if (hasErrors(sorted) || options.mode === "validate") return { diagnostics: sorted, models, reused: reusedServers, reusedWarnings };

  const outputs: ServerOutput[] = built.map((run) => ({ name: run.model.name, files: run.files ?? [] }));
  // Vendor mode: the runtime files the output imports, shared by its servers, kept current on
  // every run (a reused server's files are read back). Package mode: none, and a copy left by an
  // earlier vendor run is removed.
  if (models.length + reused.length > 0) {
    const vendor = (options.runtime ?? "package") === "vendor";
    outputs.push({
      name: RUNTIME_FOLDER,
      files: vendor ? emitRuntime([...generatedFiles(outputs), ...(await reusedFiles(outDir, reused))], options.command) : [],
    });
    if (!vendor)
      sorted.push(
        ...applyLevels(
          checkRuntimePackage(outDir, version(), (abs) => toPosix(path.relative(cwd, abs)) || "."),
          options.levels,
          cwd,
        ),
      );
    if (hasErrors(sorted)) return { diagnostics: sorted, models, reused: reusedServers, reusedWarnings };
  }
  const plan = await planOutput(outDir, outputs, cwd);
  const stubWarnings: Diagnostic[] = [];
  if (stubsDir && stages) {
    const stubPlan = await stages.planStubs(models, { stubsDir, outDir, cwd, ...(templatesDir ? { templatesDir } : {}) });
    stubWarnings.push(...stubPlan.diagnostics.filter((d) => d.severity === "warning"));
    plan.changes.push(...stubPlan.changes);
    sorted.push(...sortDiagnostics(applyLevels(stubPlan.diagnostics, options.levels, cwd)));
    // `stub-orphan` set to error: nothing is written, as for any error.
    if (hasErrors(sorted)) return { diagnostics: sorted, models, reused: reusedServers, reusedWarnings };
  }
  const writeError = options.mode === "write" && plan.conflicts.length === 0 ? await applyPlan(plan) : undefined;
  if (records && options.mode === "write" && plan.conflicts.length === 0 && !writeError) {
    for (const run of built) {
      const model = run.model;
      const stubs = stubsDir ? stages!.stubEntries(model).map((e) => path.join(stubsDir, model.name, e.file)) : [];
      const warnings = run.diagnostics.filter((d) => d.severity === "warning");
      const stubDir = stubsDir ? path.join(stubsDir, model.name) : undefined;
      // The warnings of its stub files, at their files (absolute): said again while it is skipped.
      const ownStubWarnings = stubDir
        ? stubWarnings.map((d) => ({ ...d, file: path.resolve(cwd, d.file) })).filter((d) => d.file.startsWith(stubDir + path.sep))
        : [];
      records.record(run.absPath, run.hash, run.stamp, model.name, model.sourceFiles, outDir, stubs, stubDir, warnings, ownStubWarnings);
    }
    records.save(files);
  }
  plan.unchanged += reusedServers.reduce((n, r) => n + r.files, 0);
  const problem = writeError ?? pendingRecovery;
  return { diagnostics: sorted, models, plan, reused: reusedServers, reusedWarnings, ...(problem ? { writeError: problem } : {}) };
}

/** The output's generated files, with paths relative to the output folder. */
function generatedFiles(outputs: readonly ServerOutput[]): OutputFile[] {
  return outputs.flatMap((o) => o.files.map((f) => ({ path: `${o.name}/${f.path}`, content: f.content })));
}

/** The TypeScript files of the servers this run reuses, as the last run wrote them (what they import of the runtime). */
async function reusedFiles(outDir: string, reused: readonly Reused[]): Promise<OutputFile[]> {
  const files: OutputFile[] = [];
  for (const { record } of reused)
    for (const { file } of record.outputs)
      if (file.endsWith(".ts")) files.push({ path: `${record.server}/${file}`, content: await readFile(path.join(outDir, record.server, file), "utf8") });
  return files;
}

/** A manifest this run does not read: unchanged since the last run, with its output untouched. */
interface Reused {
  absPath: string;
  record: ManifestRecord;
}

/** Step: read each manifest, or skip it when the run records prove nothing it depends on changed. */
async function readManifests(
  files: string[],
  run: { cwd: string; outDir: string; records: RunRecords | undefined; diagnostics: Diagnostic[] },
): Promise<{ runs: ManifestRun[]; reused: Reused[] }> {
  const { records, outDir } = run;
  const runs: ManifestRun[] = [];
  const reused: Reused[] = [];
  for (const absPath of files) {
    const file = toPosix(path.relative(run.cwd, absPath));
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
      run.diagnostics.push(unreadableManifest(file, error));
      continue;
    }
    const hash = sha256(text);
    // Unchanged since the last successful run, with its output untouched: nothing to do.
    const record = records?.reusable(absPath, hash, outDir);
    if (record) {
      records!.restamp(absPath, stamp);
      reused.push({ absPath, record });
    } else runs.push({ absPath, file, display: displayPath(absPath), text, hash, stamp, diagnostics: [] });
  }
  return { runs, reused };
}

/** Step: two manifests whose servers would write the same output folder (the first one read wins). */
function duplicateServers(built: readonly (ManifestRun & { model: ServerModel })[], reused: readonly Reused[], out: string): Diagnostic[] {
  const seen = new Map<string, string>(reused.map(({ absPath, record }) => [record.server, displayPath(absPath)]));
  const found: Diagnostic[] = [];
  for (const { model, compiled } of built) {
    const first = seen.get(model.name);
    if (first === undefined) seen.set(model.name, model.manifestFile);
    else if (compiled?.manifest)
      found.push(
        diagnosticAt(
          compiled.manifest,
          ["server", "name"],
          "duplicate-server",
          `server name ${JSON.stringify(model.name)} is also used by ${first}; both would write ${path.join(out, model.name)}`,
        ),
      );
  }
  return found;
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
