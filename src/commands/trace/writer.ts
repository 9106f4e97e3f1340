/**
 * The trace file: one JSON line per record, written in the order they come. Recording never gets
 * in the way of forwarding: a write that fails (disk full, file removed) stops the recording, says
 * so once on stderr, and the proxy goes on; a log that falls behind the traffic by more than
 * `MAX_PENDING_BYTES` drops lines (and says so once, in the log and on stderr) rather than grow.
 *
 * A message too large to hold comes as a spool file (copy.ts): its line is written from the file,
 * a piece at a time, in its place among the others; the lines that come meanwhile wait their turn.
 * The spool files live in a folder of the system's temporary directory, removed when the trace
 * closes or the process exits.
 */
import { createReadStream, createWriteStream, mkdtempSync, openSync, rmSync, type WriteStream } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import type { Copied, Spooled } from "./copy.js";
import { HEAD_BYTES } from "./copy.js";
import type { TraceHttp, TraceLine, TraceMessage, TraceNote, TraceNoteEvent, TraceStart } from "./record.js";
import { version } from "../../common/version.js";

/** Lines waiting for the disk, at most; past it lines are dropped until the disk catches up. */
const MAX_PENDING_BYTES = 64 * 1024 * 1024;
/** The largest trace written by default: past it recording stops (forwarding goes on). */
const DEFAULT_MAX_TRACE_BYTES = 1024 * 1024 * 1024;

export type Side = "client" | "server";

export interface TraceSink {
  /**
   * A message. `bytes`, when given, are the bytes it was parsed from: written as they are (line
   * breaks made spaces) when the value cannot be written again, as JSON nested too deep for
   * JSON.stringify's stack.
   */
  message(from: Side, message: unknown, http?: TraceHttp, bytes?: Buffer): void;
  /** A message too large to hold, in a spool file the writer now owns (it removes it once copied). */
  spooled(from: Side, spooled: Spooled, http?: TraceHttp): void;
  note(note: string, extra?: { from?: Side; text?: string; http?: TraceHttp; event?: TraceNoteEvent }): void;
  /** A path for a new spool file. */
  spoolPath(): string;
}

/** A record's line, or a spooled message's line: its start, the file (of `size` bytes), its end. */
type Pending = string | { start: string; file: string; size: number; end: string };

export interface TraceWriter extends TraceSink {
  /** Writes what is pending and closes the file; never rejects. */
  close(): Promise<void>;
}

/**
 * Opens `file` (truncated) and writes the TraceStart; throws when the file cannot be opened, so the
 * command can refuse before it starts anything. `observe` sees every record (the live view).
 */
