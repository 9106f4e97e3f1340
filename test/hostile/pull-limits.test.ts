/**
 * `mcpgen pull` against servers that send too much: an answer of 400 MB, one that never ends, pages
 * without end, more definitions than any real server has, a server that quits. Each stops with a
 * message that names the limit and how to raise it, exit 1, no file written, in bounded memory:
 * the CLI runs with a 256 MB JavaScript heap and reports its peak resident memory, which must stay
 * under 512 MiB (before these limits the same pulls ran out of a 4 GB heap or wrote the 400 MB).
 */
import { spawn } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { Budget, LimitError, pullLimits } from "../../src/commands/pull/limits.js";
import { parseSize } from "../../src/common/size.js";
import { fitStdio, LineBuffer } from "../../src/commands/pull/stdio.js";
import { mcpgen, ROOT } from "../helpers/cli.js";
import { tempProject } from "../helpers/tmp.js";

const FLOOD = fileURLToPath(new URL("../servers/flood-stdio.mjs", import.meta.url));
const BIN = path.join(ROOT, "dist/cli/bin.js");
const node = process.execPath;
const MiB = 1024 * 1024;
/** Printed by the CLI process as it exits: its peak resident memory (kilobytes, from the kernel). */
const PEAK = `data:text/javascript,process.on("exit",()=>process.stderr.write("peak-rss-kb="+process.resourceUsage().maxRSS+"\\n"))`;

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
  peakMiB: number;
  seconds: number;
}

/** `mcpgen pull ARGS` in `cwd`, with a 256 MB heap, its peak memory measured. */
function pull(args: string[], cwd: string, env: Record<string, string> = {}): Promise<Run> {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(node, ["--max-old-space-size=256", `--import=${PEAK}`, BIN, "pull", "--timeout", "60000", ...args], {
      cwd,
      env: { ...process.env, ...env },
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("close", (code) => {
      const peak = /peak-rss-kb=(\d+)\n/.exec(stderr);
      resolve({
        code,
        stdout,
        stderr: stderr.replace(/peak-rss-kb=\d+\n/, ""),
        peakMiB: peak ? Number(peak[1]) / 1024 : Infinity,
        seconds: (Date.now() - started) / 1000,
      });
    });
  });
}

/** Stopped with `message`, exit 1, nothing written, within a minute and 512 MiB. */
function expectStopped(run: Run, dir: string, message: string): void {
  expect(run.stderr).toBe(`${message}\n`);
  expect(run.code).toBe(1);
  expect(readdirSync(dir).filter((f) => f !== "package.json" && f !== "node_modules")).toEqual([]);
  expect(run.seconds).toBeLessThan(60);
  expect(run.peakMiB).toBeLessThan(512);
}

/**
 * A Streamable HTTP server (2025-11-25, no SDK) whose tools/list is too much: `chunked` streams 400 MB
 * without a length, `declared` says Content-Length 400 MB, `sse` sends one 400 MB event, `loop`
 * pages 20 MB pages without end, `many` pages 1000 small tools without end.
 */
