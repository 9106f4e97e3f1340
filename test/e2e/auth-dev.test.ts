/**
 * The authorization dev loop as a new user runs it: a fresh `mcpgen init --auth` project, built;
 * `mcpgen auth dev` (the built binary, in the project); the server started as its README says,
 * pointed at that issuer; `mcpgen auth token` for a scope; the protected tool called over HTTP by
 * the SDK client with the token, by the SDK client through its own OAuth flow (registration,
 * login, consent), and by the MCP Inspector CLI (the version the docs name: 403 naming the scope
 * without it, then the call with it). The starter's own test (in memory, then over HTTP with
 * tokens from the same development server) passes. In the `network` project: the Inspector comes
 * from the npm registry (test/helpers/inspector.ts).
 */
import { execFile, execFileSync, spawn, type ChildProcess } from "node:child_process";
import { createServer } from "node:net";
import * as path from "node:path";
import { Client, StreamableHTTPClientTransport, UnauthorizedError } from "@modelcontextprotocol/client";
import { decodeJwt } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mcpgen, ROOT } from "../helpers/cli.js";
import { INSPECTOR_CLI, installInspector } from "../helpers/inspector.js";
import { MemoryOAuthProvider } from "../helpers/oauthClient.js";
import { linkStarterPackages, tempProject } from "../helpers/tmp.js";
import { untilValue } from "../helpers/wait.js";

const BIN = path.join(ROOT, "dist/cli/bin.js");
let dir: string;
let node22: string;
const children: ChildProcess[] = [];
let issuer: string;
let serverUrl: string;
let serverOutput: () => string;
let authOutput: () => string;

/** A child process and what it prints, both streams. */
function start(command: string, args: string[], env: Record<string, string> = {}): { child: ChildProcess; output: () => string } {
  const child = spawn(command, args, { cwd: dir, env: { ...process.env, ...env } });
  let text = "";
  child.stdout!.on("data", (chunk: Buffer) => (text += chunk.toString("utf8")));
  child.stderr!.on("data", (chunk: Buffer) => (text += chunk.toString("utf8")));
  children.push(child);
  return { child, output: () => text };
}

const printed = (output: () => string, pattern: RegExp) =>
  untilValue(output, (text) => pattern.test(text), `output matching ${pattern}`, { timeout: 30_000 }).then((text) => text.match(pattern)!);

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer().listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
    probe.on("error", reject);
  });
}

/** `mcpgen auth token ...` in the project: the token it prints. */
function token(args: string[]): string {
  const r = mcpgen(["auth", "token", ...args], dir);
  expect(r.stderr).toBe("");
  expect(r.code).toBe(0);
  return r.stdout.trim();
}

beforeAll(async () => {
  node22 = installInspector();
  const parent = tempProject();
  expect(mcpgen(["init", "guard", "--auth", "--mcpgen", "file:../mcpgen"], parent).code).toBe(0);
  dir = path.join(parent, "guard");
  // The packages, linked (no install); built as `npm run build` does.
  linkStarterPackages(dir);
  execFileSync(process.execPath, [path.join(dir, "node_modules/typescript/bin/tsc"), "-p", "tsconfig.json"], { cwd: dir });

  // `npm run auth`, on a free port here: the manifest names 9000, so the banner says how to point the server at it.
  const auth = start(process.execPath, [BIN, "auth", "dev", "--port", "0"]);
  authOutput = auth.output;
  const [, env] = await printed(auth.output, /start it with (MCP_AUTH_ISSUER=\S+ MCP_AUTH_JWKS_URI=\S+)/);
  const vars = Object.fromEntries(env!.split(" ").map((pair) => pair.split("=") as [string, string]));
  issuer = vars["MCP_AUTH_ISSUER"]!;
  expect(auth.output()).toContain(`mcpgen auth dev: an authorization server for development at ${issuer}`);
  expect(auth.output()).toContain("guard: tokens for http://127.0.0.1:3000/mcp with scopes greet");

  // `npm start -- --http PORT`, answering at its resource.
  const port = await freePort();
  serverUrl = `http://127.0.0.1:${port}/mcp`;
  const server = start(process.execPath, ["dist/src/main.js", "--http", String(port)], { ...vars, MCP_AUTH_RESOURCE: serverUrl });
  await printed(server.output, /guard listening on/);
  serverOutput = server.output;
}, 300_000);

afterAll(() => {
  for (const child of children) child.kill("SIGTERM");
});

function inspector(args: string[]): Promise<{ code: number; out: string }> {
  return new Promise((resolve) =>
    execFile(
      node22,
      [INSPECTOR_CLI, "--cli", serverUrl, "--transport", "http", ...args],
      { timeout: 60_000, env: { ...process.env, HOME: dir } },
      (error, stdout, stderr) => resolve({ code: typeof error?.code === "number" ? error.code : error ? -1 : 0, out: stdout + stderr }),
    ),
  );
}

