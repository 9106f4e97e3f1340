/**
 * Incremental generate: a manifest is skipped only when nothing it depends on changed, and every
 * kind of change brings it back.
 */
import { mkdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it, vi } from "vitest";
import { RunRecords, stampOf } from "../src/generator/runRecords.js";
import { runPipeline, type PipelineOptions } from "../src/generator/pipeline.js";
import { tempProject } from "./helpers/tmp.js";
import { GIFT_WITHOUT_WIDGET } from "./helpers/manifests.js";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const NOTES = readFileSync(path.join(ROOT, "manifests/notes-server.yaml"), "utf8");
const GIFT = GIFT_WITHOUT_WIDGET;

function project() {
  const dir = tempProject({ "package.json": "{}", "m/notes.yaml": NOTES, "m/gift.yaml": GIFT, "m/notes-readme.md": "# readme\n" });
  mkdirSync(path.join(dir, "node_modules"), { recursive: true });
  const run = (extra: Partial<PipelineOptions> = {}) => runPipeline({ manifests: ["m"], out: "out", stubs: "handlers", cwd: dir, mode: "write", ...extra });
  const reused = async (extra: Partial<PipelineOptions> = {}) => (await run(extra)).reused.map((r) => r.server).sort();
  return { dir, run, reused };
}

describe("incremental generate", () => {
  it("skips unchanged manifests and writes nothing", async () => {
    const p = project();
    expect((await p.run()).reused).toEqual([]);
    const types = path.join(p.dir, "out/notes-server/types.ts");
    const mtime = statSync(types).mtimeMs;
    const second = await p.run();
    expect(second.reused.map((r) => r.server).sort()).toEqual(["gift-server", "notes-server"]);
    expect(second.models).toEqual([]);
    expect(second.plan!.changes).toEqual([]);
    expect(statSync(types).mtimeMs).toBe(mtime);
  });

  it("processes again a manifest whose text, file: resource, output or stub changed", async () => {
    const p = project();
    await p.run();
    writeFileSync(path.join(p.dir, "m/gift.yaml"), GIFT.replace("Gift ideas generator", "Gift finder"));
    expect(await p.reused()).toEqual(["notes-server"]);

    writeFileSync(path.join(p.dir, "m/notes-readme.md"), "# changed\n");
    expect(await p.reused()).toEqual(["gift-server"]);
    expect(readFileSync(path.join(p.dir, "out/notes-server/definition.ts"), "utf8")).toContain("# changed");

    const fixture = path.join(p.dir, "out/gift-server/fixtures/tools-list.json");
    const good = readFileSync(fixture, "utf8");
    writeFileSync(fixture, "{}\n");
    expect(await p.reused()).toEqual(["notes-server"]);
    expect(readFileSync(fixture, "utf8")).toBe(good);

    rmSync(path.join(p.dir, "handlers/notes-server/tools/searchNotes.ts"));
    expect(await p.reused()).toEqual(["gift-server"]);
    expect(statSync(path.join(p.dir, "handlers/notes-server/tools/searchNotes.ts")).isFile()).toBe(true);
  });

  it("skips reading a manifest only when size, inode, mtime and ctime are as recorded, and not racily so", () => {
    const dir = tempProject({});
    const records = RunRecords.open(dir, "scope", {});
    const info = { size: 10, ino: 7, mtimeMs: 1_000_000, ctimeMs: 1_000_000 };
    records.record(path.join(dir, "m.yaml"), "h1", stampOf(info, 1_000_000 + 5000), "s", [], dir, []);
    expect(records.knownHash(path.join(dir, "m.yaml"), info)).toBe("h1");
    for (const changed of [{ size: 11 }, { ino: 8 }, { mtimeMs: 1_000_001 }, { ctimeMs: 1_000_001 }]) {
      expect(records.knownHash(path.join(dir, "m.yaml"), { ...info, ...changed })).toBeUndefined();
    }
    expect(records.knownHash(path.join(dir, "other.yaml"), info)).toBeUndefined();
    // Changed within 2 s before it was read: the same timestamps may hide a later change.
    records.restamp(path.join(dir, "m.yaml"), stampOf(info, 1_000_000 + 1500));
    expect(records.knownHash(path.join(dir, "m.yaml"), info)).toBeUndefined();
  });

  it("sees a same-size edit whose mtime was set back (the ctime tells)", async () => {
    const p = project();
    const gift = path.join(p.dir, "m/gift.yaml");
    // A whole-second mtime, so that setting it back below is exact.
    const second = Math.floor(Date.now() / 1000) - 10;
    utimesSync(gift, second, second);
    // Runs "later" than the files were written, so their stamps are trusted next time.
    const now = vi.spyOn(Date, "now").mockReturnValue(Date.now() + 60_000);
    try {
      await p.run();
      expect(await p.reused()).toEqual(["gift-server", "notes-server"]);
      const edited = GIFT.replace("Gift ideas generator", "Gift ideas generatoR");
      expect(edited.length).toBe(GIFT.length);
      writeFileSync(gift, edited);
      utimesSync(gift, second, second);
      expect(statSync(gift).mtimeMs).toBe(second * 1000);
      expect(await p.reused()).toEqual(["notes-server"]);
      expect(readFileSync(path.join(p.dir, "out/gift-server/definition.ts"), "utf8")).toContain("Gift ideas generatoR");
    } finally {
      now.mockRestore();
    }
  });

  it("processes everything again when the options change, and never reuses with cache: false", async () => {
    const p = project();
    await p.run();
    expect(await p.reused({ header: ["eslint-disable"] })).toEqual([]);
    expect(await p.reused({ header: ["eslint-disable"] })).toEqual(["gift-server", "notes-server"]);
    expect(await p.reused({ header: ["eslint-disable"], cache: false })).toEqual([]);
  });
});
