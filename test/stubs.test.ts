/**
 * Handler stubs: created once, merged after, never clobbered. Each case asserts the exact files
 * before and after a regeneration.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../src/config/loadConfig.js";
import { formatDiagnostic, type DiagnosticLevels } from "../src/common/diagnostics.js";
import { runPipeline } from "../src/generator/pipeline.js";
import { linkNodeModules, tempProject } from "./helpers/tmp.js";
import { tsc, writeTsconfig } from "./helpers/tsc.js";

const MANIFEST = `server: {name: shop, version: '1'}
tools:
  - name: add_item
    inputSchema: {type: object, properties: {sku: {type: string}}, required: [sku]}
    outputSchema: {type: object, properties: {count: {type: integer}}, required: [count]}
  - name: clear
    inputSchema: {type: object}
resources:
  - {uri: 'shop://cart', name: cart}
  - {uri: 'shop://about', name: about, text: A shop.}
resourceTemplates:
  - {uriTemplate: 'shop://items/{sku}', name: item}
prompts:
  - {name: upsell, arguments: [{name: sku, required: true}]}
`;

const ADD_ITEM_STUB = `// This file is yours: mcpgen created it once and never changes it again.
// Handler of tool "add_item" (shop). Its type comes from the generated server folder,
// so a schema change in the manifest shows up here as a type error. Its arguments are already
// checked against the inputSchema; throw ToolError to answer \`isError: true\` with its message.
import { ToolError, type ToolHandler } from "../../../../generated/shop/index.js";

export const addItem: ToolHandler<"add_item"> = async (_args, _ctx) => {
  throw new ToolError("Tool add_item is not implemented yet: write it in src/handlers/shop/tools/addItem.ts");
};
`;

/** The first import of each kind's new stub: the server folder's public entry, and nothing else. */
const STUB_IMPORTS: Record<string, string> = {
  "tools/addItem.ts": 'import { ToolError, type ToolHandler } from "../../../../generated/shop/index.js";',
  "tools/clear.ts": 'import { ToolError, type ToolHandler } from "../../../../generated/shop/index.js";',
  "resources/cart.ts": 'import type { ResourceHandler } from "../../../../generated/shop/index.js";',
  "resource-templates/item.ts": 'import type { ResourceTemplateHandler } from "../../../../generated/shop/index.js";',
  "prompts/upsell.ts": 'import type { PromptHandler } from "../../../../generated/shop/index.js";',
};

/**
 * A project of the manifest, compiled under the strict flags (those a stub can trip on by itself
 * among them: unused parameters, optional properties, indexed access), `compilerOptions` over them.
 */
function project(manifest = MANIFEST, compilerOptions: Record<string, unknown> = {}) {
  const dir = tempProject({ "package.json": '{"type":"module"}', "manifests/shop.yaml": manifest });
  writeTsconfig(dir, { include: ["src", "generated"], compilerOptions });
  linkNodeModules(dir);
  const read = (rel: string) => readFileSync(path.join(dir, rel), "utf8");
  const write = (rel: string, text: string) => writeFileSync(path.join(dir, rel), text);
  const generate = async (mode: "write" | "check" = "write", stubs = "src/handlers") => {
    const result = await runPipeline({ manifests: ["manifests"], out: "generated", stubs, cwd: dir, mode, cache: false });
    return { result, diagnostics: result.diagnostics.map(formatDiagnostic), changes: result.plan?.changes.map((c) => `${c.kind} ${c.display}`) ?? [] };
  };
  /** What tsc says of the project ("" when it compiles). */
  const compile = () => tsc(dir).output;
  return { dir, read, write, generate, tsc: compile };
}

const STUB_FILES = [
  "create src/handlers/shop/tools/addItem.ts",
  "create src/handlers/shop/tools/clear.ts",
  "create src/handlers/shop/resources/cart.ts",
  "create src/handlers/shop/resource-templates/item.ts",
  "create src/handlers/shop/prompts/upsell.ts",
];

