/**
 * What a new user does: pack mcpgen and its runtime, `mcpgen init` a project with them, install,
 * build, test, then start the server over stdio and over Streamable HTTP and call its tool with
 * the official SDK Client. Slow (real npm installs from the registry), so it runs once, in sequence.
 */
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const work = mkdtempSync(path.join(tmpdir(), "mcpgen-new-user-"));
// Deleting an installed node_modules tree can take a minute on a loaded machine.
afterAll(() => rmSync(work, { recursive: true, force: true }), 300_000);

/** The environment of a user's shell: none of the npm_* variables of the `npm test` around us. */
const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.toLowerCase().startsWith("npm_"))) as Record<string, string>;
const NPM = process.platform === "win32" ? "npm.cmd" : "npm";

function run(cmd: string, args: string[], cwd: string): string {
  return execFileSync(cmd, args, { cwd, env, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], timeout: 240_000 });
}

/** Like run, with what the command wrote to stderr too (npm's warnings). */
function runBoth(cmd: string, args: string[], cwd: string): { stdout: string; stderr: string } {
  const r = spawnSync(cmd, args, { cwd, env, encoding: "utf8", timeout: 240_000 });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(" ")} exited ${r.status}: ${r.stderr}`);
  return { stdout: r.stdout, stderr: r.stderr };
}

describe("a new user", () => {
  const app = path.join(work, "app");
  let tarball = "";

  it("packs mcpgen and its runtime (prepack builds them; no install script) and runs `mcpgen init` from the packages", () => {
    const before = readFileSync(path.join(ROOT, "package.json"), "utf8");
    run(NPM, ["pack", "--workspaces", "--include-workspace-root", "--pack-destination", work, "--silent"], ROOT);
    const tarballs = readdirSync(work)
      .filter((f) => f.endsWith(".tgz"))
      .sort();
    expect(tarballs).toEqual(["mcpgen-0.1.0.tgz", "mcpgen-runtime-0.1.0.tgz"]);
    tarball = path.join(work, tarballs[0]!);
    const packed = JSON.parse(run("tar", ["-xzOf", tarball, "package/package.json"], work));
    expect(Object.keys(packed.scripts).filter((name) => ["prepare", "prepack", "postpack"].includes(name))).toEqual([]);
    // mcpgen needs its runtime's very version; neither ships the other's files.
    expect(packed.dependencies["@mcpgen/runtime"]).toBe("0.1.0");
    expect(
      run("tar", ["-tzf", tarball], work)
        .split("\n")
        .filter((f) => f.startsWith("package/packages/")),
    ).toEqual([]);
    // postpack put the checkout's package.json back, byte for byte.
    expect(readFileSync(path.join(ROOT, "package.json"), "utf8")).toBe(before);
    const packages = tarballs.map((f) => `--package=${path.join(work, f)}`);
    const out = run(NPM, ["exec", "--yes", ...packages, "--", "mcpgen", "init", "app"], work);
    expect(out).toContain("mcpgen: created app (11 files, plus generated/)");
    expect(out).toContain("Next:\n  cd app && npm install\n  npm test ");
  }, 300_000);

  it("installs as init left it (mcpgen and its runtime packed into vendor/) with no install script to approve, and `npm test` builds it with TypeScript 7 and passes", () => {
    const pkg = JSON.parse(readFileSync(path.join(app, "package.json"), "utf8"));
    expect(pkg.devDependencies.mcpgen).toBe("file:vendor/mcpgen-0.1.0.tgz");
    expect(pkg.dependencies["@mcpgen/runtime"]).toBe("file:vendor/mcpgen-runtime-0.1.0.tgz");
    expect(pkg.devDependencies.typescript).toBe("^7.0.2");
    const install = runBoth(NPM, ["install", "--no-audit", "--no-fund"], app);
    // npm 11 lists the dependencies whose install scripts it did not run: none (mcpgen has none; esbuild's is off).
    expect(install.stderr).not.toMatch(/install-scripts|install scripts/);
    expect(run(process.execPath, ["node_modules/typescript/bin/tsc", "--version"], app)).toMatch(/^Version 7\./);
    // One command, as the README says: test builds first (prebuild regenerates, then tsc), so the tests never run stale code.
    const test = run(NPM, ["test"], app);
    expect(test).toContain("> mcpgen generate");
    expect(test).toContain("> tsc -p tsconfig.json");
    expect(test).toMatch(/# pass 3\n# fail 0/);
    // The project holds only its own generated code: the runtime is the installed package.
    expect(readdirSync(path.join(app, "generated"))).toEqual(["app"]);
  }, 300_000);

  for (const mode of ["legacy", "auto"] as const) {
    it(`serves over stdio to the official SDK Client (${mode === "auto" ? "2026-07-28" : "2025 era"})`, async () => {
      const sdk = new Client({ name: "new-user", version: "1.0.0" }, { versionNegotiation: { mode } });
      await sdk.connect(new StdioClientTransport({ command: process.execPath, args: ["dist/src/main.js"], cwd: app, env }));
      try {
        expect(sdk.getProtocolEra()).toBe(mode === "auto" ? "modern" : "legacy");
        const fixture = JSON.parse(readFileSync(path.join(app, `generated/app/fixtures/${mode === "auto" ? "2026-07-28/" : ""}tools-list.json`), "utf8"));
        delete fixture.resultType;
        expect(await sdk.listTools()).toEqual(fixture);
        expect(await sdk.callTool({ name: "greet", arguments: { name: "Ada", language: "fr" } })).toMatchObject({
          content: [{ type: "text", text: '{"greeting":"Bonjour, Ada!"}' }],
          structuredContent: { greeting: "Bonjour, Ada!" },
        });
      } finally {
        await sdk.close();
      }
    }, 60_000);
  }

  it("serves over Streamable HTTP on loopback, refusing a foreign Host", async () => {
    const child = spawn(process.execPath, ["dist/src/main.js", "--http", "0"], { cwd: app, env });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let err = "";
        child.stderr.on("data", (d) => {
          err += d;
          const m = /listening on (http:\/\/\S+)/.exec(err);
          if (m) resolve(m[1]!);
        });
        child.on("exit", () => reject(new Error(`server exited: ${err}`)));
      });
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
      for (const mode of ["legacy", "auto"] as const) {
        const sdk = new Client({ name: "new-user", version: "1.0.0" }, { versionNegotiation: { mode } });
        await sdk.connect(new StreamableHTTPClientTransport(new URL(url)));
        expect((await sdk.callTool({ name: "greet", arguments: { name: "Bob" } })).structuredContent).toEqual({ greeting: "Hello, Bob!" });
        await sdk.close();
      }
      // fetch cannot set Host (a forbidden header), node:http can: a DNS-rebinding page would.
      const status = await new Promise<number | undefined>((resolve, reject) => {
        const req = request(url, { method: "POST", headers: { host: "evil.example", "content-type": "application/json" } }, (res) => {
          res.resume();
          resolve(res.statusCode);
        });
        req.on("error", reject);
        req.end('{"jsonrpc":"2.0","id":1,"method":"tools/list"}');
      });
      expect(status).toBe(403);
    } finally {
      child.kill();
    }
  }, 60_000);

  it("follows the README's tutorial: the tool added to the YAML gets a stub on build, and answers once written", async () => {
    const readme = readFileSync(path.join(ROOT, "README.md"), "utf8");
    const tutorial = readme.slice(readme.indexOf("## Your first server"), readme.indexOf("## A tour"));
    expect(tutorial).toContain("init weather && cd weather && npm install");
    // The YAML block (indented under its list item) and the handler line, as the README writes them.
    const yaml = /```yaml\n([\s\S]*?) {3}```/
      .exec(tutorial)![1]!
      .split("\n")
      .map((line) => line.slice(3))
      .join("\n");
    const handler = /``(export const forecast[\s\S]*?)``/.exec(tutorial)![1]!.trim();
    const manifest = path.join(app, "manifests/app.yaml");
    writeFileSync(manifest, readFileSync(manifest, "utf8").replace("\nresources:", `${yaml}\nresources:`));
    const build = runBoth(NPM, ["run", "build"], app);
    expect(`${build.stdout}${build.stderr}`).toContain(
      'created src/handlers/app/tools/forecast.ts: a handler to write (it throws "not implemented" until you do)',
    );
    const stub = path.join(app, "src/handlers/app/tools/forecast.ts");
    const text = readFileSync(stub, "utf8");
    writeFileSync(stub, `${text.slice(0, text.indexOf("export const forecast"))}${handler}\n`);
    expect(run(NPM, ["test"], app)).toMatch(/# pass 3\n# fail 0/);
    // What the Inspector and Claude Desktop do: start it with node over stdio, and call the tool.
    const sdk = new Client({ name: "tutorial", version: "1.0.0" });
    await sdk.connect(new StdioClientTransport({ command: process.execPath, args: ["dist/src/main.js"], cwd: app, env }));
    try {
      expect((await sdk.callTool({ name: "forecast", arguments: { city: "Paris" } })).structuredContent).toEqual({ summary: "Sunny in Paris" });
    } finally {
      await sdk.close();
    }
  }, 300_000);

  it("stops with the message, not a stack trace, when MCP_REQUEST_STATE_SECRET is weak", () => {
    let failure: { status: number | null; stderr: string } | undefined;
    try {
      execFileSync(process.execPath, ["dist/src/main.js", "--http", "0"], {
        cwd: app,
        env: { ...env, MCP_REQUEST_STATE_SECRET: "k".repeat(40) },
        encoding: "utf8",
        stdio: ["ignore", "pipe", "pipe"],
        timeout: 30_000,
      });
    } catch (error) {
      failure = error as { status: number | null; stderr: string };
    }
    expect(failure?.status).toBe(1);
    expect(failure?.stderr).toMatch(/MCP_REQUEST_STATE_SECRET/);
    expect(failure?.stderr).not.toMatch(/\n\s+at /);
  }, 60_000);
});
