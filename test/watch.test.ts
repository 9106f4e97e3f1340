/** `generate --watch`: picks up an edit, survives an invalid one with the last good output kept. */
import { execFileSync, spawn } from "node:child_process";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it, vi } from "vitest";
import { tempProject } from "./helpers/tmp.js";
import { sleep } from "./helpers/wait.js";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const BIN = path.join(ROOT, "dist/cli/bin.js");
const MANIFEST = "server: {name: tiny, version: '1'}\ntools:\n  - {name: ping, description: first, inputSchema: {type: object}}\n";

describe("generate --watch", () => {
  it("regenerates on an edit, prints diagnostics for a bad edit without exiting, and recovers", async () => {
    const dir = tempProject({ "package.json": "{}", "manifests/tiny.yaml": MANIFEST });
    const child = spawn(process.execPath, [BIN, "generate", "--watch"], { cwd: dir });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    const fixture = () => readFileSync(path.join(dir, "generated/tiny/fixtures/tools-list.json"), "utf8");
    const wait = { timeout: 15_000, interval: 50 };
    try {
      await vi.waitFor(() => expect(stdout).toContain("watching 1 folder"), wait);
      expect(fixture()).toContain('"description": "first"');

      writeFileSync(path.join(dir, "manifests/tiny.yaml"), MANIFEST.replace("first", "second"));
      await vi.waitFor(() => expect(fixture()).toContain('"description": "second"'), wait);
      expect(stdout).toContain("manifests/tiny.yaml changed; regenerating.");

      writeFileSync(path.join(dir, "manifests/tiny.yaml"), MANIFEST.replace("inputSchema: {type: object}", "inputSchema: {type: string}"));
      // The diagnostic and the summary are two writes: wait for the second.
      await vi.waitFor(() => expect(stderr).toContain("mcpgen: 1 error; nothing written."), wait);
      expect(stderr).toContain('manifests/tiny.yaml:3:58: error schema-not-object: tools[0].inputSchema: type must be "object"');
      expect(fixture()).toContain('"description": "second"');
      expect(child.exitCode).toBe(null);

      writeFileSync(path.join(dir, "manifests/tiny.yaml"), MANIFEST.replace("first", "third"));
      await vi.waitFor(() => expect(fixture()).toContain('"description": "third"'), wait);
    } finally {
      child.kill("SIGINT");
    }
    const code = await new Promise((resolve) => child.on("exit", (c) => resolve(c)));
    expect(code).toBe(0);
  }, 60_000);

  it("an editor's temporary files start no build and print no line; sed -i's save is one build", async () => {
    const dir = tempProject({ "package.json": "{}", "manifests/tiny.yaml": MANIFEST });
    const child = spawn(process.execPath, [BIN, "generate", "--watch"], { cwd: dir });
    let stdout = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stdout += d));
    const fixture = () => readFileSync(path.join(dir, "generated/tiny/fixtures/tools-list.json"), "utf8");
    const wait = { timeout: 15_000, interval: 50 };
    const lines = () => stdout.split("\n").filter((l) => l.includes("changed; regenerating"));
    try {
      await vi.waitFor(() => expect(stdout).toContain("watching 1 folder"), wait);
      // What vim, emacs, JetBrains and backup tools write beside a file, then delete.
      const temporary = [".tiny.yaml.swp", "4913", "tiny.yaml~", "#tiny.yaml#", ".#tiny.yaml", "tiny.yaml___jb_tmp___", "sedAb3xYz"];
      for (const name of temporary) writeFileSync(path.join(dir, "manifests", name), "x");
      for (const name of temporary) rmSync(path.join(dir, "manifests", name));
      await sleep(600);
      expect(lines()).toEqual([]);
      // sed -i writes a sedXXXXXX file in the folder and renames it onto the manifest.
      execFileSync("sed", ["-i", "s/first/second/", path.join(dir, "manifests/tiny.yaml")]);
      await vi.waitFor(() => expect(fixture()).toContain('"description": "second"'), wait);
      await sleep(400);
      expect(lines()).toEqual(["mcpgen: manifests/tiny.yaml changed; regenerating."]);
    } finally {
      child.kill("SIGINT");
    }
    await new Promise((resolve) => child.on("exit", resolve));
  }, 60_000);

  it("rebundles a widget when its source, in a folder under the manifests, changes", async () => {
    const manifest = `${MANIFEST.replace("inputSchema: {type: object}}", "inputSchema: {type: object}, widget: view}")}widgets:\n  - {name: view, uri: "ui://tiny/view.html", entry: widgets/view.ts}\n`;
    const dir = tempProject({
      "package.json": "{}",
      "manifests/tiny.yaml": manifest,
      "manifests/widgets/view.ts": 'document.body.textContent = "first-view";\n',
    });
    const child = spawn(process.execPath, [BIN, "generate", "--watch"], { cwd: dir });
    let stdout = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stdout += d));
    const definition = () => readFileSync(path.join(dir, "generated/tiny/definition.ts"), "utf8");
    const wait = { timeout: 15_000, interval: 50 };
    try {
      await vi.waitFor(() => expect(stdout).toContain("watching"), wait);
      expect(definition()).toContain("first-view");
      writeFileSync(path.join(dir, "manifests/widgets/view.ts"), 'document.body.textContent = "second-view";\n');
      await vi.waitFor(() => expect(definition()).toContain("second-view"), wait);
      expect(stdout).toContain("manifests/widgets/view.ts changed; regenerating.");
    } finally {
      child.kill("SIGINT");
    }
    await new Promise((resolve) => child.on("exit", resolve));
  }, 60_000);
});
