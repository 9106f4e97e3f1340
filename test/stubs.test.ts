/**
 * Handler stubs: created once, merged after, never clobbered. Each case asserts the exact files
 * before and after a regeneration.
 */
import { execFileSync } from "node:child_process";
import { readFileSync, symlinkSync, writeFileSync, existsSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { formatDiagnostic } from "../src/diagnostics.js";
import { runPipeline } from "../src/generate.js";
import { tempProject } from "./helpers/tmp.js";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const TSC = createRequire(import.meta.url).resolve("typescript/bin/tsc");

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
// Handler of tool "add_item" (shop). Its types come from the generated folder, so a
// schema change in the manifest shows up here as a type error.
import type { AddItemInput, AddItemOutput } from "../../../../generated/shop/types.js";
import type { ToolContext } from "../../../../generated/shop/server.js";
import { ToolError } from "../../../../generated/_runtime/shared/errors.js";

export async function addItem(args: AddItemInput, ctx: ToolContext): Promise<AddItemOutput> {
  throw new ToolError("Tool add_item is not implemented yet: write it in src/handlers/shop/tools/addItem.ts");
}
`;

const TSCONFIG = JSON.stringify({
  compilerOptions: { target: "ES2022", module: "NodeNext", moduleResolution: "NodeNext", strict: true, skipLibCheck: true, types: ["node"], noEmit: true },
  include: ["src", "generated"],
});

function project(manifest = MANIFEST) {
  const dir = tempProject({ "package.json": '{"type":"module"}', "tsconfig.json": TSCONFIG, "manifests/shop.yaml": manifest });
  symlinkSync(path.join(ROOT, "node_modules"), path.join(dir, "node_modules"), "dir");
  const read = (rel: string) => readFileSync(path.join(dir, rel), "utf8");
  const write = (rel: string, text: string) => writeFileSync(path.join(dir, rel), text);
  const generate = async (mode: "write" | "check" = "write", stubs = "src/handlers") => {
    const result = await runPipeline({ manifests: ["manifests"], out: "generated", stubs, cwd: dir, mode, cache: false });
    return { result, diagnostics: result.diagnostics.map(formatDiagnostic), changes: result.plan?.changes.map((c) => `${c.kind} ${c.display}`) ?? [] };
  };
  const tsc = () => {
    try {
      execFileSync(process.execPath, [TSC, "-p", "tsconfig.json"], { cwd: dir, encoding: "utf8", stdio: "pipe" });
      return "";
    } catch (error) {
      return (error as { stdout: string }).stdout;
    }
  };
  return { dir, read, write, generate, tsc };
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
    expect(p.read("generated/shop/handlers.ts")).toContain('import { addItem } from "../../src/handlers/shop/tools/addItem.js";');
    expect(p.read("generated/shop/handlers.ts")).toContain("  resources: {\n    cart: cart,\n  },\n");
    expect(p.tsc()).toBe("");
    // A second run changes nothing.
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
      "src/handlers/shop/tools/clear.ts:8:1: warning stub-orphan: handler clear is not used: nothing in manifests/shop.yaml needs tools/clear.ts any more (removed or renamed?); move its code to the new handler, then delete the file",
    ]);
    expect(second.changes.filter((c) => c.includes("src/handlers"))).toEqual(["create src/handlers/shop/tools/emptyCart.ts"]);
    expect(p.read("src/handlers/shop/tools/clear.ts")).toBe(clear);
    // Its types went with the tool, so the compiler points at it too.
    expect(p.tsc()).toMatch(
      /^src\/handlers\/shop\/tools\/clear\.ts\(4,15\): error TS2305: Module '"\.\.\/\.\.\/\.\.\/\.\.\/generated\/shop\/types\.js"' has no exported member 'ClearInput'\./,
    );
  });

  it("shows a schema change as a type error at the handler", async () => {
    const p = project();
    await p.generate();
    p.write("src/handlers/shop/tools/addItem.ts", ADD_ITEM_STUB.replace(/ {2}throw new ToolError\(.*\);/, "  return { count: args.sku.length };"));
    expect(p.tsc()).toBe("");
    p.write("manifests/shop.yaml", MANIFEST.replace("properties: {sku: {type: string}}", "properties: {sku: {type: integer}}"));
    await p.generate();
    expect(p.tsc()).toMatch(/^src\/handlers\/shop\/tools\/addItem\.ts\(9,28\): error TS2339: Property 'length' does not exist on type 'number'\./);
  });

  it("appends the stub function (and its imports) to a file that lost it, touching nothing else", async () => {
    const p = project();
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
import type { ClearInput } from "../../../../generated/shop/types.js";
import type { ToolTextResult } from "../../../../generated/shop/server.js";
import { ToolError } from "../../../../generated/_runtime/shared/errors.js";

export async function emptyTheCart(args: object, ctx: ToolContext) {
  return "done";
}

export async function clear(args: ClearInput, ctx: ToolContext): Promise<ToolTextResult> {
  throw new ToolError("Tool clear is not implemented yet: write it in src/handlers/shop/tools/clear.ts");
}
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
