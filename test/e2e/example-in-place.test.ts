/**
 * The example runs where it sits, as its README says (`cd examples/gift-server && npm test`): its
 * own Vitest config (without it Vitest took the repository's and failed: "No test files found",
 * "Failed to load url …/test/global-setup.ts"), and its generated output current. Run on this
 * checkout's node_modules, which the example's resolve to from its folder; `npm install` there is
 * what the README adds (not run here: it would fetch the same packages again).
 */
import { execFileSync, spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "../helpers/cli.js";

const EXAMPLE = path.join(ROOT, "examples/gift-server");

describe("examples/gift-server where it sits", () => {
  it("npm test's two steps pass from its folder: generate --check, then its own Vitest config and tests", () => {
    execFileSync(process.execPath, [path.join(ROOT, "dist/cli/bin.js"), "generate", "--check"], { cwd: EXAMPLE, stdio: "pipe" });
    const run = spawnSync(process.execPath, [path.join(ROOT, "node_modules/vitest/vitest.mjs"), "run"], {
      cwd: EXAMPLE,
      encoding: "utf8",
      env: { ...process.env, CI: "true", NO_COLOR: "1" },
      timeout: 120_000,
    });
    expect(run.status, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toMatch(/Test Files {2}1 passed \(1\)/);
    // npm asks nothing of a new user about esbuild's install script.
    expect(JSON.parse(readFileSync(path.join(EXAMPLE, "package.json"), "utf8")).allowScripts).toEqual({ esbuild: false });
  }, 180_000);
});
