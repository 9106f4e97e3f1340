/**
 * `mcpgen trace` on stdio: the official SDK v2 Client launching the recorder in place of the gift
 * server gets the same answers as from the server itself, in both protocol eras; the bytes a client
 * receives are the server's bytes exactly; the trace holds every message in order; a recorder
 * that is killed ends the client's pending request (no hang) and takes the server down with it;
 * messages too large to hold (over stdio and HTTP, a body or an event) are recorded whole.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { ERAS, type Era } from "../helpers/connect.js";
import { tempProject } from "../helpers/tmp.js";
import { BIN, GIFT_STDIO, readTrace, startHttpTrace } from "../helpers/trace.js";
import { envelope } from "../helpers/wire.js";
import { mcpgenAsync } from "../helpers/cli.js";

async function connect(era: Era, command: string[]): Promise<{ sdk: Client; transport: StdioClientTransport }> {
  const transport = new StdioClientTransport({ command: command[0]!, args: command.slice(1), stderr: "pipe" });
  const sdk = new Client({ name: "trace-test", version: "1.0.0" }, era === "modern" ? { versionNegotiation: { mode: "auto" } } : {});
  await sdk.connect(transport);
  expect(sdk.getProtocolEra()).toBe(era);
  return { sdk, transport };
}

/** What a session of calls answers: lists, a call, a tool error, a protocol error. */
async function session(sdk: Client): Promise<unknown[]> {
  return [
    await sdk.listTools(),
    await sdk.callTool({ name: "suggest_gifts", arguments: { occasion: "birthday", budget: 20, recipient: "friend" } }),
    await sdk.callTool({ name: "suggest_gifts", arguments: { occasion: "birthday", budget: 2 } }),
    await sdk.callTool({ name: "nope", arguments: {} }).catch((e: { code?: number; message?: string }) => ({ code: e.code, message: e.message })),
  ];
}

/** The JSON-RPC ids of the requests and answers of a side, in order. */
const ids = (lines: { from: string; message: unknown }[], from: string, kind: "request" | "answer") =>
  lines
    .filter((l) => l.from === from)
    .map((l) => l.message as { id?: unknown; method?: string })
    .filter((m) => m.id !== undefined && (kind === "request") === (m.method !== undefined))
    .map((m) => m.id);

describe.each(ERAS)("mcpgen trace on stdio (%s era)", (era: Era) => {
  it("answers as the server does, and records every message in order", async () => {
    const dir = tempProject();
    const file = path.join(dir, "run.jsonl");
    const direct = await connect(era, GIFT_STDIO);
    const want = await session(direct.sdk);
    const serverVersion = direct.sdk.getServerVersion();
    await direct.sdk.close();

    const traced = await connect(era, [process.execPath, BIN, "trace", "-o", file, "--", ...GIFT_STDIO]);
    expect(traced.sdk.getServerVersion()).toEqual(serverVersion);
    expect(await session(traced.sdk)).toEqual(want);
    await traced.sdk.close();
    // The client closed our stdin: the recorder closes the server's, and exits when it does.
    await expect.poll(() => readTrace(file).notes.some((n) => /the server (exited|was ended)/.test(n.note)), { timeout: 10_000 }).toBe(true);

    const trace = readTrace(file);
    expect(trace.start).toMatchObject({ mcpgenTrace: 1, transport: "stdio", command: [process.execPath, "--import", "tsx", GIFT_STDIO[3]] });
    const methods = trace.messages.filter((m) => m.from === "client").map((m) => (m.message as { method?: string }).method);
    expect(methods).toEqual(
      era === "legacy"
        ? ["initialize", "notifications/initialized", "tools/list", "tools/call", "tools/call", "tools/call"]
        : ["tools/list", "tools/call", "tools/call", "tools/call"],
    );
    // Each answer follows its request, in the order asked.
    expect(ids(trace.messages, "server", "answer")).toEqual(ids(trace.messages, "client", "request"));
    for (const m of trace.messages) expect(m.http).toBeUndefined();
    const times = trace.lines.map((l) => Date.parse(l.time));
    expect(times).toEqual([...times].sort((a, b) => a - b));
  }, 60_000);
});

