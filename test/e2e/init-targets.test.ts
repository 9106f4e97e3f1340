/**
 * `mcpgen init --target deno|bun|lambda|workers --auth`: each project as its platform runs it. The
 * packages are linked (no install), a second tool `enabled: false` added to the manifest, and the
 * project built as `npm run build` does (TypeScript 7, with the runtime's entry left to its
 * runtime). Each, trusting a development authorization server started here, answers the SDK v2
 * Client in both eras: no token 401, a token without the scope 403 insufficient_scope; with it
 * the greeting, bad arguments refused with ajv's words, the resource read, the prompt got, and the
 * disabled tool answered as unknown. Served:
 *
 * - deno, bun: `src/main.ts --http PORT` on the real runtime from npm (test/helpers/runtimes.ts);
 *   stdio too. `deno task check` type-checks the Deno entry with Deno's TypeScript.
 * - lambda: the built `dist/src/lambda.js` handler, invoked with function URL events (the shapes
 *   of @types/aws-lambda).
 * - workers: `src/worker.ts` bundled as wrangler bundles a Worker (jose in the bundle) and run on
 *   workerd (miniflare), its variables as bindings; workerd compiles no code from strings.
 */
import { execFileSync, type ChildProcess } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import type { LambdaFunctionURLEvent, LambdaFunctionURLResult } from "aws-lambda";
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { startDevAuthServer, type DevAuthServer } from "../../src/commands/auth/devServer.js";
import { mcpgen } from "../helpers/cli.js";
import { freePort } from "../helpers/ports.js";
import { spawnUntil } from "../helpers/process.js";
import { installBun, installDeno, installMiniflare } from "../helpers/runtimes.js";
import { bundleWorker, startWorker } from "../helpers/workerd.js";
import { linkStarterPackages, tempProject } from "../helpers/tmp.js";

type Target = "deno" | "bun" | "lambda" | "workers";

/** The function URL the Lambda project answers at (its events name it). */
const LAMBDA_DOMAIN = "abcdefghij.lambda-url.eu-west-1.on.aws";
const LAMBDA_URL = `https://${LAMBDA_DOMAIN}/mcp`;

const children: ChildProcess[] = [];
let parent: string;
let authServer: DevAuthServer;

beforeAll(async () => {
  parent = tempProject();
  // Any loopback resource (each server says its own with MCP_AUTH_RESOURCE), and the function URL.
  authServer = await startDevAuthServer({
    port: 0,
    resources: [
      { resource: "http://127.0.0.1/mcp", scopes: ["greet"] },
      { resource: LAMBDA_URL, scopes: ["greet"] },
    ],
  });
}, 60_000);

afterAll(async () => {
  for (const child of children) child.kill();
  await authServer?.close();
});

/** A tool off at start, added to the starter's manifest: it must answer as unknown. */
const DISABLED_TOOL = `  - name: farewell
    description: Says goodbye; off at start.
    enabled: false
    inputSchema: {type: object}
`;

/** `mcpgen init <target> --target <target> --auth`, with the disabled tool, generated, linked and built: its folder. */
function project(target: Target): string {
  const r = mcpgen(["init", target, "--target", target, "--auth", "--mcpgen", "file:../mcpgen"], parent);
  expect(r.stderr).toBe("");
  expect(r.code).toBe(0);
  const dir = path.join(parent, target);
  const manifest = path.join(dir, `manifests/${target}.yaml`);
  writeFileSync(manifest, readFileSync(manifest, "utf8").replace("\nresources:", `${DISABLED_TOOL}\nresources:`));
  const generated = mcpgen(["generate"], dir);
  expect(generated.code, generated.stderr).toBe(0);
  linkStarterPackages(dir);
  execFileSync(process.execPath, [path.join(dir, "node_modules/typescript/bin/tsc"), "-p", "tsconfig.json"], { cwd: dir });
  return dir;
}

/** The environment that makes a server trust the development authorization server and answer at `resource`. */
const authEnv = (resource: string) => ({ MCP_AUTH_ISSUER: authServer.issuer, MCP_AUTH_JWKS_URI: authServer.jwksUri, MCP_AUTH_RESOURCE: resource });

