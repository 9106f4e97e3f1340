/** Emits `index.ts`: the folder's public surface, as the public API table lists it. */
import type { ServerModel } from "../model/types.js";
import { codeFile, type OutputFile } from "./common.js";
import { publicApi } from "../model/publicApi.js";
import { apiScope } from "./publicApi.js";

export function emitIndex(model: ServerModel): OutputFile[] {
  const file = codeFile(model, "index.ts");
  for (const api of publicApi(model.clientTypeName, apiScope(model))) {
    if (api.index === "none" || (api.server && model.options.clientOnly)) continue;
    if (api.index === "all") file.reExportAll(api.module);
    else for (const { name, kind } of api.names) file.reExport(api.module, name, kind === "type");
  }
  return [{ path: file.path, content: file.render() }];
}
