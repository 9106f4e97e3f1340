/**
 * Emits `<out>/_runtime/**`: mcpgen's server and client engine (src/runtime), copied once into
 * each output folder and shared by its servers, so generated code needs nothing at run time
 * beyond @modelcontextprotocol/server (or /client), ajv and re2js (and a server, @eslint-community/regexpp), and the compiler checks the engine once however many
 * servers there are.
 */
import { readdirSync, readFileSync } from "node:fs";
import { generatedHeader, type OutputFile } from "./common.js";

/** src/runtime, found from this module in both src/emit and dist/emit (it ships in the package). */
const RUNTIME_DIR = new URL("../../src/runtime/", import.meta.url);

/** Where the runtime is written: `<out>/<RUNTIME_FOLDER>/` (serverFolder/modules.ts spells the imports from it). */
export { RUNTIME_FOLDER } from "../serverFolder/modules.js";

const header = (command: string | undefined) => generatedHeader(": the runtime the servers of this folder share", command);

let sources: { path: string; source: string }[] | undefined;

export interface RuntimeOptions {
  /** The client's layers only: no server/ (the output compiles without @modelcontextprotocol/server). */
  clientOnly?: boolean;
  /** With widget/, the widget clients' engine (a server of the folder has widgets; it imports @modelcontextprotocol/ext-apps). */
  widgets?: boolean;
  /** The command named in the files' headers. */
  command?: string;
}

/**
 * When each top folder of src/runtime is copied: its layers (test/unit/runtime/layers.test.ts
 * checks their imports) are what make the rule hold. shared/ and client/ never import the server
 * SDK, so a client-only output compiles with the client alone.
 */
const LAYERS = new Map<string, (options: RuntimeOptions) => boolean>([
  ["shared", () => true],
  ["client", () => true],
  ["server", (options) => !options.clientOnly],
  ["widget", (options) => options.widgets === true],
]);

/** The runtime files, paths relative to `<out>/_runtime/` (`shared/errors.ts`), by layer folder. */
export function emitRuntime(options: RuntimeOptions = {}): OutputFile[] {
  const first = header(options.command);
  return allRuntime()
    .filter((f) => layerOf(f.path)(options))
    .map((f) => ({ path: f.path, content: `${first}\n${f.source}` }));
}

function layerOf(file: string): (options: RuntimeOptions) => boolean {
  const layer = file.includes("/") ? LAYERS.get(file.slice(0, file.indexOf("/"))) : undefined;
  if (!layer) throw new Error(`mcpgen: src/runtime/${file} is in no layer folder (${[...LAYERS.keys()].join(", ")})`);
  return layer;
}

/** Every runtime source, sorted by path (with `/`). */
function allRuntime(): { path: string; source: string }[] {
  sources ??= readdirSync(RUNTIME_DIR, { recursive: true, encoding: "utf8" })
    .map((name) => name.replaceAll("\\", "/"))
    .filter((name) => name.endsWith(".ts") && !name.endsWith(".d.ts"))
    .sort()
    .map((name) => ({ path: name, source: readFileSync(new URL(name, RUNTIME_DIR), "utf8").replace(/\r\n/g, "\n") }));
  return sources;
}
