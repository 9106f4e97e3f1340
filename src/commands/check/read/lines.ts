/**
 * The lines of a file, one at a time, with their 1-based numbers: a log is never loaded whole, and
 * no line is held past MAX_LINE_BYTES (a longer one is skipped to its end and said so, not read).
 */
import { createReadStream } from "node:fs";
import { StringDecoder } from "node:string_decoder";

/** The longest line read (a trace line holds a message of up to 64 MiB, plus its envelope). */
export const MAX_LINE_BYTES = 128 * 1024 * 1024;
/** The deepest nesting of a message judged (JSON Schemas of tools nest, but not this deep). */
export const MAX_DEPTH = 512;

export type FileLine = { line: number; text: string } | { line: number; tooLong: number };

export async function* fileLines(file: string, maxLineBytes = MAX_LINE_BYTES): AsyncGenerator<FileLine> {
  const input = createReadStream(file);
  let parts: Buffer[] = [];
  let size = 0;
  let skipping = false;
  let line = 0;
  const finish = (): FileLine => {
    line++;
    if (skipping) {
      const tooLong = size;
      skipping = false;
      size = 0;
      return { line, tooLong };
    }
    let bytes = parts.length === 1 ? parts[0]! : Buffer.concat(parts, size);
    parts = [];
    size = 0;
    if (bytes[bytes.length - 1] === 13) bytes = bytes.subarray(0, -1);
    const text = new StringDecoder("utf8").end(bytes);
    // A byte order mark (Windows editors write one) is not part of the first line's JSON.
    return { line, text: line === 1 && text.startsWith("\uFEFF") ? text.slice(1) : text };
  };
  const keep = (piece: Buffer) => {
    size += piece.length;
    if (skipping) return;
    if (size > maxLineBytes) {
      skipping = true;
      parts = [];
    } else if (piece.length > 0) parts.push(Buffer.from(piece));
  };
  try {
    for await (const chunk of input as AsyncIterable<Buffer>) {
      let start = 0;
      for (let newline = chunk.indexOf(10); newline !== -1; newline = chunk.indexOf(10, start)) {
        keep(chunk.subarray(start, newline));
        yield finish();
        start = newline + 1;
      }
      keep(chunk.subarray(start));
    }
    if (size > 0 || skipping) yield finish();
  } finally {
    input.destroy();
  }
}

/**
 * JSON.parse, or undefined when the text is not JSON; `tooDeep` when the value nests deeper than
 * MAX_DEPTH (the rules walk messages, and a value a million levels deep would exhaust the stack).
 */
export function parseJson(text: string): { value: unknown } | { tooDeep: true } | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
  return deeperThan(value, MAX_DEPTH) ? { tooDeep: true } : { value };
}

/** Whether `value` nests deeper than `limit` objects and arrays (walked without recursion). */
export function deeperThan(value: unknown, limit: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (typeof v !== "object" || v === null) continue;
    if (depth >= limit) return true;
    for (const child of Array.isArray(v) ? v : Object.values(v)) if (typeof child === "object" && child !== null) stack.push([child, depth + 1]);
  }
  return false;
}
