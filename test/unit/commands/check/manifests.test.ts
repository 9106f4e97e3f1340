/** `check --manifests` learns from a pulled manifest's header which client capabilities its lists were shown to. */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadDefinitions } from "../../../../src/commands/check/manifests.js";
import { pulledClientCapabilities } from "../../../../src/generator/load/loadManifest.js";

const dir = mkdtempSync(path.join(tmpdir(), "mcpgen-check-manifests-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const body = (name: string) => `server:\n  name: ${name}\n  version: 1.0.0\ntools:\n  - name: echo\n    inputSchema:\n      type: object\n`;
const pulledHeader = (capabilities: string | undefined) =>
  [
    "# Pulled by mcpgen from `node server.js` (MCP 2025-11-25).",
    "# Update it with: mcpgen pull -o x.yaml -- node server.js",
    ...(capabilities === undefined
      ? []
      : [`# Listed to a client declaring the capabilities ${capabilities} (a server may list more to a client that declares more).`]),
    "# Written by mcpgen pull: edit the server, not this file (mcpgen pull --check tells when they differ).",
    "",
  ].join("\n");

describe("pulledClientCapabilities", () => {
  it.each([
    ["a manifest written by hand", body("mine"), undefined],
    ["a pulled manifest that says them", pulledHeader('{"roots":{},"sampling":{}}') + body("a"), { roots: {}, sampling: {} }],
    ["one pulled before the header said them (pull declared none)", pulledHeader(undefined) + body("a"), {}],
    ["one whose line was edited into something else", pulledHeader("[1, 2]") + body("a"), {}],
  ])("%s", (_, text, want) => expect(pulledClientCapabilities(text)).toEqual(want));
});

describe("loadDefinitions", () => {
  const write = (name: string, text: string) => {
    const file = path.join(dir, `${name}.yaml`);
    writeFileSync(file, text);
    return file;
  };
  const a = write("a", pulledHeader('{"roots":{},"sampling":{}}') + body("pulled-a"));
  const b = write("b", pulledHeader('{"roots":{}}') + body("pulled-b"));
  const mine = write("mine", body("mine"));

  it("gives the capabilities every pulled manifest was listed to", async () => {
    const loaded = await loadDefinitions([a, b], dir);
    expect(loaded.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    expect(loaded.definitions.map((d) => d.tools.map((t) => t.name))).toEqual([["echo"], ["echo"]]);
    expect(loaded.pulledWith).toEqual({ roots: {} });
  });

  it("gives none when a manifest was written by hand: the manifests are then the truth", async () => {
    expect((await loadDefinitions([a, mine], dir)).pulledWith).toBeUndefined();
  });
});