describe("mcpgen auth dev", () => {
  it("auth token prints a token for the resource and scopes asked; the server takes it from the SDK client", async () => {
    const granted = token(["--scope", "greet", "--resource", serverUrl]);
    expect(decodeJwt(granted)).toMatchObject({ iss: issuer, aud: serverUrl, scope: "greet", client_id: "mcpgen-dev", sub: "mcpgen-dev" });
    const client = new Client({ name: "t", version: "1" });
    await client.connect(new StreamableHTTPClientTransport(new URL(serverUrl), { requestInit: { headers: { authorization: `Bearer ${granted}` } } }));
    const result = await client.callTool({ name: "greet", arguments: { name: "Ada" } });
    expect(result.structuredContent).toEqual({ greeting: "Hello, Ada! (asked by mcpgen-dev)" });
    await client.close();
    // A scope the server does not have is said, not silently dropped.
    const r = mcpgen(["auth", "token", "--scope", "greet,admin", "--resource", serverUrl], dir);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe("mcpgen: the token lacks admin: the authorization server did not grant it (granted: greet)\n");
    // Answering at its resource, the server said nothing about it.
    expect(serverOutput()).not.toContain("auth.resource is");
  });

  it("the SDK client's own OAuth flow: it registers, the user logs in and consents, then greet answers", async () => {
    const provider = new MemoryOAuthProvider();
    const open = async () => {
      const client = new Client({ name: "oauth", version: "1" });
      await client.connect(new StreamableHTTPClientTransport(new URL(serverUrl), { authProvider: provider }));
      return client;
    };
    let client: Client;
    try {
      client = await open();
    } catch (e) {
      if (!(e instanceof UnauthorizedError)) throw e;
      await new StreamableHTTPClientTransport(new URL(serverUrl), { authProvider: provider }).finishAuth(provider.takeCallback());
      client = await open();
    }
    expect(provider.user.steps.filter((s) => s.startsWith("form:"))).toEqual(["form: login", "form: consent"]);
    expect(decodeJwt(provider.tokens()!.access_token)).toMatchObject({ iss: issuer, aud: serverUrl, sub: "alice" });
    const result = await client.callTool({ name: "greet", arguments: { name: "Ada" } });
    expect(result.structuredContent).toEqual({ greeting: "Hello, Ada! (asked by alice)" });
    await client.close();
    // oidc-provider's own notices (Node 20 unsupported, development features) are not shown: auth dev says what it is.
    expect(authOutput()).not.toMatch(/oidc-provider (WARNING|NOTICE)/);
  });

  it("the MCP Inspector CLI with the token: 403 naming the scope without it, the call with it", async () => {
    const call = ["--method", "tools/call", "--tool-name", "greet", "--tool-arg", "name=Ada"];
    const narrow = await inspector(["--header", `Authorization: Bearer ${token(["--resource", serverUrl])}`, ...call]);
    expect(narrow.code).toBe(1);
    expect(narrow.out).toMatch(/Insufficient scope: required.*greet/s);
    const granted = await inspector(["--header", `Authorization: Bearer ${token(["--scope", "greet", "--resource", serverUrl])}`, ...call]);
    expect(granted.code, granted.out).toBe(0);
    expect(granted.out).toContain("Hello, Ada! (asked by mcpgen-dev)");
  }, 120_000);

  it("the starter's own test passes: in memory, then over HTTP without a token, without the scope and with it", () => {
    const out = execFileSync(process.execPath, ["--test", "dist/test/server.test.js"], { cwd: dir, encoding: "utf8" });
    expect(out).toMatch(/ok 4 - over HTTP, greet needs a token, and one with the scope greet\n/);
    expect(out).toMatch(/# pass 4\n# fail 0/);
  }, 60_000);

  it("a server answering elsewhere than its auth.resource says so when it starts, naming both", async () => {
    const port = await freePort();
    const other = start(process.execPath, ["dist/src/main.js", "--http", String(port)]);
    await printed(other.output, /guard listening on/);
    expect(other.output()).toContain(
      `[mcpgen] guard: auth.resource is http://127.0.0.1:3000/mcp, but this server answers at http://127.0.0.1:${port}/mcp: tokens are issued for the resource and clients connect to the URL, so calls fail. Serve it there, or set MCP_AUTH_RESOURCE=http://127.0.0.1:${port}/mcp`,
    );
    other.child.kill("SIGTERM");
  });

  it("usage: an action is needed; a project without auth is told how to add it; no server answering is said", () => {
    expect(mcpgen(["auth"], dir)).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/^mcpgen: auth needs an action: dev \(start the server\) or token \(get a token\)/),
    });
    expect(mcpgen(["auth", "token", "--port", "1"], dir)).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/^mcpgen: --port is an option of auth dev, not of auth token/),
    });
    const plain = tempProject({ "manifests/s.yaml": "server: {name: s, version: '1'}\ntools:\n  - {name: t, inputSchema: {type: object}}\n" });
    expect(mcpgen(["auth", "dev"], plain)).toMatchObject({
      code: 1,
      stderr: expect.stringMatching(/^mcpgen: no manifest has auth \(1 read\): add an auth block/),
    });
    expect(mcpgen(["auth", "token", "--issuer", "http://127.0.0.1:9"], plain)).toMatchObject({
      code: 1,
      stderr: expect.stringMatching(/^mcpgen: no authorization server answers at http:\/\/127\.0\.0\.1:9 .*start one with `mcpgen auth dev`/),
    });
  });
});
