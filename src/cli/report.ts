/**
 * What generate and validate print of a run's diagnostics. `--quiet` keeps the errors only. The
 * warnings of manifests a run skipped (unchanged since the last run) were printed when they were
 * read: they are counted on one line, not repeated (`mcpgen lint` or `--no-cache` lists them).
 */
import { printDiagnostics } from "../common/report.js";
import type { PipelineResult } from "../generator/pipeline.js";
import { upstreamNotes } from "../commands/lint/upstream.js";

export function printRunDiagnostics(result: Pick<PipelineResult, "diagnostics" | "reusedWarnings">, quiet: boolean, cwd: string): void {
  const shown = quiet ? result.diagnostics.filter((d) => d.severity === "error") : result.diagnostics;
  printDiagnostics(shown);
  if (quiet) return;
  for (const note of upstreamNotes(result.diagnostics, cwd)) process.stderr.write(`${note}\n`);
  const unchanged = result.reusedWarnings;
  if (unchanged.length > 0) {
    const files = new Set(unchanged.map((d) => d.file)).size;
    const n = unchanged.length;
    process.stderr.write(
      `mcpgen: ${n} warning${n === 1 ? "" : "s"} in ${files} unchanged manifest${files === 1 ? "" : "s"}, printed when ${files === 1 ? "it was" : "they were"} last read; run mcpgen lint to list ${n === 1 ? "it" : "them"}.\n`,
    );
  }
}