/**
 * What one SDK Client in `mode` gets with this token from the server named `name`: refused (the
 * HTTP status, or the error's name), or the greeting, bad arguments, the resource, the prompt and
 * the disabled tool.
 */
async function session(name: string, transport: StreamableHTTPClientTransport, mode: "legacy" | "auto"): Promise<unknown> {
  const sdk = new Client({ name: "targets", version: "1" }, { versionNegotiation: { mode } });
  try {
    await sdk.connect(transport);
    const result = await sdk.callTool({ name: "greet", arguments: { name: "Ada" } });
    const refused = await sdk.callTool({ name: "greet", arguments: { name: 3 } });
    const about = await sdk.readResource({ uri: `${name}://about` });
    const prompt = await sdk.getPrompt({ name: "welcome", arguments: { name: "Ada" } });
    const disabled = await sdk.callTool({ name: "farewell", arguments: {} }).then(
      (answer) => answer.content,
      (error: { code?: number; message?: string }) => ({ code: error.code, message: error.message }),
    );
    return {
      era: sdk.getProtocolEra(),
      result: result.structuredContent ?? result.content,
      refused: refused.content,
      about: about.contents,
      prompt: prompt.messages,
      disabled,
    };
  } catch (error) {
    // No token: the HTTP status; a token without the scope: the SDK's InsufficientScopeError (HTTP 403, insufficient_scope).
    const e = error as { data?: { status?: number }; code?: number; name?: string };
    return { refused: e.data?.status ?? e.code ?? e.name };
  } finally {
    await sdk.close().catch(() => {});
  }
}

/** The three answers each era gets from the server named `name` at `url`: no token, a token without the scope, a token with it. */
async function guarded(name: string, url: string, fetch?: typeof globalThis.fetch) {
  const resource = url;
  const withToken = (token: string | undefined) =>
    new StreamableHTTPClientTransport(new URL(url), {
      ...(fetch ? { fetch } : {}),
      ...(token === undefined ? {} : { requestInit: { headers: { authorization: `Bearer ${token}` } } }),
    });
  const answers: Record<string, unknown> = {};
  for (const mode of ["legacy", "auto"] as const) {
    answers[mode] = [
      await session(name, withToken(undefined), mode),
      await session(name, withToken(await authServer.token({ resource, scopes: [] })), mode),
      await session(name, withToken(await authServer.token({ resource, scopes: ["greet"] })), mode),
    ];
  }
  return answers;
}

/** The starter's answers with a token that has the scope, from the server named `name`. */
const SERVED = (name: string, era: string) => ({
  era,
  result: { greeting: "Hello, Ada! (asked by mcpgen-dev)" },
  refused: [{ type: "text", text: "Invalid arguments for tool greet: Property 'name' must be string" }],
  about: [{ uri: `${name}://about`, mimeType: "text/plain", text: `${name.charAt(0).toUpperCase()}${name.slice(1)}: a server generated by mcpgen.` }],
  prompt: [{ role: "user", content: { type: "text", text: "Write a one-line welcome for Ada." } }],
  disabled: { code: -32602, message: "Unknown tool: farewell" },
});
/** No token: 401 at connect (2025) or at the call; a token without the scope: 403 insufficient_scope. */
const REFUSED = [{ refused: 401 }, { refused: "InsufficientScopeError" }];
const want = (name: string) => ({ legacy: [...REFUSED, SERVED(name, "legacy")], auto: [...REFUSED, SERVED(name, "modern")] });

