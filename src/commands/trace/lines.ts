/**
 * The side copy of a newline-delimited stream (MCP stdio): chunks in, complete lines out. The
 * forwarded bytes never pass through here; this only sees a copy. A line longer than `maxLineBytes`
 * is not kept: `onOverflow` is told once for it, and the copy starts again after its newline.
 */
export interface LineSplitterOptions {
  maxLineBytes: number;
  onLine(line: Buffer): void;
  onOverflow(bytesSoFar: number): void;
}

export class LineSplitter {
  private parts: Buffer[] = [];
  private size = 0;
  /** Inside a line already over the limit: skip to its newline. */
  private skipping = false;

  constructor(private readonly options: LineSplitterOptions) {}

  push(chunk: Buffer): void {
    let start = 0;
    for (;;) {
      const newline = chunk.indexOf(10, start);
      if (newline === -1) {
        this.keep(chunk.subarray(start));
        return;
      }
      this.keep(chunk.subarray(start, newline));
      this.finishLine();
      start = newline + 1;
    }
  }

  /** The end of the stream: a last line without a newline counts as a line. */
  end(): void {
    if (this.size > 0 && !this.skipping) this.finishLine();
    this.parts = [];
    this.size = 0;
    this.skipping = false;
  }

  private keep(piece: Buffer): void {
    if (piece.length === 0 || this.skipping) return;
    if (this.size + piece.length > this.options.maxLineBytes) {
      this.options.onOverflow(this.size + piece.length);
      this.parts = [];
      this.size = 0;
      this.skipping = true;
      return;
    }
    // A copy: the stream may reuse its buffer once the handler returns.
    this.parts.push(Buffer.from(piece));
    this.size += piece.length;
  }

  private finishLine(): void {
    if (this.skipping) {
      this.skipping = false;
      return;
    }
    let line = this.parts.length === 1 ? this.parts[0]! : Buffer.concat(this.parts, this.size);
    this.parts = [];
    this.size = 0;
    if (line.length > 0 && line[line.length - 1] === 13) line = line.subarray(0, line.length - 1);
    if (line.length > 0) this.options.onLine(line);
  }
}
