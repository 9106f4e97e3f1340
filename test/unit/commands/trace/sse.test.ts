/** The SSE side-copy parser: events whatever the chunking, line endings, fields and limits. */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { SseParser, type SseEvent } from "../../../../src/commands/trace/sse.js";

interface Event {
  data: string;
  id?: string;
  event?: string;
}

/** The events parsed from `chunks`, each event's data as text (a copy too large to hold says so). */
function parse(chunks: (string | Uint8Array)[], maxBytes = 1 << 20): { events: Event[]; overflows: number[] } {
  const events: Event[] = [];
  const overflows: number[] = [];
  const parser = new SseParser({
    maxBytes,
    spoolPath: () => {
      throw new Error("nothing here is large enough to spool");
    },
    onEvent: ({ data, ...rest }) => events.push({ data: data.kind === "bytes" ? data.bytes.toString() : data.kind, ...rest }),
    onOverflow: (n) => overflows.push(n),
  });
  for (const c of chunks) parser.push(typeof c === "string" ? Buffer.from(c) : c);
  parser.end();
  return { events, overflows };
}

describe("SseParser", () => {
  it.each([
    ["one event", ["data: {}\n\n"], [{ data: "{}" }]],
    ["id and event name", ["id: 7\nevent: message\ndata: x\n\n"], [{ id: "7", event: "message", data: "x" }]],
    ["data lines joined with LF", ["data: a\ndata: b\n\n"], [{ data: "a\nb" }]],
    ["CRLF and CR endings", ["data: a\r\n\r\ndata: b\r\r"], [{ data: "a" }, { data: "b" }]],
    ["CRLF split across chunks", ["data: a\r", "\n\r", "\n"], [{ data: "a" }]],
    ["a chunk per byte", [...'id: 1\ndata: {"x":1}\n\n'], [{ id: "1", data: '{"x":1}' }]],
    ["comments and retry skipped", [": keep-alive\nretry: 1000\ndata: x\n\n"], [{ data: "x" }]],
    ["no space after the colon", ["data:x\n\n"], [{ data: "x" }]],
    ["an event without data is not dispatched", ["id: 1\n\n", "data: y\n\n"], [{ data: "y" }]],
    ["the id is the event's own, not carried over", ["id: 1\ndata: a\n\ndata: b\n\n"], [{ id: "1", data: "a" }, { data: "b" }]],
    ["a leading BOM", ["\uFEFFdata: x\n\n"], [{ data: "x" }]],
    ["an event cut by the end of the stream is dropped", ["data: x\n\ndata: y\n"], [{ data: "x" }]],
  ])("%s", (_, chunks, want) => expect(parse(chunks).events).toEqual(want));

  it("decodes UTF-8 split across chunks", () => {
    const bytes = Buffer.from("data: é😀\n\n");
    expect(parse([bytes.subarray(0, 7), bytes.subarray(7, 9), bytes.subarray(9)]).events).toEqual([{ data: "é😀" }]);
  });

  it("drops an event past the limit (once reported), and goes on with the next", () => {
    const long = "z".repeat(100);
    expect(parse([`data: ${long}\n\ndata: ok\n\n`], 50)).toEqual({ events: [{ data: "ok" }], overflows: [100] });
    // A single line past the limit, in pieces: skipped to its end.
    const got = parse(["data: ", "z".repeat(60), "z".repeat(60), "\n\n", "data: next\n\n"], 50);
    expect(got.events).toEqual([{ data: "next" }]);
    expect(got.overflows).toHaveLength(1);
  });
});

describe("SseParser on a large event", () => {
  it("spools its data, lines joined, without holding it; the next event is held as usual", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "mcpgen-sse-test-"));
    try {
      const value = { jsonrpc: "2.0", id: 9, result: { content: [{ type: "text", text: "y".repeat(200_000) }] } };
      const pretty = JSON.stringify(value, null, 1);
      const stream = `id: 4\nevent: message\n${pretty
        .split("\n")
        .map((l) => `data: ${l}\r\n`)
        .join("")}\r\ndata: {"jsonrpc":"2.0","method":"ping"}\n\n`;
      const events: SseEvent[] = [];
      const parser = new SseParser({
        maxBytes: 1 << 30,
        memoryBytes: 10_000,
        spoolPath: () => path.join(dir, `e${events.length}.json`),
        onEvent: (e) => events.push(e),
        onOverflow: () => {},
      });
      const bytes = Buffer.from(stream);
      for (let at = 0; at < bytes.length; at += 4096) parser.push(bytes.subarray(at, at + 4096));
      parser.end();
      expect(events.map((e) => [e.id, e.event, e.data.kind])).toEqual([
        ["4", "message", "spooled"],
        [undefined, undefined, "bytes"],
      ]);
      const first = events[0]!.data as Extract<SseEvent["data"], { kind: "spooled" }>;
      expect(JSON.parse(readFileSync(first.spooled.file, "utf8"))).toEqual(value);
      expect(first.spooled.standIn).toEqual({ jsonrpc: "2.0", id: 9, result: {} });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
