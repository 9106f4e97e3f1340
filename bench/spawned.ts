/**
 * What the benches that spawn servers share (bench/runtimes.ts, bench/servers.ts): a project
 * folder compiled as a user's build compiles it, and the median of a server's rounds.
 */
import * as path from "node:path";
import * as esbuild from "esbuild";

/** Compiles `entries` (files or globs under `dir`) next to themselves: esbuild, ES modules, no bundling. */
export async function compileInPlace(dir: string, entries: readonly string[]): Promise<void> {
  await esbuild.build({
    entryPoints: entries.map((entry) => path.join(dir, entry)),
    outbase: dir,
    outdir: dir,
    format: "esm",
    platform: "node",
    logLevel: "silent",
  });
}

/** The median (of an even count, the mean of the middle two). */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}
