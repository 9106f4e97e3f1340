/**
 * `mcpgen mock`: every tool of the bundled manifests answered through the official SDK v2 Client
 * over stdio (the built binary) and Streamable HTTP (startMock), in both protocol eras, with
 * outputs the generated validators accept; the generated typed client against a mocked server;
 * seeds, examples, latency, fail-rate, and the same errors as a real server.
 */
import { spawn } from "node:child_process";
import * as path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { startMock, type MockOptions } from "../../src/commands/mock/server.js";
import { Random } from "../../src/commands/mock/random.js";
import { generateValue } from "../../src/commands/mock/values.js";
import { ajvValidators } from "../../packages/runtime/src/shared/ajvValidators.js";
import type { SchemaValidators } from "../../packages/runtime/src/shared/validation.js";
import type { ServerDefinition, WireTool } from "../../packages/runtime/src/shared/definition.js";
import { definition as notesDefinition } from "../../generated/notes-server/definition.js";
import { definition as conformanceDefinition } from "../../generated/mcp-conformance-test-server/definition.js";
import { definition as giftDefinition } from "../../examples/gift-server/generated/gift-server/definition.js";
import { createClient as notesClient } from "../../generated/notes-server/index.js";
import { createClient as giftClient, createServerFactory as giftFactory } from "../../examples/gift-server/generated/gift-server/index.js";
import { giftHandlers } from "../servers/gift.js";
import { connectInMemory, ERAS, type Era } from "../helpers/connect.js";
import { mcpgen, ROOT } from "../helpers/cli.js";
import { tempProject } from "../helpers/tmp.js";

const BIN = path.join(ROOT, "dist/cli/bin.js");
const MANIFESTS: [string, string, ServerDefinition][] = [
  ["notes-server", "manifests/notes-server.yaml", notesDefinition],
  ["mcp-conformance-test-server", "manifests/conformance.yaml", conformanceDefinition],
  ["gift-server", "examples/gift-server/manifests/gift-server.yaml", giftDefinition],
];

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (closers.length) await closers.pop()!();
});

/** A client of the mock over Streamable HTTP (startMock in this process). */
async function overHttp(manifest: string, era: Era, options: Partial<MockOptions> = {}): Promise<Client> {
  const result = await startMock({ manifests: [path.join(ROOT, manifest)], cwd: ROOT, transport: { kind: "http", port: 0 }, ...options });
  if (!result.ok) throw new Error(`not served: ${JSON.stringify(result.diagnostics)} ${result.problem ?? ""}`);
  closers.push(() => result.close());
  const sdk = new Client({ name: "mock-test", version: "1" }, { versionNegotiation: { mode: era === "modern" ? "auto" : "legacy" } });
  await sdk.connect(new StreamableHTTPClientTransport(new URL(result.servers[0]!.url!)));
  closers.push(() => sdk.close());
  expect(sdk.getProtocolEra()).toBe(era);
  return sdk;
}

/** A client of `mcpgen mock` over stdio (the built binary, as users run it). */
async function overStdio(manifest: string, era: Era, args: string[] = []): Promise<Client> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, "mock", manifest, ...args], cwd: ROOT, stderr: "pipe" });
  const sdk = new Client({ name: "mock-test", version: "1" }, { versionNegotiation: { mode: era === "modern" ? "auto" : "legacy" } });
  await sdk.connect(transport);
  closers.push(() => sdk.close());
  expect(sdk.getProtocolEra()).toBe(era);
  return sdk;
}

/** Arguments the tool's inputSchema accepts (made by the mock's own generator, checked by the server's validators). */
function validArguments(tool: WireTool, validators: SchemaValidators): Record<string, unknown> {
  for (let seed = 0; seed < 100; seed++) {
    const args = generateValue(tool.inputSchema, new Random("args", tool.name, seed));
    if (validators.check(tool.inputSchema, args) === undefined) return args as Record<string, unknown>;
  }
  throw new Error(`no arguments for ${tool.name}`);
}

