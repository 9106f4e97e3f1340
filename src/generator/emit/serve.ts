/**
 * Emits `serve.ts`: `serveStdio` and `serveHttp`, the Node transports, kept out of index.ts so a
 * client-only import (a browser bundle) never pulls in node:http.
 */
import type { CodeFile } from "../print/codeFile.js";
import type { ServerModel } from "../model/types.js";
import { codeFile, LOCAL, type OutputFile } from "./common.js";
import { apiScope, exportApi } from "./publicApi.js";

/**
 * The runtime's parts a server needs when served (engine/parts.ts), as `name: value` entries: the
 * authorization gate (with `auth.jwt`, the one that loads jose), Redis for replicas.
 */
export function servingParts(file: CodeFile, model: ServerModel): { authPart: string[]; redisPart: string[] } {
  const gate =
    model.auth?.verifier.kind === "jwt"
      ? file.importValue(LOCAL.runtimeAuthJwt, "jwtAuthGate")
      : model.auth
        ? file.importValue(LOCAL.runtimeAuth, "authGate")
        : undefined;
  return {
    authPart: gate ? [`auth: ${gate}`] : [],
    redisPart: model.sharesState ? [`redis: ${file.importValue(LOCAL.runtimeRedis, "redisState")}`] : [],
  };
}

export function emitServe(model: ServerModel): OutputFile[] {
  const file = codeFile(model, "serve.ts");
  exportApi(file, LOCAL.serve, undefined, apiScope(model));
  const handlers = file.importType(LOCAL.server, "Handlers");
  const options = file.importType(LOCAL.server, "ServerOptions");
  const create = file.importValue(LOCAL.server, "createServerFactory");
  const lists = file.importType(LOCAL.server, "ServerLists");
  const definition = file.importValue(LOCAL.definition, "definition");
  const httpOptions = file.importType(LOCAL.runtimeNode, "HttpOptions");
  const httpHandle = file.importType(LOCAL.runtimeNode, "HttpHandle");
  const stdioOptions = file.importType(LOCAL.runtimeNode, "StdioOptions");
  const stdioHandle = file.importType(LOCAL.runtimeNode, "StdioHandle");
  const stdioWith = file.importValue(LOCAL.runtimeNode, "serveStdioWith");
  const httpWith = file.importValue(LOCAL.runtimeNode, "serveHttpWith");
  const param = `handlers: ${handlers}${model.needsHandlers ? "" : " = {}"}`;
  const { authPart, redisPart } = servingParts(file, model);
  const parts = (entries: string[]) => (entries.length ? `, { ${entries.join(", ")} }` : "");
  file.exportDeclaration({
    doc: [
      `Serves ${model.name} over this process's stdin and stdout, to 2025-era clients and 2026-07-28 clients alike (the first message of the connection decides).`,
    ],
    kind: "function",
    name: "serveStdio",
    text: `(${param}, options?: ${options} & ${stdioOptions}): Promise<${stdioHandle}<${lists}>> {\n  return ${stdioWith}(${create}(handlers, options), options${parts(redisPart)});\n}`,
  });
  file.exportDeclaration({
    doc: [
      `Serves ${model.name} over Streamable HTTP: http://127.0.0.1:3000/mcp by default, to 2026-07-28 requests and to 2025-era clients (with sessions, or \`stateless: true\`). Requests whose Host or Origin is not this server are refused (DNS-rebinding protection).`,
    ],
    kind: "function",
    name: "serveHttp",
    text: `(${param}, options?: ${options} & ${httpOptions}): Promise<${httpHandle}<${lists}>> {\n  return ${httpWith}(${create}(handlers, options), ${definition}, options${parts([...authPart, ...redisPart])});\n}`,
  });
  return [{ path: file.path, content: file.render() }];
}
