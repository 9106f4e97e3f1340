/**
 * A generate run: for each manifest compile (load, validate, model), bundle its widgets and emit
 * its files; then plan the output against the disk, add the handler stubs, and write. Around that:
 * the recovery of a killed run's output, and the run records that let an unchanged manifest be
 * skipped. Usable as a library; the CLI is a thin shell around `runPipeline`.
 */
import { existsSync, readdirSync } from "node:fs";
import { readFile, stat } from "node:fs/promises";
import * as path from "node:path";
import { applyLevels, formatDiagnostic, hasErrors, sortDiagnostics, type Diagnostic, type DiagnosticLevels } from "../common/diagnostics.js";
import { toPosix } from "../common/paths.js";
import { version } from "../common/version.js";
import type { OutputFile } from "./emit/common.js";
import { checkRuntimePackage, emitRuntime } from "./emit/runtime.js";
import { diagnosticAt, unreadableManifest } from "./load/loadManifest.js";
import { displayPath, projectRoot, resolveManifests } from "./load/manifestPaths.js";
import { ParseCache, sha256 } from "./load/parseCache.js";
import type { ManifestRun, RunOptions } from "./manifestRun.js";
import { RUNTIME_FOLDER, type RuntimeMode } from "./model/modules.js";
import type { ServerModel } from "./model/types.js";
import { planOutput, type ServerOutput, type WritePlan } from "./plan/plan.js";
import { hashFolder, RunRecords, stampOf, type FileStamp, type ManifestRecord } from "./runRecords.js";
import { interruptedRun } from "./write/problems.js";
import { recoverOutput } from "./write/recover.js";
import { applyPlan } from "./write/write.js";

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
   * `clientOnly: true` came from `--client-only`, which names no server: refused for a manifest
   * written by hand whose server has handler files (it would stop being a server).
   */
  clientOnlyFlag?: boolean;
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

/** What one run works with, resolved once from its options. */
interface Run {
  options: PipelineOptions;
  cwd: string;
  outDir: string;
  stubsDir: string | undefined;
  templatesDir: string | undefined;
  /** The manifests found, absolute. */
  files: string[];
  cache: ParseCache | undefined;
  /** What this run found so far, before levels are applied. */
  diagnostics: Diagnostic[];
}

/** A manifest built this run. */
type Built = ManifestRun & { model: ServerModel };

/** A run, as its steps: compile, bundle, emit, plan, stubs, write; the recovery of a killed run and the run records around them. */
export async function runPipeline(options: PipelineOptions): Promise<PipelineResult> {
  const run = await startRun(options);
  const recovery = await recover(run);
  if (recovery.refused) return { diagnostics: [], models: [], plan: emptyPlan(), reused: [], reusedWarnings: [], writeError: recovery.refused };
  const records = openRecords(run);
  const { runs, reused } = await readManifests(run, records);

  const stages = runs.length > 0 ? await import("./stages.js") : undefined;
  for (const manifest of runs) {
    await stages!.compileRun(manifest, runOptions(run));
    if (options.mode !== "validate") {
      await stages!.bundleRun(manifest, { outDir: run.outDir, cwd: run.cwd });
      stages!.emitRun(manifest);
    }
    run.diagnostics.push(...manifest.diagnostics);
  }
  const built = runs.filter((manifest): manifest is Built => manifest.model !== undefined);
  const models = built.map((manifest) => manifest.model);
  const { diagnostics, reusedWarnings } = runDiagnostics(run, built, reused);
  const done = (more: Partial<PipelineResult> = {}): PipelineResult => ({ diagnostics, models, reused: reusedServers(reused), reusedWarnings, ...more });
  if (hasErrors(diagnostics) || options.mode === "validate") return done();

  const output = await outputs(run, built, reused, diagnostics);
  if (hasErrors(diagnostics)) return done();
  const plan = await planOutput(run.outDir, output, run.cwd);
  const stubWarnings: Diagnostic[] = [];
  if (run.stubsDir && stages) {
    const stubPlan = await stages.planStubs(models, {
      stubsDir: run.stubsDir,
      outDir: run.outDir,
      cwd: run.cwd,
      ...(run.templatesDir ? { templatesDir: run.templatesDir } : {}),
    });
    stubWarnings.push(...stubPlan.diagnostics.filter((d) => d.severity === "warning"));
    plan.changes.push(...stubPlan.changes);
    diagnostics.push(...sortDiagnostics(applyLevels(stubPlan.diagnostics, options.levels, run.cwd)));
    // `stub-orphan` set to error: nothing is written, as for any error.
    if (hasErrors(diagnostics)) return done();
  }

  const writes = options.mode === "write" && plan.conflicts.length === 0;
  const writeError = writes ? await applyPlan(plan) : undefined;
  // Every manifest reused: no stages loaded, and nothing built to record but the manifests' list.
  if (writes && !writeError && records) record(run, records, built, stubWarnings, stages?.stubEntries ?? (() => []));
  plan.unchanged += reused.reduce((n, { record }) => n + record.outputs.length, 0);
  const problem = writeError ?? recovery.pending;
  return done({ plan, ...(problem ? { writeError: problem } : {}) });
}

