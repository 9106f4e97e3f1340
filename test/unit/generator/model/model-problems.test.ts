/**
 * model/modelProblems.ts: what the model stage finds, on a manifest with errors. Its claims must be
 * buildModel's, in buildModel's order: on a valid manifest both give the same diagnostics.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { formatDiagnostic } from "../../../../src/common/diagnostics.js";
import { parseManifestText } from "../../../../src/generator/load/loadManifest.js";
import { modelProblems } from "../../../../src/generator/model/modelProblems.js";
import { buildOf } from "../../../helpers/model.js";

async function problemsOf(yaml: string, dir = "/nowhere"): Promise<string[]> {
  const loaded = parseManifestText(yaml, path.join(dir, "m.yaml"), "m.yaml");
  if (!loaded.ok) throw new Error(loaded.diagnostics.map(formatDiagnostic).join("\n"));
  return (await modelProblems(loaded.manifest)).map(formatDiagnostic);
}

/** Every kind of declaration clashing with another, a schema's `$defs` entry too, the client interface's name, and two files missing. */
const CLASHES = `server: {name: s, version: '1'}
defs:
  GetUserInput: {type: object}
  SClient: {type: object}
  GetUserOutputAddr: {type: string}
tools:
  - name: get_user
    inputSchema: {type: object}
  - name: get-user
    inputSchema: {type: object}
    outputSchema: {type: object, properties: {a: {$ref: '#/$defs/Addr'}}, $defs: {Addr: {type: string}}}
resources:
  - {uri: 'a://1', name: user-card, file: missing.txt}
widgets:
  - {name: user_card, uri: 'ui://card', entry: card.ts}
resourceTemplates:
  - {uriTemplate: 'a://{id}', name: user card}
prompts:
  - {name: get_user_output_addr_input, messages: [{role: user, content: {type: text, text: hi}}]}
  - {name: GetUserOutputAddrInput, messages: [{role: user, content: {type: text, text: hi}}]}
`;

describe("modelProblems", () => {
  it("on a valid manifest, finds what buildModel finds: the same clashes (each at the same declaration) and the same missing files", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "mcpgen-model-problems-"));
    const built = await buildOf(CLASHES, dir);
    expect(built.model).toBeUndefined();
    expect(built.diagnostics.filter((d) => d.includes("identifier-collision"))).toHaveLength(8);
    expect(built.diagnostics).toContain(
      'm.yaml:11:89: error identifier-collision: tool "get-user" local $defs entry "Addr" and def "GetUserOutputAddr" (line 5) both become the TypeScript type name GetUserOutputAddr; rename one of them',
    );
    // The files are read as the builders go, the clashes follow the claims: the order differs, the set does not.
    expect((await problemsOf(CLASHES, dir)).sort()).toEqual([...built.diagnostics].sort());
  });

  it("with the files there, only the clashes; a declaration without a readable name, or repeating one, is skipped", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "mcpgen-model-problems-"));
    writeFileSync(path.join(dir, "a.txt"), "a");
    const text = `server: {name: 7}\ntools:\n  - {name: a_b, inputSchema: 3}\n  - {name: a_b}\n  - {inputSchema: {type: object}}\n  - {name: a-b}\nresources:\n  - {uri: 'a://1', name: x, file: a.txt}\n`;
    expect(await problemsOf(text, dir)).toEqual([
      'm.yaml:6:12: error identifier-collision: tool "a-b" (its input type) and tool "a_b" (its input type) (line 3) both become the TypeScript type name ABInput; rename one of them',
      'm.yaml:6:12: error identifier-collision: tool "a-b" and tool "a_b" (line 3) both become the client method name aB; rename one of them',
    ]);
  });

  it("finds nothing in a manifest that is not a mapping", async () => {
    expect(await problemsOf("- a\n")).toEqual([]);
  });
});
