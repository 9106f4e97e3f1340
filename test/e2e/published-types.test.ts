/**
 * A published server built from an OpenAPI document, whose 24 tools each carry the same nine
 * `$defs`: pulled, generated client-only, and compiled under strict. Its types.ts declares each
 * entry once, under the entry's own name, and gives no tool types for entries it does not use.
 * Slow (a real npm install), like real-servers.test.ts.
 */
import { readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { toIdentifier } from "../../src/generator/model/identifiers.js";
import { mcpgen } from "../helpers/cli.js";
import { appFolder, binCommand, installPackages, workFolder } from "../helpers/published.js";
import { tsc, writeTsconfig } from "../helpers/tsc.js";

const PACKAGE = "@notionhq/notion-mcp-server";
const VERSION = "2.5.2";
const work = workFolder("mcpgen-published-");
const servers = path.join(work, "servers");
const app = path.join(work, "app");

beforeAll(() => {
  installPackages(servers, [`${PACKAGE}@${VERSION}`]);
  appFolder(app);
}, 300_000);

describe(`${PACKAGE}@${VERSION}: tools with the same $defs`, () => {
  it("pulls, generates client-only types with one type per entry, and compiles under strict", () => {
    const pulled = mcpgen(["pull", "-o", "manifests/notion.yaml", "--", ...binCommand(servers, PACKAGE)], app);
    expect(pulled).toMatchObject({ code: 0, stderr: "" });
    expect(mcpgen(["generate", "--client-only"], app)).toMatchObject({ code: 0, stderr: "" });

    const manifest = parse(readFileSync(path.join(app, "manifests/notion.yaml"), "utf8")) as {
      tools: { name: string; inputSchema: { $defs?: Record<string, unknown> } }[];
    };
    const entries = Object.keys(manifest.tools[0]!.inputSchema.$defs ?? {});
    // What makes this server the case: every tool carries the same entries.
    expect(entries.length).toBeGreaterThan(5);
    for (const tool of manifest.tools) expect(JSON.stringify(tool.inputSchema.$defs), tool.name).toBe(JSON.stringify(manifest.tools[0]!.inputSchema.$defs));

    const types = readFileSync(path.join(app, "generated/notion-api/types.ts"), "utf8");
    const declared = [...types.matchAll(/^export (?:interface|type) (\w+)/gm)].map((m) => m[1]!);
    const perTool = manifest.tools.map((t) => `${toIdentifier(t.name, "pascal")}Input`);
    const shared = declared.filter((name) => !perTool.includes(name) && !/^(Tool|Resource|Prompt|List)/.test(name));
    // Each entry once, under its own name (those some tool uses), and nothing per tool besides its input.
    expect(new Set(shared).size).toBe(shared.length);
    expect(shared.length).toBeGreaterThan(0);
    const entryNames = entries.map((e) => toIdentifier(e, "pascal"));
    expect(shared.filter((name) => !entryNames.includes(name))).toEqual([]);
    expect(declared.filter((name) => perTool.includes(name))).toEqual(perTool);

    writeFileSync(
      path.join(app, "usage.ts"),
      `import { createClient, type ${shared.join(", type ")} } from "./generated/notion-api/index.js";\nexport type Shared = ${shared.join(" | ")};\nexport { createClient };\n`,
    );
    writeTsconfig(app, { include: ["generated/**/*.ts", "usage.ts"], compilerOptions: { types: [] } });
    expect(tsc(app)).toEqual({ status: 0, output: "" });
  }, 120_000);
});
