/**
 * The heavy stages of the pipeline, loaded by generate.ts only when some manifest has to be
 * processed: a run where nothing changed never loads the parsers, validators or emitters.
 */
export { loadManifestText } from "./load/loadManifest.js";
export { processManifest } from "./processManifest.js";
export { stubEntries } from "./stubs/layout.js";
export { planStubs } from "./stubs/stubs.js";