/** Tools a plain call can reach: `taskSupport: required` ones answer only task-augmented calls (as on a real server). */
const callable = (definition: ServerDefinition) => definition.tools.filter((t) => definition.taskSupport?.[t.name] !== "required");

describe.each(ERAS)("mcpgen mock (%s era)", (era: Era) => {
  for (const [name, manifest, definition] of MANIFESTS) {
    for (const transport of ["stdio", "http"] as const) {
      it(`answers every tool of ${name} over ${transport} with output its generated validators accept`, async () => {
        const sdk = transport === "http" ? await overHttp(manifest, era) : await overStdio(manifest, era);
        const validators = ajvValidators(definition.patterns);
        // The client checks structuredContent against outputSchema itself once it has listed the tools.
        expect((await sdk.listTools()).tools.map((t) => t.name)).toEqual(definition.tools.map((t) => t.name));
        for (const tool of callable(definition)) {
          const result = await sdk.callTool({ name: tool.name, arguments: validArguments(tool, validators) });
          expect(result.isError ?? false, `${tool.name}: ${JSON.stringify(result)}`).toBe(false);
          if (tool.outputSchema) expect(validators.check(tool.outputSchema, result.structuredContent), tool.name).toBeUndefined();
          else expect((result.content as { type: string }[])[0]?.type, tool.name).toBe("text");
        }
      });
    }
  }

  it("serves resources, templates and prompts: declared content, a text naming the URI, messages with the arguments filled in", async () => {
    const sdk = await overHttp("examples/gift-server/manifests/gift-server.yaml", era);
    for (const { resource, content } of giftDefinition.resources) {
      const read = await sdk.readResource({ uri: resource.uri });
      if (content && "text" in content) expect(read.contents[0]).toMatchObject({ uri: resource.uri, text: content.text });
      else expect(read.contents[0]).toMatchObject({ uri: resource.uri });
    }
    const template = giftDefinition.resourceTemplates[0];
    if (template) {
      const uri = template.uriTemplate.replace(/\{(\w+)\}/g, "v-$1");
      const read = await sdk.readResource({ uri });
      expect(JSON.stringify(read.contents[0])).toContain("v-");
    }
    expect((await sdk.getPrompt({ name: "gift_congrats_style", arguments: { tone: "funny" } })).messages).toEqual([
      { role: "user", content: { type: "text", text: "Write a short, funny birthday note to go with the gift." } },
    ]);
  });

  it("answers an example's result when the arguments equal the example's, and the generated typed client reads it", async () => {
    const sdk = await overStdio("examples/gift-server/manifests/gift-server.yaml", era);
    const client = giftClient(sdk);
    expect(await client.suggestGifts({ budget: 100, recipient: "friend who loves board games", occasion: "birthday" })).toEqual({
      gifts: [
        { name: "Board game: Catan", price: 45 },
        { name: "Dice set", price: 20 },
      ],
    });
    const other = await client.suggestGifts({ occasion: "wedding", budget: 30 });
    expect(giftDefinition.tools[0]!.outputSchema && ajvValidators().check(giftDefinition.tools[0]!.outputSchema, other)).toBeUndefined();
    const notes = notesClient(await overHttp("manifests/notes-server.yaml", era));
    expect(await notes.createNote({ title: "Groceries", body: "milk", tags: ["home"] })).toEqual({
      id: "n1",
      title: "Groceries",
      body: "milk",
      tags: ["home"],
    });
    const made = await notes.searchNotes({ query: "x" });
    expect(Array.isArray(made.notes)).toBe(true);
  });

  it("gives the same answer for the same seed, tool and arguments, and another for another seed", async () => {
    const call = async (sdk: Client) => (await sdk.callTool({ name: "search_notes", arguments: { query: "q" } })).structuredContent;
    const a = await overHttp("manifests/notes-server.yaml", era, { seed: 42 });
    const b = await overStdio("manifests/notes-server.yaml", era, ["--seed", "42"]);
    const first = await call(a);
    expect(await call(a)).toEqual(first);
    expect(await call(b)).toEqual(first);
    const others = await Promise.all([7, 8, 9].map(async (seed) => JSON.stringify(await call(await overHttp("manifests/notes-server.yaml", era, { seed })))));
    expect(others.some((o) => o !== JSON.stringify(first))).toBe(true);
  });

  it("answers invalid arguments as the real server does (tool error, or -32602 with protocol-error)", async () => {
    const bad = { name: "suggest_gifts", arguments: { occasion: "x" } };
    const real = await connectInMemory(giftFactory(giftHandlers), { era });
    closers.push(real.close);
    const mocked = await overHttp("examples/gift-server/manifests/gift-server.yaml", era);
    const expected = await real.sdk.callTool(bad);
    expect(expected.isError).toBe(true);
    expect(await mocked.callTool(bad)).toEqual(expected);
    await expect(mocked.callTool({ name: "nope", arguments: {} })).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining("Unknown tool: nope"),
    });
    const strict = await overHttp("examples/gift-server/manifests/gift-server.yaml", era, { invalidArguments: "protocol-error" });
    await expect(strict.callTool(bad)).rejects.toMatchObject({ code: -32602, message: expect.stringContaining("Missing required property 'budget'") });
  });
});

