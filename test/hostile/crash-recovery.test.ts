/**
 * A `generate` killed part-way (SIGKILL at the write's exact points, through the test hook
 * MCPGEN_TEST_KILL_AT in src/generator/write/write.ts) loses nothing: the next run restores the
 * last complete output with the user's files in it, removes what the killed run left, and refuses
 * to touch anything while another run is alive. `generate --check` only reports.
 */
import { spawn, spawnSync } from "node:child_process";
import { once } from "node:events";
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, symlinkSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "../helpers/cli.js";
import { tempProject } from "../helpers/tmp.js";
import { GIFT_WITHOUT_WIDGET } from "../helpers/manifests.js";

const BIN = path.join(ROOT, "dist/cli/bin.js");
const GIFT = GIFT_WITHOUT_WIDGET;
const NOTES = readFileSync(path.join(ROOT, "manifests/notes-server.yaml"), "utf8");
const ARGS = ["generate", "--manifests", "m", "--out", "out", "--stubs", "handlers"];
/** Bytes no text round trip keeps: the user's file must come back exactly. */
const MINE = Buffer.from([0x00, 0xff, 0xfe, 0x0a, 0x0d, 0x0a, 0xe2, 0x80, 0xa8, 0x41]);

/** The built CLI, with the kill point set or not; the signal that ended it, and its pid. */
function mcpgen(dir: string, killAt?: string, args = ARGS) {
  const env = { ...process.env };
  delete env.MCPGEN_TEST_KILL_AT;
  if (killAt) env.MCPGEN_TEST_KILL_AT = killAt;
  const r = spawnSync(process.execPath, [BIN, ...args], { cwd: dir, encoding: "utf8", env });
  return { code: r.status, signal: r.signal, pid: r.pid, stdout: r.stdout, stderr: r.stderr };
}

function project(): string {
  const dir = tempProject({
    "package.json": "{}",
    "m/gift.yaml": GIFT,
    "m/notes.yaml": NOTES,
    "m/notes-readme.md": readFileSync(path.join(ROOT, "manifests/notes-readme.md"), "utf8"),
  });
  expect(mcpgen(dir).code).toBe(0);
  return dir;
}

/** Every path under `dir` (hidden ones included) with its bytes, or a link's target. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const name of readdirSync(d).sort()) {
      const abs = path.join(d, name);
      const info = lstatSync(abs);
      if (info.isDirectory()) walk(abs);
      else out[path.relative(dir, abs)] = info.isSymbolicLink() ? `-> ${readlinkSync(abs)}` : readFileSync(abs, "latin1");
    }
  };
  walk(dir);
  return out;
}

/** Paths under `dir` whose name holds `.mcpgen-` (the write's temporary names). */
function leftovers(dir: string): string[] {
  const found: string[] = [];
  const walk = (d: string) => {
    for (const entry of readdirSync(d, { withFileTypes: true })) {
      const abs = path.join(d, entry.name);
      if (entry.name.includes(".mcpgen-")) found.push(path.relative(dir, abs));
      if (entry.isDirectory() && !entry.isSymbolicLink()) walk(abs);
    }
  };
  walk(dir);
  return found.sort();
}

/** The pid of a process that has exited. */
function deadPid(): number {
  const r = spawnSync(process.execPath, ["-e", ""]);
  return r.pid;
}

const retitle = (dir: string) => writeFileSync(path.join(dir, "m/gift.yaml"), GIFT.replace("Gift ideas generator", "Gift finder"));
const definition = (dir: string) => readFileSync(path.join(dir, "out/gift-server/definition.ts"), "utf8");

