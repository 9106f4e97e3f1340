/**
 * The recorder's copy of one message (a stdio line, an HTTP body, a server-sent event's data) as
 * its bytes arrive. A small message is kept in memory and parsed when it ends. A large one is not
 * held: past `memoryBytes` its bytes go to a spool file as they come, checked as JSON on the way
 * (JsonScanner), and the trace writer copies the file into the log (writer.ts). Either way, past
 * `maxBytes` the copy stops, says so once, and only counts.
 *
 * The spool file holds the message with every CR and LF byte made a space: in well-formed JSON
 * they can only be whitespace, so the message means the same and fits on one line of the log.
 */
import { closeSync, openSync, rmSync, writeSync } from "node:fs";
import { JsonScanner } from "./jsonScan.js";

/** Past this many bytes a message goes to a spool file instead of memory. */
const MEMORY_BYTES = 1024 * 1024;
/** The most of a message that is not JSON that its note keeps. */
export const HEAD_BYTES = 64 * 1024;

export interface CopyOptions {
  /** The largest message recorded; past it, `onOverflow` once and the rest is only counted. */
  maxBytes: number;
  onOverflow(bytesSoFar: number): void;
  /** A path for a new spool file (called when a message grows past `memoryBytes`). */
  spoolPath(): string;
  memoryBytes?: number;
}

/** A well-formed JSON message whose bytes are in a spool file, on one line. */
export interface Spooled {
  file: string;
  size: number;
  /** The message's small fields (JsonScanner.standIn), for the live view. */
  standIn: unknown;
}

export type Copied =
  /** Nothing but whitespace, or nothing. */
  | { kind: "empty" }
  /** A small message: its bytes, to parse. */
  | { kind: "bytes"; bytes: Buffer }
  | { kind: "spooled"; spooled: Spooled }
  /** A large message that is not JSON: its first HEAD_BYTES. */
  | { kind: "not-json"; head: Buffer }
  /** Past maxBytes (already reported through onOverflow). */
  | { kind: "too-long"; size: number }
  /** The spool file could not be written. */
  | { kind: "lost"; size: number; reason: string };

export class MessageCopy {
  private parts: Buffer[] = [];
  private size = 0;
  private head: Buffer | undefined;
  private scanner: JsonScanner | undefined;
  private fd: number | undefined;
  private file: string | undefined;
  private outcome: "over" | "invalid" | { lost: string } | undefined;

  constructor(private readonly options: CopyOptions) {}

  write(chunk: Uint8Array): void {
    if (chunk.length === 0) return;
    this.size += chunk.length;
    if (this.outcome === "over") return;
    if (this.size > this.options.maxBytes) {
      this.outcome = "over";
      this.release();
      this.options.onOverflow(this.size);
      return;
    }
    if (this.outcome) return;
    if (!this.scanner) {
      // A copy: the stream may reuse its buffer once the handler returns.
      this.parts.push(Buffer.from(chunk));
      if (this.size > (this.options.memoryBytes ?? MEMORY_BYTES)) this.spill();
      return;
    }
    this.spool(chunk);
  }

  /** The message is whole: what to record. */
  end(): Copied {
    const size = this.size;
    const outcome = this.outcome;
    if (outcome === "over") return { kind: "too-long", size };
    if (typeof outcome === "object") return { kind: "lost", size, reason: outcome.lost };
    if (!this.scanner) {
      const bytes = this.parts.length === 1 ? this.parts[0]! : Buffer.concat(this.parts, size);
      this.parts = [];
      return bytes.every(isSpaceByte) ? { kind: "empty" } : { kind: "bytes", bytes };
    }
    if (outcome === "invalid" || !this.scanner.end()) {
      this.release();
      return { kind: "not-json", head: this.head! };
    }
    closeSync(this.fd!);
    this.fd = undefined;
    return { kind: "spooled", spooled: { file: this.file!, size, standIn: this.scanner.standIn() } };
  }

  /** The copy is not wanted (the stream was cut): its spool file goes. */
  discard(): void {
    this.release();
    this.parts = [];
  }

  private spill(): void {
    const held = Buffer.concat(this.parts, this.size);
    this.parts = [];
    this.head = Buffer.alloc(0);
    this.scanner = new JsonScanner();
    try {
      this.file = this.options.spoolPath();
      this.fd = openSync(this.file, "wx", 0o600);
    } catch (error) {
      this.outcome = { lost: (error as NodeJS.ErrnoException).code ?? String(error) };
      return;
    }
    this.spool(held);
  }

  private spool(chunk: Uint8Array): void {
    if (this.head!.length < HEAD_BYTES) this.head = Buffer.concat([this.head!, chunk.subarray(0, HEAD_BYTES - this.head!.length)]);
    this.scanner!.push(chunk);
    if (this.scanner!.invalid) {
      this.outcome = "invalid";
      this.release();
      return;
    }
    const line = Buffer.from(chunk);
    for (let i = line.indexOf(10); i !== -1; i = line.indexOf(10, i + 1)) line[i] = 32;
    for (let i = line.indexOf(13); i !== -1; i = line.indexOf(13, i + 1)) line[i] = 32;
    try {
      // Synchronous: the bytes go to the page cache at once, and nothing waits in memory for the disk.
      for (let at = 0; at < line.length;) at += writeSync(this.fd!, line, at);
    } catch (error) {
      this.outcome = { lost: (error as NodeJS.ErrnoException).code ?? String(error) };
      this.release();
    }
  }

  private release(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
    if (this.file !== undefined) rmSync(this.file, { force: true });
    this.file = undefined;
  }
}

const isSpaceByte = (b: number) => b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09;
