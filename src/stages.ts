/**
 * The heavy stages of the pipeline, loaded by generate.ts only when some manifest has to be
 * processed: a run where nothing changed never loads the parsers, validators or emitters.
 */
export { emitServerFiles } from "./emit/index.js";
export { loadManifestText } from "./load/loadManifest.js";
export { buildModel } from "./model/build.js";
export { stubEntries } from "./stubs/layout.js";
export { planStubs, stubImportBase } from "./stubs/stubs.js";
export { validateSchemas } from "./validate/schemas.js";
export { validateSemantics } from "./validate/semantics.js";
export { validateShape } from "./validate/shape.js";
