/**
 * The layers of src/ (docs/architecture.md): every import of every file, read with the TypeScript
 * parser, goes down the list below or stays in its layer, and the import graph has no cycle. The
 * generator's stages come in the order a run takes them; commands use the generator, never the
 * reverse; the CLI is the one layer above the commands. The checker is a function of an import
 * list, so the cases below prove it catches each broken rule.
 */
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { cyclesOf, importsOf, readSources, type SourceImport } from "../helpers/imports.js";
import * as path from "node:path";

const SRC = fileURLToPath(new URL("../../src/", import.meta.url));

/**
 * The layers, lowest first: a file may import its own layer and those before it. A layer is a
 * folder (its files and subfolders) or one file; the most specific one names a file's layer.
 */
export const LAYERS: readonly { layer: string; what: string }[] = [
  { layer: "common", what: "diagnostics and their printing, the version, names, paths, objects, redaction" },
  { layer: "jsonSchema", what: "JSON Schema as every stage reads it: keywords, references, what an object admits, pattern costs" },
  { layer: "generator/load", what: "stage 1: YAML text to a parsed manifest with source positions; the parse cache" },
  { layer: "generator/validate", what: "stage 2: every problem of a manifest, from the field tables" },
  { layer: "generator/model", what: "stage 3: the normalized model: identifiers, refs, the definition; a server folder's modules and public API" },
  { layer: "generator/print", what: "stage 4: the printer (imports, literals) and the templates" },
  { layer: "generator/emit", what: "stage 5: one emitter per artifact, and the runtime's copy in vendor mode" },
  { layer: "generator/bundle", what: "stage 6: each widget bundled into its HTML, before the one emit" },
  { layer: "generator/plan", what: "stage 7: the output compared with the disk (what --check shows)" },
  { layer: "generator/stubs", what: "stage 8: the user's handler files, created once and merged" },
  { layer: "generator/write", what: "stage 9: the plan applied, atomically; recovery of a killed run" },
  { layer: "generator", what: "the run: compile (load, validate, model), then emit, plan, write; run records around it" },
  { layer: "config", what: "mcpgen.config.json: options and warning levels" },
  { layer: "harness", what: "mcpgen/harness: widgets in a mock host" },
  { layer: "react", what: "mcpgen/react: hooks for widget views" },
  { layer: "commands", what: "what each command does besides generating: check, trace, diff, pull, mock, dev, lint, init" },
  { layer: "cli", what: "the one command line: argument tables, help, exit codes" },
  { layer: "reference", what: "the reference pages and published JSON Schemas, written from the tables" },
  { layer: "index.ts", what: "the library entry" },
];

const RANK = new Map(LAYERS.map(({ layer }, i) => [layer, i]));

/** The layer of a file of src/ (its most specific layer), or undefined. */
function layerOf(file: string): string | undefined {
  let found: string | undefined;
  for (const { layer } of LAYERS) if ((file === layer || file.startsWith(`${layer}/`)) && (found === undefined || layer.length > found.length)) found = layer;
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
    expect(new Set(FILES.map(layerOf))).toEqual(new Set(LAYERS.map((l) => l.layer)));
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
