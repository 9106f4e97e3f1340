/**
 * Stage 5, emit: one emitter per artifact, registered here. Adding an artifact is a file and a line.
 */
import type { ServerModel } from "../model/types.js";
import { emitClient } from "./client.js";
import type { EmitContext, Emitter, OutputFile } from "./common.js";
import { emitDefinition } from "./definition.js";
import { emitFetch } from "./fetch.js";
import { emitFixtures } from "./fixtures.js";
import { emitHandlers } from "./handlers.js";
import { emitIndex } from "./indexFile.js";
import { emitServe } from "./serve.js";
import { emitServer } from "./server.js";
import { emitTypes } from "./types.js";
import { emitValidators } from "./validators.js";
import { emitWidgets } from "./widgets.js";

export const EMITTERS: Readonly<Record<string, Emitter>> = {
  types: emitTypes,
  definition: emitDefinition,
  server: emitServer,
  serve: emitServe,
  fetch: emitFetch,
  validators: emitValidators,
  client: emitClient,
  index: emitIndex,
  handlers: emitHandlers,
  fixtures: emitFixtures,
  widgets: emitWidgets,
};

/** What a client-only output leaves out (no server, no transports, no handlers). */
const SERVER_ONLY = new Set(["server", "serve", "fetch", "validators", "handlers", "widgets"]);

/** Every file of one server's output folder, sorted by path; `context`: what the bundle stage made (no widget HTML when absent). */
export function emitServerFiles(model: ServerModel, context: EmitContext = { widgetHtml: new Map() }): OutputFile[] {
  const files = Object.entries(EMITTERS).flatMap(([name, emit]) => (model.options.clientOnly && SERVER_ONLY.has(name) ? [] : emit(model, context)));
  return files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

export type { EmitContext, OutputFile } from "./common.js";
