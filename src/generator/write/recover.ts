/**
 * Recovery from a write killed part-way (kill -9, power loss): what write.ts leaves in that
 * case (`<out>/.<name>.mcpgen-new-<pid>` and `-old-<pid>` folders, `<stub>.mcpgen-<pid>.tmp` files)
 * is put back in order before the next run plans anything.
 */
import { lstat, mkdir, readdir, readFile, rename, rm } from "node:fs/promises";
import * as path from "node:path";
import { STUB_FOLDERS } from "../model/stubLayout.js";
import { isGenerated, listEntries } from "../plan/plan.js";
import { inWords } from "./write.js";
import { toPosix } from "../../common/paths.js";

/** What an interrupted write left, and what the next run did (or, checking, would do) about it. */
interface Recovery {
  /** Why nothing may be done now (one line): another live run is writing, or recovery failed. */
  refused?: string;
  /** One line: what was recovered, or (dry run) what `generate` would recover. */
  report?: string;
}

/**
 * `<out>/.<name>.mcpgen-(new|old)-<pid>`: a folder built aside, or stepped aside in its swap. A
 * name never starts with a dot, so `....mcpgen-old-1` cannot point recovery at `<out>/..`.
 */
const ASIDE = /^\.([^.][^/\\]*)\.mcpgen-(new|old)-(\d+)$/;
/** `<stub>.ts.mcpgen-<pid>.tmp`: a handler stub written aside before its rename. */
const STUB_TEMP = /\.ts\.mcpgen-(\d+)\.tmp$/;

interface Leftover {
  path: string;
  pid: number;
  kind: "new" | "old" | "stub";
  /** The folder under out it belongs to (new, old). */
  name?: string;
}

/**
 * Puts back what a write killed part-way left, before anything is planned. For each leftover of
 * a process that is gone (or of this one: runs in one process never overlap):
 *
 * - `<name>` missing, an `-old-` there: the swap was cut between its renames; the `-old-` folder
 *   is the last complete output, the user's files with it, and takes its name back.
 * - `<name>` there, an `-old-` beside it: the swap completed (the user's files were linked into
 *   the new folder). Anything of the user's that `<name>` lacks all the same (made there after
 *   the build read the folder) is moved in, then the `-old-` folder goes.
 * - `-new-` folders (a build or swap cut short) and stub temp files go: the plan remakes them.
 *
 * A leftover of another live process means another run is writing: nothing is touched, and
 * `refused` says so. `dryRun` (check) changes nothing and reports what `generate` would do.
 * `stubsDir`: stub temp files are looked for in `<stubs>/<server>/<kind>/`.
 */
export async function recoverOutput(outDir: string, options: { stubsDir?: string; dryRun: boolean; cwd: string }): Promise<Recovery> {
  try {
    return await recover(outDir, options);
  } catch (error) {
    return { refused: `${inWords("cannot recover", error)}; nothing written` };
  }
}

async function recover(outDir: string, options: { stubsDir?: string; dryRun: boolean; cwd: string }): Promise<Recovery> {
  const shown = (abs: string) => toPosix(path.relative(options.cwd, abs)) || abs;
  const leftovers = [...(await asideLeftovers(outDir)), ...(options.stubsDir ? await stubLeftovers(options.stubsDir) : [])];
  if (leftovers.length === 0) return {};
  const busy = leftovers.find((l) => isOtherLiveProcess(l.pid));
  if (busy)
    return {
      refused: `another mcpgen run (pid ${busy.pid}) is writing ${shown(outDir)}/ (it left ${shown(busy.path)}); nothing written: run again when it has finished`,
    };

  const dry = options.dryRun;
  const steps: string[] = [];
  const step = (done: string, todo: string) => steps.push(dry ? todo : done);
  const names = [...new Set(leftovers.flatMap((l) => (l.name === undefined ? [] : [l.name])))];
  for (const name of names) {
    const dir = path.join(outDir, name);
    const mine = leftovers.filter((l) => l.name === name);
    const olds = await newestFirst(mine.filter((l) => l.kind === "old"));
    // Where the folder is (or, in a dry run, would be) once restored.
    let current = dir;
    if (!(await exists(dir)) && olds.length > 0) {
      const last = olds.shift()!;
      if (dry) current = last.path;
      else await rename(last.path, dir);
      step(`restored ${shown(dir)} from ${shown(last.path)}`, `restore ${shown(dir)} from ${shown(last.path)}`);
    }
    for (const old of olds) {
      const moved = await salvage(old.path, current, dry);
      if (!dry) await rm(old.path, { recursive: true, force: true });
      const files = `${moved} file${moved === 1 ? "" : "s"} of yours`;
      if (moved > 0) step(`moved ${files} from ${shown(old.path)} back into ${shown(dir)}`, `move ${files} from ${shown(old.path)} back into ${shown(dir)}`);
      step(`removed ${shown(old.path)}`, `remove ${shown(old.path)}`);
    }
    for (const built of mine.filter((l) => l.kind === "new")) {
      if (!dry) await rm(built.path, { recursive: true, force: true });
      step(`removed ${shown(built.path)}`, `remove ${shown(built.path)}`);
    }
  }
  for (const temp of leftovers.filter((l) => l.kind === "stub")) {
    if (!dry) await rm(temp.path, { force: true });
    step(`removed ${shown(temp.path)}`, `remove ${shown(temp.path)}`);
  }
  const pids = [...new Set(leftovers.map((l) => l.pid))];
  const who = `an interrupted run (pid${pids.length === 1 ? "" : "s"} ${pids.join(", ")})`;
  return {
    report: dry
      ? `${who} left its writing unfinished: run mcpgen generate to ${series(steps)} (--check writes nothing)`
      : `recovered from ${who}: ${series(steps)}`,
  };
}

