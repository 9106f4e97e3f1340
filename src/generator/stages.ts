/**
 * The heavy steps of the pipeline, loaded by pipeline.ts only when some manifest has to be
 * compiled: a run where nothing changed never loads the parsers, validators or emitters.
 */
export { bundleRun, compileRun, emitRun } from "./manifestRun.js";
export { stubEntries } from "./model/stubLayout.js";
export { planStubs } from "./stubs/stubs.js";