/** Runs `command` with `input` written to its stdin, then closed; gives its stdout bytes and exit code. */
function run(command: string[], input: string, env?: NodeJS.ProcessEnv): Promise<{ stdout: Buffer; code: number | null }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command[0]!, command.slice(1), { stdio: ["pipe", "pipe", "ignore"], ...(env ? { env } : {}) });
    const chunks: Buffer[] = [];
    child.stdout.on("data", (d: Buffer) => chunks.push(d));
    child.on("error", reject);
    child.on("close", (code) => resolve({ stdout: Buffer.concat(chunks), code }));
    child.stdin.end(input);
  });
}

describe("mcpgen trace on stdio, byte for byte", () => {
  it("gives the client exactly the server's bytes, and records each line", async () => {
    const dir = tempProject();
    const file = path.join(dir, "bytes.jsonl");
    const lines = [
      { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "1" } } },
      { jsonrpc: "2.0", method: "notifications/initialized" },
      { jsonrpc: "2.0", id: 2, method: "tools/list" },
      { jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "suggest_gifts", arguments: { occasion: "wedding", budget: 100 } } },
    ];
    const modern = [{ jsonrpc: "2.0", id: "a", method: "tools/list", params: { _meta: envelope() } }];
    for (const input of [lines, modern]) {
      const text = `${input.map((l) => JSON.stringify(l)).join("\n")}\n`;
      const raw = await run(GIFT_STDIO, text);
      const traced = await run([process.execPath, BIN, "trace", "-o", file, "--", ...GIFT_STDIO], text);
      expect(traced.code).toBe(raw.code);
      expect(raw.stdout.length).toBeGreaterThan(0);
      expect(traced.stdout.equals(raw.stdout)).toBe(true);
      const trace = readTrace(file);
      expect(trace.messages.filter((m) => m.from === "client").map((m) => m.message)).toEqual(input);
      const answers = raw.stdout.toString("utf8").split("\n").filter(Boolean);
      expect(trace.messages.filter((m) => m.from === "server").map((m) => m.message)).toEqual(answers.map((a) => JSON.parse(a) as unknown));
    }
  }, 60_000);

  it("records a line that is not JSON as a note (64 KiB of it), and forwards it whole", async () => {
    const dir = tempProject();
    const file = path.join(dir, "odd.jsonl");
    const long = "y".repeat(200_000);
    const echoed = await run([process.execPath, BIN, "trace", "-o", file, "--", "cat"], `hello there\n{"jsonrpc":"2.0","method":"x"}\n${long}\n`);
    expect(echoed.stdout.toString()).toBe(`hello there\n{"jsonrpc":"2.0","method":"x"}\n${long}\n`);
    const trace = readTrace(file);
    expect(trace.notes.filter((n) => n.text === "hello there").map((n) => n.from)).toEqual(["client", "server"]);
    // 64 KiB of a line that is not JSON is kept.
    expect(trace.notes.find((n) => n.text?.startsWith("yyy"))?.text).toHaveLength(64 * 1024);
  });
});

describe("mcpgen trace when the recorder goes away", () => {
  /** A server that answers initialize, then never answers; it writes its pid to `pidFile`. */
  const silentServer = (pidFile: string) => [
    process.execPath,
    "-e",
    `require("fs").writeFileSync(${JSON.stringify(pidFile)}, String(process.pid));
     require("readline").createInterface({ input: process.stdin }).on("line", (line) => {
       const m = JSON.parse(line);
       if (m.method === "initialize") process.stdout.write(JSON.stringify({ jsonrpc: "2.0", id: m.id, result: { protocolVersion: "2025-11-25", capabilities: { tools: {} }, serverInfo: { name: "silent", version: "1" } } }) + "\\n");
     });`,
  ];
  const alive = (pid: number) => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };

  it("SIGKILL: the client's pending call rejects (connection closed) and the server ends", async () => {
    const dir = tempProject();
    const pidFile = path.join(dir, "server.pid");
    const { sdk, transport } = await connect("legacy", [process.execPath, BIN, "trace", "-o", path.join(dir, "k.jsonl"), "--", ...silentServer(pidFile)]);
    const pending = sdk.listTools();
    await expect.poll(() => existsSync(pidFile)).toBe(true);
    process.kill(transport.pid!, "SIGKILL");
    await expect(pending).rejects.toThrow(/closed/i);
    const serverPid = Number(readFileSync(pidFile, "utf8"));
    // Its stdin closed with the recorder: the server ends.
    await expect.poll(() => alive(serverPid), { timeout: 10_000 }).toBe(false);
    await sdk.close();
  }, 30_000);

  it("SIGTERM: the signal goes to the server's process group, even one that ignores its closed input", async () => {
    const dir = tempProject();
    const pidFile = path.join(dir, "stubborn.pid");
    const file = path.join(dir, "t.jsonl");
    writeFileSync(path.join(dir, "stubborn.cjs"), `require("fs").writeFileSync(${JSON.stringify(pidFile)}, String(process.pid)); setInterval(() => {}, 1000);`);
    const child = spawn(process.execPath, [BIN, "trace", "-o", file, "--", process.execPath, path.join(dir, "stubborn.cjs")], {
      stdio: ["pipe", "pipe", "pipe"],
    });
    await expect.poll(() => existsSync(pidFile)).toBe(true);
    const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
    child.kill("SIGTERM");
    expect(await exited).toBe(128 + 15);
    expect(alive(Number(readFileSync(pidFile, "utf8")))).toBe(false);
    expect(readTrace(file).notes.map((n) => n.note)).toEqual(["the recorder got SIGTERM: passed on to the server", "the server was ended by SIGTERM"]);
  }, 30_000);
});

