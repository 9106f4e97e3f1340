/**
 * The compile step: one manifest text through load -> validate -> model, nothing emitted. generate,
 * lint, diff and pull all compile a manifest through here; what they do with the model differs.
 */
import type { Diagnostic } from "../common/diagnostics.js";
import { loadManifestText, PULLED_MARK, pulledClientOnly, type LoadedManifest } from "./load/loadManifest.js";
import type { ParseCache } from "./load/parseCache.js";
import { buildModel, serverFolder } from "./model/build.js";
import { modelProblems } from "./model/modelProblems.js";
import type { GenerationOptions, ServerModel } from "./model/types.js";
import { validateManifest } from "./validate/validate.js";

/** A manifest text to compile. */
export interface ManifestSource {
  absPath: string;
  /** Path shown in diagnostics (relative to the working directory). */
  file: string;
  /** Path written in headers (relative to the project root; default `file`). */
  display?: string;
  text: string;
  /** The text's sha256, when already known (the parse cache's key). */
  hash?: string;
}

export interface CompileOptions {
  /** The parse cache, when on: read from it, and a valid manifest is stored in it. */
  cache?: ParseCache;
  /** The model's generation options, given the server's output folder name and whether the manifest is pulled and keeps its client-only line (default: none). */
  generation?: (server: string, clientOnly: boolean) => GenerationOptions;
}

export interface Compiled {
  diagnostics: Diagnostic[];
  /** The parsed manifest (for positions of later diagnostics), when it parsed. */
  manifest?: LoadedManifest;
  /** Set when the manifest is valid. */
  model?: ServerModel;
  /** True when `mcpgen pull` wrote the manifest (a server you do not own). */
  pulled: boolean;
}

export async function compile(source: ManifestSource, options: CompileOptions = {}): Promise<Compiled> {
  const { absPath, file, text } = source;
  const pulled = text.startsWith(PULLED_MARK);
  const cache = options.cache;
  const result = loadManifestText(text, absPath, file, cache, source.hash);
  if (!result.ok) return { diagnostics: result.diagnostics, pulled };
  const manifest = result.manifest;
  // A pulled manifest mirrors a server you do not own: its schema problems are warnings.
  const { diagnostics, valid } = await validateManifest(manifest, { pulled });
  if (!valid) {
    // What the model would find too (identifier clashes, missing files), so it comes with the errors, not after them.
    diagnostics.push(...(await modelProblems(manifest)));
    return { diagnostics, manifest, pulled };
  }
  const generation = options.generation?.(serverFolder(valid.value), pulledClientOnly(text)) ?? { headerLines: [] };
  const built = await buildModel(valid, source.display ?? file, generation);
  diagnostics.push(...built.diagnostics);
  if (!built.model) return { diagnostics, manifest, pulled };
  // Cached only once valid, so a cached manifest never needs its positions in a normal run.
  if (cache && manifest.cacheKey && !manifest.fromCache) cache.set(manifest.cacheKey, manifest.value);
  return { diagnostics, manifest, model: built.model, pulled };
}
