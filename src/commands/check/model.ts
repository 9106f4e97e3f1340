/**
 * What `mcpgen check` and `mcpgen explain` work on: the messages of a log, whatever its format
 * (read/), paired request with answer (pair/), judged by the rules (rules/), and the findings the
 * reports print (report/).
 */
import type { ServerLogLine, TraceHttp, TraceNoteEvent } from "../trace/record.js";

export type Side = "client" | "server";

export const other = (side: Side): Side => (side === "client" ? "server" : "client");

/** One JSON-RPC message of the log (a batch is split into its messages, all at the batch's line). */
export interface LoggedMessage {
  kind: "message";
  /** 1-based line of the file where the message (or, in a HAR, its entry) starts. */
  line: number;
  from: Side;
  message: unknown;
  /** Milliseconds since the epoch, when the log says. */
  time?: number;
  http?: TraceHttp;
  /** HAR: the entry's index (0-based) in log.entries. */
  entry?: number;
  /** The message came in a JSON-RPC batch (an array). */
  batch?: boolean;
  /** Who sent it is inferred (plain JSONL), not recorded. */
  inferred?: boolean;
}

/** A line of a generated server's own log: a request and how it ended, or a notification. */
export interface LoggedServerLine {
  kind: "server-log";
  line: number;
  log: ServerLogLine;
  time?: number;
}

/** Something the log says that is not a message: a recorder's note, or a line that is no JSON. */
export interface LoggedNote {
  kind: "note";
  line: number;
  note: string;
  /** The line is not JSON, or not a message: a finding, not just a note. */
  unreadable?: boolean;
  text?: string;
  time?: number;
  http?: TraceHttp;
  /** The side the note concerns, when the recorder said. */
  from?: Side;
  /** What the note means for pairing requests with answers (src/commands/trace/record.ts). */
  event?: TraceNoteEvent;
}

export type LogEvent = LoggedMessage | LoggedServerLine | LoggedNote;

export type Severity = "error" | "warning";

/** One problem found in a log. */
export interface Finding {
  rule: string;
  severity: Severity;
  /** The log, as given on the command line. */
  file: string;
  line: number;
  /** The message's JSON-RPC id, when it has one (a response: its request's). */
  id?: string | number | null;
  message: string;
  fix: string;
}

/** Milliseconds since the epoch of an ISO time, or undefined. */
export function parseTime(value: unknown): number | undefined {
  if (typeof value !== "string") return undefined;
  const t = Date.parse(value);
  return Number.isNaN(t) ? undefined : t;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
