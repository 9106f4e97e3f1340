/**
 * What pull cannot do, as diagnostics: the server could not be reached or answered wrongly (at
 * the server argument), the manifest file cannot be read or written, or (--check) is missing (at
 * the file).
 */
import type { ArgumentDiagnostic, Diagnostic } from "../../common/diagnostics.js";
import { toPosix } from "../../common/paths.js";

/** The server could not be reached, or answered what pull cannot read; `server`: as typed (redacted). */
export function serverFailed(server: string, message: string, fix?: string): ArgumentDiagnostic {
  return { severity: "error", code: "server-failed", argument: server, message, ...(fix ? { fix } : {}) };
}

/** The manifest file could not be read (`reading`) or written; `why`: the file system's reason in words. */
export function fileFailed(file: string, reading: boolean, why: string): Diagnostic {
  return {
    severity: "error",
    code: reading ? "file-unreadable" : "write-failed",
    message: `cannot ${reading ? "read" : "write"} ${file}: ${why}`,
    file: toPosix(file),
    line: 1,
    col: 1,
    path: "",
  };
}

/** `pull --check` of a file that is not there. */
export function checkedFileMissing(file: string): Diagnostic {
  return {
    severity: "error",
    code: "stale-output",
    message: `${file} does not exist`,
    fix: "run the same command without --check to write it.",
    file: toPosix(file),
    line: 1,
    col: 1,
    path: "",
  };
}
