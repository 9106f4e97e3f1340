/**
 * An incremental parser of server-sent events (the WHATWG event-stream format), for the side copy
 * of a Streamable HTTP response: bytes in as they arrive, events out as each blank line ends one.
 * Lines end with CRLF, LF or CR; `data` lines are joined with LF; `id` and `event` are kept per
 * event; comments (`:`) and `retry` are skipped. Memory is bounded: an event whose data grows past
 * `maxEventBytes` is reported once through `onOverflow` and dropped.
 */
export interface SseEvent {
  data: string;
  id?: string;
  event?: string;
}

export interface SseParserOptions {
  maxEventBytes: number;
  onEvent(event: SseEvent): void;
  onOverflow(bytesSoFar: number): void;
}

export class SseParser {
  private readonly decoder = new TextDecoder("utf-8");
  private pending = "";
  private data: string[] = [];
  private dataSize = 0;
  private id: string | undefined;
  private event: string | undefined;
  private overflowed = false;
  private first = true;
  private skippingLine = false;
  /** The last chunk ended with CR: an LF that starts the next one belongs to it. */
  private afterCr = false;

  constructor(private readonly options: SseParserOptions) {}

  push(chunk: Uint8Array): void {
    let text = this.decoder.decode(chunk, { stream: true });
    if (this.first && text.length > 0) {
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
      this.first = false;
    }
    if (this.afterCr && text.startsWith("\n")) text = text.slice(1);
    this.afterCr = false;
    if (this.skippingLine) {
      // The rest of a line already past the limit: dropped up to its end.
      const end = text.search(/[\r\n]/);
      if (end === -1) return;
      this.skippingLine = false;
      text = text.slice(end);
    }
    this.pending += text;
    if (this.pending.length > this.options.maxEventBytes && !/[\r\n]/.test(this.pending)) {
      // One line past the limit: the event it belongs to is dropped.
      this.overflow(this.pending.length);
      this.pending = "";
      this.skippingLine = true;
      return;
    }
    let start = 0;
    for (;;) {
      const match = /\r\n|\r|\n/g;
      match.lastIndex = start;
      const found = match.exec(this.pending);
      if (!found) break;
      // A CR at the very end may be the first half of CRLF.
      if (found[0] === "\r" && found.index === this.pending.length - 1) this.afterCr = true;
      this.line(this.pending.slice(start, found.index));
      start = found.index + found[0].length;
    }
    this.pending = this.pending.slice(start);
  }

  /** The end of the stream: an event not ended by a blank line is not dispatched (as browsers do). */
  end(): void {
    this.pending = "";
    this.skippingLine = false;
    this.reset();
  }

  private line(line: string): void {
    if (line === "") return this.dispatch();
    if (line.startsWith(":")) return;
    const colon = line.indexOf(":");
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "data") {
      if (this.overflowed) return;
      this.dataSize += value.length + 1;
      if (this.dataSize > this.options.maxEventBytes) return this.overflow(this.dataSize);
      this.data.push(value);
    } else if (field === "id") {
      if (!value.includes("\0")) this.id = value;
    } else if (field === "event") this.event = value;
  }

  private dispatch(): void {
    if (this.data.length > 0 && !this.overflowed)
      this.options.onEvent({
        data: this.data.join("\n"),
        ...(this.id !== undefined ? { id: this.id } : {}),
        ...(this.event !== undefined ? { event: this.event } : {}),
      });
    // Only the event's own id is reported (not the stream's last event id carried over).
    this.reset();
  }

  private reset(): void {
    this.data = [];
    this.dataSize = 0;
    this.id = undefined;
    this.event = undefined;
    this.overflowed = false;
  }

  private overflow(size: number): void {
    if (!this.overflowed) this.options.onOverflow(size);
    this.overflowed = true;
    this.data = [];
  }
}
