/**
 * Before the e2e project: Chromium and redis-server, found or installed by scripts/test-deps.mjs
 * (the script .ci/run runs too). Each missing one is printed at once, on one line, and handed to the
 * helpers (test/helpers/programs.ts): the suites that need it fail at their first hook with that
 * line, the others run. Failing rather than skipping: a skipped suite would hide a missing piece,
 * and CI must go red when one is missing there.
 */
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import type { TestProject } from "vitest/node";
import type { Programs } from "./helpers/programs.js";

export default function setup(project: TestProject): void {
  const script = fileURLToPath(new URL("../scripts/test-deps.mjs", import.meta.url));
  // Its lines (and apt-get's progress) go straight to the terminal; the result comes on stdout.
  const run = spawnSync(process.execPath, [script, "--json"], { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] });
  // Exit 1 means "something is missing", already said; anything else is a broken script.
  if ((run.status !== 0 && run.status !== 1) || !run.stdout) {
    throw new Error(`scripts/test-deps.mjs failed (${run.error?.message ?? run.status ?? run.signal})`);
  }
  project.provide("testPrograms", JSON.parse(run.stdout) as Programs);
}
