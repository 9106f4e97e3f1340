/**
 * Compile what we generate: the committed examples (with the test handlers written against them)
 * and a manifest full of awkward names, each under strict + NodeNext.
 */
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { runPipeline } from "../src/generator/pipeline.js";
import { linkNodeModules, tempProject } from "./helpers/tmp.js";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const TSC = createRequire(import.meta.url).resolve("typescript/bin/tsc");

function tsc(cwd: string, project: string): { ok: boolean; output: string } {
  try {
    execFileSync(process.execPath, [TSC, "--noEmit", "-p", project], { cwd, encoding: "utf8", stdio: "pipe" });
    return { ok: true, output: "" };
  } catch (error) {
    const e = error as { stdout?: string; stderr?: string };
    return { ok: false, output: `${e.stdout ?? ""}${e.stderr ?? ""}` };
  }
}

const STRICT_TSCONFIG = JSON.stringify({
  compilerOptions: {
    target: "ES2022",
    module: "NodeNext",
    moduleResolution: "NodeNext",
    strict: true,
    noUncheckedIndexedAccess: true,
    exactOptionalPropertyTypes: true,
    noImplicitOverride: true,
    verbatimModuleSyntax: true,
    skipLibCheck: true,
    types: ["node"],
  },
  include: ["out"],
});

/** A client-only program (what a browser bundle imports) must not need Node's types. */
const CLIENT_ONLY_TSCONFIG = JSON.stringify({
  compilerOptions: { ...JSON.parse(STRICT_TSCONFIG).compilerOptions, types: [] },
  files: ["client-only.ts"],
});

describe("generated code compiles", () => {
  it("tsc --noEmit over the project: src, generated/, the test handlers and the widget type tests", () => {
    const result = tsc(ROOT, "tsconfig.json");
    expect(result.output).toBe("");
    expect(result.ok).toBe(true);
  }, 300_000);

  it("tsc --noEmit over the runtime package under every strict flag (noUnused*, noPropertyAccessFromIndexSignature...): vendor mode copies it into users' projects", () => {
    const result = tsc(ROOT, "packages/runtime/tsconfig.json");
    expect(result.output).toBe("");
    expect(result.ok).toBe(true);
  }, 300_000);

  it("tsc --noEmit over browser code, with the DOM library: the gift widget with its generated client, the harness's pages, the test host's pages", () => {
    for (const project of ["examples/gift-server/manifests/widgets/tsconfig.json", "src/harness/tsconfig.json", "test/helpers/hosts/tsconfig.json"]) {
      const result = tsc(ROOT, project);
      expect(result.output, project).toBe("");
      expect(result.ok).toBe(true);
    }
  }, 300_000);

  it("tsc --noEmit under strict NodeNext (exactOptionalPropertyTypes too) over awkward names and schemas", async () => {
    const dir = tempProject({ "package.json": '{"type":"module"}', "tsconfig.json": STRICT_TSCONFIG });
    linkNodeModules(dir);
    const result = await runPipeline({ manifests: [path.join(ROOT, "test/fixtures/manifests/tricky.yaml")], out: "out", cwd: dir, mode: "write" });
    expect(result.diagnostics).toEqual([]);
    // Usage that must type-check: quoted keys, renamed client members, recursive and tuple types.
    writeFileSync(
      path.join(dir, "out/usage.ts"),
      `import { createClient, createServer, type DeleteInput, type Tree } from "./tricky/index.js";
import type { Client } from "@modelcontextprotocol/client";
import type { Client as V1Client } from "@modelcontextprotocol/sdk/client/index.js";
import { serveStdio } from "@modelcontextprotocol/server/stdio";
import { createServerFactory } from "./tricky/index.js";
// An optional property named like an Object.prototype member must be given (TypeScript compares a
// missing one with Object's own member): see docs/reference/known-limitations.md.
export const input: DeleteInput = { constructor: 1, "content-type": "text/plain", "2fa": true, "with space": 1, pair: ["a", 1], mode: "*/ end", shape: { kind: "circle", r: 1 } };
export const tree: Tree = { value: null, children: [{ value: "leaf" }] };
export function use(sdk: Client, v1: V1Client) {
  const client = createClient(sdk);
  // The client keeps the SDK Client's own type; an SDK 1.x Client fits as well.
  const same: Client = client.sdk;
  void same;
  void createClient(v1).delete$;
  // The factory goes to the SDK's own serving entries as it is.
  serveStdio(createServerFactory({ tools: { delete: () => "ok", "3d-render": () => ({ image: "" }), then: () => "ok", toString: () => "ok", "class.method": () => "ok" }, resourceTemplates: { item: () => "" }, prompts: { delete: () => ({ messages: [] }) } }));
  void client.delete$; void client.then$; void client.toString$; void client.classMethod; void client._3dRender; void client.readDefault; void client.readBB; void client.readItem({ id: "1", sub_id: "2" });
  void client.getPrompt("delete", { "with-dash": "x" });
  return createServer({
    tools: { delete: () => "ok", "3d-render": () => ({ image: "" }), then: () => "ok", toString: () => "ok", "class.method": () => "ok" },
    resourceTemplates: { item: ({ id, sub_id }) => id + sub_id },
    prompts: { delete: (args) => ({ messages: [{ role: "user", content: { type: "text", text: args["with-dash"] } }] }) },
  });
}
`,
    );
    const compiled = tsc(dir, "tsconfig.json");
    expect(compiled.output).toBe("");
    expect(compiled.ok).toBe(true);

    writeFileSync(path.join(dir, "tsconfig.client.json"), CLIENT_ONLY_TSCONFIG);
    writeFileSync(
      path.join(dir, "client-only.ts"),
      `import { createClient, type DeleteInput } from "./out/tricky/index.js";\nexport { createClient };\nexport type T = DeleteInput;\n`,
    );
    const clientOnly = tsc(dir, "tsconfig.client.json");
    expect(clientOnly.output).toBe("");
  }, 300_000);
});
