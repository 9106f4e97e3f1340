/**
 * The runtime's layers (docs/architecture.md, "The runtime's layers"): every import of every file
 * of src/runtime, read with the TypeScript parser, checked against the rules of its folder. The
 * checker is a function of an import list, so the cases below prove it catches each broken rule.
 */
import { readdirSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const RUNTIME = fileURLToPath(new URL("../../../src/runtime/", import.meta.url));

/** One import of a runtime file. `file` is relative to src/runtime (`server/transport/http.ts`). */
interface RuntimeImport {
  file: string;
  line: number;
  /** The specifier as written; undefined for `import(name)` with a name that is not a literal. */
  specifier: string | undefined;
  /** `import type` / `export type` / `typeof import(...)`: nothing is loaded at run time. */
  typeOnly: boolean;
  dynamic: boolean;
}

/**
 * What each layer folder may import of the runtime (`layers`, `typeLayers` for types only) and of
 * npm (`packages`, `node:*` for Node's own modules). server/ alone is the assembly: server.ts (the
 * factory) and engine.ts (the method table); engine/ is what the methods build on.
 */
const RULES: Record<string, { layers: readonly string[]; typeLayers?: readonly string[]; packages: readonly string[] }> = {
  shared: { layers: ["shared"], packages: ["ajv", "ajv/dist/2020.js", "re2js"] },
  client: { layers: ["shared", "client"], packages: ["@modelcontextprotocol/client"] },
  widget: { layers: ["shared", "widget"], packages: ["@modelcontextprotocol/ext-apps", "zod"] },
  server: { layers: ["shared", "server", "server/engine", "server/methods", "server/tasks"], packages: ["@modelcontextprotocol/server"] },
  "server/engine": {
    layers: ["shared", "server/engine"],
    typeLayers: ["server/tasks"],
    // The pattern translator (patternPlans.ts): forms handlers build at run time are planned there.
    packages: ["@modelcontextprotocol/server", "@modelcontextprotocol/server/stdio", "@eslint-community/regexpp", "re2js"],
  },
  "server/methods": { layers: ["shared", "server/engine", "server/tasks", "server/methods"], packages: [] },
  "server/tasks": { layers: ["shared", "server/engine", "server/tasks"], packages: [] },
  // Redis for replicas: the connection, the task store, the switched lists, the listen streams' event bus.
  "server/redis": { layers: ["shared", "server/engine", "server/tasks", "server/redis"], packages: [] },
  // Where a factory's shared state lives (memory or Redis), chosen before serving.
  "server/state": { layers: ["shared", "server/engine", "server/tasks", "server/state"], packages: [] },
  "server/auth": { layers: ["shared", "server/engine", "server/auth"], packages: [] },
  "server/transport": {
    layers: ["shared", "server/engine", "server/tasks", "server/state", "server/transport", "server/auth"],
    typeLayers: ["server"],
    packages: ["node:*"],
  },
};

/** The one module outside redis/ that imports it: where the shared state's store is chosen. */
const STORE_CHOICE = "server/state/openState.ts";
/** The one module that imports the server SDK's values (its casts are there). */
const SDK_SEAM = "server/engine/sdk.ts";

/** The layer of a runtime file (its folder; server/'s own files are `server`), or undefined. */
function layerOf(file: string): string | undefined {
  const folder = path.posix.dirname(file);
  return Object.hasOwn(RULES, folder) ? folder : undefined;
}

/** Every broken rule among `imports`, as `file:line: what`. */
function layerProblems(imports: readonly RuntimeImport[]): string[] {
  const problems: string[] = [];
  for (const imp of imports) {
    const at = `${imp.file}:${imp.line}`;
    const layer = layerOf(imp.file);
    if (!layer) {
      problems.push(`${at}: ${imp.file} is in no layer folder (${Object.keys(RULES).join(", ")})`);
      continue;
    }
    const rules = RULES[layer]!;
    const spec = imp.specifier;
    if (spec === undefined) {
      if (layer !== "server/redis" && layer !== "server/auth")
        problems.push(`${at}: import() of a computed name outside server/redis/ and server/auth/ (only node-redis and jose are loaded so)`);
      continue;
    }
    if (spec.startsWith(".")) {
      const target = path.posix.normalize(path.posix.join(path.posix.dirname(imp.file), spec));
      if (target.startsWith("../")) {
        problems.push(`${at}: imports ${spec}, outside src/runtime (the runtime is copied into users' projects alone)`);
        continue;
      }
      const to = layerOf(target);
      const allowed =
        to !== undefined &&
        (rules.layers.includes(to) || (imp.typeOnly && rules.typeLayers?.includes(to)) || (to === "server/redis" && imp.file === STORE_CHOICE));
      if (!allowed) problems.push(`${at}: ${layer}/ imports ${target}${imp.typeOnly ? " (types)" : ""}, which it may not`);
      continue;
    }
    const known = spec.startsWith("node:") ? "node:*" : spec;
    if (spec === "redis" || spec.startsWith("redis/"))
      problems.push(`${at}: imports redis by name (it is loaded with import() in server/redis/ only, when used)`);
    else if (!rules.packages.includes(known)) problems.push(`${at}: ${layer}/ imports ${spec}, which it may not`);
    else if (spec.startsWith("@modelcontextprotocol/server") && !imp.typeOnly && imp.file !== SDK_SEAM)
      problems.push(`${at}: imports the server SDK's values outside ${SDK_SEAM}`);
  }
  return problems;
}

/** The imports of one file: static, re-exports, `typeof import()` types and dynamic `import()`. */
function importsOf(file: string, text: string): RuntimeImport[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const found: RuntimeImport[] = [];
  const add = (node: ts.Node, specifier: ts.Node | undefined, typeOnly: boolean, dynamic: boolean) =>
    found.push({
      file,
      line: source.getLineAndCharacterOfPosition(node.getStart()).line + 1,
      specifier: specifier && ts.isStringLiteralLike(specifier) ? specifier.text : undefined,
      typeOnly,
      dynamic,
    });
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node)) add(node, node.moduleSpecifier, node.importClause?.isTypeOnly === true, false);
    else if (ts.isExportDeclaration(node) && node.moduleSpecifier) add(node, node.moduleSpecifier, node.isTypeOnly, false);
    else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) add(node, node.argument.literal, true, false);
    else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) add(node, node.arguments[0], false, true);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

