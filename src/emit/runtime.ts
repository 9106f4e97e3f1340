/**
 * Emits `<out>/_runtime/*.ts`: mcpgen's server and client engine (src/runtime), copied once into
 * each output folder and shared by its servers, so generated code needs nothing at run time
 * beyond @modelcontextprotocol/server (or /client), ajv and re2js, and the compiler checks the engine once however many
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

/**
 * The runtime files a client needs: none of them imports the SDK's server package, so a
 * client-only output compiles with @modelcontextprotocol/client (or the 1.x SDK) alone.
 */
const CLIENT_RUNTIME = new Set([
  "client.ts",
  "clientTasks.ts",
  "definition.ts",
  "describeErrors.ts",
  "dialect.ts",
  "errors.ts",
  "mcp.ts",
  "patterns.ts",
  "taskWire.ts",
  "uriTemplate.ts",
  "validation.ts",
]);

/** Only for output folders with widgets: it imports @modelcontextprotocol/ext-apps. */
const WIDGET_RUNTIME = new Set(["widget.ts"]);

/**
 * The runtime files, paths relative to `<out>/_runtime/`. `clientOnly`: the client's only;
 * `widgets`: with the widget clients' engine (a server of the folder has widgets); `command`:
 * the command named in their headers.
 */
export function emitRuntime(options: { clientOnly?: boolean; widgets?: boolean; command?: string } = {}): OutputFile[] {
  const first = header(options.command);
  return allRuntime()
    .filter((f) => (WIDGET_RUNTIME.has(f.path) ? options.widgets === true : !options.clientOnly || CLIENT_RUNTIME.has(f.path)))
    .map((f) => ({ path: f.path, content: `${first}\n${f.source}` }));
}

function allRuntime(): { path: string; source: string }[] {
  sources ??= readdirSync(RUNTIME_DIR)
    .filter((name) => name.endsWith(".ts") && !name.endsWith(".d.ts"))
    .sort()
    .map((name) => ({ path: name, source: readFileSync(new URL(name, RUNTIME_DIR), "utf8").replace(/\r\n/g, "\n") }));
  return sources;
}