describe("handler stubs", () => {
  it("creates one user-owned file per handler the manifest needs, and a wiring file that compiles", async () => {
    const p = project();
    const first = await p.generate();
    expect(first.diagnostics).toEqual([]);
    expect(first.changes.filter((c) => c.includes("src/handlers"))).toEqual(STUB_FILES);
    expect(p.read("src/handlers/shop/tools/addItem.ts")).toBe(ADD_ITEM_STUB);
    for (const [file, line] of Object.entries(STUB_IMPORTS)) {
      const imports = p
        .read(`src/handlers/shop/${file}`)
        .split("\n")
        .filter((l) => l.startsWith("import "));
      expect(imports, file).toEqual([line]);
    }
    expect(p.read("generated/shop/handlers.ts")).toContain('import { addItem } from "../../src/handlers/shop/tools/addItem.js";');
    expect(p.read("generated/shop/handlers.ts")).toContain("  resources: {\n    cart: cart,\n  },\n");
    expect(p.tsc()).toBe("");
    // A second run changes nothing.
    expect((await p.generate()).changes).toEqual([]);
  });

  it("with auth.verifier: handler, makes a verifyToken stub of its own and wires it, and the project compiles", async () => {
    const manifest = MANIFEST.replace(
      "tools:\n",
      "auth: {resource: 'https://shop.example.com/mcp', authorizationServers: ['https://auth.example.com'], verifier: handler}\ntools:\n",
    );
    const p = project(manifest);
    const first = await p.generate();
    expect(first.diagnostics).toEqual([]);
    expect(first.changes.filter((c) => c.includes("src/handlers"))).toEqual([...STUB_FILES, "create src/handlers/shop/auth/verifyToken.ts"]);
    const stub = p.read("src/handlers/shop/auth/verifyToken.ts");
    expect(stub.split("\n").filter((l) => l.startsWith("import "))).toEqual(['import type { TokenVerifier } from "../../../../generated/shop/index.js";']);
    expect(stub).toContain("export const verifyToken: TokenVerifier = async (_token) => {");
    expect(p.read("generated/shop/handlers.ts")).toContain("  verifyToken: verifyToken,\n};");
    expect(p.tsc()).toBe("");
    expect((await p.generate()).changes).toEqual([]);
  });

  it("serves a new tool as 'not implemented' until it is written", async () => {
    const p = project();
    await p.generate();
    const { createServerFactory } = await import(path.join(p.dir, "generated/shop/index.ts"));
    const { handlers } = await import(path.join(p.dir, "generated/shop/handlers.ts"));
    const { rawSession } = await import("./helpers/wire.js");
    const s = await rawSession(createServerFactory(handlers));
    const r = await s.request("tools/call", { name: "add_item", arguments: { sku: "a" } });
    expect(r.result).toEqual({
      content: [{ type: "text", text: "Tool add_item is not implemented yet: write it in src/handlers/shop/tools/addItem.ts" }],
      isError: true,
    });
    await s.close();
  });

  it("adds a stub for a new tool and leaves a hand-edited one byte for byte", async () => {
    const p = project();
    await p.generate();
    const edited = `// Mine now.
import { randomUUID } from "node:crypto";
import type { AddItemInput, AddItemOutput } from "../../../../generated/shop/types.js";

const cart = new Map<string, number>();

function bump(sku: string): number {
  const n = (cart.get(sku) ?? 0) + 1;
  cart.set(sku, n);
  return n;
}

export async function addItem(args: AddItemInput): Promise<AddItemOutput> {
  void randomUUID;
  return { count: bump(args.sku) };
}
`;
    p.write("src/handlers/shop/tools/addItem.ts", edited);
    p.write("manifests/shop.yaml", MANIFEST.replace("resources:", "  - {name: checkout, inputSchema: {type: object}}\nresources:"));
    const second = await p.generate();
    expect(second.diagnostics).toEqual([]);
    expect(second.changes.filter((c) => c.includes("src/handlers"))).toEqual(["create src/handlers/shop/tools/checkout.ts"]);
    expect(p.read("src/handlers/shop/tools/addItem.ts")).toBe(edited);
    expect(p.tsc()).toBe("");
  });

  it("warns about a handler whose tool was removed or renamed, with its file:line, and keeps the file", async () => {
    const p = project();
    await p.generate();
    const clear = p.read("src/handlers/shop/tools/clear.ts");
    p.write("manifests/shop.yaml", MANIFEST.replace("  - name: clear\n", "  - name: empty_cart\n"));
    const second = await p.generate();
    expect(second.diagnostics).toEqual([
      "src/handlers/shop/tools/clear.ts:7:14: warning stub-orphan: handler clear is not used: nothing in manifests/shop.yaml needs tools/clear.ts any more (removed or renamed?); move its code to the new handler, then delete the file",
    ]);
    expect(second.changes.filter((c) => c.includes("src/handlers"))).toEqual(["create src/handlers/shop/tools/emptyCart.ts"]);
    expect(p.read("src/handlers/shop/tools/clear.ts")).toBe(clear);
    // Its type went with the tool, so the compiler points at it too.
    expect(p.tsc()).toMatch(
      /^src\/handlers\/shop\/tools\/clear\.ts\(7,33\): error TS2344: Type '"clear"' does not satisfy the constraint '"add_item" \| "empty_cart"'\./,
    );
  });

  it("shows a schema change as a type error at the handler", async () => {
    // The handler written over the stub keeps the stub's ToolError import, unused: a flag that is the user's to turn on.
    const p = project(MANIFEST, { noUnusedLocals: false });
    await p.generate();
    p.write("src/handlers/shop/tools/addItem.ts", ADD_ITEM_STUB.replace(/\(_args, _ctx\) => \{\n.*\n\};/, "(args) => ({ count: args.sku.length });"));
    expect(p.tsc()).toBe("");
    p.write("manifests/shop.yaml", MANIFEST.replace("properties: {sku: {type: string}}", "properties: {sku: {type: integer}}"));
    await p.generate();
    expect(p.tsc()).toMatch(/^src\/handlers\/shop\/tools\/addItem\.ts\(7,84\): error TS2339: Property 'length' does not exist on type 'number'\./);
  }, 120_000);

  it("appends the stub handler (and its imports) to a file that lost it, touching nothing else", async () => {
    // The user's own function leaves its parameters unused: a flag that is theirs to turn on, not the stub's concern.
    const p = project(MANIFEST, { noUnusedParameters: false });
    await p.generate();
    const renamed = `// I renamed my function by mistake.
import type { ToolContext } from "../../../../generated/shop/server.js";

export async function emptyTheCart(args: object, ctx: ToolContext) {
  return "done";
}
`;
    p.write("src/handlers/shop/tools/clear.ts", renamed);
    const second = await p.generate();
    expect(second.changes.filter((c) => c.includes("src/handlers"))).toEqual(["update src/handlers/shop/tools/clear.ts"]);
    expect(p.read("src/handlers/shop/tools/clear.ts")).toBe(`// I renamed my function by mistake.
import type { ToolContext } from "../../../../generated/shop/server.js";
import { ToolError, type ToolHandler } from "../../../../generated/shop/index.js";

export async function emptyTheCart(args: object, ctx: ToolContext) {
  return "done";
}

export const clear: ToolHandler<"clear"> = async (_args, _ctx) => {
  throw new ToolError("Tool clear is not implemented yet: write it in src/handlers/shop/tools/clear.ts");
};
`);
    expect(p.tsc()).toBe("");
  });

  it("imports stubs from a folder whose name holds a quote, escaped, and the output compiles and runs", async () => {
    const p = project();
    const first = await p.generate("write", 'src/st"ubs');
    expect(first.diagnostics).toEqual([]);
    expect(p.read("generated/shop/handlers.ts")).toContain('import { addItem } from "../../src/st\\"ubs/shop/tools/addItem.js";');
    expect(p.tsc()).toBe("");
    const { createServerFactory } = await import(path.join(p.dir, "generated/shop/index.ts"));
    const { handlers } = await import(path.join(p.dir, "generated/shop/handlers.ts"));
    const { rawSession } = await import("./helpers/wire.js");
    const s = await rawSession(createServerFactory(handlers));
    const r = await s.request("tools/call", { name: "add_item", arguments: { sku: "a" } });
    expect(r.result).toEqual({
      content: [{ type: "text", text: 'Tool add_item is not implemented yet: write it in src/st"ubs/shop/tools/addItem.ts' }],
      isError: true,
    });
    await s.close();
  });

  it("--check reports missing stubs as stale without writing them", async () => {
    const p = project();
    await p.generate();
    rmSync(path.join(p.dir, "src/handlers/shop/prompts/upsell.ts"));
    const check = await p.generate("check");
    expect(check.changes).toEqual(["create src/handlers/shop/prompts/upsell.ts"]);
    expect(existsSync(path.join(p.dir, "src/handlers/shop/prompts/upsell.ts"))).toBe(false);
  });
});