describe("mcpgen trace when the trace cannot be written", () => {
  it("keeps forwarding, and says so once on stderr", async () => {
    const input = Array.from({ length: 50 }, (_, i) => JSON.stringify({ jsonrpc: "2.0", id: i, method: "ping" })).join("\n") + "\n";
    const child = spawn(process.execPath, [BIN, "trace", "-o", "/dev/full", "--", "cat"]);
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    const code = new Promise<number | null>((resolve) => child.on("close", resolve));
    child.stdin.end(input);
    expect(await code).toBe(0);
    expect(stdout).toBe(input);
    expect(stderr.match(/cannot write \/dev\/full \(ENOSPC\)/g)).toHaveLength(1);
  });
});

describe("mcpgen trace --print", () => {
  it("shows each message on stderr, the reply paired with its request", async () => {
    const dir = tempProject();
    const responder = `require("readline").createInterface({ input: process.stdin }).on("line", (l) => {
      const m = JSON.parse(l);
      process.stdout.write(JSON.stringify(m.params.name === "bad" ? { jsonrpc: "2.0", id: m.id, error: { code: -32602, message: "Unknown tool: bad" } } : { jsonrpc: "2.0", id: m.id, result: { content: [], isError: true } }) + "\\n");
    });`;
    const input = [
      { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "suggest_gifts" } },
      { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "bad" } },
    ];
    const child = spawn(process.execPath, [BIN, "trace", "--print", "-o", path.join(dir, "p.jsonl"), "--", process.execPath, "-e", responder]);
    let stderr = "";
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.stdout.resume();
    const done = new Promise((resolve) => child.on("close", resolve));
    child.stdin.end(input.map((m) => JSON.stringify(m)).join("\n") + "\n");
    await done;
    const shown = stderr.split("\n").map((line) => line.replace(/^\d\d:\d\d:\d\d\.\d{3} /, "").replace(/ \d+ ms/, " N ms"));
    expect(shown).toEqual(
      expect.arrayContaining([
        "→ #1 tools/call suggest_gifts",
        "← reply #1 tools/call suggest_gifts N ms isError",
        "→ #2 tools/call bad",
        "← reply #2 tools/call bad N ms ERROR -32602 Unknown tool: bad",
        "· the server exited with code 0",
      ]),
    );
  });
});