describe("generate killed part-way", () => {
  it("between the two renames: the next run restores the folder with the user's files and writes the new content", () => {
    const dir = project();
    writeFileSync(path.join(dir, "out/gift-server/MINE.bin"), MINE);
    mkdirSync(path.join(dir, "out/gift-server/notes/deep"), { recursive: true });
    writeFileSync(path.join(dir, "out/gift-server/notes/deep/todo.md"), "mine\n");
    retitle(dir);

    const killed = mcpgen(dir, "between-renames");
    expect(killed.signal).toBe("SIGKILL");
    // The test hit the point: the folder stepped aside, the new one built, neither in its place.
    expect(existsSync(path.join(dir, "out/gift-server"))).toBe(false);
    expect(leftovers(dir)).toEqual([`out/.gift-server.mcpgen-new-${killed.pid}`, `out/.gift-server.mcpgen-old-${killed.pid}`]);

    // A check reports and writes nothing.
    const before = snapshot(dir);
    const check = mcpgen(dir, undefined, [...ARGS, "--check"]);
    expect(check.code).toBe(1);
    expect(check.stderr).toBe(
      `mcpgen: out/: error write-failed: an interrupted run (pid ${killed.pid}) left its writing unfinished: run mcpgen generate to restore out/gift-server from out/.gift-server.mcpgen-old-${killed.pid} and remove out/.gift-server.mcpgen-new-${killed.pid} (--check writes nothing)\n`,
    );
    expect(snapshot(dir)).toEqual(before);

    const again = mcpgen(dir);
    expect(again.code).toBe(0);
    expect(again.stderr).toBe(
      `mcpgen: out/: warning interrupted-run: recovered from an interrupted run (pid ${killed.pid}): restored out/gift-server from out/.gift-server.mcpgen-old-${killed.pid} and removed out/.gift-server.mcpgen-new-${killed.pid}\n`,
    );
    expect(definition(dir)).toContain("Gift finder");
    expect(readFileSync(path.join(dir, "out/gift-server/MINE.bin")).equals(MINE)).toBe(true);
    expect(readFileSync(path.join(dir, "out/gift-server/notes/deep/todo.md"), "utf8")).toBe("mine\n");
    expect(leftovers(dir)).toEqual([]);
    expect(mcpgen(dir, undefined, [...ARGS, "--check"]).code).toBe(0);
  });

  it("between the two renames, then a broken manifest: the last complete output is restored all the same, nothing else written", () => {
    const dir = project();
    writeFileSync(path.join(dir, "out/gift-server/MINE.bin"), MINE);
    const complete = snapshot(path.join(dir, "out"));
    retitle(dir);
    expect(mcpgen(dir, "between-renames").signal).toBe("SIGKILL");
    writeFileSync(path.join(dir, "m/gift.yaml"), GIFT.replace("version: 1.0.0", "version: [1]"));

    const again = mcpgen(dir);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/^mcpgen: out\/: warning interrupted-run: recovered from an interrupted run \(pid \d+\): restored out\/gift-server from /);
    expect(again.stderr).toContain("error invalid-type");
    expect(snapshot(path.join(dir, "out"))).toEqual(complete);
  });

  it("after building, before any swap: the stale built folder is removed", () => {
    const dir = project();
    retitle(dir);
    const killed = mcpgen(dir, "built");
    expect(killed.signal).toBe("SIGKILL");
    expect(definition(dir)).toContain("Gift ideas generator");
    expect(leftovers(dir)).toEqual([`out/.gift-server.mcpgen-new-${killed.pid}`]);

    const again = mcpgen(dir);
    expect(again.code).toBe(0);
    expect(again.stderr).toBe(
      `mcpgen: out/: warning interrupted-run: recovered from an interrupted run (pid ${killed.pid}): removed out/.gift-server.mcpgen-new-${killed.pid}\n`,
    );
    expect(definition(dir)).toContain("Gift finder");
    expect(leftovers(dir)).toEqual([]);
  });

  it("with a stub written aside: the temporary stub file is removed and the stub created", () => {
    const dir = project();
    writeFileSync(path.join(dir, "m/gift.yaml"), GIFT.replace("tools:\n", "tools:\n  - name: wrap_gift\n    inputSchema: {type: object}\n"));
    const killed = mcpgen(dir, "stub-written");
    expect(killed.signal).toBe("SIGKILL");
    const temp = `handlers/gift-server/tools/wrapGift.ts.mcpgen-${killed.pid}.tmp`;
    expect(leftovers(dir)).toEqual([temp]);
    expect(existsSync(path.join(dir, "handlers/gift-server/tools/wrapGift.ts"))).toBe(false);

    const again = mcpgen(dir);
    expect(again.code).toBe(0);
    expect(again.stderr).toBe(`mcpgen: out/: warning interrupted-run: recovered from an interrupted run (pid ${killed.pid}): removed ${temp}\n`);
    expect(readFileSync(path.join(dir, "handlers/gift-server/tools/wrapGift.ts"), "utf8")).toContain('export const wrapGift: ToolHandler<"wrap_gift">');
    expect(leftovers(dir)).toEqual([]);
  });

  it("an old folder beside a complete swap: what of the user's the new folder lacks is moved in, generated files are not", () => {
    const dir = project();
    const pid = deadPid();
    // As if the user saved a file in the folder after the build had read it, and the run was
    // killed before it removed the old folder.
    const old = path.join(dir, `out/.gift-server.mcpgen-old-${pid}`);
    mkdirSync(path.join(old, "fixtures"), { recursive: true });
    writeFileSync(path.join(old, "late.md"), "saved late\n");
    writeFileSync(path.join(old, "gone.ts"), "// @generated by mcpgen 0.1.0 from m/gift.yaml. Do not edit: regenerate with `mcpgen generate`.\n");
    writeFileSync(path.join(old, "fixtures/tools-list.json"), "{}");
    const before = snapshot(path.join(dir, "out/gift-server"));

    const again = mcpgen(dir);
    expect(again.code).toBe(0);
    expect(again.stderr).toBe(
      `mcpgen: out/: warning interrupted-run: recovered from an interrupted run (pid ${pid}): moved 1 file of yours from out/.gift-server.mcpgen-old-${pid} back into out/gift-server and removed out/.gift-server.mcpgen-old-${pid}\n`,
    );
    expect(snapshot(path.join(dir, "out/gift-server"))).toEqual({ ...before, "late.md": "saved late\n" });
    expect(leftovers(dir)).toEqual([]);
  });

  it("a hidden folder that only looks like a leftover of `..` is left alone, nothing moved out of out/", () => {
    const dir = project();
    const odd = path.join(dir, `out/....mcpgen-old-${deadPid()}`);
    mkdirSync(odd);
    writeFileSync(path.join(odd, "x.md"), "x");
    const again = mcpgen(dir);
    expect(again.code).toBe(0);
    expect(again.stderr).toBe("");
    expect(existsSync(path.join(dir, "x.md"))).toBe(false);
    expect(readFileSync(path.join(odd, "x.md"), "utf8")).toBe("x");
  });

  it("a leftover of a live process: refused, naming the pid, nothing written (check too)", async () => {
    const dir = project();
    const other = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { stdio: "ignore" });
    try {
      await once(other, "spawn");
      mkdirSync(path.join(dir, `out/.gift-server.mcpgen-new-${other.pid}`));
      writeFileSync(path.join(dir, `out/.gift-server.mcpgen-new-${other.pid}/types.ts`), "// half written");
      retitle(dir);
      const before = snapshot(dir);
      for (const args of [ARGS, [...ARGS, "--check"]]) {
        const refused = mcpgen(dir, undefined, args);
        expect(refused.code).toBe(1);
        expect(refused.stderr).toBe(
          `mcpgen: out/: error write-failed: another mcpgen run (pid ${other.pid}) is writing out/ (it left out/.gift-server.mcpgen-new-${other.pid}); nothing written: run again when it has finished\n`,
        );
        expect(snapshot(dir)).toEqual(before);
      }
    } finally {
      other.kill("SIGKILL");
    }
    await once(other, "exit");
    // Gone, it is a stale leftover like any other.
    const again = mcpgen(dir);
    expect(again.code).toBe(0);
    expect(definition(dir)).toContain("Gift finder");
    expect(leftovers(dir)).toEqual([]);
  });

  it("keeps a symbolic link of the user's in the folder across a regeneration", () => {
    const dir = project();
    symlinkSync("../../m/notes-readme.md", path.join(dir, "out/gift-server/readme.md"));
    retitle(dir);
    expect(mcpgen(dir).code).toBe(0);
    expect(readlinkSync(path.join(dir, "out/gift-server/readme.md"))).toBe("../../m/notes-readme.md");
  });
});
