/**
 * Compile what we generate from a manifest full of awkward names, under strict + NodeNext. (The
 * repository itself, the committed examples and the runtime package are type-checked by
 * `npm run typecheck`, a CI step beside the linter; test/strict-compile.test.ts compiles every
 * golden tree with the oldest TypeScript promised and with TypeScript 7.)
 */
import { writeFileSync } from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { runPipeline } from "../src/generator/pipeline.js";
import { ROOT } from "./helpers/cli.js";
import { linkNodeModules, tempProject } from "./helpers/tmp.js";
import { tsc, writeTsconfig } from "./helpers/tsc.js";

/** The strict flags, and noImplicitOverride: a generated class that overrides a member must say so. */
const OPTIONS = { noImplicitOverride: true };

describe("generated code compiles", () => {
  it("tsc --noEmit under every strict flag (NodeNext) over awkward names and schemas", async () => {
    const dir = tempProject({ "package.json": '{"type":"module"}' });
    writeTsconfig(dir, { include: ["out"], compilerOptions: OPTIONS });
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
    expect(tsc(dir)).toEqual({ status: 0, output: "" });

    // A client-only program (what a browser bundle imports) must not need Node's types.
    writeTsconfig(dir, { file: "tsconfig.client.json", files: ["client-only.ts"], compilerOptions: { ...OPTIONS, types: [] } });
    writeFileSync(
      path.join(dir, "client-only.ts"),
      `import { createClient, type DeleteInput } from "./out/tricky/index.js";\nexport { createClient };\nexport type T = DeleteInput;\n`,
    );
    expect(tsc(dir, { project: "tsconfig.client.json" })).toEqual({ status: 0, output: "" });
  }, 300_000);
});
