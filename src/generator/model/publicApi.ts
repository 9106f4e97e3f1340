/**
 * The public API of a generated server folder, in one table: each module a user imports from,
 * the names it exports, and which of them it re-exports from mcpgen's runtime. The table drives
 * the files that re-export runtime names (emit/publicApi.ts: server.ts, client.ts, serve.ts),
 * index.ts, and the type names a manifest cannot take (src/generator/model/build.ts), so the three cannot
 * drift apart. It lives apart from emit/ because the model reads it too.
 */
import { LOCAL } from "./modules.js";

/** A function or const (`value`), a type or interface (`type`), or a class (both). */
export type ApiKind = "value" | "type" | "class";

export interface ApiName {
  name: string;
  kind: ApiKind;
  /** The runtime module the file re-exports the name from; absent when the file declares it. */
  from?: string;
  /** Exported only by the folder of a server with `auth:` (its types mean nothing elsewhere). */
  auth?: true;
  /** Exported only by the folder of a server whose tools run as tasks (the task stores). */
  tasks?: true;
}

/** What of a server decides which names its folder exports. */
export interface ApiScope {
  /** The server has `auth:`. */
  auth: boolean;
  /** Some tool of the server runs as a task. */
  tasks: boolean;
}

/** Every name any server folder may export: the table's view when the server is not known. */
const ANY_SERVER: ApiScope = { auth: true, tasks: true };

export interface ApiModule {
  /** The module, as index.ts (beside it) imports it. */
  module: string;
  /** Its public names, in the order index.ts lists them. */
  names: readonly ApiName[];
  /** How index.ts re-exports it: `export *`, by name, or not at all (serve.ts keeps node:http out of a client bundle). */
  index: "all" | "names" | "none";
  /** Server side only: absent from a client-only output. */
  server: boolean;
}

const value = (name: string): ApiName => ({ name, kind: "value" });
const type = (name: string, from?: string): ApiName => ({ name, kind: "type", ...(from ? { from } : {}) });
const klass = (name: string): ApiName => ({ name, kind: "class" });

/**
 * The public API of a server folder whose client interface is `clientInterface` (`<Server>Client`),
 * for a server in `scope` (default: every name any folder may export).
 */
export function publicApi(clientInterface: string, scope: ApiScope = ANY_SERVER): readonly ApiModule[] {
  return apiTable(clientInterface).map((api) => ({ ...api, names: api.names.filter((n) => (scope.auth || !n.auth) && (scope.tasks || !n.tasks)) }));
}

