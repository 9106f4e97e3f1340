/**
 * `npm test` on a machine without Chromium or redis-server (issue 28): the setup script
 * (scripts/test-deps.mjs, run by the e2e project's global setup and by .ci/run) says at once, one
 * line each, what is missing, which suites need it and how to get it; those suites fail at their
 * first hook with that line, never on a hook timeout, and the others run. With both present it
 * passes and hands their paths to the helpers. Installing is off in these runs
 * (MCPGEN_TEST_INSTALL=0, or no apt-get on PATH): the programs are hidden, never removed.
 */
import { spawn, spawnSync } from "node:child_process";
import { chmodSync, readdirSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "../helpers/cli.js";
import { startRedis } from "../helpers/redis.js";
import { tempProject } from "../helpers/tmp.js";

const SCRIPT = path.join(ROOT, "scripts/test-deps.mjs");

/** This environment without Vitest's own variables (a nested run sets its own) and colours. */
function baseEnv(): Record<string, string> {
  const kept = Object.entries(process.env).filter(
    ([k, v]) => v !== undefined && !/^(VITEST|FORCE_COLOR|CHROMIUM_PATH$|REDIS_SERVER$|MCPGEN_TEST_INSTALL$)/.test(k),
  );
  return { ...(Object.fromEntries(kept) as Record<string, string>), NO_COLOR: "1" };
}

/** A PATH with nothing on it: no chromium, no redis-server, no apt-get. */
const emptyPath = () => tempProject();

/** Both programs named where nothing is, nothing on PATH, installing off. */
const hidden = () => ({ ...baseEnv(), PATH: emptyPath(), CHROMIUM_PATH: "/nowhere/chromium", REDIS_SERVER: "/nowhere/redis-server", MCPGEN_TEST_INSTALL: "0" });

function runScript(env: Record<string, string>) {
  const run = spawnSync(process.execPath, [SCRIPT, "--json"], { cwd: ROOT, env, encoding: "utf8", timeout: 60_000 });
  return {
    code: run.status,
    lines: run.stderr.split("\n").filter(Boolean),
    result: JSON.parse(run.stdout) as Record<string, { path?: string; missing?: string }>,
  };
}

/** The widget suites, named as the script names them: every test file that imports test/helpers/browser.js. */
const WIDGET_SUITES = ["test", "examples"]
  .flatMap((top) => readdirSync(path.join(ROOT, top), { recursive: true, encoding: "utf8" }).map((f) => path.join(top, f)))
  .filter((f) => f.endsWith(".test.ts") && !f.includes("node_modules") && readFileSync(path.join(ROOT, f), "utf8").includes('/helpers/browser.js"'))
  .sort()
  .map((f) => path.basename(f, ".test.ts"));
const WIDGET_FAIL = `${WIDGET_SUITES.length} widget test file${WIDGET_SUITES.length === 1 ? " fails" : "s fail"} without it (${WIDGET_SUITES.join(", ")})`;
const CHROMIUM_NOWHERE = `chromium missing: CHROMIUM_PATH=/nowhere/chromium is not an executable file. ${WIDGET_FAIL}. Fix: install chromium on PATH, or set CHROMIUM_PATH to its path.`;
/** The Redis suites are every test file that imports test/helpers/redis.js: task-stores among them. */
const REDIS_NOWHERE =
  /^redis-server missing: REDIS_SERVER=\/nowhere\/redis-server is not an executable file\. (?:[2-9]|[1-9]\d+) Redis test files fail without it \([a-z-]+(, [a-z-]+)*\)\. Fix: install redis-server on PATH, or set REDIS_SERVER to its path\.$/;

describe("scripts/test-deps.mjs", () => {
  it("with both programs hidden, prints one line for each (what, why, the suites, the fix) and exits 1", () => {
    const run = runScript(hidden());
    expect(run.code).toBe(1);
    expect(run.lines).toEqual([CHROMIUM_NOWHERE, expect.stringMatching(REDIS_NOWHERE)]);
    expect(run.lines[1]).toContain("task-stores");
    // The same lines go to the helpers, which throw them.
    expect(run.result).toEqual({ chromium: { missing: run.lines[0] }, "redis-server": { missing: run.lines[1] } });
  });

  it("says why it did not install: turned off, or no apt-get even when asked to (MCPGEN_TEST_INSTALL=1)", () => {
    const off = runScript({ ...baseEnv(), PATH: emptyPath(), MCPGEN_TEST_INSTALL: "0" });
    expect(off.code).toBe(1);
    expect(off.lines).toEqual([
      `chromium missing: no chromium on PATH and CHROMIUM_PATH is unset; not installed (MCPGEN_TEST_INSTALL=0). ${WIDGET_FAIL}. Fix: install chromium on PATH, or set CHROMIUM_PATH to its path.`,
      expect.stringMatching(/^redis-server missing: no redis-server on PATH and REDIS_SERVER is unset; not installed \(MCPGEN_TEST_INSTALL=0\)\. /),
    ]);
    const asked = runScript({ ...baseEnv(), PATH: emptyPath(), MCPGEN_TEST_INSTALL: "1" });
    expect(asked.code).toBe(1);
    expect(asked.lines.map((l) => l.split(". ")[0])).toEqual([
      "chromium missing: no chromium on PATH and CHROMIUM_PATH is unset; not installed (no apt-get on PATH)",
      "redis-server missing: no redis-server on PATH and REDIS_SERVER is unset; not installed (no apt-get on PATH)",
    ]);
  });

  it("with both programs present, prints nothing, exits 0 and hands over their paths (found on PATH, or named by the variables)", () => {
    const found = runScript({ ...baseEnv(), MCPGEN_TEST_INSTALL: "0" });
    expect({ code: found.code, lines: found.lines }).toEqual({ code: 0, lines: [] });
    expect(found.result).toEqual({
      chromium: { path: expect.stringMatching(/\/chromium$/) },
      "redis-server": { path: expect.stringMatching(/\/redis-server$/) },
    });
    const named = runScript({
      ...baseEnv(),
      PATH: emptyPath(),
      CHROMIUM_PATH: found.result.chromium!.path!,
      REDIS_SERVER: found.result["redis-server"]!.path!,
      MCPGEN_TEST_INSTALL: "0",
    });
    expect({ code: named.code, lines: named.lines, result: named.result }).toEqual({ code: 0, lines: [], result: found.result });
  });
});

describe("startRedis", () => {
  it("rejects at once when its program is missing or not executable: it never waits for a process that never started", async () => {
    await expect(startRedis({ program: "/nowhere/redis-server" })).rejects.toThrow(
      "redis-server: cannot run /nowhere/redis-server (spawn /nowhere/redis-server ENOENT): apt-get install -y redis-server, or set REDIS_SERVER to its path",
    );
    const notExecutable = path.join(tempProject({ "redis-server": "#!/bin/sh\n" }), "redis-server");
    chmodSync(notExecutable, 0o644);
    await expect(startRedis({ program: notExecutable })).rejects.toThrow(`(spawn ${notExecutable} EACCES)`);
  });
});

describe("npm test's e2e project with both programs hidden", () => {
  it("prints the lines before any suite runs; the widget and Redis suites fail at once with them, the others pass", async () => {
    const report = path.join(tempProject(), "report.json");
    const files = ["test/e2e/task-stores.test.ts", "test/e2e/widgets.browser.test.ts", "test/e2e/client-wire.test.ts"];
    const vitest = path.join(ROOT, "node_modules/vitest/vitest.mjs");
    const args = [vitest, "run", "--project", "e2e", ...files, "--reporter=default", "--reporter=json", `--outputFile.json=${report}`];
    const child = spawn(process.execPath, args, { cwd: ROOT, env: hidden(), stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (d) => (output += d));
    child.stderr.on("data", (d) => (output += d));
    const code = await new Promise<number | null>((resolve, reject) => {
      child.on("error", reject);
      child.on("close", resolve);
    });

    expect(code, output).toBe(1);
    // Said once by the setup, before the first file's result, then again as each suite's error.
    const said = output.split("\n").filter((l) => l.startsWith("chromium missing:") || l.startsWith("redis-server missing:"));
    expect(said).toEqual([CHROMIUM_NOWHERE, expect.stringMatching(REDIS_NOWHERE)]);
    expect(output.indexOf(CHROMIUM_NOWHERE)).toBeLessThan(output.search(/[❯✓] \|e2e\| /));
    expect(output).toContain(`Error: ${CHROMIUM_NOWHERE}`);
    expect(output).toContain(`Error: ${said[1]}`);
    expect(output).not.toMatch(/Hook timed out|ENOENT|Unhandled/);
    // Each failing file ends at its first hook: well under the 60 s hook timeout it used to wait out.
    for (const file of files.slice(0, 2)) {
      const time = new RegExp(`${file.replace(/[.]/g, "\\.")} \\(\\d+ tests \\| \\d+ skipped\\) ([\\d.]+)(m?s)`).exec(output);
      expect(time, output).not.toBe(null);
      expect(Number(time![1]) * (time![2] === "s" ? 1000 : 1)).toBeLessThan(30_000);
    }

    const results = (JSON.parse(readFileSync(report, "utf8")) as { testResults: { name: string; status: string; message: string }[] }).testResults;
    const byFile = Object.fromEntries(results.map((r) => [path.relative(ROOT, r.name), { status: r.status, message: r.message }]));
    expect(byFile).toEqual({
      "test/e2e/task-stores.test.ts": { status: "failed", message: said[1] },
      "test/e2e/widgets.browser.test.ts": { status: "failed", message: CHROMIUM_NOWHERE },
      "test/e2e/client-wire.test.ts": { status: "passed", message: "" },
    });
  }, 240_000);
});