export function openTrace(
  file: string,
  start: Omit<TraceStart, "mcpgenTrace" | "time" | "mcpgen">,
  observe?: (line: TraceMessage | TraceNote) => void,
  /** The trace's size at most (default DEFAULT_MAX_TRACE_BYTES): past it, a last note and no more records. */
  maxBytes = DEFAULT_MAX_TRACE_BYTES,
): TraceWriter {
  const fd = openSync(file, "w");
  /** What the trace holds, in bytes of text (about: UTF-16 units for the lines). */
  let written = 0;
  let full = false;
  const stream: WriteStream = createWriteStream("", { fd, autoClose: true });
  let failed = false;
  let dropping = false;
  /** Lines waiting behind a spooled message being copied, and their size. */
  const queue: Pending[] = [];
  let queued = 0;
  let copying = false;
  let drained: (() => void) | undefined;
  /** The spooled message being copied, to stop if the log fails. */
  let stopCopy: (() => void) | undefined;
  let spoolDir: string | undefined;
  let spools = 0;
  const removeSpools = () => {
    if (spoolDir) rmSync(spoolDir, { recursive: true, force: true });
  };

  stream.on("error", (error: NodeJS.ErrnoException) => {
    if (failed) return;
    failed = true;
    process.stderr.write(`mcpgen trace: cannot write ${file} (${error.code ?? error.message}): recording stopped; the messages are still forwarded.\n`);
    stopCopy?.();
  });
  const enqueue = (item: Pending) => {
    if (failed || full) return forget(item);
    const whole = typeof item === "string" ? item.length : item.start.length + item.size + item.end.length;
    if (written + whole > maxBytes) {
      // The trace is full: one last note says so (it may pass the limit by its own length), then nothing.
      full = true;
      forget(item);
      process.stderr.write(`mcpgen trace: ${file} reached ${maxBytes} bytes: recording stopped; the messages are still forwarded.\n`);
      const note = `${JSON.stringify({ time: now(), note: `the trace reached its limit of ${maxBytes} bytes: recording stopped here; the messages are still forwarded` })}\n`;
      if (!copying) stream.write(note);
      else {
        queue.push(note);
        queued += note.length;
      }
      return;
    }
    written += whole;
    const size = typeof item === "string" ? item.length : item.start.length;
    if (stream.writableLength + queued > MAX_PENDING_BYTES) {
      if (!dropping) process.stderr.write(`mcpgen trace: ${file} falls behind the traffic; lines are dropped until it catches up.\n`);
      dropping = true;
      return forget(item);
    }
    if (dropping) {
      dropping = false;
      enqueue(`${JSON.stringify({ time: now(), note: "lines were dropped here: the disk fell behind the traffic" })}\n`);
    }
    if (!copying && typeof item === "string") stream.write(item);
    else {
      queue.push(item);
      queued += size;
      if (!copying) next();
    }
  };
  /** Writes what waits, in order, until a spooled message must be copied (or nothing waits). */
  const next = () => {
    copying = false;
    while (queue.length > 0) {
      const item = queue.shift()!;
      queued -= typeof item === "string" ? item.length : item.start.length;
      if (failed) {
        forget(item);
        continue;
      }
      if (typeof item === "string") {
        stream.write(item);
        continue;
      }
      copying = true;
      stream.write(item.start);
      const source = createReadStream(item.file, { highWaterMark: HEAD_BYTES });
      stopCopy = () => {
        stopCopy = undefined;
        source.destroy();
        rmSync(item.file, { force: true });
        next();
      };
      source.on("data", (chunk) => {
        if (!stream.write(chunk)) {
          source.pause();
          stream.once("drain", () => source.resume());
        }
      });
      source.once("error", () => {
        // The line cannot be finished as JSON: it is ended, and readers report it as not JSON.
        stopCopy = undefined;
        stream.write("\n");
        rmSync(item.file, { force: true });
        next();
      });
      source.once("end", () => {
        stopCopy = undefined;
        stream.write(item.end);
        rmSync(item.file, { force: true });
        next();
      });
      return;
    }
    drained?.();
  };
  const write = (line: TraceLine) => enqueue(`${JSON.stringify(line)}\n`);
  process.on("exit", removeSpools);
  write({ mcpgenTrace: 1, time: now(), ...start, mcpgen: version() });
  return {
    message(from, message, http, bytes) {
      const line: TraceMessage = { time: now(), from, message, ...(http ? { http } : {}) };
      let text: string;
      try {
        text = `${JSON.stringify(line)}\n`;
      } catch (error) {
        if (!(error instanceof RangeError) || bytes === undefined) throw error;
        // Valid JSON (it parsed), too deep to write again: its own bytes, on one line.
        const start = JSON.stringify({ time: line.time, from, ...(http ? { http } : {}) });
        text = `${start.slice(0, -1)},"message":${oneLine(bytes)}}\n`;
      }
      enqueue(text);
      observe?.(line);
    },
    spooled(from, spooled, http) {
      const time = now();
      // The message goes last, so the line's start and end are known before its bytes.
      const start = JSON.stringify({ time, from, ...(http ? { http } : {}) });
      enqueue({ start: `${start.slice(0, -1)},"message":`, file: spooled.file, size: spooled.size, end: "}\n" });
      observe?.({ time, from, message: spooled.standIn, ...(http ? { http } : {}) });
    },
    note(note, extra = {}) {
      const line: TraceNote = { time: now(), note, ...extra };
      write(line);
      observe?.(line);
    },
    spoolPath() {
      spoolDir ??= mkdtempSync(path.join(tmpdir(), "mcpgen-trace-"));
      return path.join(spoolDir, `message-${++spools}.json`);
    },
    close: async () => {
      if (copying || queue.length > 0) await new Promise<void>((resolve) => (drained = resolve));
      removeSpools();
      process.off("exit", removeSpools);
      await new Promise<void>((resolve) => {
        if (stream.destroyed || stream.writableEnded) return resolve();
        stream.end(() => resolve());
        stream.once("error", () => resolve());
      });
    },
  };
}

/** JSON text on one line: its CR and LF bytes, which well-formed JSON has only as whitespace, made spaces. */
function oneLine(bytes: Buffer): string {
  return bytes.toString("utf8").replace(/[\r\n]/g, " ");
}

/** A spooled message that will not be written: its file goes. */
function forget(item: Pending): void {
  if (typeof item !== "string") rmSync(item.file, { force: true });
}

/** A line or body that is not JSON, as a note keeps it: at most HEAD_BYTES of its text. */
export function noteText(bytes: Buffer): string {
  return bytes.subarray(0, HEAD_BYTES).toString("utf8");
}

/** Parsed JSON, or undefined when `bytes` are not JSON. */
function parseJson(bytes: Buffer): { value: unknown } | undefined {
  try {
    return { value: JSON.parse(bytes.toString("utf8")) as unknown };
  } catch {
    return undefined;
  }
}

function now(): string {
  return new Date().toISOString();
}

/**
 * Records what a message copy came to (copy.ts): the message, a note for one that is not JSON
 * (`notJson` says what it was), a note for one the spool could not hold. Nothing for an empty copy,
 * nor for one past the limit (noted when it passed it). True when a message was recorded.
 */
export function recordCopied(trace: TraceSink, from: Side, copied: Copied, notJson: string, http?: TraceHttp): boolean {
  const where = http ? { http } : {};
  switch (copied.kind) {
    case "bytes": {
      const parsed = parseJson(copied.bytes);
      if (parsed) trace.message(from, parsed.value, http, copied.bytes);
      else trace.note(notJson, { from, text: noteText(copied.bytes), ...where });
      return parsed !== undefined;
    }
    case "spooled":
      trace.spooled(from, copied.spooled, http);
      return true;
    case "not-json":
      trace.note(notJson, { from, text: noteText(copied.head), ...where });
      return false;
    case "lost":
      trace.note(`a message of ${copied.size} bytes: forwarded, not recorded (its spool file failed: ${copied.reason})`, {
        from,
        event: "not-recorded",
        ...where,
      });
      return false;
    default:
      return false;
  }
}
