/**
 * One manifest through load -> validate -> model -> emit. Manifests are independent of each other
 * until the output is planned; the result is plain data (no functions, no parser state).
 */
import { hasErrors, type Diagnostic } from "./diagnostics.js";
import type { OutputFile } from "./emit/common.js";
import * as path from "node:path";
import { EMITTERS, emitRuntime, emitServerFiles } from "./emit/index.js";
import { sha256 } from "./load/incremental.js";
import { loadManifestText } from "./load/loadManifest.js";
import type { ParseCache } from "./load/parseCache.js";
import { buildModel } from "./model/build.js";
import type { ServerModel } from "./model/types.js";
import { stubImportBase } from "./stubs/stubs.js";
import { PULLED_MARK } from "./pull/mark.js";
import { validateSchemas } from "./validate/schemas.js";
import { validateSemantics } from "./validate/semantics.js";
import { isPlainObject, validateShape } from "./validate/shape.js";

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
 * A manifest not read by a run (pulled from a server, read from git, linted): validated and
 * modelled, nothing emitted. `file` is shown in diagnostics, `display` in headers (default `file`).
 */
export function checkManifestText(text: string, absPath: string, file: string, outDir: string, display = file): Promise<ProcessedManifest> {
  return processManifest({ absPath, file, display, text, hash: sha256(text) }, { headerLines: [], emit: false, outDir });
}

export async function processManifest(input: ManifestInput, options: ProcessOptions): Promise<ProcessedManifest> {
  const { absPath, file, text, hash } = input;
  const cache = options.cache;
  const result = loadManifestText(text, absPath, file, cache, hash);
  if (!result.ok) return { absPath, diagnostics: result.diagnostics };
  const manifest = result.manifest;
  const diagnostics = validateShape(manifest);
  if (!isPlainObject(manifest.value)) return { absPath, diagnostics };
  // A manifest `mcpgen pull` wrote mirrors a server you do not own: its schema problems are warnings.
  const pulled = text.startsWith(PULLED_MARK);
  // The later checks run even when the shape has errors (each guards the values it reads), so a
  // problem in one part never hides another's, as tsc and buf report all they find.
  diagnostics.push(...(await validateSchemas(manifest, { pulled })), ...validateSemantics(manifest));
  if (hasErrors(diagnostics)) return { absPath, diagnostics };
  const built = await buildModel(manifest, input.display, {
    headerLines: options.headerLines,
    ...(options.command ? { command: options.command } : {}),
    ...(options.invalidArguments ? { invalidArguments: options.invalidArguments } : {}),
  });
  diagnostics.push(...built.diagnostics);
  const model = built.model;
  if (!model) return { absPath, diagnostics };
  // Cached only once valid, so a cached manifest never needs its positions in a normal run.
  if (cache && manifest.cacheKey && !manifest.fromCache) cache.set(manifest.cacheKey, manifest.value);
  const clientOnly = options.clientOnly;
  if (clientOnly === true || (Array.isArray(clientOnly) && clientOnly.includes(model.name))) model.options.clientOnly = true;
  if (!options.emit || hasErrors(diagnostics)) return { absPath, diagnostics, model };
  if (options.stubsDir) model.options.stubs = { importBase: stubImportBase(options.stubsDir, options.outDir, model.name) };
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
