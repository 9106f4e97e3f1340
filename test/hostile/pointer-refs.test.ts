/**
 * `$ref` fragments written the way JSON Schema allows: percent-encoded, then JSON-pointer escaped
 * (`#/$defs/a%20b~1c` names the entry `a b/c`). mcpgen reads them as ajv does: the manifest
 * generates, the types name the right defs, and the server validates against them; a malformed
 * escape is a diagnostic.
 */
import { existsSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { formatDiagnostic } from "../../src/common/diagnostics.js";
import { runPipeline } from "../../src/generator/pipeline.js";
import { rawSession } from "../helpers/wire.js";
import { linkNodeModules, tempProject } from "../helpers/tmp.js";

const MANIFEST = `server: {name: pointers, version: '1'}
defs:
  Label: {type: string, maxLength: 3}
tools:
  - name: place
    inputSchema:
      type: object
      properties:
        spot: {$ref: '#/$defs/a%20b~1c'}
        tilde: {$ref: '#/$defs/x~0y'}
        label: {$ref: '#/defs/La%62el'}
      required: [spot]
      $defs:
        a b/c: {type: integer, minimum: 0}
        x~y: {enum: [on, off]}
`;

describe("percent-encoded JSON pointers in $ref", () => {
  it("generate, type the right defs, and reach the server's validator", async () => {
    const dir = tempProject({ "package.json": '{"type":"module"}', "m.yaml": MANIFEST });
    linkNodeModules(dir);
    const result = await runPipeline({ manifests: ["m.yaml"], out: "out", cwd: dir, mode: "write", cache: false });
    expect(result.diagnostics.map(formatDiagnostic)).toEqual([]);

    const types = readFileSync(path.join(dir, "out/pointers/types.ts"), "utf8");
    expect(types).toContain("  spot: PlaceInputABC;\n  tilde?: PlaceInputXY;\n  label?: Label;\n");
    expect(types).toContain("export type PlaceInputABC = number;");
    expect(types).toContain('export type PlaceInputXY = "on" | "off";');
    // On the wire the manifest def is bundled and its ref rewritten; the local refs go out as written.
    const generated = await import(pathToFileURL(path.join(dir, "out/pointers/index.ts")).href);
    const s = await rawSession(generated.createServerFactory({ tools: { place: () => "placed" } }));
    const [tool] = (await s.request("tools/list")).result!.tools as { inputSchema: Record<string, any> }[];
    expect(tool!.inputSchema.properties).toEqual({ spot: { $ref: "#/$defs/a%20b~1c" }, tilde: { $ref: "#/$defs/x~0y" }, label: { $ref: "#/$defs/Label" } });
    expect(Object.keys(tool!.inputSchema.$defs)).toEqual(["a b/c", "x~y", "Label"]);

    const call = async (args: Record<string, unknown>) =>
      (await s.request("tools/call", { name: "place", arguments: args })).result as { isError?: boolean; content: { text: string }[] };
    expect((await call({ spot: 2, tilde: "on", label: "abc" })).isError).toBeFalsy();
    for (const bad of [{ spot: -1 }, { spot: "2" }, { spot: 2, tilde: "maybe" }, { spot: 2, label: "abcd" }]) {
      expect((await call(bad)).isError, JSON.stringify(bad)).toBe(true);
    }
    await s.close();
  }, 60_000);

  it("a malformed percent escape is a diagnostic at the $ref, and nothing is written", async () => {
    const dir = tempProject({
      "package.json": "{}",
      "m.yaml": MANIFEST.replace("'#/$defs/x~0y'", "'#/$defs/x%zz'").replace("'#/defs/La%62el'", "'#/$defs/%FF'"),
    });
    const result = await runPipeline({ manifests: ["m.yaml"], out: "out", cwd: dir, mode: "write", cache: false });
    expect(result.diagnostics.map(formatDiagnostic)).toEqual([
      'm.yaml:10:23: error unsupported-ref: $ref "#/$defs/x%zz" is not supported: "%zz" is not a percent escape (% must be followed by two hex digits; write a literal % as %25)',
      'm.yaml:11:23: error unsupported-ref: $ref "#/$defs/%FF" is not supported: its percent escapes are not UTF-8 (each character is the %XX escapes of its UTF-8 bytes)',
    ]);
    expect(existsSync(path.join(dir, "out"))).toBe(false);
  });
});
