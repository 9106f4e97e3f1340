/**
 * The recorder's copy of a large message: the incremental JSON check agrees with JSON.parse
 * whatever the chunking, a large message goes to a spool file (one line, the same value) instead
 * of memory, and the writer puts its line in its place among the others.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import fc from "fast-check";
import { afterEach, describe, expect, it } from "vitest";
import { MessageCopy, type Copied } from "../../../../src/commands/trace/copy.js";
import { JsonScanner } from "../../../../src/commands/trace/jsonScan.js";
import { openTrace } from "../../../../src/commands/trace/writer.js";
import { propertyParameters } from "../../../helpers/properties.js";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
function tempDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), "mcpgen-copy-test-"));
  dirs.push(dir);
  return dir;
}

/** Scans `text` cut into pieces at `cuts` (byte offsets). */
function scan(text: string, cuts: number[] = []): { valid: boolean; standIn: unknown } {
  const bytes = Buffer.from(text);
  const scanner = new JsonScanner();
  let at = 0;
  for (const cut of [...cuts.map((c) => c % (bytes.length + 1))].sort((a, b) => a - b)) {
    scanner.push(bytes.subarray(at, cut));
    at = cut;
  }
  scanner.push(bytes.subarray(at));
  return { valid: scanner.end(), standIn: scanner.standIn() };
}

function parses(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

describe("JsonScanner", () => {
  it.each([
    ['{"a":[1,-2.5e+3,0,true,false,null,"x\\"\\u00e9\\n"]}', true],
    ["  [ ]  ", true],
    ["0", true],
    ["-0.1E-7", true],
    ['"\\ud83d\\ude00"', true],
    ["{}", true],
    ["", false],
    ["01", false],
    ["1.", false],
    ["-", false],
    ["1e", false],
    ["[1,]", false],
    ['{"a" 1}', false],
    ['{"a":1,}', false],
    ["{} {}", false],
    ['"tab\tinside"', false],
    ['"\\x"', false],
    ['"\\u12g4"', false],
    ["tru", false],
    ["nul1", false],
    ["[1}", false],
    ["{]", false],
    ["'a'", false],
  ])("%j is JSON: %s (as JSON.parse says)", (text, valid) => {
    expect(parses(text)).toBe(valid);
    expect(scan(text).valid).toBe(valid);
  });

  it("agrees with JSON.parse on any JSON and on any cut of it, chunked anyhow", () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.array(fc.nat(), { maxLength: 6 }), fc.nat(), fc.boolean(), (value, cuts, cutAt, spaced) => {
        const text = JSON.stringify(value, null, spaced ? 2 : undefined);
        expect(scan(text, cuts).valid).toBe(true);
        // A prefix or a damaged copy: valid exactly when JSON.parse takes it.
        const prefix = text.slice(0, cutAt % (text.length + 1));
        expect(scan(prefix, cuts).valid).toBe(parses(prefix));
        const damaged = `${text.slice(0, cutAt % (text.length + 1))}}${text.slice(cutAt % (text.length + 1))}`;
        expect(scan(damaged, cuts).valid).toBe(parses(damaged));
      }),
      propertyParameters(300, 20261207),
    );
  });

  it("keeps the fields the live view shows, and nothing else", () => {
    const message = {
      jsonrpc: "2.0",
      id: 7,
      method: "tools/call",
      params: { name: "big", arguments: { name: "not kept", id: 1 }, uri: "x://y" },
      error: { code: -32603, message: "boom", data: { code: 1 } },
      result: { isError: true, content: [{ type: "text", text: "long" }] },
      other: { method: "no" },
    };
    expect(scan(JSON.stringify(message), [3, 17, 40]).standIn).toEqual({
      jsonrpc: "2.0",
      id: 7,
      method: "tools/call",
      params: { name: "big", uri: "x://y" },
      error: { code: -32603, message: "boom" },
      result: { isError: true },
    });
    // Keys that name Object.prototype's members are keys like any other.
    expect(scan('{"constructor":{"name":1},"__proto__":{"code":2},"toString":3,"id":"a"}').standIn).toEqual({ id: "a" });
    expect(scan("[1,2]").standIn).toEqual([]);
  });
});

