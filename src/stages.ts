/**
 * The heavy steps of the pipeline, loaded by generate.ts only when some manifest has to be
 * compiled: a run where nothing changed never loads the parsers, validators or emitters.
 */
export { compileRun, emitRun } from "./processManifest.js";
export { stubEntries } from "./stubs/layout.js";
export { planStubs } from "./stubs/stubs.js";
