/**
 * The three line-by-line logs: mcpgen's trace (src/commands/trace/record.ts), plain JSONL of raw JSON-RPC
 * messages (who sent each is inferred: direction.ts), and a generated server's own message log
 * (`ServerLogLine` lines among its other stderr output).
 */
import type { TraceHttp, TraceLine, TraceNoteEvent } from "../../trace/record.js";
import { isRecord, parseTime, type LogEvent, type Side } from "../model.js";
import { DirectionGuesser } from "./direction.js";
import { fileLines, MAX_DEPTH, MAX_LINE_BYTES, parseJson } from "./lines.js";

const MAX_TEXT = 200;

function unreadable(line: number, text: string, why: string): LogEvent {
  return { kind: "note", line, note: why, unreadable: true, text: text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT)}…` : text };
}

/**
 * The non-blank lines of a log, parsed: `{line, text, value}` for each JSON line, `{line, text}`
 * for one that is not JSON, and the note to yield for a line past MAX_LINE_BYTES or a value
 * nested past MAX_DEPTH (neither is judged).
 */
async function* jsonLines(file: string): AsyncGenerator<{ line: number; text: string; value?: unknown } | { skipped: LogEvent }> {
  for await (const read of fileLines(file)) {
    if ("tooLong" in read) {
      yield { skipped: { kind: "note", line: read.line, note: `a line of ${read.tooLong} bytes, more than ${MAX_LINE_BYTES}: not read`, unreadable: true } };
      continue;
    }
    const { line, text } = read;
    if (text.trim() === "") continue;
    const parsed = parseJson(text);
    if (parsed && "tooDeep" in parsed)
      yield { skipped: { kind: "note", line, note: `a message nested more than ${MAX_DEPTH} levels deep: not judged`, unreadable: true } };
    else yield { line, text, ...(parsed ? { value: parsed.value } : {}) };
  }
}

/** A message as sent: a batch is its messages, in order, all at the same line (marked as a batch's). */
function* split(message: unknown): Generator<{ message: unknown; batch?: true }> {
  if (Array.isArray(message)) for (const m of message) yield { message: m, batch: true };
  else yield { message };
}

/** mcpgen's trace: a TraceStart, then TraceMessage and TraceNote lines. */
export async function* readMcpgenTrace(file: string): AsyncGenerator<LogEvent> {
  for await (const read of jsonLines(file)) {
    if ("skipped" in read) {
      yield read.skipped;
      continue;
    }
    const { line, text, value } = read;
    if (!isRecord(value)) {
      yield unreadable(line, text, "a line of the trace is not a JSON object");
      continue;
    }
    // Any member of a TraceLine may be missing or of another type in a file: each is checked as read.
    const entry: { [K in keyof TraceLine]?: unknown } & Record<string, unknown> = value;
    if (line === 1 && Object.hasOwn(entry, "mcpgenTrace")) {
      yield { kind: "note", line, note: startNote(entry) };
      continue;
    }
    const time = parseTime(entry["time"]);
    const http = isRecord(entry["http"]) ? (entry["http"] as unknown as TraceHttp) : undefined;
    if (Object.hasOwn(entry, "message") && (entry["from"] === "client" || entry["from"] === "server")) {
      for (const { message, batch } of split(entry["message"]))
        yield {
          kind: "message",
          line,
          from: entry["from"] as Side,
          message,
          ...(batch ? { batch } : {}),
          ...(time === undefined ? {} : { time }),
          ...(http ? { http } : {}),
        };
    } else if (typeof entry["note"] === "string") {
      const event = noteEvent(entry["event"], entry["note"]);
      yield {
        kind: "note",
        line,
        note: entry["note"],
        ...(typeof entry["text"] === "string" ? { text: entry["text"] } : {}),
        ...(time === undefined ? {} : { time }),
        ...(http ? { http } : {}),
        ...(entry["from"] === "client" || entry["from"] === "server" ? { from: entry["from"] } : {}),
        ...(event ? { event } : {}),
      };
    } else yield unreadable(line, text, "a line of the trace is neither a message (from, message) nor a note");
  }
}

/**
 * What a note means for pairing: its `event`, or for a trace written before notes had one, the
 * recorder's words for the same two events.
 */
function noteEvent(event: unknown, note: string): TraceNoteEvent | undefined {
  if (event === "client-closed" || event === "not-recorded") return event;
  if (event !== undefined) return undefined;
  if (note.endsWith(": forwarded, not recorded")) return "not-recorded";
  if (note.startsWith("the client closed its input") || note.startsWith("the client closed the connection before")) return "client-closed";
  return undefined;
}

/** One raw JSON-RPC message (or batch) per line. */
export async function* readPlainJsonl(file: string): AsyncGenerator<LogEvent> {
  const guesser = new DirectionGuesser();
  for await (const read of jsonLines(file)) {
    if ("skipped" in read) {
      yield read.skipped;
      continue;
    }
    const { line, text } = read;
    if (!("value" in read)) {
      yield unreadable(line, text, "the line is not JSON");
      continue;
    }
    for (const { message, batch } of split(read.value))
      yield { kind: "message", line, from: guesser.guess(message), message, inferred: true, ...(batch ? { batch } : {}) };
  }
}

/** A generated server's stderr: its `mcpgenLog` lines; other output (its own logging) is skipped. */
export async function* readServerLog(file: string): AsyncGenerator<LogEvent> {
  for await (const read of fileLines(file)) {
    if (!("text" in read) || !read.text.startsWith("{")) continue;
    const { line, text } = read;
    const parsed = parseJson(text);
    if (!parsed || !("value" in parsed) || !isRecord(parsed.value) || parsed.value["mcpgenLog"] !== 1 || typeof parsed.value["method"] !== "string") continue;
    const time = parseTime(parsed.value["time"]);
    yield { kind: "server-log", line, log: parsed.value as never, ...(time === undefined ? {} : { time }) };
  }
}

/** The TraceStart line in words: `trace of stdio (node server.js), by mcpgen 0.1.0, from 2025-...`. */
function startNote(start: Record<string, unknown>): string {
  const command = Array.isArray(start["command"]) ? ` (${start["command"].join(" ")})` : typeof start["upstream"] === "string" ? ` (${start["upstream"]})` : "";
  return `trace of ${String(start["transport"])}${command}, recorded by mcpgen ${String(start["mcpgen"])} from ${String(start["time"])}`;
}
