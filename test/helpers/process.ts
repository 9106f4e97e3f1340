/** Child processes that tests start: started, or the reason they did not. */
import type { ChildProcess } from "node:child_process";

/**
 * Resolves once `child` has started; rejects with its spawn error (ENOENT, EACCES) otherwise. A
 * process that never started emits `error` (and `close`) but never `exit`: code that then waits for
 * `exit` waits forever, so a caller awaits this before anything that waits for the process to end.
 */
export function started(child: ChildProcess): Promise<void> {
  return new Promise((resolve, reject) => {
    const onSpawn = () => {
      child.off("error", onError);
      resolve();
    };
    const onError = (error: Error) => {
      child.off("spawn", onSpawn);
      reject(error);
    };
    child.once("spawn", onSpawn);
    child.once("error", onError);
  });
}