/** A handler of each kind, written by hand in the new shape: one import, the type by MCP name. */
const WRITTEN: Record<string, string> = {
  "tools/addItem.ts": `import type { ToolHandler } from "../../../../generated/shop/index.js";

export const addItem: ToolHandler<"add_item"> = async (args) => ({ count: args.sku.length });
`,
  "tools/clear.ts": `import type { ToolHandler } from "../../../../generated/shop/index.js";

export const clear: ToolHandler<"clear"> = () => "cleared";
`,
  "resources/cart.ts": `import type { ResourceHandler } from "../../../../generated/shop/index.js";

export const cart: ResourceHandler<"cart"> = async (ctx) => \`the cart at \${ctx.uri}\`;
`,
  "resource-templates/item.ts": `import type { ResourceTemplateHandler } from "../../../../generated/shop/index.js";

export const item: ResourceTemplateHandler<"item"> = async (variables) => \`item \${variables.sku.toUpperCase()}\`;
`,
  "prompts/upsell.ts": `import type { PromptHandler } from "../../../../generated/shop/index.js";

export const upsell: PromptHandler<"upsell"> = async (args) => ({
  messages: [{ role: "user", content: { type: "text", text: \`Suggest something to go with \${args.sku}.\` } }],
});
`,
};

describe("handler types: one per entity kind, by MCP name", () => {
  it("a fresh stub of each kind compiles under strict with noUnusedParameters, the written ones serve, and a schema change is a type error in each", async () => {
    const p = project();
    expect((await p.generate()).diagnostics).toEqual([]);
    expect(p.tsc()).toBe("");
    for (const [file, text] of Object.entries(WRITTEN)) p.write(`src/handlers/shop/${file}`, text);
    expect(p.tsc()).toBe("");

    // handlers.ts wires the consts exactly as it wired functions.
    const { createServerFactory } = await import(path.join(p.dir, "generated/shop/index.ts"));
    const { handlers } = await import(path.join(p.dir, "generated/shop/handlers.ts"));
    const { rawSession } = await import("./helpers/wire.js");
    const s = await rawSession(createServerFactory(handlers));
    expect((await s.request("tools/call", { name: "add_item", arguments: { sku: "abc" } })).result).toMatchObject({ structuredContent: { count: 3 } });
    expect((await s.request("resources/read", { uri: "shop://cart" })).result).toMatchObject({ contents: [{ text: "the cart at shop://cart" }] });
    expect((await s.request("resources/read", { uri: "shop://items/x1" })).result).toMatchObject({ contents: [{ text: "item X1" }] });
    expect((await s.request("prompts/get", { name: "upsell", arguments: { sku: "x1" } })).result).toMatchObject({
      messages: [{ content: { text: "Suggest something to go with x1." } }],
    });
    await s.close();

    // The manifest changes under the handlers: each sees it at its own line.
    p.write(
      "manifests/shop.yaml",
      MANIFEST.replace("properties: {sku: {type: string}}", "properties: {sku: {type: integer}}")
        .replace("shop://items/{sku}", "shop://items/{id}")
        .replace("arguments: [{name: sku, required: true}]", "arguments: [{name: product, required: true}]"),
    );
    expect((await p.generate()).diagnostics).toEqual([]);
    const errors = p
      .tsc()
      .split("\n")
      .filter((l) => l.includes("error TS"));
    expect(errors).toEqual([
      "src/handlers/shop/prompts/upsell.ts(4,98): error TS2339: Property 'sku' does not exist on type 'UpsellArguments'.",
      "src/handlers/shop/resource-templates/item.ts(3,93): error TS2339: Property 'sku' does not exist on type 'ItemVariables'.",
      "src/handlers/shop/tools/addItem.ts(3,84): error TS2339: Property 'length' does not exist on type 'number'.",
    ]);
  }, 120_000);
});