describe.each(["deno", "bun"] as const)("init --target %s", (target) => {
  let dir: string;
  let program: string;
  beforeAll(() => {
    program = target === "deno" ? installDeno() : installBun();
    dir = project(target);
  }, 300_000);

  /** The project's start command on its runtime (what `deno task start` / `npm start` run), with `args`. */
  const command = (args: string[]): [string, string[]] =>
    target === "deno" ? [program, ["task", "--quiet", "start", ...args]] : [program, ["run", "src/main.ts", ...args]];

  it("serves Streamable HTTP from the fetch handler: no token 401, without the scope 403, with it the server, in both eras", async () => {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}/mcp`;
    const [cmd, args] = command(["--http", String(port)]);
    await spawnUntil(cmd, args, { cwd: dir, env: { ...process.env, ...authEnv(url), NO_COLOR: "1" }, line: `${target} listening on ${url}` }, children);
    expect(await guarded(target, url)).toEqual(want(target));
  });

  it("serves stdio (which checks no token)", async () => {
    const [cmd, args] = command([]);
    const sdk = new Client({ name: "targets", version: "1" });
    await sdk.connect(new StdioClientTransport({ command: cmd, args, cwd: dir, env: { ...process.env, NO_COLOR: "1" } as Record<string, string> }));
    expect((await sdk.callTool({ name: "greet", arguments: { name: "Ada" } })).structuredContent).toEqual({ greeting: "Hello, Ada!" });
    await sdk.close();
  });

  if (target === "deno")
    it("deno task check type-checks the entry with Deno's own TypeScript", () => {
      const out = execFileSync(program, ["task", "--quiet", "check"], { cwd: dir, env: { ...process.env, NO_COLOR: "1" }, encoding: "utf8", stdio: "pipe" });
      expect(out).toBe("");
    });
});

describe("init --target workers", () => {
  it("the Worker, bundled as wrangler bundles it, on workerd: no token 401, without the scope 403, with it the server, in both eras", async () => {
    const dir = project("workers");
    // The Worker's URL is its resource: the port is chosen before it starts.
    const port = await freePort();
    const url = `http://127.0.0.1:${port}/mcp`;
    const worker = await startWorker(installMiniflare(), await bundleWorker(path.join(dir, "src/worker.ts")), { port, bindings: authEnv(url) });
    onTestFinished(() => worker.dispose());
    expect(worker.url).toBe(url);
    expect(await guarded("workers", url)).toEqual(want("workers"));
  }, 120_000);
});

describe("init --target lambda", () => {
  it("the built handler, invoked with function URL events: no token 401, without the scope 403, with it the server, in both eras", async () => {
    const dir = project("lambda");
    const domain = LAMBDA_DOMAIN;
    const url = LAMBDA_URL;
    // The function's environment; the handler reads it at its first request.
    const saved = { ...process.env };
    Object.assign(process.env, authEnv(url));
    onTestFinished(() => {
      for (const name of Object.keys(authEnv(url))) {
        if (saved[name] === undefined) delete process.env[name];
        else process.env[name] = saved[name];
      }
    });
    const { handler } = (await import(pathToFileURL(path.join(dir, "dist/src/lambda.js")).href)) as {
      handler: (event: LambdaFunctionURLEvent) => Promise<Exclude<LambdaFunctionURLResult, string>>;
    };
    // A function URL's event for each request, and its result as the Response.
    const viaLambda = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
      const request = new Request(input, init);
      const headers: Record<string, string> = { host: domain };
      request.headers.forEach((value, name) => (headers[name] = value));
      const body = request.body ? await request.text() : undefined;
      const result = await handler({
        version: "2.0",
        routeKey: "$default",
        rawPath: new URL(request.url).pathname,
        rawQueryString: "",
        headers,
        requestContext: {
          accountId: "anonymous",
          apiId: "abcdefghij",
          domainName: domain,
          domainPrefix: "abcdefghij",
          http: { method: request.method, path: "/mcp", protocol: "HTTP/1.1", sourceIp: "203.0.113.7", userAgent: "test" },
          requestId: "r",
          routeKey: "$default",
          stage: "$default",
          time: "07/Dec/2026:15:00:00 +0000",
          timeEpoch: 1796655600000,
        },
        ...(body === undefined ? {} : { body }),
        isBase64Encoded: false,
      });
      const status = result.statusCode ?? 200;
      return new Response(status === 202 || status === 204 ? null : (result.body ?? ""), { status, headers: result.headers as Record<string, string> });
    };
    expect(await guarded("lambda", url, viaLambda as typeof globalThis.fetch)).toEqual(want("lambda"));
  });
});