const FILES = readdirSync(RUNTIME, { recursive: true, encoding: "utf8" })
  .map((f) => f.split(path.sep).join("/"))
  .filter((f) => f.endsWith(".ts"))
  .sort();
const IMPORTS = FILES.flatMap((f) => importsOf(f, readFileSync(path.join(RUNTIME, f), "utf8")));

describe("the runtime's layers", () => {
  it("every file of src/runtime is in a layer folder, and every import keeps its folder's rules", () => {
    expect(FILES.filter((f) => !layerOf(f))).toEqual([]);
    expect(layerProblems(IMPORTS)).toEqual([]);
  });

  it("reads every kind of import the runtime writes (the rules above are not checked on nothing)", () => {
    const has = (file: string, specifier: string | undefined, typeOnly: boolean, dynamic = false) =>
      expect(IMPORTS, `${file} ${specifier}`).toContainEqual(expect.objectContaining({ file, specifier, typeOnly, dynamic }));
    has("server/transport/http.ts", "../state/openState.js", false);
    has("server/engine/engineCore.ts", "../tasks/tasks.js", true);
    has("server/server.ts", "./engine/sdk.js", true); // export type { ServerFactory } from ...
    has("server/redis/redisClient.ts", undefined, false, true); // import(name): redis
    has("server/auth/jwtVerifier.ts", undefined, false, true); // import(name): jose
    has("widget/extAppsBridge.ts", "@modelcontextprotocol/ext-apps", false);
    has("widget/types.ts", "@modelcontextprotocol/ext-apps", true);
    expect(new Set(FILES.map(layerOf))).toEqual(new Set(Object.keys(RULES)));
  });

  it("loads ext-apps and zod only in the sdk: ext-apps bridge: the default widget bundle carries neither", () => {
    const heavy = IMPORTS.filter(
      (i) => i.file.startsWith("widget/") && !i.typeOnly && (i.specifier === "zod" || i.specifier?.startsWith("@modelcontextprotocol/")),
    );
    expect(heavy.map((i) => `${i.file} ${i.specifier}`).sort()).toEqual(["widget/extAppsBridge.ts @modelcontextprotocol/ext-apps", "widget/zodJitless.ts zod"]);
    const toExtApps = IMPORTS.filter((i) => i.file.startsWith("widget/") && i.specifier === "./extAppsBridge.js");
    expect(toExtApps.map((i) => i.file)).toEqual(["widget/extApps.ts"]);
    // zod is made jitless before ext-apps builds its schemas: the first import of the bridge.
    expect(IMPORTS.filter((i) => i.file === "widget/extAppsBridge.ts")[0]?.specifier).toBe("./zodJitless.js");
  });

  const imp = (file: string, specifier: string | undefined, typeOnly = false): RuntimeImport => ({
    file,
    line: 1,
    specifier,
    typeOnly,
    dynamic: specifier === undefined,
  });
  it.each<[string, RuntimeImport, string[]]>([
    [
      "shared imports the client",
      imp("shared/errors.ts", "../client/clientTasks.js", true),
      ["shared/errors.ts:1: shared/ imports client/clientTasks.js (types), which it may not"],
    ],
    [
      "the client imports the server",
      imp("client/client.ts", "../server/engine/sdk.js"),
      ["client/client.ts:1: client/ imports server/engine/sdk.js, which it may not"],
    ],
    [
      "the widget imports the client",
      imp("widget/widget.ts", "../client/client.js"),
      ["widget/widget.ts:1: widget/ imports client/client.js, which it may not"],
    ],
    [
      "the server imports the client",
      imp("server/server.ts", "../client/taskWire.js"),
      ["server/server.ts:1: server/ imports client/taskWire.js, which it may not"],
    ],
    [
      "a transport imports a method",
      imp("server/transport/http.ts", "../methods/tools.js"),
      ["server/transport/http.ts:1: server/transport/ imports server/methods/tools.js, which it may not"],
    ],
    [
      "a transport loads the factory",
      imp("server/transport/serve.ts", "../server.js"),
      ["server/transport/serve.ts:1: server/transport/ imports server/server.js, which it may not"],
    ],
    ["a transport names the factory's types", imp("server/transport/serve.ts", "../server.js", true), []],
    [
      "a transport picks the Redis store",
      imp("server/transport/serve.ts", "../redis/redisTaskStore.js"),
      ["server/transport/serve.ts:1: server/transport/ imports server/redis/redisTaskStore.js, which it may not"],
    ],
    [
      "tasks/ imports redis/",
      imp("server/tasks/tasks.ts", "../redis/redisTaskStore.js"),
      ["server/tasks/tasks.ts:1: server/tasks/ imports server/redis/redisTaskStore.js, which it may not"],
    ],
    [
      "state/ outside the store choice imports redis/",
      imp("server/state/other.ts", "../redis/redisLists.js"),
      ["server/state/other.ts:1: server/state/ imports server/redis/redisLists.js, which it may not"],
    ],
    ["the store choice imports redis/", imp(STORE_CHOICE, "../redis/redisTaskStore.js"), []],
    [
      "engine/ loads tasks/",
      imp("server/engine/round.ts", "../tasks/tasks.js"),
      ["server/engine/round.ts:1: server/engine/ imports server/tasks/tasks.js, which it may not"],
    ],
    ["engine/ names tasks/ types", imp("server/engine/round.ts", "../tasks/tasks.js", true), []],
    [
      "engine/ imports a method",
      imp("server/engine/lists.ts", "../methods/tools.js", true),
      ["server/engine/lists.ts:1: server/engine/ imports server/methods/tools.js (types), which it may not"],
    ],
    [
      "the runtime imports the generator",
      imp("shared/patterns.ts", "../../regex/translate.js"),
      ["shared/patterns.ts:1: imports ../../regex/translate.js, outside src/runtime (the runtime is copied into users' projects alone)"],
    ],
    [
      "a file outside the layer folders",
      imp("helpers.ts", "./shared/errors.js"),
      ["helpers.ts:1: helpers.ts is in no layer folder (" + Object.keys(RULES).join(", ") + ")"],
    ],
    ["shared/ imports Node", imp("shared/validation.ts", "node:crypto"), ["shared/validation.ts:1: shared/ imports node:crypto, which it may not"]],
    [
      "engine/ imports Node",
      imp("server/engine/requestState.ts", "node:crypto"),
      ["server/engine/requestState.ts:1: server/engine/ imports node:crypto, which it may not"],
    ],
    [
      "the client imports the server SDK",
      imp("client/client.ts", "@modelcontextprotocol/server", true),
      ["client/client.ts:1: client/ imports @modelcontextprotocol/server, which it may not"],
    ],
    ["the factory names the SDK's types", imp("server/server.ts", "@modelcontextprotocol/server", true), []],
    [
      "the factory takes the SDK's values",
      imp("server/server.ts", "@modelcontextprotocol/server"),
      [`server/server.ts:1: imports the server SDK's values outside ${SDK_SEAM}`],
    ],
    [
      "ext-apps outside widget/",
      imp("client/client.ts", "@modelcontextprotocol/ext-apps"),
      ["client/client.ts:1: client/ imports @modelcontextprotocol/ext-apps, which it may not"],
    ],
    ["another npm package", imp("shared/validation.ts", "zod"), ["shared/validation.ts:1: shared/ imports zod, which it may not"]],
    [
      "redis by name",
      imp("server/redis/redisTaskStore.ts", "redis"),
      ["server/redis/redisTaskStore.ts:1: imports redis by name (it is loaded with import() in server/redis/ only, when used)"],
    ],
    ["import() of a computed name in redis/", imp("server/redis/redisTaskStore.ts", undefined), []],
    ["import() of a computed name in auth/ (jose)", imp("server/auth/jwtVerifier.ts", undefined), []],
    [
      "import() of a computed name elsewhere",
      imp("server/tasks/tasks.ts", undefined),
      ["server/tasks/tasks.ts:1: import() of a computed name outside server/redis/ and server/auth/ (only node-redis and jose are loaded so)"],
    ],
    [
      "auth/ imports the transport",
      imp("server/auth/gate.ts", "../transport/http.js"),
      ["server/auth/gate.ts:1: server/auth/ imports server/transport/http.js, which it may not"],
    ],
    [
      "the engine imports auth/",
      imp("server/engine/sdk.ts", "../auth/gate.js"),
      ["server/engine/sdk.ts:1: server/engine/ imports server/auth/gate.js, which it may not"],
    ],
  ])("%s", (_, given, want) => {
    expect(layerProblems([given])).toEqual(want);
  });

  it("reads type-only imports as such, and `import { type X }` as loading the module", () => {
    const found = importsOf(
      "shared/x.ts",
      'import type { A } from "./a.js";\nimport { type B } from "./b.js";\nexport type { C } from "./c.js";\nexport { D } from "./d.js";\ntype E = typeof import("./e.js");\nconst f = () => import("./f.js");\n',
    );
    expect(found.map((i) => [i.line, i.specifier, i.typeOnly, i.dynamic])).toEqual([
      [1, "./a.js", true, false],
      [2, "./b.js", false, false],
      [3, "./c.js", true, false],
      [4, "./d.js", false, false],
      [5, "./e.js", true, false],
      [6, "./f.js", false, true],
    ]);
  });
});
