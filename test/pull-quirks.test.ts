/**
 * `mcpgen pull` against what published servers do: a list method they lack (-32601), tool schemas
 * without `type: "object"`, a banner on stdout, an exit at start, no 2026-07-28 under --era modern.
 * Each server is a small node script written into the test's folder.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { serveToo } from "./helpers/manifests.js";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { mcpgen, ROOT } from "./helpers/cli.js";
import { linkNodeModules, tempProject } from "./helpers/tmp.js";
import { tsc, writeTsconfig } from "./helpers/tsc.js";
import { rawSession } from "./helpers/wire.js";

const node = process.execPath;
const TSX = path.join(ROOT, "node_modules/tsx/dist/esm/index.mjs");

interface Fake {
  capabilities?: Record<string, unknown>;
  tools?: unknown[];
  resources?: unknown[];
  /** JavaScript run before the server reads stdin (a banner, an exit). */
  prelude?: string;
}

/**
 * A 2025-11-25 server over stdio: it answers initialize, tools/list and resources/list as told,
 * tools/call with its arguments as JSON text, and -32601 Method not found to anything else.
 */
function fakeServer(dir: string, file: string, fake: Fake): string {
  const script = `${fake.prelude ?? ""}
import { createInterface } from "node:readline";
const tools = ${JSON.stringify(fake.tools ?? [])};
const resources = ${JSON.stringify(fake.resources ?? [])};
const send = (message) => process.stdout.write(JSON.stringify({ jsonrpc: "2.0", ...message }) + "\\n");
createInterface({ input: process.stdin }).on("line", (line) => {
  const m = JSON.parse(line);
  if (m.id === undefined) return;
  if (m.method === "initialize") return send({ id: m.id, result: { protocolVersion: "2025-11-25", capabilities: ${JSON.stringify(fake.capabilities ?? { tools: {} })}, serverInfo: { name: "quirky", version: "1.0.0" } } });
  if (m.method === "tools/list") return send({ id: m.id, result: { tools } });
  if (m.method === "resources/list") return send({ id: m.id, result: { resources } });
  if (m.method === "tools/call") return send({ id: m.id, result: { content: [{ type: "text", text: JSON.stringify(m.params.arguments ?? null) }] } });
  send({ id: m.id, error: { code: -32601, message: "Method not found" } });
});
`;
  writeFileSync(path.join(dir, file), script);
  return path.join(dir, file);
}

/**
 * Compiles `use.ts`, `serve.ts` and the generated code under the strict flags into dist/, the
 * libraries' declarations checked too; what tsc says and its exit status.
 */
function compile(dir: string, use: string): { status: number | null; output: string } {
  writeFileSync(path.join(dir, "use.ts"), use);
  writeTsconfig(dir, { include: ["use.ts", "serve.ts", "generated/**/*.ts"], compilerOptions: { noEmit: false, outDir: "dist", skipLibCheck: false } });
  return tsc(dir);
}

const UNTYPED_TOOLS = [
  { name: "anything", description: "Takes whatever.", inputSchema: { $schema: "http://json-schema.org/draft-07/schema#" } },
  { name: "shaped", inputSchema: { properties: { q: { type: "string" } }, required: ["q"], additionalProperties: false } },
  { name: "plain", inputSchema: { type: "object", properties: { n: { type: "number" } } } },
];

describe("pull: a list method the server lacks", () => {
  it("takes -32601 Method not found as an empty list, warns naming the method and the server, and writes the manifest", () => {
    const dir = tempProject({ "package.json": "{}" });
    const server = fakeServer(dir, "server.mjs", {
      capabilities: { tools: {}, resources: {}, prompts: {} },
      tools: [UNTYPED_TOOLS[2]],
      resources: [{ uri: "mem://a", name: "a" }],
    });
    const r = mcpgen(["pull", "-o", "m.yaml", "--", node, server], dir);
    expect(r.stderr).toBe(
      [
        `mcpgen: warning: quirky (\`${node} ${server}\`) declares \`resources\` but answers resources/templates/list with -32601 Method not found: taken as no resource templates`,
        `mcpgen: warning: quirky (\`${node} ${server}\`) declares \`prompts\` but answers prompts/list with -32601 Method not found: taken as no prompts`,
        "",
      ].join("\n"),
    );
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(
      "mcpgen: wrote m.yaml from quirky (1 tool, 1 resource, 0 templates, 0 prompts, MCP 2025-11-25). It is client-only (its header says so): `mcpgen generate` writes its types, client and fixtures, no server and no handler stubs.\n",
    );
    const text = readFileSync(path.join(dir, "m.yaml"), "utf8");
    expect(text).toContain("resources:\n  - uri: mem://a\n    name: a\n");
    expect(text).not.toMatch(/resourceTemplates|prompts:/);
  });
});

