/**
 * A published server built from an OpenAPI document, whose 24 tools each carry the same nine
 * `$defs`: pulled, generated client-only, and compiled under strict. Its types.ts declares each
 * entry once, under the entry's own name, and gives no tool types for entries it does not use.
 * Slow (a real npm install), like real-servers.test.ts.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { toIdentifier } from "../../src/model/identifiers.js";
import { mcpgen, ROOT } from "../helpers/cli.js";

const PACKAGE = "@notionhq/notion-mcp-server";
const VERSION = "2.5.2";
const work = mkdtempSync(path.join(tmpdir(), "mcpgen-published-"));
// Deleting an installed node_modules tree can take a minute on a loaded machine.
afterAll(() => rmSync(work, { recursive: true, force: true }), 300_000);
const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.toLowerCase().startsWith("npm_"))) as Record<string, string>;
const NPM = process.platform === "win32" ? "npm.cmd" : "npm";
const servers = path.join(work, "servers");
const app = path.join(work, "app");

beforeAll(() => {
  mkdirSync(servers);
  writeFileSync(path.join(servers, "package.json"), JSON.stringify({ name: "servers", private: true }));
  execFileSync(NPM, ["install", "--no-audit", "--no-fund", "--ignore-scripts", `${PACKAGE}@${VERSION}`], { cwd: servers, env, stdio: "ignore", timeout: 240_000 });
  mkdirSync(app);
  writeFileSync(path.join(app, "package.json"), JSON.stringify({ name: "app", private: true, type: "module" }));
  symlinkSync(path.join(ROOT, "node_modules"), path.join(app, "node_modules"), "dir");
}, 300_000);

describe(`${PACKAGE}@${VERSION}: tools with the same $defs`, () => {
  it("pulls, generates client-only types with one type per entry, and compiles under strict", () => {
    const pkg = path.join(servers, "node_modules", PACKAGE);
    const bin = Object.values((JSON.parse(readFileSync(path.join(pkg, "package.json"), "utf8")) as { bin: Record<string, string> }).bin)[0]!;
    const pulled = mcpgen(["pull", "-o", "manifests/notion.yaml", "--", process.execPath, path.join(pkg, bin)], app);
    expect(pulled).toMatchObject({ code: 0, stderr: "" });
    expect(mcpgen(["generate", "--client-only"], app)).toMatchObject({ code: 0, stderr: "" });

    const manifest = parse(readFileSync(path.join(app, "manifests/notion.yaml"), "utf8")) as { tools: { name: string; inputSchema: { $defs?: Record<string, unknown> } }[] };
    const entries = Object.keys(manifest.tools[0]!.inputSchema.$defs ?? {});
    // What makes this server the case: every tool carries the same entries.
    expect(entries.length).toBeGreaterThan(5);
    for (const tool of manifest.tools) expect(JSON.stringify(tool.inputSchema.$defs), tool.name).toBe(JSON.stringify(manifest.tools[0]!.inputSchema.$defs));

    const types = readFileSync(path.join(app, "generated/notion-api/types.ts"), "utf8");
    const declared = [...types.matchAll(/^export (?:interface|type) (\w+)/gm)].map((m) => m[1]!);
    const perTool = manifest.tools.map((t) => `${toIdentifier(t.name, "pascal")}Input`);
    const shared = declared.filter((name) => !perTool.includes(name) && !/^(Tool|Resource|Prompt)/.test(name));
    // Each entry once, under its own name (those some tool uses), and nothing per tool besides its input.
    expect(new Set(shared).size).toBe(shared.length);
    expect(shared.length).toBeGreaterThan(0);
    const entryNames = entries.map((e) => toIdentifier(e, "pascal"));
    expect(shared.filter((name) => !entryNames.includes(name))).toEqual([]);
    expect(declared.filter((name) => perTool.includes(name))).toEqual(perTool);

    writeFileSync(path.join(app, "usage.ts"), `import { createClient, type ${shared.join(", type ")} } from "./generated/notion-api/index.js";\nexport type Shared = ${shared.join(" | ")};\nexport { createClient };\n`);
    writeFileSync(path.join(app, "tsconfig.json"), JSON.stringify({
      compilerOptions: { target: "ES2022", module: "NodeNext", moduleResolution: "NodeNext", strict: true, noUncheckedIndexedAccess: true, exactOptionalPropertyTypes: true, verbatimModuleSyntax: true, skipLibCheck: true, noEmit: true, types: [] },
      include: ["generated/**/*.ts", "usage.ts"],
    }));
    execFileSync(process.execPath, [path.join(ROOT, "node_modules/typescript/bin/tsc"), "-p", "."], { cwd: app, encoding: "utf8" });
  }, 120_000);
});
