/**
 * The printer's import blocks (from what is printed), export blocks, exported declarations and module paths, and the public API table: what index.ts,
 * server.ts, client.ts and serve.ts export, and which type names a manifest cannot take.
 */
import { describe, expect, it } from "vitest";
import { emitClient } from "../../../../src/generator/emit/client.js";
import { emitIndex } from "../../../../src/generator/emit/indexFile.js";
import { LOCAL } from "../../../../src/generator/model/modules.js";
import { BUILTIN_TYPE_NAMES, publicApi } from "../../../../src/generator/model/publicApi.js";
import { emitServe } from "../../../../src/generator/emit/serve.js";
import { emitServer } from "../../../../src/generator/emit/server.js";
import { parseManifestText } from "../../../../src/generator/load/loadManifest.js";
import { buildModel } from "../../../../src/generator/model/build.js";
import { CodeFile } from "../../../../src/generator/print/codeFile.js";
import { validateManifest } from "../../../../src/generator/validate/validate.js";
import { modelOf } from "../../../helpers/model.js";

type Step = (file: CodeFile) => void;

const cases: [string, { given: Step[]; want: string }][] = [
  [
    "re-exports by module in first-use order, names in the order given, `type` marks",
    {
      given: [
        (f) => f.reExportAll("./types.js"),
        (f) => f.reExport("./server.js", "createServer", false),
        (f) => f.reExport("./server.js", "Handlers", true),
        (f) => f.reExport("./mcp.js", "Zeta", true),
        (f) => f.reExport("./mcp.js", "Alpha", true),
      ],
      want: 'export * from "./types.js";\nexport { createServer, type Handlers } from "./server.js";\nexport type { Zeta, Alpha } from "./mcp.js";\n',
    },
  ],
  [
    "local exports after the re-exports, an aliased import exported under its public name",
    {
      given: [
        (f) => f.declare("Options"),
        (f) => f.exportLocal(f.importType("../rt.js", "Options"), "Options", true),
        (f) => f.exportLocal(f.importValue("../rt.js", "make"), "make", false),
        (f) => f.reExport("./a.js", "a", false),
      ],
      want: 'import { type Options as Options$1, make } from "../rt.js";\n\nexport { a } from "./a.js";\nexport { type Options$1 as Options, make };\n',
    },
  ],
  [
    "every module path as a string literal: a quote or a backslash in a folder name stays text",
    {
      given: [(f) => f.print(`${f.importValue('../st"u\\bs/x.js', "x")}();`), (f) => f.reExport('./q"/y.js', "y", true), (f) => f.reExportAll("./\u2028.js")],
      want: 'import { x } from "../st\\"u\\\\bs/x.js";\n\nexport type { y } from "./q\\"/y.js";\nexport * from "./\\u2028.js";\n\nx();\n',
    },
  ],
  [
    "an exported declaration: its doc comment, `export`, the name, then its text; a blank line between declarations unless asked",
    {
      given: [
        (f) => f.exportDeclaration({ doc: ["One.", "", "Two."], kind: "interface", name: "A", text: " {}" }),
        (f) => f.exportDeclaration({ doc: [], kind: "type", name: "B", text: "<T> = T;" }),
        (f) => f.print("const x = 1;"),
        (f) => f.exportDeclaration({ doc: ["C."], kind: "const", name: "c", text: " = x;", blankLineBefore: false }),
        (f) => f.exportDeclaration({ doc: ["D."], kind: "function", name: "d", text: "(): void {}" }),
      ],
      want: "/**\n * One.\n *\n * Two.\n */\nexport interface A {}\n\nexport type B<T> = T;\n\nconst x = 1;\n/** C. */\nexport const c = x;\n\n/** D. */\nexport function d(): void {}\n",
    },
  ],
  [
    "an import asked for but never printed is not written",
    {
      given: [
        (f) => void f.importType("./a.js", "A"),
        (f) => void f.importValue("./b.js", "b"),
        (f) => f.print(`const x: ${f.importType("./a.js", "C")} = 1;`),
      ],
      want: 'import type { C } from "./a.js";\n\nconst x: C = 1;\n',
    },
  ],
  [
    "`import type` when every ref printed is importType's, whatever else was asked for",
    {
      given: [
        (f) => void f.importValue("./a.js", "A"),
        (f) => f.print(`type T = ${f.importType("./a.js", "A")};`),
        (f) => f.print(`const v = ${f.importValue("./b.js", "b")} as ${f.importType("./b.js", "b")};`),
        (f) => f.print(`type U = ${f.importType("./b.js", "B")};`),
      ],
      want: 'import type { A } from "./a.js";\nimport { type B, b } from "./b.js";\n\ntype T = A;\n\nconst v = b as b;\n\ntype U = B;\n',
    },
  ],
  [
    "packages before relative modules, each sorted, names sorted",
    {
      given: [
        (f) => f.print(`${f.importValue("./z.js", "z")}(${f.importValue("pkg", "p")}, ${f.importValue("./a.js", "y")}, ${f.importValue("./a.js", "x")});`),
      ],
      want: 'import { p } from "pkg";\nimport { x, y } from "./a.js";\nimport { z } from "./z.js";\n\nz(p, y, x);\n',
    },
  ],
  [
    "an import after a declaration of its name is aliased",
    {
      given: [(f) => f.exportDeclaration({ doc: [], kind: "type", name: "A", text: " = B;" }), (f) => f.print(`type B = ${f.importType("./a.js", "A")};`)],
      want: 'import type { A as A$1 } from "./a.js";\n\nexport type A = B;\n\ntype B = A$1;\n',
    },
  ],
  [
    "an import asked for before a declaration of its name is aliased too",
    {
      given: [(f) => f.print(`type B = ${f.importType("./a.js", "A")};`), (f) => f.exportDeclaration({ doc: [], kind: "type", name: "A", text: " = B;" })],
      want: 'import type { A as A$1 } from "./a.js";\n\ntype B = A$1;\n\nexport type A = B;\n',
    },
  ],
  [
    "a clash between imports: the first printed keeps the name; one never printed takes none",
    {
      given: [(f) => void f.importType("./unused.js", "A"), (f) => f.print(`type X = ${f.importType("./x.js", "A")} | ${f.importType("./y.js", "A")};`)],
      want: 'import type { A } from "./x.js";\nimport type { A as A$1 } from "./y.js";\n\ntype X = A | A$1;\n',
    },
  ],
  [
    "an import only exported is written: the export is its use",
    {
      given: [(f) => f.exportLocal(f.importType("../rt.js", "T"), "T", true), (f) => f.exportLocal(f.importValue("../rt.js", "v"), "v", true)],
      want: 'import { type T, v } from "../rt.js";\n\nexport type { T, v };\n',
    },
  ],
  [
    "a body after the export block, one blank line between",
    { given: [(f) => f.exportLocal("x", "x", false), (f) => f.print("const x = 1;")], want: "export { x };\n\nconst x = 1;\n" },
  ],
];