describe("mcpgen trace on a message too large to hold", () => {
  // 3 MB: past the 1 MiB the recorder holds, so spooled to disk and copied into the log.
  const big = { jsonrpc: "2.0", id: 1, result: { content: [{ type: "text", text: "line\nof text ".repeat(250_000) }] } };
  const request = { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "big", arguments: { blob: "z".repeat(2_000_000) } } };

  it("records a large line over stdio whole, forwards it byte for byte, and leaves no spool behind", async () => {
    const dir = tempProject();
    const file = path.join(dir, "large.jsonl");
    const spools = path.join(dir, "tmp");
    mkdirSync(spools);
    // Two large messages, then a large line that is not JSON (spooled, then found not JSON: a note with its head).
    const text = `${JSON.stringify(request)}\n${JSON.stringify(big)}\n{"broken": ${"1,".repeat(1_000_000)}\n`;
    const echoed = await run([process.execPath, BIN, "trace", "-o", file, "--", "cat"], text, { ...process.env, TMPDIR: spools });
    expect(echoed.stdout.equals(Buffer.from(text))).toBe(true);
    const trace = readTrace(file);
    expect(trace.messages.filter((m) => m.from === "server").map((m) => m.message)).toEqual([request, big]);
    expect(trace.messages.filter((m) => m.from === "client").map((m) => m.message)).toEqual([request, big]);
    const notJson = trace.notes.filter((n) => n.note === "a line that is not JSON");
    expect(notJson.map((n) => [n.from, n.text?.length])).toEqual([
      ["client", 64 * 1024],
      ["server", 64 * 1024],
    ]);
    // The spool folder was made, and removed.
    expect(readdirSync(spools)).toEqual([]);
  }, 60_000);

  it("records JSON nested too deep to write again (held or spooled), forwards it, and check says so without a crash", async () => {
    const dir = tempProject();
    const file = path.join(dir, "deep.jsonl");
    const nested = (depth: number) => `{"jsonrpc":"2.0","id":1,"result":{"x":${"[".repeat(depth)}${"]".repeat(depth)}}}`;
    // 400,000 levels (800 KB: held, parsed; JSON.stringify's stack cannot write it) and 600,000 (spooled).
    const text = `${JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" })}\n${nested(400_000)}\n${nested(600_000)}\n`;
    const echoed = await run([process.execPath, BIN, "trace", "-o", file, "--", "cat"], text);
    expect(echoed.code).toBe(0);
    expect(echoed.stdout.equals(Buffer.from(text))).toBe(true);
    const lines = readFileSync(file, "utf8").split("\n").filter(Boolean);
    // Each as it was sent, on its own line, after its envelope.
    expect(lines.filter((l) => l.endsWith(`"message":${nested(400_000)}}`) || l.endsWith(`"message":${nested(600_000)}}`))).toHaveLength(4);
    const checked = await mcpgenAsync(["check", file], dir);
    expect(checked.stdout).toContain("unreadable-line: a message nested more than 512 levels deep: not judged");
    expect(checked.stdout + checked.stderr).not.toContain("internal error");
  }, 60_000);

  it("records a large JSON body and a large event of many data lines over HTTP", async () => {
    const events = JSON.stringify(big, null, 1)
      .split("\n")
      .map((l) => `data: ${l}`)
      .join("\n");
    const upstream = createServer((req, res) => {
      req.resume();
      req.on("end", () => {
        // Both on the MCP endpoint (bodies elsewhere are redacted, and a large one there is not recorded).
        if (req.url === "/mcp?as=json") return res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(big));
        res.writeHead(200, { "content-type": "text/event-stream" });
        // Written in small pieces, as a server streams it.
        const bytes = Buffer.from(`id: 1\n${events}\n\n`);
        let at = 0;
        const more = () => {
          while (at < bytes.length) {
            const piece = bytes.subarray(at, (at += 7_000));
            if (!res.write(piece)) return void res.once("drain", more);
          }
          res.end();
        };
        more();
      });
    });
    await new Promise<void>((resolve) => upstream.listen(0, "127.0.0.1", resolve));
    const file = path.join(tempProject(), "large-http.jsonl");
    const proxy = await startHttpTrace(`http://127.0.0.1:${(upstream.address() as AddressInfo).port}/mcp`, file);
    try {
      for (const route of ["json", "sse"]) {
        const response = await fetch(`${proxy.url}?as=${route}`, {
          method: "POST",
          headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
          body: JSON.stringify(request),
        });
        expect((await response.text()).length).toBeGreaterThan(3_000_000);
      }
      await proxy.stop();
      const trace = readTrace(file);
      expect(trace.messages.map((m) => [m.from, m.http?.exchange, m.http?.sse?.id, m.message])).toEqual([
        ["client", 1, undefined, request],
        ["server", 1, undefined, big],
        ["client", 2, undefined, request],
        ["server", 2, "1", big],
      ]);
    } finally {
      await proxy.stop();
      await new Promise((resolve) => upstream.close(resolve));
    }
  }, 60_000);
});
