/**
 * The write stage: applies a plan, putting each server's files under `<out>/<server>/`.
 *
 * Nothing is lost: a server folder that changes is rebuilt whole in a temporary folder next to
 * it, `<out>/.<name>.mcpgen-new-<pid>` (unchanged files and files mcpgen did not write are
 * hard-linked, so their bytes and mtimes stay; the user's symbolic links and empty folders are
 * made again), then swapped in with two renames through `<out>/.<name>.mcpgen-old-<pid>`. A
 * failure before the swaps leaves every previous folder as it was; a folder with no change is not
 * touched at all. A process killed part-way leaves those hidden folders (and stub temp files):
 * `recoverOutput` (recover.ts), run before the next plan, puts the last complete output back.
 */
import { copyFile, link, mkdir, readdir, readFile, readlink, rename, rm, symlink, writeFile } from "node:fs/promises";
import * as path from "node:path";
import type { OutputFile } from "../emit/index.js";
import { isGenerated, listEntries, type Change, type WritePlan } from "../plan/plan.js";

/**
 * Applies a plan: each file is written to a temporary name and renamed into place. A file system
 * error (a folder that is a file, no permission, a full disk) is returned in words, not thrown.
 */
export async function applyPlan(plan: WritePlan): Promise<string | undefined> {
  try {
    await applyChanges(plan);
    return undefined;
  } catch (error) {
    // Name the folder the user knows, not the temporary one mcpgen was building.
    return inWords("cannot write", error, (where) => where.replace(/[\\/]\.([^\\/]+)\.mcpgen-(?:new|old)-\d+/, (_, name: string) => `${path.sep}${name}`));
  }
}

/** A file system error as one line: `cannot write out/x: EACCES (permission denied)`. */
export function inWords(what: string, error: unknown, place: (where: string) => string = (where) => where): string {
  const e = error as NodeJS.ErrnoException;
  const why = (e.message ?? "").replace(/^[A-Z]+: /, "").replace(/, \w+ '.*'$/, "");
  return `${what} ${place(e.path ?? "the output")}: ${e.code ?? "error"} (${why})`;
}

/**
 * Test hook: with `MCPGEN_TEST_KILL_AT=<point>` in the environment, the process SIGKILLs itself
 * at that point of a write, so tests can leave exactly what a crash there leaves. Points: `built`
 * (every changed folder built aside, none swapped), `between-renames` (a folder stepped aside,
 * the new one not yet in its place), `stub-written` (a stub written aside, not yet renamed).
 * Does nothing unless set; not for users.
 */
function killPointForTests(point: "built" | "between-renames" | "stub-written"): void {
  if (process.env.MCPGEN_TEST_KILL_AT === point) process.kill(process.pid, "SIGKILL");
}

/** Where a folder is built (`new`) or steps aside during its swap (`old`), next to it. */
function asidePath(dir: string, kind: "new" | "old"): string {
  return path.join(path.dirname(dir), `.${path.basename(dir)}.mcpgen-${kind}-${process.pid}`);
}

async function applyChanges(plan: WritePlan): Promise<void> {
  const changedDirs = new Set<string>();
  const loose: Change[] = [];
  for (const change of plan.changes) {
    const folder = plan.folders.find((f) => change.file.startsWith(f.dir + path.sep));
    if (folder) changedDirs.add(folder.dir);
    else loose.push(change);
  }
  // 1. Build every changed folder aside; any failure here leaves the output as it was.
  // The folders are built concurrently (the writes wait on the disk, not on each other).
  const built = plan.folders.filter((folder) => changedDirs.has(folder.dir)).map((folder) => ({ folder, dir: folder.dir, temp: asidePath(folder.dir, "new") }));
  const outcomes = await Promise.allSettled(built.map(({ folder, temp }) => buildFolder(folder.dir, temp, folder.files, folder.same)));
  const failure = outcomes.find((o): o is PromiseRejectedResult => o.status === "rejected");
  if (failure) {
    for (const { temp } of built) await rm(temp, { recursive: true, force: true });
    throw failure.reason;
  }
  killPointForTests("built");
  // 2. Swap each in: the old folder steps aside, the new one takes its name, the old one goes.
  for (const [i, { dir, temp }] of built.entries()) {
    const old = asidePath(dir, "old");
    try {
      const hadOld = await rename(dir, old).then(
        () => true,
        (error: NodeJS.ErrnoException) => {
          if (error.code === "ENOENT") return false;
          throw error;
        },
      );
      killPointForTests("between-renames");
      try {
        // A folder left with nothing (the copied runtime once the output imports the package) goes.
        if ((await readdir(temp)).length === 0) await rm(temp, { recursive: true });
        else await rename(temp, dir);
      } catch (error) {
        // The previous folder goes back under its name; if even that fails, the next run's
        // recovery restores it from `old`.
        if (hadOld) await rename(old, dir).catch(() => {});
        throw error;
      }
      if (hadOld) await rm(old, { recursive: true, force: true });
    } catch (error) {
      for (const rest of built.slice(i)) await rm(rest.temp, { recursive: true, force: true });
      throw error;
    }
  }
  // 3. Files outside the output folders (handler stubs): each written aside and renamed.
  for (const change of loose) {
    if (change.kind === "delete") continue;
    await mkdir(path.dirname(change.file), { recursive: true });
    const temp = `${change.file}.mcpgen-${process.pid}.tmp`;
    await writeFile(temp, change.after, "utf8");
    killPointForTests("stub-written");
    await rename(temp, change.file);
  }
}

/**
 * `temp` = the wanted files, plus whatever in `dir` mcpgen did not write (kept as is: files
 * linked, symbolic links and empty folders made again). `same`: files the plan found identical
 * on disk, linked instead of written.
 */
async function buildFolder(dir: string, temp: string, files: readonly OutputFile[], same: ReadonlySet<string>): Promise<void> {
  await rm(temp, { recursive: true, force: true });
  await mkdir(temp, { recursive: true });
  const existing = await listEntries(dir);
  const wanted = new Map(files.map((f) => [f.path, f.content]));
  for (const sub of new Set([...wanted.keys()].map((rel) => path.dirname(path.join(temp, rel))))) await mkdir(sub, { recursive: true });
  // All settle before a failure is thrown, so the caller's cleanup never races a pending write.
  const writes = await Promise.allSettled(
    [...wanted].map(([rel, content]) => (same.has(rel) ? keep(path.join(dir, rel), path.join(temp, rel)) : writeFile(path.join(temp, rel), content, "utf8"))),
  );
  const failed = writes.find((w): w is PromiseRejectedResult => w.status === "rejected");
  if (failed) throw failed.reason;
  for (const [rel, kind] of existing) {
    if (wanted.has(rel)) continue;
    const from = path.join(dir, rel);
    const target = path.join(temp, rel);
    if (kind === "folder") {
      await mkdir(target, { recursive: true });
      continue;
    }
    if (kind === "file" && isGenerated(rel, await readFile(from, "utf8"))) continue; // no longer generated: dropped with the old folder
    await mkdir(path.dirname(target), { recursive: true });
    if (kind === "file") await keep(from, target);
    else await symlink(await readlink(from), target);
  }
}

/** The same file under a second name (a hard link keeps bytes, mtime and inode), else a copy. */
async function keep(from: string, to: string): Promise<void> {
  try {
    await link(from, to);
  } catch {
    await copyFile(from, to);
  }
}
