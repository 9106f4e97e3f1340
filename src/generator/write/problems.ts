/** What the write stage reports at the output folder: a write that failed, a killed run put back in order. */
import type { ArgumentDiagnostic } from "../../common/diagnostics.js";

/**
 * The output could not be written (or, --check, a killed run left it half-written, or another run
 * is writing it): located at the output folder as shown (`generated/`); the message says why.
 */
export function writeFailed(message: string, out: string): ArgumentDiagnostic {
  return { severity: "error", code: "write-failed", argument: out, message };
}

/**
 * A run killed part-way left the output half-written, and this run put it back in order before
 * writing (`report` says what it did): a warning at the output folder as shown.
 */
export function interruptedRun(report: string, out: string): ArgumentDiagnostic {
  return { severity: "warning", code: "interrupted-run", argument: out, message: report };
}