describe('pull: tool schemas without type "object"', () => {
  it("pulls with one warning per problem, naming the tools; types the arguments as the schema admits; compiles under strict; serves each schema verbatim", () => {
    const dir = tempProject({ "package.json": '{"name":"app","private":true,"type":"module"}' });
    linkNodeModules(dir);
    const server = fakeServer(dir, "server.mjs", { tools: UNTYPED_TOOLS });
    const r = mcpgen(["pull", "-o", "manifests/quirky.yaml", "--", node, server], dir);
    expect(r.stderr).toBe(
      [
        `mcpgen: -- ${node} ${server}: warning schema-not-object: inputSchema has no type, not "object" as MCP asks; the upstream server serves it so: it is kept as it came, and the arguments are typed as an open record (any properties)`,
        "  in what quirky serves: inputSchema of tool `anything`",
        `mcpgen: -- ${node} ${server}: warning schema-not-object: inputSchema has no type, not "object" as MCP asks; the upstream server serves it so: it is kept as it came, and the arguments are typed as the object its properties describe`,
        "  in what quirky serves: inputSchema of tool `shaped`",
        "",
      ].join("\n"),
    );
    expect(r.code).toBe(0);

    // Generating warns at the written file, says the server is the cause, and writes server and
    // client (a server too: the client-only line deleted, as the header says).
    serveToo(path.join(dir, "manifests/quirky.yaml"));
    const gen = mcpgen(["generate"], dir);
    expect(gen.code).toBe(0);
    expect(gen.stderr).toMatch(
      /^manifests\/quirky\.yaml:\d+:\d+: warning schema-not-object: inputSchema has no type, not "object" as MCP asks; the upstream server serves it so/,
    );
    const types = readFileSync(path.join(dir, "generated/quirky/types.ts"), "utf8");
    expect(types).toContain("export interface AnythingInput {\n  [key: string]: unknown;\n}");
    expect(types).toContain("export interface ShapedInput {\n  q: string;\n}");
    // The fixtures (what the generated server lists) hold each definition byte for byte.
    const listed = JSON.parse(readFileSync(path.join(dir, "generated/quirky/fixtures/tools-list.json"), "utf8")) as { tools: unknown[] };
    expect(JSON.stringify(listed.tools)).toBe(JSON.stringify(UNTYPED_TOOLS));

    // The typed client compiles under strict, refuses a call without `q`, and reaches the server.
    writeFileSync(path.join(dir, "serve.ts"), SERVE);
    expect(compile(dir, `${USE_CLIENT}\n// @ts-expect-error q is required\nvoid (() => client.shaped({}));\n`)).toEqual({ status: 0, output: "" });
    const out = execFileSync(node, ["dist/use.js", server], { cwd: dir, encoding: "utf8", timeout: 30_000 });
    expect(JSON.parse(out)).toEqual({ anything: '{"any":[1,2]}', shaped: '{"q":"x"}', plain: "{}" });

    // The generated server serves the schemas as they came: pulled back, the same manifest. Over
    // 2026-07-28 the SDK's client refuses such a list, and pull says what to do instead.
    const serve = ["--", node, "--import", TSX, path.join(dir, "serve.ts")];
    const modern = mcpgen(["pull", "-o", "again.yaml", ...serve], dir);
    expect(modern.code).toBe(1);
    expect(modern.stderr).toContain(
      'failed: Invalid result for tools/list: tools.0.inputSchema.type: Invalid input: expected "object"; tools.1.inputSchema.type: Invalid input: expected "object" (under MCP 2026-07-28, the SDK\'s client checks each list against the spec and cannot read it as sent: pull with --era legacy, which reads the lists verbatim)',
    );
    const again = mcpgen(["pull", "--era", "legacy", "-o", "again.yaml", ...serve], dir);
    expect(again.code).toBe(0);
    const body = (file: string) => readFileSync(path.join(dir, file), "utf8").replace(/^(#[^\n]*\n)+/, "");
    expect(body("again.yaml")).toBe(body("manifests/quirky.yaml"));
  }, 120_000);

  it("stays an error in a manifest written by hand", () => {
    const dir = tempProject({
      "m.yaml": "server: {name: s, version: 1.0.0}\ntools:\n  - name: anything\n    inputSchema: {$schema: 'http://json-schema.org/draft-07/schema#'}\n",
    });
    expect(mcpgen(["validate", "m.yaml"], dir)).toMatchObject({
      code: 1,
      stderr: expect.stringContaining(
        "m.yaml:4:18: error schema-not-object: tools[0].inputSchema has no type: add `type: object` (MCP clients reject tool input schemas without it)",
      ),
    });
  });

  it("what cannot be compiled is named by tool, never by a line of the file it does not write", () => {
    const dir = tempProject({});
    const server = fakeServer(dir, "server.mjs", {
      tools: [{ name: "bad", inputSchema: { type: "object", properties: { q: { type: "string", pattern: "(" } } } }],
    });
    const r = mcpgen(["pull", "-o", "m.yaml", "--", node, server], dir);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /^mcpgen: -- \S+ \S+: error invalid-schema: pattern "\(" is not a valid regular expression: .*\n {2}in what quirky serves: inputSchema\.properties\.q\.pattern of tool `bad`\nmcpgen: what quirky serves cannot be compiled as it is \(above\); m\.yaml not written\./,
    );
    expect(r.stderr).not.toMatch(/\.yaml:\d+:\d+/);
    expect(existsSync(path.join(dir, "m.yaml"))).toBe(false);
  });
});

describe("pull: a server that does not start as MCP over stdio", () => {
  it("a banner on stdout: says so, with the line escaped and cut", () => {
    const dir = tempProject({});
    const banner = `\\u001b[1mWelcome\\u001b[0m to the server \\u202e${"=".repeat(300)}`;
    const server = fakeServer(dir, "banner.mjs", {
      prelude: `process.stdout.write("${banner}\\n");\nsetInterval(() => {}, 1000);\nawait new Promise(() => {});`,
    });
    for (const era of ["auto", "legacy"]) {
      const r = mcpgen(["pull", "--era", era, "--timeout", "2000", "-o", "m.yaml", "--", node, server], dir);
      expect(r.code, era).toBe(1);
      expect(r.stderr, era).toBe(
        `mcpgen: -- ${node} ${server}: error server-failed: connecting to \`${node} ${server}\` failed: no answer to the handshake within 2000 ms\n` +
          `the server wrote to stdout a line that is not JSON-RPC: "\\u001b[1mWelcome\\u001b[0m to the server \\u202e${"=".repeat(129)}" (cut)\n` +
          "(over stdio, stdout carries JSON-RPC messages only: a banner or log lines belong on stderr; look for a quiet or stdio option of the server)\n",
      );
    }
  }, 30_000);

  it("an exit at start: its exit code and the end of its stderr, in every era", () => {
    const dir = tempProject({});
    const server = fakeServer(dir, "exit.mjs", { prelude: 'console.error("fatal: KUBECONFIG is not set");\nprocess.exit(3);' });
    const tail = "\nthe server's stderr ended with:\n  fatal: KUBECONFIG is not set\n";
    for (const era of ["auto", "legacy"]) {
      expect(mcpgen(["pull", "--era", era, "--", node, server], dir)).toMatchObject({
        code: 1,
        stderr: `mcpgen: -- ${node} ${server}: error server-failed: connecting to \`${node} ${server}\` failed: the server's process exited with code 3 before it answered${tail}`,
      });
    }
    expect(mcpgen(["pull", "--era", "modern", "--", node, server], dir)).toMatchObject({
      code: 1,
      stderr: `mcpgen: -- ${node} ${server}: error server-failed: connecting to \`${node} ${server}\` failed: the server's process exited with code 3 when asked for MCP 2026-07-28 (server/discover); --era modern pulls only servers that speak MCP 2026-07-28: run without --era (2026-07-28 where offered, else the 2025-11-25 handshake) or with --era legacy${tail}`,
    });
  }, 30_000);

  it("--era modern against a 2025 server says what to run instead (no SDK jargon)", () => {
    const dir = tempProject({});
    const server = fakeServer(dir, "legacy.mjs", { tools: [UNTYPED_TOOLS[2]] });
    const r = mcpgen(["pull", "--era", "modern", "--", node, server], dir);
    expect(r).toMatchObject({
      code: 1,
      stderr: `mcpgen: -- ${node} ${server}: error server-failed: connecting to \`${node} ${server}\` failed: the server does not offer MCP 2026-07-28 (it did not answer server/discover with it); --era modern pulls only servers that speak MCP 2026-07-28: run without --era (2026-07-28 where offered, else the 2025-11-25 handshake) or with --era legacy\n`,
    });
    expect(mcpgen(["pull", "-o", "m.yaml", "--", node, server], dir)).toMatchObject({ code: 0 });
  }, 30_000);
});

const USE_CLIENT = `import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { createClient } from "./generated/quirky/index.js";

const sdk = new Client({ name: "use", version: "1.0.0" });
const client = createClient(sdk);
if (process.argv[2]) {
  await sdk.connect(new StdioClientTransport({ command: process.execPath, args: [process.argv[2]], stderr: "ignore" }));
  const text = (r: { content: { type: string }[] }) => (r.content[0] as { type: "text"; text: string }).text;
  try {
    const result = { anything: text(await client.anything({ any: [1, 2] })), shaped: text(await client.shaped({ q: "x" })), plain: text(await client.plain()) };
    process.stdout.write(JSON.stringify(result));
  } finally {
    await sdk.close();
  }
}`;

const SERVE = `import { serveStdio } from "./generated/quirky/serve.js";

await serveStdio({
  tools: {
    anything: async (args) => JSON.stringify(args),
    shaped: async ({ q }) => q,
    plain: async ({ n }) => String(n),
  },
});
`;

describe("pull: a $ref that points into the schema itself", () => {
  it('takes `$ref: "#/properties/x"` with a warning, types it as unknown, and the generated server checks it as JSON Schema says', async () => {
    const dir = tempProject({ "package.json": '{"name":"app","private":true,"type":"module"}' });
    linkNodeModules(dir);
    const tools = [{ name: "pair", inputSchema: { type: "object", properties: { x: { type: "string" }, y: { $ref: "#/properties/x" } } } }];
    const server = fakeServer(dir, "server.mjs", { tools });
    const r = mcpgen(["pull", "-o", "manifests/quirky.yaml", "--", node, server], dir);
    expect(r.stderr).toBe(
      `mcpgen: -- ${node} ${server}: warning unsupported-ref: $ref "#/properties/x" points into the schema itself, which mcpgen does not type; the upstream server serves it so: it is kept as it came and checked as JSON Schema says, and the value it describes is typed as unknown\n  in what quirky serves: inputSchema.properties.y.$ref of tool \`pair\`\n`,
    );
    expect(r.code).toBe(0);
    serveToo(path.join(dir, "manifests/quirky.yaml"));
    const gen = mcpgen(["generate"], dir);
    expect(gen.code).toBe(0);
    expect(readFileSync(path.join(dir, "generated/quirky/types.ts"), "utf8")).toContain("y?: unknown;");
    // The config entry the upstream note suggests is one the config takes.
    expect(gen.stderr).toContain('"diagnostics": {"manifests/quirky.yaml":{"unsupported-ref":"off"}}');
    writeFileSync(path.join(dir, "mcpgen.config.json"), JSON.stringify({ diagnostics: { "manifests/quirky.yaml": { "unsupported-ref": "off" } } }));
    expect(mcpgen(["generate"], dir)).toMatchObject({ code: 0, stderr: "" });

    const { createServerFactory } = (await import(path.join(dir, "generated/quirky/index.ts"))) as { createServerFactory: (h: object) => never };
    const session = await rawSession(createServerFactory({ tools: { pair: async (args: object) => JSON.stringify(args) } }));
    try {
      const ok = await session.request("tools/call", { name: "pair", arguments: { x: "a", y: "b" } });
      expect(ok.result).toMatchObject({ content: [{ type: "text", text: '{"x":"a","y":"b"}' }] });
      const refused = await session.request("tools/call", { name: "pair", arguments: { x: "a", y: 5 } });
      expect(refused.result).toMatchObject({ isError: true, content: [{ type: "text", text: expect.stringContaining("'y' must be string") }] });
    } finally {
      await session.close();
    }
  }, 120_000);

  it("stays an error in a manifest written by hand, and for a pointer that names nothing", () => {
    const dir = tempProject({
      "m.yaml":
        "server: {name: s, version: 1.0.0}\ntools:\n  - name: pair\n    inputSchema: {type: object, properties: {x: {type: string}, y: {$ref: '#/properties/x'}}}\n",
    });
    expect(mcpgen(["validate", "m.yaml"], dir)).toMatchObject({
      code: 1,
      stderr: expect.stringContaining('error unsupported-ref: $ref "#/properties/x" is not supported'),
    });
    const server = fakeServer(dir, "server.mjs", {
      tools: [{ name: "pair", inputSchema: { type: "object", properties: { y: { $ref: "#/properties/nothing" } } } }],
    });
    const r = mcpgen(["pull", "-o", "p.yaml", "--", node, server], dir);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('error unsupported-ref: $ref "#/properties/nothing" is not supported');
  });
});
