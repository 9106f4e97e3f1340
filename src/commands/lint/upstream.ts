/**
 * Warnings in a pulled manifest (one `mcpgen pull` wrote) are about a server someone else owns:
 * its consumer cannot fix them there, so each such manifest gets one line saying where they come
 * from and how to quiet them.
 */
import { closeSync, openSync, readSync } from "node:fs";
import * as path from "node:path";
import type { Diagnostic } from "../../common/diagnostics.js";
import { PULLED_MARK } from "../../generator/load/loadManifest.js";

/** True when the file at `absPath` starts with the pulled mark (only its first bytes are read). */
function isPulled(absPath: string): boolean {
  let fd: number | undefined;
  try {
    fd = openSync(absPath, "r");
    const head = Buffer.alloc(Buffer.byteLength(PULLED_MARK));
    const n = readSync(fd, head, 0, head.length, 0);
    return head.subarray(0, n).toString("utf8") === PULLED_MARK;
  } catch {
    return false;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * One line per pulled manifest among the warnings' files: how many warnings it has, that they are
 * the upstream server's, and the config entry that turns its codes off (`cwd`: what the files are
 * relative to, where the config usually is).
 */
export function upstreamNotes(warnings: readonly Diagnostic[], cwd: string): string[] {
  const byFile = new Map<string, Set<string>>();
  const counts = new Map<string, number>();
  for (const d of warnings) {
    if (d.severity !== "warning") continue;
    byFile.set(d.file, (byFile.get(d.file) ?? new Set()).add(d.code));
    counts.set(d.file, (counts.get(d.file) ?? 0) + 1);
  }
  const notes: string[] = [];
  for (const [file, codes] of [...byFile].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    if (!isPulled(path.resolve(cwd, file))) continue;
    const n = counts.get(file)!;
    const entry = JSON.stringify({ [file]: Object.fromEntries([...codes].sort().map((c) => [c, "off"])) });
    notes.push(
      `mcpgen: ${file} was pulled from a server you consume: its ${n} warning${n === 1 ? " is" : "s are"} about that server. Report ${n === 1 ? "it" : "them"} upstream, or turn ${codes.size === 1 ? "the code" : "the codes"} off for it with "diagnostics": ${entry} in the mcpgen config.`,
    );
  }
  return notes;
}