describe("CodeFile imports and exports", () => {
  it.each(cases)("%s", (_name, { given, want }) => {
    const file = new CodeFile("x.ts", "// h\n");
    for (const step of given) step(file);
    expect(file.render()).toBe(`// h\n\n${want}`);
  });

  it("refuses to export one name twice (a bug in an emitter, not a manifest problem)", () => {
    const file = new CodeFile("x.ts", "// h\n");
    file.reExport("./a.js", "A", true);
    expect(() => file.exportLocal("A", "A", true)).toThrow("mcpgen: x.ts would export A twice");
  });

  it("refuses a declaration of a name already exported, by a re-export or by another declaration", () => {
    const file = new CodeFile("x.ts", "// h\n");
    file.reExport("./a.js", "A", true);
    expect(() => file.exportDeclaration({ doc: [], kind: "interface", name: "A", text: " {}" })).toThrow("mcpgen: x.ts would export A twice");
    file.exportDeclaration({ doc: [], kind: "const", name: "b", text: " = 1;" });
    expect(() => file.exportDeclaration({ doc: [], kind: "function", name: "b", text: "() {}" })).toThrow("mcpgen: x.ts would export b twice");
    expect(() => file.reExport("./b.js", "b", false)).toThrow("mcpgen: x.ts would export b twice");
  });

  it("refuses to export an importType ref as a value (verbatimModuleSyntax would reject the file)", () => {
    const file = new CodeFile("x.ts", "// h\n");
    expect(() => file.exportLocal(file.importType("./a.js", "A"), "A", false)).toThrow("mcpgen: x.ts would export A, imported as a type, as a value");
  });

  it("refuses to render a ref of another file, even one with the index of an import of its own", () => {
    const other = new CodeFile("o.ts", "// h\n");
    const file = new CodeFile("x.ts", "// h\n");
    // The first import of each: the same index in both files.
    file.importType("./a.js", "A");
    file.print(`type T = ${other.importType("./a.js", "A")};`);
    expect(() => file.render()).toThrow("mcpgen: x.ts prints a ref that is not one of its imports");
  });
});

