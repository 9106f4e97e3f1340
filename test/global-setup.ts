/**
 * Before the e2e and network projects: dist/ and the runtime package's dist/ as the sources are,
 * so CLI tests run the real `mcpgen` binary and child processes the built runtime. The build runs
 * only when a source is newer than the last one (scripts/build.mjs --if-stale): in CI, `npm ci`
 * has just built both, and this only looks.
 */
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";

// The e2e and network projects both name this setup; a run of both looks once.
const BUILT = Symbol.for("mcpgen.test.distBuilt");

export default function setup(): void {
  const done = globalThis as { [BUILT]?: true };
  if (done[BUILT]) return;
  const root = fileURLToPath(new URL("..", import.meta.url));
  execFileSync(process.execPath, ["scripts/build.mjs", "--if-stale"], { cwd: root, stdio: "inherit" });
  done[BUILT] = true;
}
