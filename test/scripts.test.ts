/** The checkout's own npm scripts that run mcpgen: `npm run generate` and `npm run validate` (scripts/mcpgen-all.mjs). */
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { copyFileSync, existsSync, readdirSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "./helpers/cli.js";
import { tempProject } from "./helpers/tmp.js";

const SCRIPT = path.join(ROOT, "scripts/mcpgen-all.mjs");

/** A hash of every file under the examples (their node_modules aside): what a run may not change. */
function examplesDigest(): string {
  const hash = createHash("sha256");
  const dir = path.join(ROOT, "examples");
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && !path.join(e.parentPath, e.name).includes(`${path.sep}node_modules${path.sep}`))
    .map((e) => path.join(e.parentPath, e.name))
    .sort())
    hash.update(entry).update(readFileSync(entry));
  return hash.digest("hex");
}

function runAll(args: string[]) {
  const run = spawnSync(process.execPath, [SCRIPT, ...args], { cwd: ROOT, encoding: "utf8" });
  return { code: run.status, stderr: run.stderr };
}

describe("npm run generate -- <args>", () => {
  // Run in every project, these arguments once wrote the manifest's stubs into an example's src/handlers/ (its config's stubs).
  it("gives manifests and --out to one run at the root and never touches an example", () => {
    const dir = tempProject();
    for (const file of ["notes-server.yaml", "notes-readme.md"]) copyFileSync(path.join(ROOT, "manifests", file), path.join(dir, file));
    const before = examplesDigest();
    const run = runAll(["generate", "--manifests", path.join(dir, "notes-server.yaml"), "--out", path.join(dir, "out")]);
    expect(run.stderr).toContain(`: one run, at the root (the examples run only without such arguments)`);
    expect(run.stderr).not.toContain("mcpgen: in examples/");
    expect(run.code).toBe(0);
    expect(existsSync(path.join(dir, "out/notes-server/server.ts"))).toBe(true);
    expect(examplesDigest()).toBe(before);
  });

  it("gives --check and --quiet to every project, the examples included", () => {
    const run = runAll(["generate", "--check", "--quiet"]);
    expect(run.stderr).toContain("mcpgen: in examples/gift-server/");
    expect(run.stderr).not.toContain("one run");
    expect(run.code).toBe(0);
  });
});
