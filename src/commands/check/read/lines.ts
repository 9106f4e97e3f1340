/** The lines of a file, one at a time, with their 1-based numbers: a log is never loaded whole. */
import { createReadStream } from "node:fs";
import { createInterface } from "node:readline";

export async function* fileLines(file: string): AsyncGenerator<{ line: number; text: string }> {
  const input = createReadStream(file, { encoding: "utf8" });
  const reader = createInterface({ input, crlfDelay: Infinity });
  let line = 0;
  try {
    for await (const text of reader) {
      line++;
      // A byte order mark (Windows editors write one) is not part of the first line's JSON.
      yield { line, text: line === 1 && text.startsWith("\uFEFF") ? text.slice(1) : text };
    }
  } finally {
    reader.close();
    input.destroy();
  }
}

/** JSON.parse, or undefined when the text is not JSON. */
export function parseJson(text: string): { value: unknown } | undefined {
  try {
    return { value: JSON.parse(text) as unknown };
  } catch {
    return undefined;
  }
}