function apiTable(clientInterface: string): readonly ApiModule[] {
  const server = (name: string) => type(name, LOCAL.runtimeServer);
  const authServer = (name: string): ApiName => ({ ...server(name), auth: true });
  const client = (name: string) => type(name, LOCAL.runtimeClient);
  return [
    {
      module: LOCAL.types,
      names: [
        "ToolName",
        "ToolInputs",
        "ToolOutputs",
        "ResourceName",
        "ResourceUri",
        "ResourceTemplateName",
        "ResourceTemplateVariables",
        "PromptName",
        "PromptArguments",
        "ListTag",
        "ListNames",
      ].map((n) => type(n)),
      index: "all",
      server: false,
    },
    {
      module: LOCAL.server,
      names: [
        value("createServer"),
        value("createServerFactory"),
        // Who called (`ctx.auth`) and `verifier: handler`'s verifyToken, on a server with `auth:`.
        authServer("AuthContext"),
        server("CompletionHandler"),
        type("Handlers"),
        server("InputOptions"),
        server("ListEntry"),
        server("Lists"),
        server("PromptContext"),
        // One handler of Handlers by MCP name (ToolHandler<"name">), the type of a handler stub.
        type("PromptHandler"),
        server("RequestContext"),
        server("ResourceContext"),
        type("ResourceHandler"),
        server("ResourceHandlerResult"),
        type("ResourceTemplateHandler"),
        server("ServerFactory"),
        // bus and notifyResourceUpdated of a factory (for the SDK's createMcpHandler).
        server("FactoryEvents"),
        server("ServerOptions"),
        // `lists` of the factory, the serving handles and handlers' ctx, typed by the manifest's names.
        type("ServerLists"),
        authServer("TokenVerifier"),
        server("ToolContext"),
        type("ToolHandler"),
        server("ToolTextResult"),
        server("VisibleContext"),
      ],
      index: "names",
      server: true,
    },
    {
      module: LOCAL.client,
      names: [
        value("createClient"),
        value("toolScopes"),
        // Thrown when a server refuses a call for want of scopes (403 insufficient_scope).
        { name: "ToolAuthorizationError", kind: "class", from: LOCAL.runtimeClient },
        type(clientInterface),
        client("ClientOptions"),
        client("RequestOptions"),
        client("SdkClient"),
        client("ToolTask"),
        client("ToolTaskState"),
      ],
      index: "names",
      server: false,
    },
    {
      // The errors handlers throw and callers catch, and MCP's result and content types.
      module: LOCAL.runtimeShared,
      names: [
        ...["MissingClientCapabilityError", "OutputValidationError", "RpcError", "TaskEndedError", "TaskInputRequiredError", "ToolCallError", "ToolError"].map(
          klass,
        ),
        ...[
          "CallToolResult",
          "ContentBlock",
          "CreateMessageResult",
          "ElicitResult",
          "GetPromptResult",
          "ListRootsResult",
          "PromptMessage",
          "ReadResourceResult",
        ].map((n) => type(n)),
      ],
      index: "names",
      server: false,
    },
    { module: LOCAL.definition, names: [value("definition")], index: "names", server: false },
    {
      // The Web-standard entry (no node:*): Deno, Bun, Cloudflare Workers, Lambda.
      module: LOCAL.fetch,
      names: [
        value("createFetchHandler"),
        type("FetchHandler", LOCAL.runtimeHttp),
        type("FetchHandlerOptions", LOCAL.runtimeHttp),
        // The fetch handler on AWS Lambda (function URLs, HTTP APIs).
        { name: "lambdaHandler", kind: "value", from: LOCAL.runtimeLambda },
        type("LambdaHttpEvent", LOCAL.runtimeLambda),
        type("LambdaHttpResult", LOCAL.runtimeLambda),
        // Where the tasks of a server with task tools are kept on Cloudflare Workers (docs/guides/serving.md).
        { name: "durableTaskStore", kind: "value", from: LOCAL.runtimeDurable, tasks: true },
        { ...type("DurableObjectStorageLike", LOCAL.runtimeDurable), tasks: true },
      ],
      index: "names",
      server: true,
    },
    {
      module: LOCAL.serve,
      names: [
        value("serveStdio"),
        value("serveHttp"),
        type("HttpOptions", LOCAL.runtimeNode),
        type("HttpHandle", LOCAL.runtimeNode),
        type("StdioOptions", LOCAL.runtimeNode),
        type("StdioHandle", LOCAL.runtimeNode),
        // Where the tasks of a server with task tools are kept (docs/guides/tasks.md).
        { name: "redisTaskStore", kind: "value", from: LOCAL.runtimeRedis, tasks: true },
        { ...type("RedisTaskStoreOptions", LOCAL.runtimeRedis), tasks: true },
        { name: "memoryTaskStore", kind: "value", from: LOCAL.runtimeTasks, tasks: true },
        { ...type("TaskStore", LOCAL.runtimeTasks), tasks: true },
      ],
      index: "none",
      server: true,
    },
  ];
}

/** The public names of one module of the folder (`LOCAL.server`, ...), for a server in `scope`. */
export function apiOf(module: string, clientInterface = ANY_CLIENT, scope: ApiScope = ANY_SERVER): readonly ApiName[] {
  const found = publicApi(clientInterface, scope).find((m) => m.module === module);
  if (!found) throw new Error(`mcpgen: ${module} is not a module of the public API`);
  return found.names;
}

/** Stands for the client interface in the table when the server is not known. */
const ANY_CLIENT = "<Server>Client";

/**
 * The names usable as types that server folders export (all but the client interface, which is
 * named after the server; those of servers with `auth:` too, so adding `auth:` never makes a
 * type name clash): a type declared from the manifest cannot take one.
 */
export const BUILTIN_TYPE_NAMES: readonly string[] = publicApi(ANY_CLIENT)
  .flatMap((m) => m.names)
  .filter((n) => n.kind !== "value" && n.name !== ANY_CLIENT)
  .map((n) => n.name);
