/** Child processes that tests start: started, or the reason they did not. */
import { spawn, type ChildProcess } from "node:child_process";
import { untilValue } from "./wait.js";

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

/**
 * Spawns `program` and resolves with the child and its output so far once that output contains
 * `line` (stdout and stderr together), within 30 s; rejects with the output when it exits first.
 * The child goes into `children`, for the suite to kill at its end.
 */
export async function spawnUntil(
  program: string,
  args: string[],
  options: { cwd: string; env: NodeJS.ProcessEnv; line: string },
  children: ChildProcess[],
): Promise<{ child: ChildProcess; output: () => string }> {
  const child = spawn(program, args, { cwd: options.cwd, env: options.env, stdio: ["ignore", "pipe", "pipe"] });
  children.push(child);
  await started(child);
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  await untilValue(
    async () => output,
    (text) => text.includes(options.line) || child.exitCode !== null,
    `${program} to print ${JSON.stringify(options.line)}`,
    { timeout: 30_000, every: 50 },
  );
  if (!output.includes(options.line))
    throw new Error(`${program} ${args.join(" ")} exited ${child.exitCode} before printing ${JSON.stringify(options.line)}:\n${output}`);
  return { child, output: () => output };
}
