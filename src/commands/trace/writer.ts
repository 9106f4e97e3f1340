/**
 * The trace file: one JSON line per record, written in the order they come. Recording never gets
 * in the way of forwarding: a write that fails (disk full, file removed) stops the recording, says
 * so once on stderr, and the proxy goes on; a log that falls behind the traffic by more than
 * `MAX_PENDING_BYTES` drops lines (and says so once, in the log and on stderr) rather than grow.
 */
import { createWriteStream, openSync, type WriteStream } from "node:fs";
import type { TraceHttp, TraceLine, TraceMessage, TraceNote, TraceNoteEvent, TraceStart } from "./record.js";
import { version } from "../../common/version.js";

/** The most of a line or body that is not JSON that a note keeps. */
const NOTE_TEXT_BYTES = 64 * 1024;
/** Lines waiting for the disk, at most; past it lines are dropped until the disk catches up. */
const MAX_PENDING_BYTES = 64 * 1024 * 1024;

export type Side = "client" | "server";

export interface TraceSink {
  message(from: Side, message: unknown, http?: TraceHttp): void;
  note(note: string, extra?: { from?: Side; text?: string; http?: TraceHttp; event?: TraceNoteEvent }): void;
}

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
): TraceWriter {
  const fd = openSync(file, "w");
  const stream: WriteStream = createWriteStream("", { fd, autoClose: true });
  let failed = false;
  let dropping = false;
  stream.on("error", (error: NodeJS.ErrnoException) => {
    if (failed) return;
    failed = true;
    process.stderr.write(`mcpgen trace: cannot write ${file} (${error.code ?? error.message}): recording stopped; the messages are still forwarded.\n`);
  });
  const write = (line: TraceLine) => {
    if (failed) return;
    if (stream.writableLength > MAX_PENDING_BYTES) {
      if (!dropping) process.stderr.write(`mcpgen trace: ${file} falls behind the traffic; lines are dropped until it catches up.\n`);
      dropping = true;
      return;
    }
    if (dropping) {
      dropping = false;
      stream.write(`${JSON.stringify({ time: now(), note: "lines were dropped here: the disk fell behind the traffic" })}\n`);
    }
    stream.write(`${JSON.stringify(line)}\n`);
  };
  write({ mcpgenTrace: 1, time: now(), ...start, mcpgen: version() });
  return {
    message(from, message, http) {
      const line: TraceMessage = { time: now(), from, message, ...(http ? { http } : {}) };
      write(line);
      observe?.(line);
    },
    note(note, extra = {}) {
      const line: TraceNote = { time: now(), note, ...extra };
      write(line);
      observe?.(line);
    },
    close: () =>
      new Promise<void>((resolve) => {
        if (stream.destroyed || stream.writableEnded) return resolve();
        stream.end(() => resolve());
        stream.once("error", () => resolve());
      }),
  };
}

/** A line or body that is not JSON, as a note keeps it: at most NOTE_TEXT_BYTES of its text. */
export function noteText(bytes: Buffer): string {
  return bytes.subarray(0, NOTE_TEXT_BYTES).toString("utf8");
}

/** Parsed JSON, or undefined when `bytes` are not JSON. */
export function parseJson(bytes: Buffer): { value: unknown } | undefined {
  try {
    return { value: JSON.parse(bytes.toString("utf8")) as unknown };
  } catch {
    return undefined;
  }
}

function now(): string {
  return new Date().toISOString();
}
