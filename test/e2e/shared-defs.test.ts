/**
 * Tools that carry the same `$defs` (as servers built from an OpenAPI document do): types.ts has
 * one type per entry, only for the entries the types use; the server and the client compile under
 * strict; the wire schemas, `$defs` included, are served and validated exactly as written.
 */
import { readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { mcpgen } from "../helpers/cli.js";
import { linkNodeModules, tempProject } from "../helpers/tmp.js";
import { tsc, writeTsconfig } from "../helpers/tsc.js";
import { rawSession } from "../helpers/wire.js";

const DEFS = `
        richText:
          type: object
          properties:
            text: {type: string, minLength: 1}
            link: {type: [string, 'null']}
          required: [text]
        block:
          type: object
          properties:
            kind: {enum: [paragraph, heading]}
            rich_text: {type: array, items: {$ref: '#/$defs/richText'}}
          required: [kind, rich_text]
        unused: {type: string}`;

const MANIFEST = `server: {name: pages, version: '1.0.0'}
tools:
  - name: create_page
    inputSchema:
      type: object
      $defs:${DEFS}
      properties:
        title: {type: array, items: {$ref: '#/$defs/richText'}}
        children: {type: array, items: {$ref: '#/$defs/block'}}
      required: [title]
    outputSchema:
      type: object
      $defs:
        richText: {required: [text], type: object, properties: {link: {type: [string, 'null']}, text: {minLength: 1, type: string}}}
      properties:
        title: {$ref: '#/$defs/richText'}
      required: [title]
  - name: append_block
    inputSchema:
      type: object
      $defs:${DEFS}
      properties:
        page_id: {type: string}
        block: {$ref: '#/$defs/block'}
      required: [page_id, block]
  - name: get_self
    inputSchema:
      type: object
      $defs:${DEFS}
  - name: search
    inputSchema:
      type: object
      $defs:
        richText: {type: string}
      properties:
        query: {$ref: '#/$defs/richText'}
`;

const USAGE = `import { createClient, createServer, type AppendBlockInput, type Block, type CreatePageInput, type CreatePageOutput, type RichText, type SearchInputRichText } from "./out/pages/index.js";
import type { Client } from "@modelcontextprotocol/client";

const hello: RichText = { text: "hello", link: null };
export const create: CreatePageInput = { title: [hello], children: [{ kind: "paragraph", rich_text: [hello] }] };
export const append: AppendBlockInput = { page_id: "p", block: { kind: "heading", rich_text: [{ text: "h" }] } };
// One type: a block of one tool's input is a block of the other's.
export const moved: AppendBlockInput["block"] = create.children![0]!;
export const output: CreatePageOutput = { title: hello };
export const query: SearchInputRichText = "just a string";
// @ts-expect-error rich text needs its text
export const bad: Block = { kind: "paragraph", rich_text: [{ link: null }] };

export function use(sdk: Client) {
  const client = createClient(sdk);
  return [client.createPage(create), client.appendBlock(append), client.getSelf(), client.search({ query })];
}
export const server = createServer({
  tools: {
    create_page: (args) => ({ title: args.title[0]! }),
    append_block: ({ block }) => block.rich_text.map((r) => r.text).join(""),
    get_self: () => "me",
    search: ({ query }) => query ?? "",
  },
});
`;

describe("tools with the same $defs", () => {
  it("one type per entry, only the used ones; the server and the client compile under strict", async () => {
    const dir = tempProject({ "package.json": '{"type":"module"}', "manifests/pages.yaml": MANIFEST, "usage.ts": USAGE });
    linkNodeModules(dir);
    expect(mcpgen(["generate", "--out", "out"], dir)).toMatchObject({ code: 0, stderr: "" });

    const types = readFileSync(path.join(dir, "out/pages/types.ts"), "utf8");
    const declared = [...types.matchAll(/^export (?:interface|type) (\w+)/gm)].map((m) => m[1]);
    expect(declared.slice(0, declared.indexOf("ToolInputs"))).toEqual([
      "CreatePageInput",
      "RichText",
      "Block",
      "CreatePageOutput",
      "AppendBlockInput",
      "GetSelfInput",
      "SearchInput",
      "SearchInputRichText",
    ]);
    expect(types).toContain("  title: RichText[];\n  children?: Block[];\n");
    expect(types).toContain("export interface CreatePageOutput {\n  title: RichText;\n}\n");
    expect(types).toContain("  block: Block;\n");
    expect(types).not.toMatch(/Unused/);

    writeTsconfig(dir, { include: ["out", "usage.ts"] });
    expect(tsc(dir)).toEqual({ status: 0, output: "" });

    // The wire schemas are the manifest's, unused entries included, and ajv checks against them.
    const manifest = parse(MANIFEST) as { tools: { name: string; inputSchema: unknown; outputSchema?: unknown }[] };
    const fixture = JSON.parse(readFileSync(path.join(dir, "out/pages/fixtures/tools-list.json"), "utf8")) as {
      tools: { inputSchema: unknown; outputSchema?: unknown }[];
    };
    expect(fixture.tools.map((t) => [t.inputSchema, t.outputSchema])).toEqual(manifest.tools.map((t) => [t.inputSchema, t.outputSchema]));
    const generated = await import(pathToFileURL(path.join(dir, "out/pages/index.ts")).href);
    const s = await rawSession(
      generated.createServerFactory({
        tools: { create_page: (a: { title: unknown[] }) => ({ title: a.title[0] }), append_block: () => "ok", get_self: () => "me", search: () => "" },
      }),
    );
    const call = async (name: string, args: unknown) => (await s.request("tools/call", { name, arguments: args })).result as { isError?: boolean };
    expect((await call("append_block", { page_id: "p", block: { kind: "paragraph", rich_text: [{ text: "a" }] } })).isError).toBeFalsy();
    expect((await call("append_block", { page_id: "p", block: { kind: "paragraph", rich_text: [{ text: "" }] } })).isError).toBe(true);
    expect((await call("create_page", { title: [{ text: "t" }], children: [{ kind: "list", rich_text: [] }] })).isError).toBe(true);
    expect((await call("search", { query: { text: "not a string" } })).isError).toBe(true);
    await s.close();
  }, 120_000);

  it("generate --client-only compiles under strict without Node's types", () => {
    const dir = tempProject({ "package.json": '{"type":"module"}', "manifests/pages.yaml": MANIFEST });
    linkNodeModules(dir);
    expect(mcpgen(["generate", "--client-only", "--out", "out"], dir)).toMatchObject({ code: 0, stderr: "" });
    writeFileSync(
      path.join(dir, "client.ts"),
      `import { createClient, type RichText } from "./out/pages/index.js";\nexport const t: RichText = { text: "x" };\nexport { createClient };\n`,
    );
    writeTsconfig(dir, { files: ["client.ts"], compilerOptions: { types: [] } });
    expect(tsc(dir)).toEqual({ status: 0, output: "" });
  }, 120_000);
});