/** The run's options resolved: paths, the manifests found, the parse cache. */
async function startRun(options: PipelineOptions): Promise<Run> {
  const cwd = options.cwd ?? process.cwd();
  const { files, diagnostics } = await resolveManifests(options.manifests, cwd);
  return {
    options,
    cwd,
    outDir: path.resolve(cwd, options.out),
    stubsDir: options.stubs === undefined ? undefined : path.resolve(cwd, options.stubs),
    templatesDir: options.templates === undefined ? undefined : path.resolve(cwd, options.templates),
    files,
    cache: options.cache === false ? undefined : ParseCache.forProject(projectRoot(cwd)),
    diagnostics,
  };
}

/**
 * Before anything reads the output (run records included): what a killed run left is put back on
 * every write path (generate, watch), and only reported by a check (`pending`). `refused`: another
 * run is writing the output.
 */
async function recover(run: Run): Promise<{ refused?: string; pending?: string }> {
  const { options, outDir, stubsDir, cwd } = run;
  if (options.mode === "validate") return {};
  const recovery = await recoverOutput(outDir, { ...(stubsDir ? { stubsDir } : {}), dryRun: options.mode === "check", cwd });
  if (recovery.refused) return { refused: recovery.refused };
  if (!recovery.report) return {};
  if (options.mode === "check") return { pending: recovery.report };
  const warning = interruptedRun(recovery.report, `${toPosix(path.relative(cwd, outDir)) || "."}/`);
  (options.notice ?? ((line) => process.stderr.write(`${line}\n`)))(formatDiagnostic(warning));
  return {};
}

function emptyPlan(): WritePlan {
  return { changes: [], unchanged: 0, conflicts: [], folders: [] };
}

/** The records of the last runs into this output, for the options that decide what it holds (none without the cache, or to validate). */
function openRecords(run: Run): RunRecords | undefined {
  const { options, cache, outDir, stubsDir, templatesDir } = run;
  if (!cache || options.mode === "validate") return undefined;
  return RunRecords.open(cache.root, `${outDir}\0${stubsDir ?? ""}`, {
    outDir,
    stubsDir,
    templates: templatesDir && hashFolder(templatesDir),
    header: options.header ?? [],
    command: options.command ?? null,
    invalidArguments: options.invalidArguments ?? null,
    clientOnly: options.clientOnly ?? false,
    runtime: options.runtime ?? "package",
  });
}

