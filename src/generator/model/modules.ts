/**
 * The module specifiers generated code imports, in one place: the SDK's packages, the files of a
 * server's folder, and mcpgen's runtime. Emitters name every module as a file at the top of a
 * server's folder would import it in the default `runtime: package` mode (`./types.js`,
 * `@mcpgen/runtime/server`); `moduleResolver` turns that into what a given file writes (one
 * folder deeper, or the copy under `<out>/_runtime/` in `runtime: vendor` mode).
 */
import * as path from "node:path";

/**
 * Where generated code finds mcpgen's runtime: the `@mcpgen/runtime` package the project depends
 * on (the default), or a copy of the files it imports under `<out>/_runtime/` (no dependency).
 */
export type RuntimeMode = "package" | "vendor";

/** The runtime package's name. */
export const RUNTIME_PACKAGE = "@mcpgen/runtime";

/**
 * The folder under `<out>` that holds the copied runtime in vendor mode, shared by every server
 * generated there (a server name cannot start with `_`, so it never clashes with one).
 */
export const RUNTIME_FOLDER = "_runtime";

/**
 * The runtime entries generated code imports: the package's subpath, and the file of the
 * package's `src/` that is that entry (what vendor mode copies, with what it imports).
 */
const ENTRIES = {
  shared: "shared/index",
  "shared/re2": "shared/re2",
  client: "client/index",
  server: "server/index",
  "server/tasks": "server/tasks/index",
  "server/auth": "server/auth/index",
  "server/auth/jwt": "server/auth/jwt",
  "server/http": "server/http/index",
  "server/durable": "server/durable/index",
  "server/lambda": "server/lambda/index",
  "server/node": "server/node/index",
  "server/redis": "server/redis/index",
  widget: "widget/index",
  "widget/ext-apps": "widget/extApps",
} as const;

type RuntimeEntry = keyof typeof ENTRIES;

const runtimeEntry = <E extends RuntimeEntry>(entry: E): `${typeof RUNTIME_PACKAGE}/${E}` => `${RUNTIME_PACKAGE}/${entry}`;

/** Module specifiers used by generated code. */
export const SDK = {
  server: "@modelcontextprotocol/server",
} as const;
export const LOCAL = {
  /** The folder's public entry: what a user's code imports (publicApi.ts). */
  index: "./index.js",
  types: "./types.js",
  definition: "./definition.js",
  validators: "./validators.js",
  server: "./server.js",
  client: "./client.js",
  serve: "./serve.js",
  /** The Web-standard entry, for every platform (no node:*). */
  fetch: "./fetch.js",
  handlers: "./handlers.js",
  /** The errors, MCP's result and content types (the SDK's are costly to type-check), the definition's type, the widget checks. */
  runtimeShared: runtimeEntry("shared"),
  /** The pattern engine with RE2JS loaded at once, for widget checks whose patterns run on it. */
  runtimeSharedRe2: runtimeEntry("shared/re2"),
  runtimeClient: runtimeEntry("client"),
  runtimeServer: runtimeEntry("server"),
  runtimeTasks: runtimeEntry("server/tasks"),
  runtimeAuth: runtimeEntry("server/auth"),
  /** The authorization part of `auth.jwt`, which loads jose (a literal import a bundler follows). */
  runtimeAuthJwt: runtimeEntry("server/auth/jwt"),
  runtimeHttp: runtimeEntry("server/http"),
  runtimeDurable: runtimeEntry("server/durable"),
  runtimeLambda: runtimeEntry("server/lambda"),
  runtimeNode: runtimeEntry("server/node"),
  runtimeRedis: runtimeEntry("server/redis"),
  runtimeWidget: runtimeEntry("widget"),
  /** The widget engine on the official App (`sdk: ext-apps`). */
  runtimeWidgetExtApps: runtimeEntry("widget/ext-apps"),
} as const;

/**
 * The files of the runtime package's `src/` that generated code imports in vendor mode, by the
 * specifiers emitters use (`@mcpgen/runtime/server` -> `server/index.ts`).
 */
export function vendoredEntry(module: string): string | undefined {
  if (!module.startsWith(`${RUNTIME_PACKAGE}/`)) return undefined;
  const entry = module.slice(RUNTIME_PACKAGE.length + 1);
  return Object.hasOwn(ENTRIES, entry) ? `${ENTRIES[entry as RuntimeEntry]}.ts` : undefined;
}

/**
 * What a file at `file` (a path in a server's folder: `client.ts`, `widgets/gifts.ts`) writes for
 * a module named as emitters name it, relative to the server's folder (`./types.js`,
 * `./widgets/gifts.checks.js`): the path from the file's own folder; in vendor mode a runtime
 * entry becomes its copy under `<out>/_runtime/`.
 */
export function moduleResolver(file: string, runtime: RuntimeMode): (module: string) => string {
  const from = path.posix.dirname(file);
  const relative = (target: string) => {
    const rel = path.posix.relative(from, target);
    return rel.startsWith(".") ? rel : `./${rel}`;
  };
  return (module) => {
    if (module.startsWith(`${RUNTIME_PACKAGE}/`)) {
      const vendored = vendoredEntry(module);
      if (vendored === undefined) throw new Error(`mcpgen: ${module} is not an entry of ${RUNTIME_PACKAGE}`);
      return runtime === "vendor" ? relative(`../${RUNTIME_FOLDER}/${vendored.replace(/\.ts$/, ".js")}`) : module;
    }
    return module.startsWith(".") ? relative(module) : module;
  };
}
