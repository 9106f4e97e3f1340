/**
 * The re-exports of a generated file's public names, from the public API table
 * (src/generator/model/publicApi.ts).
 */
import type { ServerModel } from "../model/types.js";
import type { CodeFile } from "../print/codeFile.js";
import { apiOf, type ApiScope } from "../model/publicApi.js";

/** What of a server decides which names its folder exports. */
export function apiScope(model: ServerModel): ApiScope {
  return { auth: model.auth !== undefined, tasks: model.runsTasks };
}

/**
 * The public names of `module` in the file that emits it, for a server in `scope` (default: every
 * name): reserves the names the file declares (so no import shadows them) and re-exports the
 * runtime's, imported under whatever local name the file gives them.
 */
export function exportApi(file: CodeFile, module: string, clientInterface?: string, scope?: ApiScope): void {
  const names = apiOf(module, clientInterface, scope);
  file.declare(...names.filter((n) => !n.from).map((n) => n.name));
  for (const { name, kind, from } of names) {
    if (!from) continue;
    const local = kind === "type" ? file.importType(from, name) : file.importValue(from, name);
    file.exportLocal(local, name, kind === "type");
  }
}
