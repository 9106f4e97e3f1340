/** The one place problems are printed: each on one line, on stderr. */
import { formatDiagnostic, type ArgumentDiagnostic, type Diagnostic } from "./diagnostics.js";

export function printDiagnostics(list: readonly (Diagnostic | ArgumentDiagnostic)[]): void {
  for (const d of list) process.stderr.write(`${formatDiagnostic(d)}\n`);
}
