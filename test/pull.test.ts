/**
 * `mcpgen pull` against servers on this machine: a hand-written one that pages and sends fields
 * mcpgen does not know, the generated gift server over stdio and over HTTP in both eras (pulled
 * back, it must generate the very fixtures it came from), and every way a pull can fail.
 */
import { spawn } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { createServer, type AddressInfo } from "node:net";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { serveHttp } from "../examples/gift-server/generated/gift-server/serve.js";
import { mcpgen, ROOT } from "./helpers/cli.js";
import { tempProject } from "./helpers/tmp.js";
import { giftHandlers } from "./servers/gift.js";

const RAW = fileURLToPath(new URL("./servers/raw-stdio.mjs", import.meta.url));
const GIFT = fileURLToPath(new URL("./servers/gift-stdio.ts", import.meta.url));
const TSX = path.join(ROOT, "node_modules/tsx/dist/esm/index.mjs");
const node = process.execPath;

/** mcpgen without blocking this process (for a server it serves itself). */
function mcpgenAsync(args: string[], cwd: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(node, [path.join(ROOT, "dist/cli/bin.js"), ...args], { cwd });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

const fixture = (dir: string, file: string) => JSON.parse(readFileSync(path.join(dir, file), "utf8")) as Record<string, unknown>;

describe("mcpgen pull", () => {
  it("follows every page and writes each definition verbatim, unknown fields included, with a deterministic header", () => {
    const dir = tempProject({ "package.json": "{}" });
    const r = mcpgen(["pull", "--", node, RAW], dir);
    expect(r).toMatchObject({ code: 0, stderr: "" });
    expect(r.stdout).toBe(
      "mcpgen: wrote manifests/raw-server.yaml from Raw Server (3 tools, 0 resources, 0 templates, 0 prompts, MCP 2025-11-25). It is client-only (its header says so): `mcpgen generate` writes its types, client and fixtures, no server and no handler stubs.\n",
    );
    const text = readFileSync(path.join(dir, "manifests/raw-server.yaml"), "utf8");
    expect(text).toBe(`# Pulled by mcpgen from \`${node} ${RAW}\` (MCP 2025-11-25).
# Update it with: mcpgen pull -o manifests/raw-server.yaml -- ${node} ${RAW}
# Listed to a client declaring the capabilities {} (a server may list more to a client that declares more).
# Written by mcpgen pull: edit the server, not this file (mcpgen pull --check tells when they differ).
# Client-only: generate writes a typed client for this server, no server code and no handler stubs (delete this line to generate a server too).
server:
  name: Raw Server
  folder: raw-server
  version: 0.1.0
  websiteUrl: https://example.com
  instructions: Page through me.
capabilities:
  logging: {}
  tools:
    listChanged: true
tools:
  - name: alpha
    description: First.
    inputSchema:
      type: object
      properties:
        q:
          type: string
      required:
        - q
    annotations:
      readOnlyHint: true
      x-vendor/cost: 3
  - inputSchema:
      type: object
    name: beta
    x-extra:
      kept: true
  - name: gamma
    title: Third
    inputSchema:
      type: object
      properties:
        n:
          type: integer
          minimum: 0
    outputSchema:
      type: object
      properties:
        total:
          type: number
      required:
        - total
`);
    // It generates, and serves the definitions as they came: key order and unknown fields kept.
    const gen = mcpgen(["generate"], dir);
    expect(gen.code).toBe(0);
    expect(gen.stderr).toContain("warning unknown-field: field `x-vendor/cost` in `annotations` is not one mcpgen knows; it is served as it is");
    expect(gen.stderr).toContain("warning unknown-field: field `x-extra` in a tool is not one mcpgen knows; it is served as it is");
    const tools = fixture(dir, "generated/raw-server/fixtures/tools-list.json").tools as Record<string, unknown>[];
    expect(Object.keys(tools[1]!)).toEqual(["inputSchema", "name", "x-extra"]);
    expect(tools[0]!.annotations).toEqual({ readOnlyHint: true, "x-vendor/cost": 3 });
    // The server's listChanged is the manifest's opt-in: the generated server declares it as the pulled one does.
    expect(readFileSync(path.join(dir, "generated/raw-server/definition.ts"), "utf8")).toContain('"tools":{"listChanged":true}');
    expect(mcpgen(["pull", "--", node, RAW], dir).stdout).toMatch(/^mcpgen: manifests\/raw-server\.yaml is up to date with Raw Server/);
  });

  for (const era of ["legacy", "modern"] as const) {
    it(`pulls the generated gift server over stdio (${era}); the pulled manifest generates the same fixtures`, () => {
      const dir = tempProject({ "package.json": "{}" });
      const r = mcpgen(["pull", "--era", era, "-o", "gift.yaml", "--", node, "--import", TSX, GIFT], dir);
      expect(r.stderr).toBe("");
      expect(r.stdout).toMatch(
        new RegExp(`from gift-server \\(2 tools, 2 resources, 0 templates, 1 prompt, MCP ${era === "modern" ? "2026-07-28" : "2025-11-25"}\\)`),
      );
      expect(mcpgen(["generate", "--client-only", "gift.yaml"], dir)).toMatchObject({ code: 0, stderr: "" });
      const folder = era === "modern" ? "fixtures/2026-07-28" : "fixtures";
      for (const [file, key] of [
        ["tools-list.json", "tools"],
        ["resources-list.json", "resources"],
        ["resource-templates-list.json", "resourceTemplates"],
        ["prompts-list.json", "prompts"],
      ] as const) {
        const original = fixture(path.join(ROOT, "examples/gift-server/generated/gift-server", folder), file)[key];
        expect(fixture(path.join(dir, "generated/gift-server", folder), file)[key], file).toEqual(original);
        // Byte for byte, key order included.
        expect(JSON.stringify(fixture(path.join(dir, "generated/gift-server", folder), file)[key])).toBe(JSON.stringify(original));
      }
    }, 60_000);
  }

  it("pulls over Streamable HTTP, sending --header, and never writes the header's value", async () => {
    const seen: string[] = [];
    const handle = await serveHttp(giftHandlers, { port: 0 });
    try {
      const dir = tempProject({ "package.json": "{}" });
      const url = new URL(handle.url);
      url.searchParams.set("api_key", "s3cret");
      const r = await mcpgenAsync(["pull", "--header", "Authorization: Bearer t0ken", url.href], dir);
      seen.push(r.stderr);
      expect(r).toMatchObject({ code: 0, stderr: "" });
      const text = readFileSync(path.join(dir, "manifests/gift-server.yaml"), "utf8");
      expect(text.split("\n")[0]).toBe(`# Pulled by mcpgen from ${handle.url}?api_key=... (MCP 2026-07-28).`);
      // Credentials in the URL go as Basic authentication (fetch refuses them in a URL), never written.
      const basic = new URL(handle.url);
      basic.username = "ada";
      basic.password = "pw";
      const viaBasic = await mcpgenAsync(["pull", "-o", "basic.yaml", basic.href], dir);
      expect(viaBasic).toMatchObject({ code: 0, stderr: "" });
      expect(readFileSync(path.join(dir, "basic.yaml"), "utf8")).not.toMatch(/ada|pw@/);
      // Quoted: unquoted, `?` is a glob (zsh refuses the line) and `&` would end the command.
      expect(text.split("\n")[1]).toBe(`# Update it with: mcpgen pull -o manifests/gift-server.yaml --header "Authorization: ..." '${handle.url}?api_key=...'`);
      expect(text).not.toContain("t0ken");
      expect(text).not.toContain("s3cret");
    } finally {
      await handle.close();
    }
  }, 60_000);

  it("--check exits 0 when up to date, 1 with the changes when not, and writes nothing", () => {
    const dir = tempProject({ "package.json": "{}" });
    expect(mcpgen(["pull", "-o", "raw.yaml", "--", node, RAW], dir).code).toBe(0);
    expect(mcpgen(["pull", "--check", "-o", "raw.yaml", "--", node, RAW], dir)).toMatchObject({
      code: 0,
      stdout: expect.stringContaining("raw.yaml is up to date"),
    });
    const file = path.join(dir, "raw.yaml");
    const stale = readFileSync(file, "utf8").replace("      required:\n        - q\n", "");
    writeFileSync(file, stale);
    const r = mcpgen(["pull", "--check", "-o", "raw.yaml", "--", node, RAW], dir);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^mcpgen: Raw Server differs from raw\.yaml:\n/);
    expect(r.stderr).toMatch(/BREAKING\s+ok\s+tool alpha\s+inputSchema\.properties\.q\s+input-narrowed\s+q is now required/);
    expect(r.stderr).toContain("mcpgen: run the same command without --check to update raw.yaml.");
    expect(readFileSync(file, "utf8")).toBe(stale);
    expect(mcpgen(["pull", "--check", "-o", "none.yaml", "--", node, RAW], dir)).toMatchObject({
      code: 1,
      stderr: "none.yaml:1:1: error stale-output: none.yaml does not exist; run the same command without --check to write it.\n",
    });
  });

  it("--check looks past the header: another -o path or --env names are no difference", () => {
    const dir = tempProject({ "package.json": "{}" });
    expect(mcpgen(["pull", "-o", "raw.yaml", "--", node, RAW], dir).code).toBe(0);
    expect(mcpgen(["pull", "--check", "-o", "./raw.yaml", "--env", "UNUSED=1", "--", node, RAW], dir)).toMatchObject({
      code: 0,
      stdout: expect.stringContaining("raw.yaml is up to date"),
    });
  });

  it("leaves credential-like arguments and query values out of the manifest", () => {
    const dir = tempProject({ "package.json": "{}" });
    const r = mcpgen(["pull", "-o", "raw.yaml", "--", node, RAW, "--api-key", "hunter2", "--token=abc", "sk-live-0123456789abcdef"], dir);
    expect(r.code).toBe(0);
    const header = readFileSync(path.join(dir, "raw.yaml"), "utf8").split("\n").slice(0, 2).join("\n");
    expect(header).toBe(
      `# Pulled by mcpgen from \`${node} ${RAW} --api-key ... --token=... ...\` (MCP 2025-11-25).\n# Update it with: mcpgen pull -o raw.yaml -- ${node} ${RAW} --api-key ... --token=... ...`,
    );
  });

  it("refuses what would break the header or the file system, with a message and no stack trace", () => {
    const dir = tempProject({ "package.json": "{}", "adir/keep": "" });
    // A newline in an --env name would have ended the header comment.
    expect(mcpgen(["pull", "--env", "X\ndefs: {}\n#=1", "--", node, RAW], dir)).toMatchObject({
      code: 2,
      stderr: expect.stringContaining("--env takes NAME=VALUE with NAME of letters, digits and _"),
    });
    expect(mcpgen(["pull", "--header", "X\nY: 1", "http://127.0.0.1:1/mcp"], dir)).toMatchObject({ code: 2 });
    expect(mcpgen(["pull", "-o", "adir", "--", node, RAW], dir)).toMatchObject({
      code: 1,
      stderr: "adir:1:1: error file-unreadable: cannot read adir: it is a folder (give a file with -o)\n",
    });
    expect(mcpgen(["pull", "-o", "package.json/x.yaml", "--", node, RAW], dir)).toMatchObject({
      code: 1,
      stderr: "package.json/x.yaml:1:1: error write-failed: cannot write package.json/x.yaml: a part of the path is a file, not a folder\n",
    });
    expect(mcpgen(["pull", "--cwd", "nowhere", "--", node, RAW], dir)).toMatchObject({
      code: 1,
      stderr: "mcpgen: --cwd nowhere: error invalid-argument: no such folder; give the folder the server runs in (relative to the current one)\n",
    });
  });

  it("never overwrites a file it did not write, unless --force", () => {
    const dir = tempProject({ "manifests/raw-server.yaml": "# mine\nserver: {name: raw-server, version: 1.0.0}\n" });
    const r = mcpgen(["pull", "--", node, RAW], dir);
    expect(r).toMatchObject({
      code: 1,
      stderr:
        "manifests/raw-server.yaml:1:1: error not-generated: this file was not written by mcpgen pull; refusing to overwrite it; use -o for another file, or --force\n",
    });
    expect(readFileSync(path.join(dir, "manifests/raw-server.yaml"), "utf8")).toBe("# mine\nserver: {name: raw-server, version: 1.0.0}\n");
    expect(mcpgen(["pull", "--force", "--", node, RAW], dir).code).toBe(0);
  });

  it("says clearly when the server cannot be reached or answers garbage", async () => {
    const dir = tempProject({});
    const fail = (args: string[], env: Record<string, string> = {}) =>
      mcpgen(["pull", ...Object.entries(env).map(([k, v]) => `--env=${k}=${v}`), "--timeout", "10000", ...args], dir);
    expect(fail(["--", "mcpgen-no-such-server"])).toMatchObject({
      code: 1,
      stderr: expect.stringMatching(
        /^mcpgen: -- mcpgen-no-such-server: error server-failed: connecting to `mcpgen-no-such-server` failed: the command `mcpgen-no-such-server` was not found \(check the PATH, or give its full path\)/,
      ),
    });
    expect(fail(["--", node, RAW], { RAW_MODE: "garbage" })).toMatchObject({
      code: 1,
      stderr: `mcpgen: -- ${node} ${RAW}: error server-failed: \`${node} ${RAW}\` answered tools/list without a \`tools\` list: {"tools":"not a list"}\n`,
    });
    expect(fail(["--", node, RAW], { RAW_MODE: "loop" })).toMatchObject({
      code: 1,
      stderr: `mcpgen: -- ${node} ${RAW}: error server-failed: \`${node} ${RAW}\` answered tools/list with the same nextCursor twice ("again")\n`,
    });
    expect(fail(["--", node, RAW], { RAW_MODE: "no-info" })).toMatchObject({ code: 1, stderr: expect.stringContaining("failed") });
    const crash = fail(["--", node, "-e", "console.error('boom: missing API key'); process.exit(3)"]);
    expect(crash.code).toBe(1);
    expect(crash.stderr).toMatch(/failed: .*\nthe server's stderr ended with:\n {2}boom: missing API key\n$/);
    // A port that was just free: nothing listens there.
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, "127.0.0.1", () => {
        const { port } = probe.address() as AddressInfo;
        probe.close(() => resolve(port));
      });
    });
    const refused = await mcpgenAsync(["pull", `http://127.0.0.1:${port}/mcp`], dir);
    expect(refused).toMatchObject({
      code: 1,
      stderr: `mcpgen: http://127.0.0.1:${port}/mcp: error server-failed: connecting to http://127.0.0.1:${port}/mcp failed: the connection was refused (is the server running, on that port?)\n`,
    });
  }, 60_000);

  it("usage errors exit 2 with the help; what follows -- is the server's, --help included", () => {
    const dir = tempProject({});
    expect(mcpgen(["pull"], dir)).toMatchObject({
      code: 2,
      stderr: expect.stringContaining("pull needs a server: a URL, or -- and the command that starts it"),
    });
    expect(mcpgen(["pull", "--era", "future", "--", "x"], dir)).toMatchObject({ code: 2, stderr: expect.stringContaining("--era is auto, legacy or modern") });
    expect(mcpgen(["pull", "--header", "X: y", "--", "x"], dir)).toMatchObject({
      code: 2,
      stderr: expect.stringContaining("--header is for a server over HTTP"),
    });
    expect(mcpgen(["pull", "--help"], dir)).toMatchObject({ code: 0, stdout: expect.stringContaining("mcpgen pull [options] -- COMMAND [ARGS...]") });
    const help = mcpgen(["pull", "--timeout", "3000", "--", node, "-e", "process.exit(1)", "--help"], dir);
    expect(help.code).toBe(1);
    expect(help.stdout).toBe("");
  });
});