describe("mcpgen mock of several servers over HTTP", () => {
  it("serves each manifest at its own URL, each with its own tools", async () => {
    const manifests = ["manifests/notes-server.yaml", "examples/gift-server/manifests/gift-server.yaml"].map((m) => path.join(ROOT, m));
    const result = await startMock({ manifests, cwd: ROOT, transport: { kind: "http", port: 0 } });
    if (!result.ok) throw new Error(`not served: ${result.problem ?? ""}`);
    closers.push(() => result.close());
    expect(result.servers.map((s) => s.name).sort()).toEqual(["gift-server", "notes-server"]);
    const urls = result.servers.map((s) => s.url);
    expect(new Set(urls).size).toBe(2);
    for (const served of result.servers) {
      const sdk = new Client({ name: "mock-test", version: "1" });
      await sdk.connect(new StreamableHTTPClientTransport(new URL(served.url!)));
      closers.push(() => sdk.close());
      const names = (await sdk.listTools()).tools.map((t) => t.name);
      expect(names).toContain(served.name === "gift-server" ? "suggest_gifts" : "folder_tree");
      expect(names).not.toContain(served.name === "gift-server" ? "folder_tree" : "suggest_gifts");
    }
  });
});

describe("mcpgen mock options", () => {
  it("waits --latency before each tool call (a lower bound only)", async () => {
    const sdk = await overHttp("manifests/notes-server.yaml", "legacy", { latencyMs: 300 });
    const started = performance.now();
    await sdk.callTool({ name: "folder_tree", arguments: {} });
    expect(performance.now() - started).toBeGreaterThanOrEqual(295);
  });

  it("fails the --fail-rate fraction of tool calls with a tool error that says it is mocked", async () => {
    const all = await overHttp("manifests/notes-server.yaml", "legacy", { failRate: 1 });
    const failed = await all.callTool({ name: "folder_tree", arguments: {} });
    expect(failed).toMatchObject({ isError: true, content: [{ type: "text", text: "Mocked failure of tool folder_tree (mcpgen mock --fail-rate 1)" }] });
    const half = await overHttp("manifests/notes-server.yaml", "legacy", { failRate: 0.5, seed: 3 });
    let errors = 0;
    for (let i = 0; i < 100; i++) if ((await half.callTool({ name: "folder_tree", arguments: {} })).isError) errors++;
    expect(errors).toBeGreaterThan(25);
    expect(errors).toBeLessThan(75);
    const none = await overHttp("manifests/notes-server.yaml", "legacy", { failRate: 0 });
    for (let i = 0; i < 20; i++) expect((await none.callTool({ name: "folder_tree", arguments: {} })).isError ?? false).toBe(false);
  });

  it("refuses bad option values with a usage error (exit 2), and invalid manifests with validate's diagnostics (exit 1)", async () => {
    const run = (args: string[]) =>
      new Promise<{ code: number | null; stderr: string }>((resolve) => {
        const child = spawn(process.execPath, [BIN, "mock", ...args], { cwd: ROOT });
        let stderr = "";
        child.stderr.on("data", (d) => (stderr += d));
        child.stdin.end();
        child.on("close", (code) => resolve({ code, stderr }));
      });
    for (const [args, message] of [
      [["--fail-rate", "2"], '--fail-rate takes a fraction from 0 to 1 (0.25 fails one call in four), not "2"'],
      [["--latency", "-5"], '--latency takes milliseconds from 0 to 600000, not "-5"'],
      [["--seed", "x1"], '--seed takes an integer, not "x1"'],
      [["--http", "70000"], '--http takes a port from 0 to 65535, not "70000"'],
      [["--host", "0.0.0.0"], "--host goes with --http"],
    ] as const)
      expect(await run([...args]), args.join(" ")).toEqual({ code: 2, stderr: `mcpgen: ${message}\nRun \`mcpgen mock --help\` for usage.\n` });
    const several = await run(["manifests"]);
    expect(several.code).toBe(2);
    expect(several.stderr).toContain(
      "stdio serves one server, and the manifests hold 2 (mcp-conformance-test-server, notes-server): choose one with --server NAME",
    );
    const dir = tempProject({ "package.json": "{}", "bad.yaml": "server: {name: bad}\ntools:\n  - {name: t, inputSchema: {type: string}}\n" });
    const invalid = await run([path.join(dir, "bad.yaml")]);
    const validated = mcpgen(["validate", path.join(dir, "bad.yaml")], ROOT);
    expect(invalid.code).toBe(1);
    expect(validated.code).toBe(1);
    const diagnosticLines = (text: string) => text.split("\n").filter((line) => /: (error|warning) /.test(line));
    expect(diagnosticLines(invalid.stderr).length).toBeGreaterThan(0);
    expect(diagnosticLines(invalid.stderr)).toEqual(diagnosticLines(validated.stderr));
  });

  it("warns mock-unmockable for an outputSchema it cannot satisfy (its calls answer a tool error), and falls back to the schema's examples", async () => {
    const manifest = `server: {name: hard, version: 1.0.0}
tools:
  - name: code
    inputSchema: {type: object}
    outputSchema:
      type: object
      properties: {code: {type: string, pattern: "^(?=.*[0-9])[a-z0-9]{8}$"}}
      required: [code]
  - name: with_example
    inputSchema: {type: object}
    outputSchema:
      type: object
      properties: {code: {type: string, pattern: "^(?=.*[0-9])[a-z0-9]{8}$"}}
      required: [code]
      examples: [{code: abc12345}]
`;
    const dir = tempProject({ "package.json": "{}", "hard.yaml": manifest });
    const result = await startMock({ manifests: [path.join(dir, "hard.yaml")], cwd: dir, transport: { kind: "http", port: 0 } });
    if (!result.ok) throw new Error(JSON.stringify(result));
    closers.push(() => result.close());
    expect(result.diagnostics.map((d) => [d.code, d.severity, d.path, d.line])).toEqual([["mock-unmockable", "warning", "tools[0].outputSchema", 5]]);
    expect(result.diagnostics[0]!.message).toContain(
      "mcpgen mock cannot make an output of tool code that matches its outputSchema (pattern ^(?=.*[0-9])[a-z0-9]{8}$: a lookahead",
    );
    const sdk = new Client({ name: "mock-test", version: "1" });
    await sdk.connect(new StreamableHTTPClientTransport(new URL(result.servers[0]!.url!)));
    closers.push(() => sdk.close());
    const failed = await sdk.callTool({ name: "code", arguments: {} });
    expect(failed.isError).toBe(true);
    expect(JSON.stringify(failed.content)).toContain("mcpgen mock cannot make an output of tool code");
    expect((await sdk.callTool({ name: "with_example", arguments: {} })).structuredContent).toEqual({ code: "abc12345" });
  });
});