async function floodHttp(mode: "chunked" | "declared" | "sse" | "loop" | "many"): Promise<{ url: string; close(): Promise<void> }> {
  const tool = (name: string, size: number) => JSON.stringify({ name, description: "x".repeat(size), inputSchema: { type: "object" } });
  const answer = (res: ServerResponse, message: { id?: unknown; method?: string; params?: { cursor?: string } }) => {
    const json = (body: unknown) =>
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ jsonrpc: "2.0", id: message.id, ...(body as object) }));
    if (message.id === undefined) return void res.writeHead(202).end();
    if (message.method === "initialize")
      return json({ result: { protocolVersion: "2025-11-25", capabilities: { tools: {} }, serverInfo: { name: "flood-http", version: "1.0.0" } } });
    if (message.method !== "tools/list") return json({ error: { code: -32601, message: "Method not found" } });
    const page = Number(message.params?.cursor ?? 0);
    if (mode === "loop")
      return json({ result: { tools: Array.from({ length: 20 }, (_, i) => JSON.parse(tool(`p${page}_${i}`, MiB))), nextCursor: String(page + 1) } });
    if (mode === "many")
      return json({ result: { tools: Array.from({ length: 1000 }, (_, i) => JSON.parse(tool(`p${page}_${i}`, 10))), nextCursor: String(page + 1) } });
    // 400 MB, made as it is sent (so this test process stays small), until the client hangs up.
    const total = 400_000_000;
    const sse = mode === "sse";
    res.writeHead(200, { "content-type": sse ? "text/event-stream" : "application/json", ...(mode === "declared" ? { "content-length": String(total) } : {}) });
    const head = `${sse ? "event: message\ndata: " : ""}{"jsonrpc":"2.0","id":${JSON.stringify(message.id)},"result":{"tools":[`;
    res.write(head);
    let sent = head.length;
    let i = 0;
    let open = true;
    res.on("close", () => (open = false));
    const pump = () => {
      while (open && sent < total) {
        const chunk = `${i++ ? "," : ""}${tool(`t${i}`, 4000)}`;
        sent += chunk.length;
        if (!res.write(chunk)) return void res.once("drain", pump);
      }
      if (open) res.end(`]}}${sse ? "\n\n" : ""}`);
    };
    pump();
  };
  const server = createServer((req, res) => {
    if (req.method !== "POST") return void res.writeHead(405).end();
    let body = "";
    req.on("data", (d) => (body += d));
    req.on("end", () => answer(res, JSON.parse(body)));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe("mcpgen pull stops at its limits (HTTP)", () => {
  const answerTooLarge = (url: string, said = "") =>
    `mcpgen: ${url}: error server-failed: tools/list on ${url} failed: an answer is larger than 32 MiB${said}, the most pull reads in one answer (--max-bytes 32MiB); ${said ? "--max-bytes goes up to 256MiB, less than this answer" : "if the server really sends that much, pull again with --max-bytes 64MiB"}`;

  it.each([
    ["a 400 MB answer without a length", "chunked" as const, ""],
    ["a 400 MB answer that says so (refused before reading it)", "declared" as const, " (it says 400000000 bytes)"],
    ["a 400 MB event on an SSE stream", "sse" as const, ""],
  ])(
    "%s",
    async (_name, mode, said) => {
      const server = await floodHttp(mode);
      try {
        const dir = tempProject({ "package.json": "{}" });
        expectStopped(await pull(["--era", "legacy", server.url], dir), dir, answerTooLarge(server.url, said));
      } finally {
        await server.close();
      }
    },
    90_000,
  );

  it("pages of 20 MB without end: stops when they add up to twice --max-bytes", async () => {
    const server = await floodHttp("loop");
    try {
      const dir = tempProject({ "package.json": "{}" });
      expectStopped(
        await pull(["--era", "legacy", server.url], dir),
        dir,
        `mcpgen: ${server.url}: error server-failed: tools/list on ${server.url} failed: the server's answers add up to more than 64 MiB, the most pull reads from one server (twice --max-bytes 32MiB); if the server really sends that much, pull again with --max-bytes 64MiB`,
      );
    } finally {
      await server.close();
    }
  }, 90_000);

  it("pages of 1000 tools without end: stops past 100000 definitions", async () => {
    const server = await floodHttp("many");
    try {
      const dir = tempProject({ "package.json": "{}" });
      expectStopped(
        await pull(["--era", "legacy", server.url], dir),
        dir,
        `mcpgen: ${server.url}: error server-failed: tools/list on ${server.url} failed: the server lists more than 100000 definitions (tools, resources, templates and prompts together), the most pull reads (--max-items 100000); if it really serves that many, pull again with --max-items 200000`,
      );
    } finally {
      await server.close();
    }
  }, 90_000);

  it("--max-bytes and --max-items lower (or raise) the limits, and the header's Update line keeps them", async () => {
    const server = await floodHttp("many");
    try {
      const dir = tempProject({ "package.json": "{}" });
      const run = await pull(["--era", "legacy", "--max-bytes", "64K", server.url], dir);
      expectStopped(
        run,
        dir,
        `mcpgen: ${server.url}: error server-failed: tools/list on ${server.url} failed: an answer is larger than 64 KiB, the most pull reads in one answer (--max-bytes 64KiB); if the server really sends that much, pull again with --max-bytes 128KiB`,
      );
      const items = await pull(["--era", "legacy", "--max-items", "2500", server.url], dir);
      expectStopped(
        items,
        dir,
        `mcpgen: ${server.url}: error server-failed: tools/list on ${server.url} failed: the server lists more than 2500 definitions (tools, resources, templates and prompts together), the most pull reads (--max-items 2500); if it really serves that many, pull again with --max-items 5000`,
      );
    } finally {
      await server.close();
    }
    const dir = tempProject({ "package.json": "{}" });
    const raw = fileURLToPath(new URL("../servers/raw-stdio.mjs", import.meta.url));
    expect(await pull(["-o", "raw.yaml", "--max-bytes", "1048576", "--max-items", "50", "--", node, raw], dir)).toMatchObject({ code: 0, stderr: "" });
    expect(readFileSync(path.join(dir, "raw.yaml"), "utf8").split("\n")[1]).toBe(
      `# Update it with: mcpgen pull -o raw.yaml --max-bytes 1MiB --max-items 50 -- ${node} ${raw}`,
    );
  }, 90_000);
});

describe("mcpgen pull stops at its limits (stdio)", () => {
  const where = `\`${node} ${FLOOD}\``;

  it("an answer that never ends: says the line is too long instead of Connection closed", async () => {
    const dir = tempProject({ "package.json": "{}" });
    expectStopped(
      await pull(["--", node, FLOOD], dir, { FLOOD_MODE: "line" }),
      dir,
      `mcpgen: -- ${node} ${FLOOD}: error server-failed: tools/list on ${where} failed: a line of the server's stdout (one answer) is longer than 32 MiB, the most pull reads in one answer (--max-bytes 32MiB); if the server really sends that much, pull again with --max-bytes 64MiB`,
    );
  }, 90_000);

  it("a 300,000-tool page (45 MB on one line)", async () => {
    const dir = tempProject({ "package.json": "{}" });
    expectStopped(
      await pull(["--era", "legacy", "--", node, FLOOD], dir, { FLOOD_TOOLS: "300000" }),
      dir,
      `mcpgen: -- ${node} ${FLOOD}: error server-failed: tools/list on ${where} failed: a line of the server's stdout (one answer) is longer than 32 MiB, the most pull reads in one answer (--max-bytes 32MiB); if the server really sends that much, pull again with --max-bytes 64MiB`,
    );
  }, 90_000);

  it("pages of 20 MB without end", async () => {
    const dir = tempProject({ "package.json": "{}" });
    expectStopped(
      await pull(["--era", "legacy", "--", node, FLOOD], dir, { FLOOD_MODE: "loop" }),
      dir,
      `mcpgen: -- ${node} ${FLOOD}: error server-failed: tools/list on ${where} failed: the server's answers add up to more than 64 MiB, the most pull reads from one server (twice --max-bytes 32MiB); if the server really sends that much, pull again with --max-bytes 64MiB`,
    );
  }, 90_000);

  it("a server that quits: says its exit code instead of Connection closed", async () => {
    const dir = tempProject({ "package.json": "{}" });
    const run = await pull(["--", node, FLOOD], dir, { FLOOD_MODE: "exit" });
    expectStopped(
      run,
      dir,
      `mcpgen: -- ${node} ${FLOOD}: error server-failed: tools/list on ${where} failed: the server's process exited with code 7 before it answered`,
    );
  }, 90_000);

  it("a 100,000-tool page (15 MB on one line, past the SDK's 10 MB) is pulled whole", async () => {
    const dir = tempProject({ "package.json": "{}" });
    const run = await pull(["-o", "flood.yaml", "--", node, FLOOD], dir);
    expect(run).toMatchObject({
      code: 0,
      stderr: "",
      stdout:
        "mcpgen: wrote flood.yaml from flood (100000 tools, 0 resources, 0 templates, 0 prompts, MCP 2025-11-25). It is client-only (its header says so): `mcpgen generate` writes its types, client and fixtures, no server and no handler stubs.\n",
    });
    expect(readFileSync(path.join(dir, "flood.yaml"), "utf8")).toContain("  - name: t99999\n");
    expect(run.peakMiB).toBeLessThan(1024);
  }, 120_000);
});

/**
 * A 2025-11-25 stdio server whose one tool's inputSchema nests `properties.x` DEPTH times (written
 * as text, so any depth can be sent).
 */
const DEEP_SERVER = `import { createInterface } from "node:readline";
const depth = Number(process.env.DEPTH);
const schema = '{"type":"object","properties":{"x":'.repeat(depth) + '{"type":"string"}' + "}}".repeat(depth);
const send = (text) => process.stdout.write(text + "\\n");
createInterface({ input: process.stdin }).on("line", (line) => {
  const m = JSON.parse(line);
  if (m.id === undefined) return;
  const id = JSON.stringify(m.id);
  if (m.method === "initialize") return send('{"jsonrpc":"2.0","id":' + id + ',"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"deep","version":"1.0.0"}}}');
  if (m.method === "tools/list") return send('{"jsonrpc":"2.0","id":' + id + ',"result":{"tools":[{"name":"nested","inputSchema":' + schema + '}]}}');
  send('{"jsonrpc":"2.0","id":' + id + ',"error":{"code":-32601,"message":"Method not found"}}');
});
`;

describe("mcpgen pull stops at its depth limit", () => {
  const tooDeep = (server: string, depth: number, more: number) =>
    [
      `mcpgen: -- ${node} ${server}: error too-deep: nested deeper than ${depth} levels (objects and arrays inside one another), the most pull writes (--max-depth ${depth}); ${depth < 512 ? `if the server really serves this, pull again with --max-depth ${depth * 2} (at most 512)` : "mcpgen cannot write definitions deeper than 512 levels; please report it with the server"}`,
      `  in what deep serves: inputSchema.properties.x.properties.x.properties (and ${more} levels more) of tool \`nested\``,
      "mcpgen: deep.yaml not written.",
      "",
    ].join("\n");

  it.each([
    [500, 256, 250],
    [100_000, 256, 250],
    [300, 512, 506],
  ])(
    "a schema nested %i deep, --max-depth %i: a message naming the tool and the path, exit 1, nothing written, no stack trace",
    async (nesting, depth, more) => {
      const dir = tempProject({ "package.json": "{}", "deep.mjs": DEEP_SERVER });
      const server = path.join(dir, "deep.mjs");
      const run = await pull(["-o", "deep.yaml", ...(depth === 256 ? [] : ["--max-depth", String(depth)]), "--", node, server], dir, {
        DEPTH: String(nesting),
      });
      expect(run.stderr).toBe(tooDeep(server, depth, more));
      expect(run.code).toBe(1);
      expect(readdirSync(dir).sort()).toEqual(["deep.mjs", "node_modules", "package.json"]);
    },
    90_000,
  );

  it("a schema nested 255 deep (512 levels) pulls with --max-depth 512, checks up to date, and the manifest generates", async () => {
    const dir = tempProject({ "package.json": "{}", "deep.mjs": DEEP_SERVER });
    const server = path.join(dir, "deep.mjs");
    const args = ["-o", "deep.yaml", "--max-depth", "512", "--", node, server];
    expect(await pull(args, dir, { DEPTH: "255" })).toMatchObject({ code: 0, stderr: "" });
    expect(readFileSync(path.join(dir, "deep.yaml"), "utf8").split("\n")[1]).toBe(
      `# Update it with: mcpgen pull -o deep.yaml --max-depth 512 -- ${node} ${server}`,
    );
    expect(await pull(["--check", ...args], dir, { DEPTH: "255" })).toMatchObject({ code: 0, stderr: "" });
    // Changed upstream: --check compares the two deep schemas (a recursive diff), and says what changed.
    const changed = await pull(["--check", ...args], dir, { DEPTH: "254" });
    expect(changed.code).toBe(1);
    expect(changed.stderr).toContain("input-changed");
    expect(mcpgen(["generate", "--manifests", "deep.yaml", "--out", "out"], dir)).toMatchObject({ code: 0, stderr: "" });
  }, 120_000);
});

describe("limits: units", () => {
  it.each([
    ["33554432", 32 * MiB],
    ["32MiB", 32 * MiB],
    ["32M", 32 * MiB],
    ["32mb", 32 * MiB],
    ["512KiB", 512 * 1024],
    ["1G", 1024 * MiB],
    ["100B", 100],
    ["32 MiB", 32 * MiB],
    ["-1", undefined],
    ["1.5M", undefined],
    ["32TiB", undefined],
    ["lots", undefined],
  ])("parseSize(%j)", (given, want) => {
    expect(parseSize(given)).toBe(want);
  });

  const lines = (chunks: string[], limits = pullLimits(16)) => {
    const buffer = new LineBuffer(new Budget(limits), (line) => JSON.parse(line) as unknown);
    const out: unknown[] = [];
    for (const chunk of chunks) {
      buffer.append(Buffer.from(chunk));
      for (let m = buffer.readMessage(); m !== null; m = buffer.readMessage()) out.push(m);
    }
    return out;
  };

  it.each([
    ["lines split across chunks", ['{"a":', "1}\n{", '"b":2}\n'], [{ a: 1 }, { b: 2 }]],
    ["several lines in one chunk, CRLF", ['{"a":1}\r\n{"b":2}\n{"c"', ":3}\n"], [{ a: 1 }, { b: 2 }, { c: 3 }]],
    ["lines that are not JSON are skipped", ["log: starting\n", '{"a":1}\n'], [{ a: 1 }]],
    ["a line of exactly the limit", ['{"a":"01234567"}\n'], [{ a: "01234567" }]],
  ])("LineBuffer: %s", (_name, chunks, want) => {
    expect(lines(chunks)).toEqual(want);
  });

  it("LineBuffer: a line past the limit throws once, even split across chunks, and the rest is dropped", () => {
    const buffer = new LineBuffer(new Budget(pullLimits(16)), (line) => JSON.parse(line) as unknown);
    buffer.append(Buffer.from('{"a":"01234'));
    expect(() => buffer.append(Buffer.from('56789"}\n'))).toThrow(LimitError);
    expect(() => buffer.append(Buffer.from('{"b":1}\n'))).not.toThrow();
    expect(buffer.readMessage()).toBeNull();
  });

  it("LineBuffer: all lines together past twice the limit throw", () => {
    expect(() => lines(Array.from({ length: 5 }, () => '{"a":"012345"}\n'))).toThrow(/add up to more than 32 bytes/);
  });

  it("the SDK's stdio transport still has the fields pull fits (else answers past 10 MB fail as Connection closed)", async () => {
    const { StdioClientTransport } = await import("@modelcontextprotocol/client/stdio");
    const transport = new StdioClientTransport({ command: node, args: ["-e", ""] });
    expect("_readBuffer" in transport).toBe(true);
    fitStdio(transport, new Budget(pullLimits()), () => null);
    expect((transport as unknown as { _readBuffer: unknown })._readBuffer).toBeInstanceOf(LineBuffer);
    await transport.start();
    expect((transport as unknown as { _process?: unknown })._process).toBeDefined();
    await transport.close();
  });

  it("usage errors for the limits exit 2", async () => {
    const dir = tempProject({});
    for (const [args, message] of [
      [["--max-bytes", "0"], '--max-bytes takes a size in bytes, or with K, M or G (64MiB, 64M), not "0"'],
      [["--max-bytes", "lots"], '--max-bytes takes a size in bytes, or with K, M or G (64MiB, 64M), not "lots"'],
      [["--max-bytes", "1G"], "--max-bytes is at most 256MiB (a larger answer cannot be parsed in memory), not 1G"],
      [["--max-items", "-3"], "--max-items takes a positive whole number"],
      [["--max-depth", "0"], '--max-depth takes a whole number from 1 to 512 (deeper cannot be written), not "0"'],
      [["--max-depth", "513"], '--max-depth takes a whole number from 1 to 512 (deeper cannot be written), not "513"'],
    ] as const) {
      const run = await pull([...args, "--", node, FLOOD], dir);
      expect(run.code, args.join(" ")).toBe(2);
      expect(run.stderr).toContain(`mcpgen: ${message}\n`);
    }
    expect(existsSync(path.join(dir, "manifests"))).toBe(false);
  });
});
