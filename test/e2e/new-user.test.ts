/**
 * What a new user does: pack mcpgen, `mcpgen init` a project with it, install, build, test, then
 * start the server over stdio and over Streamable HTTP and call its tool with the official SDK
 * Client. Slow (real npm installs from the registry), so it runs once, in sequence.
 */
import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
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

describe("a new user", () => {
  const app = path.join(work, "app");
  let tarball = "";

  it("packs mcpgen and runs `mcpgen init` from the package", () => {
    run(NPM, ["pack", "--pack-destination", work, "--silent"], ROOT);
    tarball = path.join(
      work,
      readdirSync(work).find((f) => f.endsWith(".tgz"))!,
    );
    const out = run(NPM, ["exec", "--yes", `--package=${tarball}`, "--", "mcpgen", "init", "app"], work);
    expect(out).toContain("mcpgen: created app in app");
  }, 300_000);

  it("installs as init left it (mcpgen packed into vendor/), builds (prebuild regenerates) and passes the project's own tests", () => {
    expect(JSON.parse(readFileSync(path.join(app, "package.json"), "utf8")).devDependencies.mcpgen).toBe("file:vendor/mcpgen-0.1.0.tgz");
    run(NPM, ["install", "--no-audit", "--no-fund"], app);
    run(NPM, ["run", "build"], app);
    const test = run(NPM, ["test"], app);
    expect(test).toMatch(/# pass 3\n# fail 0/);
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
