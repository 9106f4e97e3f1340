/**
 * The runtime's layers (src/reference/layers.ts, docs/reference/source-files.md): every import of
 * every file of packages/runtime/src, read with the TypeScript parser, checked against the rules of its
 * folder, and the import graph without a cycle. The checker is a function of an import list, so
 * the cases below prove it catches each broken rule.
 */
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { RUNTIME_LAYERS, type RuntimeLayer } from "../../../src/reference/layers.js";
import { cyclesOf, importsOf, readSources, type SourceImport } from "../../../test/helpers/imports.js";

const RUNTIME = fileURLToPath(new URL("../src/", import.meta.url));

/** Each layer folder's rules, by folder (src/reference/layers.ts, which the source-files page is written from). */
const RULES: Record<string, RuntimeLayer> = Object.fromEntries(RUNTIME_LAYERS.map((layer) => [layer.folder, layer]));

/** The one module that imports the server SDK's values (its casts are there). */
const SDK_SEAM = "server/engine/sdk.ts";
/** The folders whose `import(name)` of a computed name loads an optional package: node-redis (jose is imported by its name, in server/auth/jwt.ts, for bundlers). */
const COMPUTED_IMPORTS = new Set(["server/redis"]);

/** The layer of a runtime file (its folder; server/'s own files are `server`), or undefined. */
function layerOf(file: string): string | undefined {
  const folder = path.posix.dirname(file);
  return Object.hasOwn(RULES, folder) ? folder : undefined;
}

