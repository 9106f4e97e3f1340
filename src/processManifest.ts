/**
 * One manifest through load -> validate -> model -> emit. Manifests are independent of each other
 * until the output is planned; the result is plain data (no functions, no parser state).
 */
import { hasErrors, type Diagnostic } from "./diagnostics.js";
import type { OutputFile } from "./emit/common.js";
import * as path from "node:path";
import { EMITTERS, emitRuntime, emitServerFiles } from "./emit/index.js";
import { compile } from "./compile.js";
import type { ParseCache } from "./load/parseCache.js";
import type { ServerModel } from "./model/types.js";
import { stubImportBase } from "./stubs/stubs.js";

/** A manifest to process: its text as read, and that text's sha256. */
export interface ManifestInput {
  absPath: string;
  /** Path shown in diagnostics (relative to the working directory). */
  file: string;
  /** Path written in headers (relative to the project root). */
  display: string;
  text: string;
  hash: string;
}

/** What processing needs besides the manifest. */
export interface ProcessOptions {
  /** The parse cache, when on. */
  cache?: ParseCache;
  headerLines: string[];
  /** The command named in headers. */
  command?: string;
  invalidArguments?: "tool-error" | "protocol-error";
  /** Emit the server's files (not in validate mode). */
  emit: boolean;
  /** The stubs folder and the output folder, for the imports of generated handlers.ts. */
  stubsDir?: string;
  /** Client-only output: every server, or the servers (output folders) named. */
  clientOnly?: boolean | string[];
  outDir: string;
  /** The project root: widget bundles name their sources relative to it (default: the output folder's parent). */
  cwd?: string;
}

export interface ProcessedManifest {
  absPath: string;
  diagnostics: Diagnostic[];
  /** Set when the manifest is valid. */
  model?: ServerModel;
  /** The server's files, when valid and emitting. */
  files?: OutputFile[];
}

/**
 * A manifest not read by a run (pulled from a server, read from git): validated and modelled,
 * nothing emitted. `file` is shown in diagnostics, `display` in headers (default `file`).
 * The output folder is not used (kept for callers written before `compile`).
 */
export async function checkManifestText(text: string, absPath: string, file: string, _outDir?: string, display = file): Promise<ProcessedManifest> {
  const { diagnostics, model } = await compile({ absPath, file, display, text });
  return { absPath, diagnostics, ...(model ? { model } : {}) };
}

export async function processManifest(input: ManifestInput, options: ProcessOptions): Promise<ProcessedManifest> {
  const { absPath } = input;
  const clientOnly = (server: string) => options.clientOnly === true || (Array.isArray(options.clientOnly) && options.clientOnly.includes(server));
  const compiled = await compile(input, {
    ...(options.cache ? { cache: options.cache } : {}),
    generation: (server) => ({
      headerLines: options.headerLines,
      ...(options.command ? { command: options.command } : {}),
      ...(options.invalidArguments ? { invalidArguments: options.invalidArguments } : {}),
      ...(options.emit && options.stubsDir ? { stubs: { importBase: stubImportBase(options.stubsDir, options.outDir, server) } } : {}),
      ...(clientOnly(server) ? { clientOnly: true } : {}),
    }),
  });
  const { diagnostics, model } = compiled;
  if (!model) return { absPath, diagnostics };
  if (!options.emit || hasErrors(diagnostics)) return { absPath, diagnostics, model };
  if (model.widgets.length === 0 || model.options.clientOnly) return { absPath, diagnostics, model, files: emitServerFiles(model) };
  // Widgets: their views are bundled with this run's widget clients (and the types they import),
  // then the whole folder is emitted with the HTML in the definition.
  const { bundleWidgets } = await import("./bundle/widgets.js");
  const clients = [...EMITTERS.types!(model), ...EMITTERS.widgets!(model)];
  const bundled = await bundleWidgets(model, clients, { outDir: options.outDir, cwd: options.cwd ?? path.dirname(options.outDir), runtime: emitRuntime({ widgets: true }) });
  diagnostics.push(...bundled.diagnostics);
  if (!bundled.model) return { absPath, diagnostics, model };
  return { absPath, diagnostics, model: bundled.model, files: emitServerFiles(bundled.model) };
}