/** A stub file the manifest no longer needs: a `stub-orphan` warning at its export. */
const ORPHAN = 'import type { ToolHandler } from "../../../../generated/shop/index.js";\n\nexport const gone: ToolHandler<"add_item"> = async () => "gone";\n';
const orphanWarning =
  "src/handlers/shop/tools/gone.ts:3:14: warning stub-orphan: handler gone is not used: nothing in manifests/shop.yaml needs tools/gone.ts any more (removed or renamed?); move its code to the new handler, then delete the file";

describe("the warnings of stub files", () => {
  it("are said again on a run that skips the unchanged manifest, and fail it when set to error", async () => {
    const p = project();
    mkdirSync(path.join(p.dir, "src/handlers/shop/tools"), { recursive: true });
    p.write("src/handlers/shop/tools/gone.ts", ORPHAN);
    const run = (levels: DiagnosticLevels = []) =>
      runPipeline({ manifests: ["manifests"], out: "generated", stubs: "src/handlers", levels, cwd: p.dir, mode: "write" });
    const first = await run();
    expect(first.reused).toEqual([]);
    expect(first.diagnostics.map(formatDiagnostic)).toEqual([orphanWarning]);
    const skipped = await run();
    expect(skipped.reused).toEqual([{ server: "shop", files: expect.any(Number) }]);
    expect(skipped.diagnostics.map(formatDiagnostic)).toEqual([orphanWarning]);
    expect(skipped.reusedWarnings).toEqual([]);
    const failed = await run([{ codes: { "stub-orphan": "error" } }]);
    expect(failed.reused).toEqual([{ server: "shop", files: expect.any(Number) }]);
    expect(failed.diagnostics.map(formatDiagnostic)).toEqual([orphanWarning.replace("warning", "error")]);
    expect(failed.plan).toBeUndefined();
  });

  it("take their level from the config's diagnostics key: error writes nothing, off says nothing", async () => {
    const p = project();
    mkdirSync(path.join(p.dir, "src/handlers/shop/tools"), { recursive: true });
    p.write("src/handlers/shop/tools/gone.ts", ORPHAN);
    const run = async (level: "off" | "error") => {
      p.write("mcpgen.config.json", JSON.stringify({ stubs: "src/handlers", out: "generated", diagnostics: { "stub-orphan": level } }));
      const { config, diagnostics } = loadConfig(p.dir);
      expect(diagnostics).toEqual([]);
      const result = await runPipeline({
        manifests: config.manifests,
        out: config.out,
        stubs: config.stubs!,
        levels: config.levels,
        cwd: p.dir,
        mode: "write",
        cache: false,
      });
      return result.diagnostics.map(formatDiagnostic);
    };
    expect(await run("error")).toEqual([orphanWarning.replace("warning", "error")]);
    expect(existsSync(path.join(p.dir, "generated"))).toBe(false);
    expect(await run("off")).toEqual([]);
    expect(existsSync(path.join(p.dir, "generated/shop/handlers.ts"))).toBe(true);
  });
});
