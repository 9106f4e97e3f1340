/** `mcpgen dev`'s type checking: tsc's output as problems, the compiler and projects it picks. */
import { mkdirSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { checkedProjects, parseProblems, projectCompiler } from "../../../../src/commands/dev/typecheck.js";
import { tempProject } from "../../../helpers/tmp.js";

describe("parseProblems", () => {
  it("reads tsc --pretty false lines as file:line:col, the indented detail kept with its error", () => {
    const output = [
      "src/a.ts(3,7): error TS2322: Type 'string' is not assignable to type 'number'.",
      "src/b.ts(10,1): error TS2345: Argument of type '{ greting: string; }' is not assignable to parameter of type 'Out'.",
      "  Object literal may only specify known properties, and 'greting' does not exist in type 'Out'.",
      "error TS5083: Cannot read file '/x/tsconfig.base.json'.",
      "",
    ].join("\n");
    expect(parseProblems(output)).toEqual([
      "src/a.ts:3:7: error TS2322: Type 'string' is not assignable to type 'number'.",
      "src/b.ts:10:1: error TS2345: Argument of type '{ greting: string; }' is not assignable to parameter of type 'Out'.\n  Object literal may only specify known properties, and 'greting' does not exist in type 'Out'.",
      "error TS5083: Cannot read file '/x/tsconfig.base.json'.",
    ]);
  });
});

describe("what is checked, and with what", () => {
  it("the project's own typescript, or none: no compiler of mcpgen's", () => {
    const dir = tempProject({ "package.json": "{}" });
    expect(projectCompiler(dir)).toBeUndefined();
    mkdirSync(path.join(dir, "node_modules/typescript/bin"), { recursive: true });
    writeFileSync(path.join(dir, "node_modules/typescript/package.json"), JSON.stringify({ name: "typescript", version: "7.0.2", bin: { tsc: "./bin/tsc" } }));
    writeFileSync(path.join(dir, "node_modules/typescript/bin/tsc"), "");
    expect(projectCompiler(dir)).toEqual({ tsc: path.join(dir, "node_modules/typescript/bin/tsc"), version: "7.0.2" });
  });

  it("the project's tsconfig.json and the nearest one above each widget, each once", () => {
    const dir = tempProject({
      "tsconfig.json": "{}",
      "manifests/widgets/tsconfig.json": "{}",
      "manifests/widgets/a.ts": "",
      "manifests/widgets/b.ts": "",
      "manifests/other/c.ts": "",
    });
    const entries = ["widgets/a.ts", "widgets/b.ts", "other/c.ts"].map((f) => path.join(dir, "manifests", f));
    expect(checkedProjects(dir, entries)).toEqual([path.join(dir, "tsconfig.json"), path.join(dir, "manifests/widgets/tsconfig.json")]);
  });
});
