/**
 * An incremental parser of server-sent events (the WHATWG event-stream format), for the side copy
 * of a Streamable HTTP response: bytes in as they arrive, events out as each blank line ends one.
 * Lines end with CRLF, LF or CR; `data` lines are joined with LF; `id` and `event` are kept per
 * event; comments (`:`) and `retry` are skipped. It works on bytes and never holds an event's data
 * as text: the data goes into a message copy (copy.ts) as it comes, so a large event is spooled,
 * not held, and bounded by the copy's `maxBytes`. Other fields are cut at FIELD_BYTES.
 */
import { MessageCopy, type Copied, type CopyOptions } from "./copy.js";

export interface SseEvent {
  data: Copied;
  id?: string;
  event?: string;
}

export interface SseParserOptions extends CopyOptions {
  onEvent(event: SseEvent): void;
}

/** The most of a field name, or of an `id` or `event` value, that is kept. */
const FIELD_BYTES = 1024;
const LF = 10;
const CR = 13;
const COLON = 58;
const SPACE = 32;

const enum Part {
  /** Reading the field name. */
  Name,
  /** Just after the colon: one space may follow. */
  AfterColon,
  /** Reading the value. */
  Value,
}

export class SseParser {
  private part = Part.Name;
  /** The line's bytes so far: its name, then its value unless it is data. */
  private field: number[] = [];
  private name = "";
  /** Bytes seen on this line (a line with none is the blank line that ends an event). */
  private lineBytes = 0;
  private data: MessageCopy | undefined;
  private dataLines = 0;
  private id: string | undefined;
  private event: string | undefined;
  /** The last chunk ended with CR: an LF that starts the next one belongs to it. */
  private afterCr = false;
  private bomLeft = 3;

  constructor(private readonly options: SseParserOptions) {}

  push(chunk: Uint8Array): void {
    let i = 0;
    // A leading byte order mark (EF BB BF) is not part of the stream.
    while (this.bomLeft > 0 && i < chunk.length) {
      if (chunk[i] === [0xef, 0xbb, 0xbf][3 - this.bomLeft]) {
        this.bomLeft--;
        i++;
      } else {
        // Not a BOM after all: the bytes taken so far were the stream's own.
        const taken = 3 - this.bomLeft;
        this.bomLeft = 0;
        if (taken > 0) this.bytes(Uint8Array.from([0xef, 0xbb, 0xbf].slice(0, taken)));
      }
    }
    if (this.afterCr && i < chunk.length && chunk[i] === LF) i++;
    this.afterCr = false;
    this.bytes(i === 0 ? chunk : chunk.subarray(i));
  }

  /** The end of the stream: an event not ended by a blank line is not dispatched (as browsers do). */
  end(): void {
    this.data?.discard();
    this.reset();
    this.startLine();
  }

  private bytes(chunk: Uint8Array): void {
    let start = 0;
    for (let i = 0; i < chunk.length; i++) {
      const b = chunk[i]!;
      if (b === LF || b === CR) {
        this.take(chunk, start, i);
        this.endLine();
        if (b === CR) {
          if (i + 1 < chunk.length) {
            if (chunk[i + 1] === LF) i++;
          } else this.afterCr = true;
        }
        start = i + 1;
      } else if (this.part === Part.Value && this.name === "data") {
        // Data runs to the end of the line: handed over in one piece, not a byte at a time.
        let end = i;
        while (end < chunk.length && chunk[end] !== LF && chunk[end] !== CR) end++;
        this.take(chunk, start, end);
        start = end;
        i = end - 1;
      }
    }
    this.take(chunk, start, chunk.length);
  }

  /** The bytes [from, to) of the current line. */
  private take(chunk: Uint8Array, from: number, to: number): void {
    for (let i = from; i < to; i++) {
      this.lineBytes++;
      const b = chunk[i]!;
      if (this.part === Part.Name) {
        if (b === COLON) {
          this.name = Buffer.from(this.field).toString("utf8");
          this.field = [];
          this.part = Part.AfterColon;
          if (this.name === "data") this.startData();
        } else if (this.field.length < FIELD_BYTES) this.field.push(b);
        continue;
      }
      if (this.part === Part.AfterColon) {
        this.part = Part.Value;
        if (b === SPACE) continue;
      }
      if (this.name === "data") {
        this.lineBytes += to - i - 1;
        this.data!.write(chunk.subarray(i, to));
        return;
      }
      if (this.field.length < FIELD_BYTES) this.field.push(b);
    }
  }

  private startData(): void {
    this.data ??= new MessageCopy(this.options);
    // Lines of data are joined with LF.
    if (this.dataLines++ > 0) this.data.write(Uint8Array.of(LF));
  }

  private endLine(): void {
    if (this.lineBytes === 0) return this.dispatch();
    if (this.part === Part.Name) {
      // A line without a colon: the whole line is the field name, with an empty value.
      this.name = Buffer.from(this.field).toString("utf8");
      this.field = [];
      if (this.name === "data") this.startData();
    }
    const value = Buffer.from(this.field).toString("utf8");
    if (this.name === "id") {
      if (!value.includes("\0")) this.id = value;
    } else if (this.name === "event") this.event = value;
    this.startLine();
  }

  private startLine(): void {
    this.part = Part.Name;
    this.field = [];
    this.name = "";
    this.lineBytes = 0;
  }

  private dispatch(): void {
    if (this.data) {
      const data = this.data.end();
      // An event whose data is empty is not dispatched (nor one past the limit, already reported).
      if (data.kind !== "empty" && data.kind !== "too-long")
        this.options.onEvent({
          data,
          ...(this.id !== undefined ? { id: this.id } : {}),
          ...(this.event !== undefined ? { event: this.event } : {}),
        });
    }
    // Only the event's own id is reported (not the stream's last event id carried over).
    this.reset();
  }

  private reset(): void {
    this.data = undefined;
    this.dataLines = 0;
    this.id = undefined;
    this.event = undefined;
  }
}
