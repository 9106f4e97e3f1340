/**
 * The per-manifest steps of a generate run: compile (compile.ts) with the run's generation
 * options, then bundle the widgets and emit the server's files. Manifests are independent of each
 * other until the output is planned; each step fills in one record.
 */
import { hasErrors, type Diagnostic } from "../common/diagnostics.js";
import { compile, type Compiled } from "./compile.js";
import { emitServerFiles } from "./emit/index.js";
import type { WidgetHtml } from "./model/definition.js";
import type { RuntimeMode } from "./model/modules.js";
import type { OutputFile } from "./emit/common.js";
import type { FileStamp } from "./runRecords.js";
import type { ParseCache } from "./load/parseCache.js";
import type { GenerationOptions, ServerModel } from "./model/types.js";
import { stubImportBase } from "./stubs/stubs.js";

/** One manifest read by a run, filled in step by step. */
export interface ManifestRun {
  absPath: string;
  /** Path shown in diagnostics (relative to the working directory). */
  file: string;
  /** Path written in headers (relative to the project root). */
  display: string;
  text: string;
  hash: string;
  /** The file as it was when read, for the run records. */
  stamp: FileStamp;
  /** What this manifest's steps found (compile, then bundle). */
  diagnostics: Diagnostic[];
  /** The compile step's parse (for the positions of later diagnostics) and model. */
  compiled?: Compiled;
  /** The model to emit: the compiled one, with widget contents once bundled. */
  model?: ServerModel;
  /** Each widget's HTML, once bundled (empty for a server without widgets). */
  widgetHtml?: WidgetHtml;
  /** The files besides the manifest that its output depends on (`file:` resources, widget sources), absolute, once bundled. */
  sourceFiles?: string[];
  /** The server's files, once emitted. */
  files?: OutputFile[];
}

/** What the compile step needs from the run. */
export interface RunOptions {
  cache?: ParseCache;
  headerLines: string[];
  command?: string;
  invalidArguments?: "tool-error" | "protocol-error";
  /** Client-only output: every server, or the servers (output folders) named. */
  clientOnly?: boolean | string[];
  runtime?: RuntimeMode;
  /** The stubs folder, when handler stubs are on and files are emitted. */
  stubsDir?: string;
  outDir: string;
}

/**
 * The generation options of one server of this run (given its output folder name). A pulled
 * manifest that keeps its client-only header line describes a server someone else runs:
 * client-only, with no stubs, whatever the run says.
 */
function generationOptions(options: RunOptions, server: string, marked: boolean): GenerationOptions {
  const clientOnly = marked || options.clientOnly === true || (Array.isArray(options.clientOnly) && options.clientOnly.includes(server));
  return {
    headerLines: options.headerLines,
    ...(options.command ? { command: options.command } : {}),
    ...(options.invalidArguments ? { invalidArguments: options.invalidArguments } : {}),
    ...(options.stubsDir ? { stubs: { importBase: stubImportBase(options.stubsDir, options.outDir, server) } } : {}),
    ...(clientOnly ? { clientOnly: true } : {}),
    ...(options.runtime ? { runtime: options.runtime } : {}),
  };
}

/** Step: load, validate, model. */
export async function compileRun(run: ManifestRun, options: RunOptions): Promise<void> {
  const compiled = await compile(run, {
    ...(options.cache ? { cache: options.cache } : {}),
    generation: (server, marked) => generationOptions(options, server, marked),
  });
  run.compiled = compiled;
  run.diagnostics.push(...compiled.diagnostics);
  if (compiled.model) run.model = compiled.model;
}

/**
 * Step: a valid model's widget views, bundled (bundle/widgets.ts builds them with this run's
 * widget clients, served from memory) into the HTML the definition serves. `cwd`: the project root.
 */
export async function bundleRun(run: ManifestRun, place: { outDir: string; cwd: string }): Promise<void> {
  const model = run.model;
  if (!model || hasErrors(run.diagnostics)) return;
  run.sourceFiles = model.sourceFiles;
  if (model.widgets.length === 0 || model.options.clientOnly) {
    run.widgetHtml = new Map();
    return;
  }
  const { bundleWidgets } = await import("./bundle/widgets.js");
  const bundled = await bundleWidgets(model, place);
  run.diagnostics.push(...bundled.diagnostics);
  if (!bundled.widgetHtml) return;
  run.widgetHtml = bundled.widgetHtml;
  run.sourceFiles = [...new Set([...model.sourceFiles, ...bundled.sourceFiles])].sort();
}

/** Step: the server's folder, emitted once, with each widget's HTML in the definition. */
export function emitRun(run: ManifestRun): void {
  if (run.model && run.widgetHtml) run.files = emitServerFiles(run.model, { widgetHtml: run.widgetHtml });
}