const MANIFEST = `
server: {name: shop, version: '1'}
tools:
  - {name: add, inputSchema: {type: object}}
`;

/** The names an `export` statement of `text` makes public (declarations and lists). */
function exportedNames(text: string): string[] {
  const names: string[] = [];
  for (const m of text.matchAll(/^export (?:type )?\{ ([^}]*) \}/gm))
    for (const s of m[1]!.split(", ")) names.push(s.replace(/^type /, "").replace(/.* as /, ""));
  for (const m of text.matchAll(/^export (?:async )?(?:function|interface|type|const|class) (\w+)/gm)) names.push(m[1]!);
  return names;
}

describe("public API table", () => {
  it("is what server.ts, client.ts and serve.ts export and what index.ts re-exports", async () => {
    const model = await modelOf(MANIFEST);
    const api = publicApi("ShopClient", { auth: false, tasks: false });
    const names = (module: string) => api.find((m) => m.module === module)!.names.map((n) => n.name);
    const text = (files: { content: string }[]) => files[0]!.content;
    expect(exportedNames(text(emitServer(model))).sort()).toEqual(names(LOCAL.server).sort());
    expect(exportedNames(text(emitClient(model))).sort()).toEqual(names(LOCAL.client).sort());
    expect(exportedNames(text(emitServe(model))).sort()).toEqual(names(LOCAL.serve).sort());
    const index = text(emitIndex(model));
    expect(exportedNames(index)).toEqual(api.filter((m) => m.index === "names").flatMap((m) => m.names.map((n) => n.name)));
    expect(index).toContain('export * from "./types.js";\n');
    expect(index).not.toContain("./serve.js");
  });

  it("adds AuthContext and TokenVerifier to server.ts and index.ts only for a server with auth:", async () => {
    const model = await modelOf(`${MANIFEST}auth: {resource: "https://shop.example/mcp", authorizationServers: ["https://as.example"], verifier: handler}\n`);
    const server = exportedNames(emitServer(model)[0]!.content);
    expect(server).toEqual(expect.arrayContaining(["AuthContext", "TokenVerifier"]));
    expect(server.sort()).toEqual(
      publicApi("ShopClient", { auth: true, tasks: false })
        .find((m) => m.module === LOCAL.server)!
        .names.map((n) => n.name)
        .sort(),
    );
    expect(exportedNames(emitIndex(model)[0]!.content)).toContain("AuthContext");
    expect(exportedNames(emitIndex(await modelOf(MANIFEST))[0]!.content)).not.toContain("AuthContext");
  });

  it("leaves the server's names out of a client-only index", async () => {
    const model = await modelOf(MANIFEST);
    model.options.clientOnly = true;
    const index = emitIndex(model)[0]!.content;
    expect(index).not.toContain("./server.js");
    expect(exportedNames(index)).toContain("createClient");
  });

  it("reserves every public name usable as a type: a def named after one is a collision", async () => {
    expect(BUILTIN_TYPE_NAMES).toContain("Handlers");
    expect(BUILTIN_TYPE_NAMES).toContain("ToolError");
    expect(BUILTIN_TYPE_NAMES).toContain("StdioHandle");
    expect(BUILTIN_TYPE_NAMES).toContain("ToolHandler");
    expect(BUILTIN_TYPE_NAMES).not.toContain("createServer");
    const typeNames = publicApi("ShopClient")
      .flatMap((m) => m.names)
      .filter((n) => n.kind !== "value")
      .map((n) => n.name);
    const defs = typeNames.map((n) => `  ${n}: {type: string}\n`).join("");
    const loaded = parseManifestText(`${MANIFEST}defs:\n${defs}`, "/nowhere/m.yaml", "m.yaml");
    if (!loaded.ok) throw new Error("unparsable");
    const { valid } = await validateManifest(loaded.manifest);
    if (!valid) throw new Error("invalid");
    const { diagnostics } = await buildModel(valid);
    const collided = diagnostics.filter((d) => d.code === "identifier-collision").map((d) => /TypeScript type name (\w+);/.exec(d.message)?.[1] ?? d.message);
    expect(collided.sort()).toEqual([...typeNames].sort());
  });
});