/** Every broken rule among `imports`, as `file:line: what`. */
function layerProblems(imports: readonly SourceImport[]): string[] {
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
      if (!COMPUTED_IMPORTS.has(layer)) problems.push(`${at}: import() of a computed name outside server/redis/ (only node-redis is loaded so)`);
      continue;
    }
    if (spec.startsWith(".")) {
      const target = path.posix.normalize(path.posix.join(path.posix.dirname(imp.file), spec));
      if (target.startsWith("../")) {
        problems.push(`${at}: imports ${spec}, outside the runtime package (generated code depends on the runtime alone)`);
        continue;
      }
      const to = layerOf(target);
      const allowed = to !== undefined && (rules.layers.includes(to) || (imp.typeOnly && rules.typeLayers?.includes(to)));
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

const { files: FILES, imports: IMPORTS } = readSources(RUNTIME);

describe("the runtime's layers", () => {
  it("every file of the runtime is in a layer folder, and every import keeps its folder's rules", () => {
    expect(FILES.filter((f) => !layerOf(f))).toEqual([]);
    expect(layerProblems(IMPORTS)).toEqual([]);
  });

  it("has no import cycle, type-only imports included", () => {
    expect(cyclesOf(FILES, IMPORTS)).toEqual([]);
  });

  it("finds a cycle, and only the files in it", () => {
    const imports = [
      ...importsOf("server/engine/a.ts", 'import type { B } from "./b.js";\nimport { c } from "./c.js";'),
      ...importsOf("server/engine/b.ts", 'import type { A } from "./a.js";'),
      ...importsOf("server/engine/c.ts", 'import { d } from "../../shared/d.js";'),
      ...importsOf("shared/d.ts", 'export type { D } from "./d.js";'),
    ];
    expect(cyclesOf(["server/engine/a.ts", "server/engine/b.ts", "server/engine/c.ts", "shared/d.ts"], imports)).toEqual([
      ["server/engine/a.ts", "server/engine/b.ts"],
      ["shared/d.ts"],
    ]);
  });

  it("reads every kind of import the runtime writes (the rules above are not checked on nothing)", () => {
    const has = (file: string, specifier: string | undefined, typeOnly: boolean, dynamic = false) =>
      expect(IMPORTS, `${file} ${specifier}`).toContainEqual(expect.objectContaining({ file, specifier, typeOnly, dynamic }));
    has("server/http/endpoint.ts", "../state/openState.js", false);
    has("server/engine/engineCore.ts", "./parts.js", true);
    has("server/server.ts", "./engine/sdk.js", true); // export type { ServerFactory } from ...
    has("server/redis/redisClient.ts", undefined, false, true); // import(name): redis
    has("server/auth/jwt.ts", "jose", false, true); // import("jose")
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

  const imp = (file: string, specifier: string | undefined, typeOnly = false): SourceImport => ({
    file,
    line: 1,
    specifier,
    typeOnly,
    dynamic: specifier === undefined,
  });
  it.each<[string, SourceImport, string[]]>([
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
      imp("server/node/http.ts", "../methods/tools.js"),
      ["server/node/http.ts:1: server/node/ imports server/methods/tools.js, which it may not"],
    ],
    [
      "a transport loads the factory",
      imp("server/node/serve.ts", "../server.js"),
      ["server/node/serve.ts:1: server/node/ imports server/server.js, which it may not"],
    ],
    ["a transport names the factory's types", imp("server/node/serve.ts", "../server.js", true), []],
    [
      "a transport picks the Redis store",
      imp("server/node/serve.ts", "../redis/redisTaskStore.js"),
      ["server/node/serve.ts:1: server/node/ imports server/redis/redisTaskStore.js, which it may not"],
    ],
    [
      "the endpoint opens the authorization gate itself",
      imp("server/http/endpoint.ts", "../auth/gate.js"),
      ["server/http/endpoint.ts:1: server/http/ imports server/auth/gate.js, which it may not"],
    ],
    [
      "the endpoint serves task listens itself",
      imp("server/http/endpoint.ts", "../tasks/taskListen.js"),
      ["server/http/endpoint.ts:1: server/http/ imports server/tasks/taskListen.js, which it may not"],
    ],
    [
      "the endpoint every platform runs imports Node",
      imp("server/http/bodies.ts", "node:stream"),
      ["server/http/bodies.ts:1: server/http/ imports node:stream, which it may not"],
    ],
    [
      "the endpoint imports the Node adapter",
      imp("server/http/endpoint.ts", "../node/httpIo.js"),
      ["server/http/endpoint.ts:1: server/http/ imports server/node/httpIo.js, which it may not"],
    ],
    [
      "the factory makes the tasks",
      imp("server/engine.ts", "./tasks/tasks.js"),
      ["server/engine.ts:1: server/ imports server/tasks/tasks.js, which it may not"],
    ],
    [
      "the engine names a task's type from the part",
      imp("server/engine/round.ts", "../tasks/tasks.js", true),
      ["server/engine/round.ts:1: server/engine/ imports server/tasks/tasks.js (types), which it may not"],
    ],
    [
      "a method names the tasks",
      imp("server/methods/tools.ts", "../tasks/tasks.js", true),
      ["server/methods/tools.ts:1: server/methods/ imports server/tasks/tasks.js (types), which it may not"],
    ],
    [
      "tasks/ imports redis/",
      imp("server/tasks/tasks.ts", "../redis/redisTaskStore.js"),
      ["server/tasks/tasks.ts:1: server/tasks/ imports server/redis/redisTaskStore.js, which it may not"],
    ],
    [
      "state/ imports redis/",
      imp("server/state/openState.ts", "../redis/redisLists.js"),
      ["server/state/openState.ts:1: server/state/ imports server/redis/redisLists.js, which it may not"],
    ],
    ["the Redis part uses the tasks' store helpers", imp("server/redis/redisTaskStore.ts", "../tasks/taskStore.js"), []],
    [
      "engine/ imports a method",
      imp("server/engine/lists.ts", "../methods/tools.js", true),
      ["server/engine/lists.ts:1: server/engine/ imports server/methods/tools.js (types), which it may not"],
    ],
    [
      "the runtime imports the generator",
      imp("shared/patterns.ts", "../../../../src/jsonSchema/patternCost.js"),
      ["shared/patterns.ts:1: imports ../../../../src/jsonSchema/patternCost.js, outside the runtime package (generated code depends on the runtime alone)"],
    ],
    [
      "a file outside the layer folders",
      imp("server/helpers/x.ts", "../../shared/errors.js"),
      ["server/helpers/x.ts:1: server/helpers/x.ts is in no layer folder (" + Object.keys(RULES).join(", ") + ")"],
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
    ["jose in auth/", imp("server/auth/jwt.ts", "jose"), []],
    ["jose elsewhere", imp("server/http/endpoint.ts", "jose"), ["server/http/endpoint.ts:1: server/http/ imports jose, which it may not"]],
    [
      "import() of a computed name elsewhere",
      imp("server/auth/jwtVerifier.ts", undefined),
      ["server/auth/jwtVerifier.ts:1: import() of a computed name outside server/redis/ (only node-redis is loaded so)"],
    ],
    [
      "auth/ imports the transport",
      imp("server/auth/gate.ts", "../node/http.js"),
      ["server/auth/gate.ts:1: server/auth/ imports server/node/http.js, which it may not"],
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
