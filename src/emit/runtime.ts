/**
 * Emits `runtime/*.ts`: mcpgen's server and client engine (src/runtime), copied into each output
 * folder so generated code needs nothing at run time beyond @modelcontextprotocol/sdk and ajv.
 */
import { readdirSync, readFileSync } from "node:fs";
import type { ServerModel } from "../model/types.js";
import { header, type OutputFile } from "./common.js";

/** src/runtime, found from this module in both src/emit and dist/emit (it ships in the package). */
const RUNTIME_DIR = new URL("../../src/runtime/", import.meta.url);

let sources: { name: string; text: string }[] | undefined;

function runtimeSources(): { name: string; text: string }[] {
  sources ??= readdirSync(RUNTIME_DIR)
    .filter((name) => name.endsWith(".ts") && !name.endsWith(".d.ts"))
    .sort()
    .map((name) => ({ name, text: readFileSync(new URL(name, RUNTIME_DIR), "utf8").replace(/\r\n/g, "\n") }));
  return sources;
}

export function emitRuntime(model: ServerModel): OutputFile[] {
  return runtimeSources().map(({ name, text }) => ({ path: `runtime/${name}`, content: `${header(model)}\n${text}` }));
}
