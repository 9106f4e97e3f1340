/** The stdio side copy: complete lines whatever the chunking, and a bound on a line's length. */
import { describe, expect, it } from "vitest";
import { LineSplitter } from "../../../../src/commands/trace/lines.js";

function split(chunks: string[], maxLineBytes = 1000): { lines: string[]; overflows: number } {
  const lines: string[] = [];
  let overflows = 0;
  const s = new LineSplitter({ maxLineBytes, onLine: (l) => lines.push(l.toString()), onOverflow: () => overflows++ });
  for (const c of chunks) s.push(Buffer.from(c));
  s.end();
  return { lines, overflows };
}

describe("LineSplitter", () => {
  it.each([
    ["lines in one chunk", ["a\nb\n"], ["a", "b"]],
    ["a line across chunks", ['{"a"', ":1}\n"], ['{"a":1}']],
    ["CRLF", ["a\r\nb\r\n"], ["a", "b"]],
    ["empty lines skipped", ["\n\na\n\n"], ["a"]],
    ["a last line without newline", ["a\nb"], ["a", "b"]],
  ])("%s", (_, chunks, want) => expect(split(chunks).lines).toEqual(want));

  it("drops a line past the limit, reports it once, and keeps the next", () => {
    expect(split(["x".repeat(8), "x".repeat(8), "x".repeat(8), "\nok\n"], 10)).toEqual({ lines: ["ok"], overflows: 1 });
  });
});
