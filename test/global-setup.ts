/** Builds dist/ once before the tests, so CLI tests run the real `mcpgen` binary. */
import { execFileSync } from "node:child_process";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

// The e2e and network projects both name this setup; a run of both builds once.
const BUILT = Symbol.for("mcpgen.test.distBuilt");

export default function setup(): void {
  const done = globalThis as { [BUILT]?: true };
  if (done[BUILT]) return;
  const root = fileURLToPath(new URL("..", import.meta.url));
  const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
  execFileSync(process.execPath, [tsc, "-p", "tsconfig.build.json"], { cwd: root, stdio: "inherit" });
  done[BUILT] = true;
}