/** A copy of `text` written in pieces of `piece` bytes. */
function copyOf(text: string | Buffer, options: { piece?: number; maxBytes?: number; memoryBytes?: number } = {}) {
  const dir = tempDir();
  let spools = 0;
  const overflows: number[] = [];
  const copy = new MessageCopy({
    maxBytes: options.maxBytes ?? 1 << 30,
    memoryBytes: options.memoryBytes ?? 1000,
    onOverflow: (size) => overflows.push(size),
    spoolPath: () => path.join(dir, `m${++spools}.json`),
  });
  const bytes = Buffer.from(text);
  const piece = options.piece ?? 333;
  for (let at = 0; at < bytes.length; at += piece) copy.write(bytes.subarray(at, at + piece));
  return { copy, dir, overflows };
}

describe("MessageCopy", () => {
  const big = { jsonrpc: "2.0", id: 1, result: { content: [{ type: "text", text: "line one\nline two ".repeat(500) }], rows: [1, 2, 3] } };

  it("keeps a small message in memory, as its bytes", () => {
    const { copy, dir } = copyOf('{"jsonrpc":"2.0","id":1,"result":{}}');
    expect(copy.end()).toEqual({ kind: "bytes", bytes: Buffer.from('{"jsonrpc":"2.0","id":1,"result":{}}') });
    expect(readdirSync(dir)).toEqual([]);
  });

  it("spools a large message to a file of one line that means the same", () => {
    // Pretty-printed: its newlines are whitespace, made spaces in the spool.
    const text = JSON.stringify(big, null, 2);
    const { copy } = copyOf(text);
    const copied = copy.end() as Extract<Copied, { kind: "spooled" }>;
    expect(copied.kind).toBe("spooled");
    const spooled = readFileSync(copied.spooled.file, "utf8");
    expect(spooled).not.toMatch(/[\r\n]/);
    expect(spooled.length).toBe(Buffer.byteLength(text));
    expect(JSON.parse(spooled)).toEqual(big);
    expect(copied.spooled.standIn).toEqual({ jsonrpc: "2.0", id: 1, result: {} });
  });

  it("says a large message is not JSON, with its head, and removes its spool file", () => {
    const text = `${JSON.stringify(big)}}`;
    const { copy, dir } = copyOf(text);
    const copied = copy.end();
    expect(copied.kind).toBe("not-json");
    expect((copied as { head: Buffer }).head.toString()).toBe(text.slice(0, 64 * 1024));
    expect(readdirSync(dir)).toEqual([]);
  });

  it("stops past maxBytes, reports it once, and counts the rest", () => {
    const { copy, dir, overflows } = copyOf(JSON.stringify(big), { maxBytes: 5000, piece: 1000 });
    expect(overflows).toEqual([5000 + 1000]);
    expect(copy.end()).toEqual({ kind: "too-long", size: Buffer.byteLength(JSON.stringify(big)) });
    expect(readdirSync(dir)).toEqual([]);
  });

  it("discards a copy cut short, spool file and all", () => {
    const { copy, dir } = copyOf(JSON.stringify(big).slice(0, 5000));
    expect(readdirSync(dir)).toHaveLength(1);
    copy.discard();
    expect(readdirSync(dir)).toEqual([]);
  });

  it("says so when the spool file cannot be made", () => {
    const copy = new MessageCopy({ maxBytes: 1 << 30, memoryBytes: 10, onOverflow: () => {}, spoolPath: () => "/nonexistent-dir/x.json" });
    copy.write(Buffer.from('{"jsonrpc":"2.0","id":1,"result":{}}'));
    expect(copy.end()).toEqual({ kind: "lost", size: 36, reason: "ENOENT" });
  });
});

