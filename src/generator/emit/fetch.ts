/**
 * Emits `fetch.ts`: `createFetchHandler`, the server as a Web-standard fetch handler for every
 * platform (Deno, Bun, Lambda through `lambdaHandler`, Node), and `lambdaHandler`. It imports
 * nothing of Node, so index.ts re-exports it and a browser or Worker bundle never meets node:http.
 */
import type { ServerModel } from "../model/types.js";
import { codeFile, LOCAL, type OutputFile } from "./common.js";
import { apiScope, exportApi } from "./publicApi.js";
import { servingParts } from "./serve.js";

export function emitFetch(model: ServerModel): OutputFile[] {
  const file = codeFile(model, "fetch.ts");
  exportApi(file, LOCAL.fetch, undefined, apiScope(model));
  const handlers = file.importType(LOCAL.server, "Handlers");
  const options = file.importType(LOCAL.server, "ServerOptions");
  const create = file.importValue(LOCAL.server, "createServerFactory");
  const lists = file.importType(LOCAL.server, "ServerLists");
  const definition = file.importValue(LOCAL.definition, "definition");
  const fetchOptions = file.importType(LOCAL.runtimeHttp, "FetchHandlerOptions");
  const fetchHandler = file.importType(LOCAL.runtimeHttp, "FetchHandler");
  const handlerWith = file.importValue(LOCAL.runtimeHttp, "createFetchHandlerWith");
  const param = `handlers: ${handlers}${model.needsHandlers ? "" : " = {}"}`;
  const { authPart, redisPart } = servingParts(file, model);
  const parts = [...authPart, ...redisPart];
  file.exportDeclaration({
    doc: [
      `${model.name} as a fetch handler, \`(request: Request) => Promise<Response>\`, for Deno.serve, Bun.serve, AWS Lambda (lambdaHandler) and other platforms that speak Request and Response: Streamable HTTP at /mcp to 2026-07-28 requests and to 2025-era clients (with sessions in this instance's memory, or \`stateless: true\`). Requests whose Host is not a loopback name or in \`allowedHosts\`, or whose Origin is not the server's own page, are refused. Nothing opens until the first request.`,
    ],
    kind: "function",
    name: "createFetchHandler",
    text: `(${param}, options?: ${options} & ${fetchOptions}): ${fetchHandler}<${lists}> {\n  return ${handlerWith}(${create}(handlers, options), ${definition}, options${parts.length ? `, { ${parts.join(", ")} }` : ""});\n}`,
  });
  return [{ path: file.path, content: file.render() }];
}