/** What the compile step needs of the run. */
function runOptions(run: Run): RunOptions {
  const { options, cache, stubsDir, outDir } = run;
  return {
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
}

/**
 * Everything the run found, at the config's levels: the manifests' own, those a skipped manifest
 * recorded (its warnings apart, for the caller to count; its stub files' warnings in full, since
 * `mcpgen lint` does not read stubs), and two manifests writing one folder.
 */
function runDiagnostics(run: Run, built: readonly Built[], reused: readonly Reused[]): { diagnostics: Diagnostic[]; reusedWarnings: Diagnostic[] } {
  const { cwd, options } = run;
  const recorded = reused.flatMap(({ absPath, record }) => (record.warnings ?? []).map((d) => ({ ...d, file: toPosix(path.relative(cwd, absPath)) })));
  const stubWarnings = reused.flatMap(({ record }) => (record.stubWarnings ?? []).map((d) => ({ ...d, file: toPosix(path.relative(cwd, d.file)) })));
  const reusedLevelled = applyLevels(recorded, options.levels, cwd);
  const found = [
    ...run.diagnostics,
    ...stubWarnings,
    ...reusedLevelled.filter((d) => d.severity === "error"),
    ...duplicateServers(built, reused, options.out),
    ...implementedServers(run, built),
  ];
  return {
    diagnostics: sortDiagnostics(applyLevels(found, options.levels, cwd)),
    reusedWarnings: sortDiagnostics(reusedLevelled.filter((d) => d.severity === "warning")),
  };
}

function reusedServers(reused: readonly Reused[]): { server: string; files: number }[] {
  return reused.map(({ record }) => ({ server: record.server, files: record.outputs.length }));
}

/**
 * The output to plan: each server built this run, and the runtime of the output folder. Vendor
 * mode: the runtime files the output imports, kept current on every run (a reused server's files
 * are read back). Package mode: none (a copy left by an earlier vendor run goes), and the
 * project's @mcpgen/runtime is checked, into `diagnostics`.
 */
async function outputs(run: Run, built: readonly Built[], reused: readonly Reused[], diagnostics: Diagnostic[]): Promise<ServerOutput[]> {
  const { options, outDir, cwd } = run;
  const servers: ServerOutput[] = built.map((manifest) => ({ name: manifest.model.name, files: manifest.files ?? [] }));
  if (built.length + reused.length === 0) return servers;
  const vendor = (options.runtime ?? "package") === "vendor";
  const runtime = vendor ? emitRuntime([...generatedFiles(servers), ...(await reusedFiles(outDir, reused))], options.command) : [];
  if (!vendor)
    diagnostics.push(
      ...applyLevels(
        checkRuntimePackage(outDir, version(), (abs) => toPosix(path.relative(cwd, abs)) || "."),
        options.levels,
        cwd,
      ),
    );
  return [...servers, { name: RUNTIME_FOLDER, files: runtime }];
}

/** After a write: what each manifest built this run depends on and left, so that the next run can skip it while none of it changes. */
function record(
  run: Run,
  records: RunRecords,
  built: readonly Built[],
  stubWarnings: readonly Diagnostic[],
  stubEntries: (model: ServerModel) => { file: string }[],
): void {
  const { stubsDir, outDir, cwd } = run;
  for (const manifest of built) {
    const model = manifest.model;
    const stubs = stubsDir ? stubEntries(model).map((e) => path.join(stubsDir, model.name, e.file)) : [];
    const warnings = manifest.diagnostics.filter((d) => d.severity === "warning");
    const stubDir = stubsDir ? path.join(stubsDir, model.name) : undefined;
    // The warnings of its stub files, at their files (absolute): said again while it is skipped.
    const ownStubWarnings = stubDir
      ? stubWarnings.map((d) => ({ ...d, file: path.resolve(cwd, d.file) })).filter((d) => d.file.startsWith(stubDir + path.sep))
      : [];
    records.record(
      manifest.absPath,
      manifest.hash,
      manifest.stamp,
      model.name,
      manifest.sourceFiles ?? model.sourceFiles,
      outDir,
      stubs,
      stubDir,
      warnings,
      ownStubWarnings,
    );
  }
  records.save(run.files);
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
async function readManifests(run: Run, records: RunRecords | undefined): Promise<{ runs: ManifestRun[]; reused: Reused[] }> {
  const { outDir, files } = run;
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

/**
 * Step: `--client-only` over a manifest written by hand whose server has handler files in the
 * stubs folder: it would make that server a client only. (Pulled manifests are client-only anyway.)
 */
function implementedServers(run: Run, built: readonly (ManifestRun & { model: ServerModel })[]): Diagnostic[] {
  const { options, stubsDir, cwd } = run;
  if (!options.clientOnlyFlag || options.clientOnly !== true || stubsDir === undefined) return [];
  const found: Diagnostic[] = [];
  for (const { model, compiled } of built) {
    if (!compiled?.manifest || compiled.pulled) continue;
    const dir = path.join(stubsDir, model.name);
    const handlers = existsSync(dir) ? readdirSync(dir, { recursive: true }).filter((f) => String(f).endsWith(".ts")).length : 0;
    if (handlers === 0) continue;
    const pulled = built.filter((b) => b.compiled?.pulled).map((b) => b.model.name);
    const names = JSON.stringify(pulled.length > 0 ? pulled : ["<server>"]);
    found.push(
      diagnosticAt(
        compiled.manifest,
        ["server", "name"],
        "client-only",
        `--client-only would make server ${JSON.stringify(model.name)}, whose ${handlers} handler file${handlers === 1 ? " is" : "s are"} in ${toPosix(path.relative(cwd, dir)) || "."}/, a client only (its server files removed): a manifest written by mcpgen pull is client-only already, without the flag; to make others client-only, name them in the config ("clientOnly": ${names})`,
      ),
    );
  }
  return found;
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
