/**
 * The layers of src/ (src/reference/layers.ts, docs/reference/source-files.md): every import of
 * every file, read with the TypeScript parser, goes down the layers or stays in its own, and the
 * import graph has no cycle. The
 * generator's stages come in the order a run takes them; commands use the generator, never the
 * reverse; the CLI is the one layer above the commands. The checker is a function of an import
 * list, so the cases below prove it catches each broken rule.
 */
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { SOURCE_LAYERS } from "../../src/reference/layers.js";
import { cyclesOf, importsOf, readSources, type SourceImport } from "../helpers/imports.js";
import * as path from "node:path";

const SRC = fileURLToPath(new URL("../../src/", import.meta.url));

const RANK = new Map(SOURCE_LAYERS.map(({ layer }, i) => [layer, i]));

/** The layer of a file of src/ (its most specific layer), or undefined. */
function layerOf(file: string): string | undefined {
  let found: string | undefined;
  for (const { layer } of SOURCE_LAYERS)
    if ((file === layer || file.startsWith(`${layer}/`)) && (found === undefined || layer.length > found.length)) found = layer;
  return found;
}

/** Every import that goes up a layer, as `file:line: what`. */
function layerProblems(imports: readonly SourceImport[]): string[] {
  const problems: string[] = [];
  for (const imp of imports) {
    const from = layerOf(imp.file);
    if (from === undefined) {
      problems.push(`${imp.file}:${imp.line}: ${imp.file} is in no layer`);
      continue;
    }
    if (imp.specifier === undefined || !imp.specifier.startsWith(".")) continue;
    const target = path.posix.normalize(path.posix.join(path.posix.dirname(imp.file), imp.specifier));
    if (target.startsWith("../")) {
      problems.push(`${imp.file}:${imp.line}: imports ${imp.specifier}, outside src/ (the runtime is @mcpgen/runtime)`);
      continue;
    }
    const to = layerOf(target.replace(/\.js$/, ".ts"));
    if (to === undefined) problems.push(`${imp.file}:${imp.line}: imports ${target}, which is in no layer`);
    else if (RANK.get(to)! > RANK.get(from)!)
      problems.push(`${imp.file}:${imp.line}: ${from} imports ${target}${imp.typeOnly ? " (types)" : ""}, a later layer (${to})`);
  }
  return problems;
}

const { files: FILES, imports: IMPORTS } = readSources(SRC);

describe("the layers of src/", () => {
  it("every file is in a layer, and every import goes down the layers or stays in its own", () => {
    expect(FILES.filter((f) => !layerOf(f))).toEqual([]);
    expect(layerProblems(IMPORTS)).toEqual([]);
  });

  it("has no import cycle, type-only imports included", () => {
    expect(cyclesOf(FILES, IMPORTS)).toEqual([]);
  });

  it("has a file in every layer (the rules are not checked on nothing)", () => {
    expect(new Set(FILES.map(layerOf))).toEqual(new Set(SOURCE_LAYERS.map((l) => l.layer)));
  });

  const imp = (file: string, specifier: string, typeOnly = false): SourceImport => ({ file, line: 1, specifier, typeOnly, dynamic: false });
  it.each<[string, SourceImport, string[]]>([
    [
      "a stage imports a later stage",
      imp("generator/validate/schemas.ts", "../model/refs.js"),
      ["generator/validate/schemas.ts:1: generator/validate imports generator/model/refs.js, a later layer (generator/model)"],
    ],
    [
      "even for its types",
      imp("generator/load/loadManifest.ts", "../emit/common.js", true),
      ["generator/load/loadManifest.ts:1: generator/load imports generator/emit/common.js (types), a later layer (generator/emit)"],
    ],
    [
      "a stage imports the run",
      imp("generator/emit/client.ts", "../pipeline.js"),
      ["generator/emit/client.ts:1: generator/emit imports generator/pipeline.js, a later layer (generator)"],
    ],
    [
      "the generator imports a command",
      imp("generator/compile.ts", "../commands/pull/fetch.js"),
      ["generator/compile.ts:1: generator imports commands/pull/fetch.js, a later layer (commands)"],
    ],
    ["a command imports the CLI", imp("commands/init.ts", "../cli/report.js"), ["commands/init.ts:1: commands imports cli/report.js, a later layer (cli)"]],
    ["a command uses the generator", imp("commands/mock/server.ts", "../../generator/model/definition.js"), []],
    ["a later stage uses an earlier one", imp("generator/emit/types.ts", "../../jsonSchema/refs.js", true), []],
    ["a stage imports its own files", imp("generator/model/build.ts", "./tools.js"), []],
    [
      "src/ imports the runtime's files",
      imp("generator/model/patterns.ts", "../../../packages/runtime/src/shared/patterns.js"),
      ["generator/model/patterns.ts:1: imports ../../../packages/runtime/src/shared/patterns.js, outside src/ (the runtime is @mcpgen/runtime)"],
    ],
    ["a file in no layer", imp("misc/x.ts", "../common/paths.js"), ["misc/x.ts:1: misc/x.ts is in no layer"]],
  ])("%s", (_, given, want) => {
    expect(layerProblems([given])).toEqual(want);
  });

  it("finds a cycle across stages", () => {
    const imports = [
      ...importsOf("generator/validate/fields.ts", 'import { AUTH } from "./authFields.js";'),
      ...importsOf("generator/validate/authFields.ts", 'import type { FieldSpec } from "./fields.js";'),
    ];
    expect(cyclesOf(["generator/validate/authFields.ts", "generator/validate/fields.ts"], imports)).toEqual([
      ["generator/validate/authFields.ts", "generator/validate/fields.ts"],
    ]);
  });
});