describe("openTrace with spooled messages", () => {
  it("writes a spooled message's line in its place, the lines after it after it, and removes the spool", async () => {
    const dir = tempDir();
    const file = path.join(dir, "trace.jsonl");
    const seen: unknown[] = [];
    const trace = openTrace(file, { transport: "stdio", command: ["server"] }, (line) => seen.push("message" in line ? line.message : line.note));
    const big = { jsonrpc: "2.0", id: 2, result: { content: [{ type: "text", text: "x".repeat(3_000_000) }] } };
    trace.message("client", { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "big" } });
    const copy = new MessageCopy({ maxBytes: 1 << 30, onOverflow: () => {}, spoolPath: () => trace.spoolPath() });
    const bytes = Buffer.from(JSON.stringify(big));
    for (let at = 0; at < bytes.length; at += 65536) copy.write(bytes.subarray(at, at + 65536));
    const copied = copy.end();
    if (copied.kind !== "spooled") throw new Error(`not spooled: ${copied.kind}`);
    const spoolDir = path.dirname(copied.spooled.file);
    trace.spooled("server", copied.spooled);
    // Recorded while the spool is being copied: written after it.
    trace.note("after the big one");
    trace.message("client", { jsonrpc: "2.0", id: 3, method: "ping" });
    await trace.close();

    const lines = readFileSync(file, "utf8").split("\n");
    expect(lines.pop()).toBe("");
    const records = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(records.map((r) => ("message" in r ? (r.message as { id: number }).id : (r.note ?? "start")))).toEqual(["start", 2, 2, "after the big one", 3]);
    expect(records[2]).toMatchObject({ from: "server", message: big });
    expect(typeof records[2]!.time).toBe("string");
    // The live view saw a stand-in for the spooled message.
    expect(seen[1]).toEqual({ jsonrpc: "2.0", id: 2, result: {} });
    expect(() => readdirSync(spoolDir)).toThrow(/ENOENT/);
  });
});

describe("openTrace with a size limit", () => {
  it("stops recording at the limit with one last note, spooled messages included, and says so once", async () => {
    const dir = tempDir();
    const file = path.join(dir, "full.jsonl");
    const trace = openTrace(file, { transport: "stdio", command: ["server"] }, undefined, 4096);
    const said: string[] = [];
    const write = process.stderr.write.bind(process.stderr);
    process.stderr.write = ((chunk: string) => (said.push(String(chunk)), true)) as typeof process.stderr.write;
    try {
      for (let id = 0; id < 200; id++) trace.message("client", { jsonrpc: "2.0", id, method: "ping" });
      // A spooled message past the limit: not written, its file removed.
      const copy = new MessageCopy({ maxBytes: 1 << 30, memoryBytes: 100, onOverflow: () => {}, spoolPath: () => trace.spoolPath() });
      copy.write(Buffer.from(JSON.stringify({ jsonrpc: "2.0", id: 999, result: { text: "y".repeat(1000) } })));
      const copied = copy.end();
      if (copied.kind !== "spooled") throw new Error(copied.kind);
      trace.spooled("server", copied.spooled);
      expect(() => readFileSync(copied.spooled.file)).toThrow(/ENOENT/);
      await trace.close();
    } finally {
      process.stderr.write = write;
    }
    const text = readFileSync(file, "utf8");
    const lines = text.split("\n").filter(Boolean);
    expect(text.length).toBeLessThanOrEqual(4096 + 200);
    expect(JSON.parse(lines.at(-1)!)).toMatchObject({ note: expect.stringMatching(/^the trace reached its limit of 4096 bytes: recording stopped here/) });
    expect(lines.slice(1, -1).every((l) => (JSON.parse(l) as { message?: unknown }).message !== undefined)).toBe(true);
    expect(said.filter((s) => s.includes("reached 4096 bytes"))).toHaveLength(1);
  });
});
