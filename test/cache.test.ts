/** The parse cache: same output from cached manifests, lazy positions, and a corrupt cache ignored. */
import { readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it, vi } from "vitest";
import { formatDiagnostic } from "../src/common/diagnostics.js";
import { runPipeline } from "../src/generator/pipeline.js";
import { ParseCache } from "../src/generator/load/parseCache.js";
import { tempProject } from "./helpers/tmp.js";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const PLAIN = readFileSync(path.join(ROOT, "manifests/notes-server.yaml"), "utf8");
// An anchor (unused, so the value is the same) sends the text to the full parser, whose results
// are what the cache holds.
const NOTES = PLAIN.replace("  description: Keeps short notes in folders.", "  description: &about Keeps short notes in folders.");
const README = readFileSync(path.join(ROOT, "manifests/notes-readme.md"), "utf8");

function project(text = NOTES) {
  return tempProject({ "package.json": "{}", "m/notes.yaml": text, "m/notes-readme.md": README });
}
const cacheDir = (dir: string) => path.join(dir, "node_modules/.cache/mcpgen/parsed");

describe("parse cache", () => {
  it("stores a valid manifest once and serves it next time, with byte-identical output", async () => {
    const dir = project();
    const first = await runPipeline({ manifests: ["m"], out: "out", cwd: dir, mode: "write" });
    expect(first.diagnostics).toEqual([]);
    expect(readdirSync(cacheDir(dir))).toHaveLength(1);
    const cold = readFileSync(path.join(dir, "out/notes-server/definition.ts"), "utf8");
    const get = vi.spyOn(ParseCache.prototype, "get");
    // A touched output folder makes the run process the manifest again: its text is unchanged,
    // so the parse comes from the cache.
    rmSync(path.join(dir, "out/notes-server/index.ts"));
    try {
      const second = await runPipeline({ manifests: ["m"], out: "out", cwd: dir, mode: "check" });
      expect(second.plan!.changes.map((c) => c.display)).toEqual(["out/notes-server/index.ts"]);
      expect(get.mock.results.map((r) => r.value === undefined)).toEqual([false]);
    } finally {
      get.mockRestore();
    }
    const body = (text: string) => text.slice(text.indexOf("\n"));
    expect(body(cold)).toBe(body(readFileSync(path.join(ROOT, "generated/notes-server/definition.ts"), "utf8")));
  });

  it("does not store a manifest the fast parser reads (no anchors, tags or merge keys)", async () => {
    expect(NOTES).not.toBe(PLAIN);
    const dir = project(PLAIN);
    const result = await runPipeline({ manifests: ["m"], out: "out", cwd: dir, mode: "write" });
    expect(result.diagnostics).toEqual([]);
    expect(() => readdirSync(cacheDir(dir))).toThrow();
  });

  it("locates diagnostics in a cached manifest by parsing it again", async () => {
    const dir = project();
    await runPipeline({ manifests: ["m"], out: "out", cwd: dir, mode: "write" });
    rmSync(path.join(dir, "m/notes-readme.md"));
    const result = await runPipeline({ manifests: ["m"], out: "out", cwd: dir, mode: "write" });
    expect(result.diagnostics.map(formatDiagnostic)).toEqual([
      'm/notes.yaml:97:11: error file-content: file "notes-readme.md" does not exist (paths are relative to the manifest\'s folder)',
    ]);
  });

  it("ignores a corrupt cache entry, and is skipped with cache: false", async () => {
    const dir = project();
    await runPipeline({ manifests: ["m"], out: "out", cwd: dir, mode: "write" });
    const [entry] = readdirSync(cacheDir(dir));
    writeFileSync(path.join(cacheDir(dir), entry!), "{not json");
    const result = await runPipeline({ manifests: ["m"], out: "out", cwd: dir, mode: "check" });
    expect(result.diagnostics).toEqual([]);
    expect(result.plan!.changes).toEqual([]);
    rmSync(cacheDir(dir), { recursive: true });
    await runPipeline({ manifests: ["m"], out: "out", cwd: dir, mode: "check", cache: false });
    expect(() => readdirSync(cacheDir(dir))).toThrow();
  });
});