/** `a`, `a and b`, `a, b and c`. */
function series(items: readonly string[]): string {
  return items.length < 2 ? items.join("") : `${items.slice(0, -1).join(", ")} and ${items.at(-1)!}`;
}

async function asideLeftovers(outDir: string): Promise<Leftover[]> {
  const out: Leftover[] = [];
  for (const entry of await readdir(outDir, { withFileTypes: true }).catch(() => [])) {
    const m = ASIDE.exec(entry.name);
    if (m && entry.isDirectory()) out.push({ path: path.join(outDir, entry.name), pid: Number(m[3]), kind: m[2] as "new" | "old", name: m[1]! });
  }
  return out.sort((a, b) => (a.path < b.path ? -1 : 1));
}

async function stubLeftovers(stubsDir: string): Promise<Leftover[]> {
  const out: Leftover[] = [];
  for (const server of await readdir(stubsDir, { withFileTypes: true }).catch(() => [])) {
    if (!server.isDirectory()) continue;
    for (const folder of STUB_FOLDERS) {
      const dir = path.join(stubsDir, server.name, folder);
      for (const entry of await readdir(dir, { withFileTypes: true }).catch(() => [])) {
        const m = STUB_TEMP.exec(entry.name);
        if (m && entry.isFile()) out.push({ path: path.join(dir, entry.name), pid: Number(m[1]), kind: "stub" });
      }
    }
  }
  return out.sort((a, b) => (a.path < b.path ? -1 : 1));
}

/** True when `pid` is a running process other than this one (EPERM: running, as another user). */
function isOtherLiveProcess(pid: number): boolean {
  if (pid === process.pid || !Number.isSafeInteger(pid) || pid < 1) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Most recently stepped aside first (a rename sets the folder's ctime). */
async function newestFirst(list: Leftover[]): Promise<Leftover[]> {
  const timed = await Promise.all(list.map(async (l) => ({ l, t: (await lstat(l.path)).ctimeMs })));
  return timed.sort((a, b) => b.t - a.t || b.l.pid - a.l.pid).map(({ l }) => l);
}

async function exists(file: string): Promise<boolean> {
  return lstat(file).then(
    () => true,
    (error: NodeJS.ErrnoException) => {
      if (error.code === "ENOENT") return false;
      throw error;
    },
  );
}

/**
 * Moves into `dir` what `old` holds that `dir` lacks, except files mcpgen generated (those that
 * are no longer generated went with the old folder on purpose); returns how many. `dryRun`: only
 * counts.
 */
async function salvage(old: string, dir: string, dryRun: boolean): Promise<number> {
  let moved = 0;
  for (const [rel, kind] of await listEntries(old)) {
    const target = path.join(dir, rel);
    if (await exists(target)) continue;
    if (kind === "file" && isGenerated(rel, await readFile(path.join(old, rel), "utf8"))) continue;
    if (kind !== "folder") moved++;
    if (dryRun) continue;
    await mkdir(path.dirname(target), { recursive: true });
    await rename(path.join(old, rel), target);
  }
  return moved;
}
