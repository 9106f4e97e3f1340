/**
 * The side copy of a newline-delimited stream (MCP stdio): chunks in, one message copy per line
 * (copy.ts) out. The forwarded bytes never pass through here; this only sees a copy. A line is
 * never held whole past the copy's memory bound, and past its `maxBytes` it is only counted (the
 * copy reports it once) up to its newline.
 */
import { MessageCopy, type Copied, type CopyOptions } from "./copy.js";

export interface LineSplitterOptions extends CopyOptions {
  onLine(line: Copied): void;
}

export class LineSplitter {
  private line: MessageCopy | undefined;

  constructor(private readonly options: LineSplitterOptions) {}

  push(chunk: Buffer): void {
    let start = 0;
    for (;;) {
      const newline = chunk.indexOf(10, start);
      if (newline === -1) {
        if (start < chunk.length) this.current().write(chunk.subarray(start));
        return;
      }
      if (newline > start) this.current().write(chunk.subarray(start, newline));
      this.finishLine();
      start = newline + 1;
    }
  }

  /** The end of the stream: a last line without a newline counts as a line. */
  end(): void {
    this.finishLine();
  }

  private current(): MessageCopy {
    return (this.line ??= new MessageCopy(this.options));
  }

  private finishLine(): void {
    const line = this.line;
    this.line = undefined;
    if (!line) return;
    const copied = line.end();
    if (copied.kind === "empty" || copied.kind === "too-long") return;
    // A CRLF line: the CR is not part of the message.
    const { bytes } = copied.kind === "bytes" ? copied : { bytes: undefined };
    if (bytes && bytes[bytes.length - 1] === 13) this.options.onLine({ kind: "bytes", bytes: bytes.subarray(0, -1) });
    else this.options.onLine(copied);
  }
}
