/**
 * The MCP Inspector CLI against a protected generated server (test/fixtures/auth/protected.yaml,
 * tokens from the test authorization server), with a bearer header: lists and calls with a good
 * token, the 403's scopes reported for a narrow one, and no header → it asks for authorization.
 * The Inspector and its Node 22 come from the npm registry (test/helpers/inspector.ts), which is
 * why this suite is in the `network` project.
 */
import { execFile } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startAuthServer, type AuthServer } from "../helpers/authServer.js";
import {
  allScopes,
  generateServers,
  pointedAt,
  readFixture,
  scopedTools,
  serveGenerated,
  type ScopedTool,
  type ServedServer,
} from "../helpers/authFixtures.js";
import { INSPECTOR_CLI, installInspector } from "../helpers/inspector.js";
import { tempProject } from "../helpers/tmp.js";

let as: AuthServer;
let server: ServedServer;
let narrow: ScopedTool;
let wide: ScopedTool;
let home: string;
/** The Node 22 that runs the Inspector. */
let node22: string;

beforeAll(async () => {
  node22 = installInspector();
  const fixture = readFixture("protected");
  as = await startAuthServer({ scopes: allScopes(fixture) });
  const manifest = pointedAt(fixture, as);
  server = await serveGenerated(generateServers([manifest])[manifest.server.name]!, manifest, as);
  ({ narrow, wide } = scopedTools(manifest));
  // The Inspector keeps state in ~/.mcp-inspector.
  home = tempProject();
}, 300_000);
afterAll(async () => {
  await server?.close();
  await as?.close();
});

function inspector(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) =>
    execFile(
      node22,
      [INSPECTOR_CLI, "--cli", server.url, "--transport", "http", ...args],
      { timeout: 60_000, env: { ...process.env, HOME: home } },
      (error, stdout, stderr) => resolve({ code: typeof error?.code === "number" ? error.code : error ? -1 : 0, stdout, stderr }),
    ),
  );
}

const bearer = (token: string) => ["--header", `Authorization: Bearer ${token}`];

describe("the MCP Inspector CLI with a bearer header", () => {
  it("lists the tools and calls one with a good token", async () => {
    const token = await as.clientCredentials(server.url, allScopes(server.manifest));
    const list = await inspector([...bearer(token), "--method", "tools/list"]);
    expect(list.code, list.stderr).toBe(0);
    expect((JSON.parse(list.stdout) as { tools: { name: string }[] }).tools.map((t) => t.name)).toEqual((server.manifest.tools ?? []).map((t) => t.name));
    const toolArgs = Object.entries(narrow.args).flatMap(([k, v]) => ["--tool-arg", `${k}=${typeof v === "string" ? v : JSON.stringify(v)}`]);
    const call = await inspector([...bearer(token), "--method", "tools/call", "--tool-name", narrow.tool, ...toolArgs]);
    expect(call.code, call.stderr).toBe(0);
    expect(call.stdout).toContain(narrow.tool);
  }, 120_000);

  it("reports the scopes a narrow token lacks, and asks for authorization without a header", async () => {
    const token = await as.clientCredentials(server.url, narrow.scopes);
    const before = server.seen.length;
    const refused = await inspector([...bearer(token), "--method", "tools/call", "--tool-name", wide.tool]);
    expect(refused.code).toBe(1);
    expect(refused.stdout + refused.stderr).toMatch(/Insufficient scope: required/);
    for (const s of wide.scopes) expect(refused.stdout + refused.stderr).toContain(s);
    const anonymous = await inspector(["--method", "tools/list"]);
    expect(anonymous.code).toBe(3);
    expect(anonymous.stdout + anonymous.stderr).toMatch(/auth_required/);
    expect(server.seen.length).toBe(before);
  }, 120_000);
});
