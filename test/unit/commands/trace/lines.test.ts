/** The stdio side copy: complete lines whatever the chunking, and a bound on a line's length. */
import { describe, expect, it } from "vitest";
import type { Copied } from "../../../../src/commands/trace/copy.js";
import { LineSplitter } from "../../../../src/commands/trace/lines.js";

function split(chunks: string[], maxBytes = 1000): { lines: string[]; overflows: number } {
  const lines: string[] = [];
  let overflows = 0;
  const s = new LineSplitter({
    maxBytes,
    spoolPath: () => {
      throw new Error("nothing here is large enough to spool");
    },
    onLine: (l: Copied) => lines.push(l.kind === "bytes" ? l.bytes.toString() : l.kind),
    onOverflow: () => overflows++,
  });
  for (const c of chunks) s.push(Buffer.from(c));
  s.end();
  return { lines, overflows };
}

describe("LineSplitter", () => {
  it.each([
    ["lines in one chunk", ["1\n2\n"], ["1", "2"]],
    ["a line across chunks", ['{"a"', ":1}\n"], ['{"a":1}']],
    ["CRLF", ["1\r\n2\r\n"], ["1", "2"]],
    ["blank lines skipped", ["\n\n1\n \r\n\n"], ["1"]],
    ["a last line without newline", ["1\n2"], ["1", "2"]],
  ])("%s", (_, chunks, want) => expect(split(chunks).lines).toEqual(want));

  it("drops a line past the limit, reports it once, and keeps the next", () => {
    expect(split(["x".repeat(8), "x".repeat(8), "x".repeat(8), "\nok\n"], 10)).toEqual({ lines: ["ok"], overflows: 1 });
  });
});
