/**
 * The module specifiers generated code imports, in one place: the SDK's packages, the files of a
 * server's folder, and mcpgen's runtime under `<out>/_runtime/` (spelled from RUNTIME_FOLDER, the
 * folder the runtime is written to).
 */

/**
 * The folder under `<out>` that holds mcpgen's runtime, shared by every server generated there
 * (a server name cannot start with `_`, so it never clashes with one).
 */
export const RUNTIME_FOLDER = "_runtime";

/**
 * A runtime module (its path under `<out>/_runtime/`, by layer folder: `shared/errors`) as a file
 * of a server's folder (`<out>/<server>/`) imports it.
 */
function runtimeModule(name: string): string {
  return `../${RUNTIME_FOLDER}/${name}.js`;
}

/** Module specifiers used by generated code. */
export const SDK = {
  server: "@modelcontextprotocol/server",
} as const;
export const LOCAL = {
  /** The folder's public entry: what a user's code imports (serverFolder/publicApi.ts). */
  index: "./index.js",
  types: "./types.js",
  definition: "./definition.js",
  server: "./server.js",
  client: "./client.js",
  serve: "./serve.js",
  handlers: "./handlers.js",
  runtimeServer: runtimeModule("server/server"),
  runtimeClient: runtimeModule("client/client"),
  runtimeErrors: runtimeModule("shared/errors"),
  runtimeDefinition: runtimeModule("shared/definition"),
  runtimeServe: runtimeModule("server/transport/serve"),
  runtimeHttp: runtimeModule("server/transport/http"),
  runtimeRedisTaskStore: runtimeModule("server/redis/redisTaskStore"),
  runtimeTaskStore: runtimeModule("server/tasks/taskStore"),
  /** MCP's result and content types, declared by the runtime (the SDK's are costly to type-check). */
  runtimeMcp: runtimeModule("shared/mcp"),
  runtimeWidget: runtimeModule("widget/widget"),
  /** The widget engine on the official App (`sdk: ext-apps`). */
  runtimeWidgetExtApps: runtimeModule("widget/extApps"),
  runtimeDescribeErrors: runtimeModule("shared/describeErrors"),
  runtimePatterns: runtimeModule("shared/patterns"),
} as const;

/**
 * A relative specifier of a server's folder (one of LOCAL) as a file one folder deeper imports
 * it (`widgets/*.ts`): `./types.js` -> `../types.js`, `../_runtime/shared/mcp.js` -> `../../_runtime/shared/mcp.js`.
 */
export function fromSubfolder(module: string): string {
  if (module.startsWith("./")) return `../${module.slice(2)}`;
  if (module.startsWith("../")) return `../${module}`;
  throw new Error(`mcpgen: ${module} is not a relative module specifier`);
}
