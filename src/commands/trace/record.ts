/**
 * The trace format: what `mcpgen trace` writes and `mcpgen check` / `mcpgen explain` read. A trace
 * is JSONL: one JSON object per line, in the order the recorder saw them. The first line is a
 * `TraceStart`; every other line is a `TraceMessage` (one JSON-RPC message, or a batch, as sent) or
 * a `TraceNote` (something the recorder saw that is not a message: a server exiting, a
 * connection refused, a line that is not JSON). Readers ignore fields they do not know, so fields
 * can be added without a new version; a change that breaks readers bumps `mcpgenTrace`.
 *
 * `check` and `explain` also read two other inputs (see src/commands/check/): plain JSONL of raw JSON-RPC
 * messages (one message per line, no envelope: direction inferred), a HAR file of a Streamable HTTP
 * session, and a generated server's own message log (`ServerLogLine`, `logMessages: true`).
 */

/** The version of this format. */
export const TRACE_VERSION = 1;

/** The first line of a trace. */
export interface TraceStart {
  mcpgenTrace: typeof TRACE_VERSION;
  /** ISO 8601, with milliseconds. */
  time: string;
  transport: "stdio" | "http";
  /** stdio: the server's command line, redacted as `pull` redacts it (src/common/redact.ts). */
  command?: string[];
  /** http: the upstream URL, redacted. */
  upstream?: string;
  /** The mcpgen version that wrote it. */
  mcpgen: string;
}

/** One message, as it crossed the recorder. */
export interface TraceMessage {
  /** ISO 8601 with milliseconds: when the recorder had the whole message. */
  time: string;
  /** Who sent it. */
  from: "client" | "server";
  /**
   * The message (a JSON-RPC message, or an array for a batch). Up to 1 MiB it is written as parsed
   * from the bytes sent; a larger one as sent, its line breaks made spaces (the same value), and
   * last in its line.
   */
  message: unknown;
  /** HTTP only: the exchange it rode on. */
  http?: TraceHttp;
}

/** Where a message rode on Streamable HTTP. */
export interface TraceHttp {
  /** A number per HTTP request (1, 2, ...): the POST, and the response or SSE stream that answers it, share it. */
  exchange: number;
  /** The request's method: POST, GET or DELETE. */
  method: string;
  /** Path and query of the request, redacted. */
  path: string;
  /** The response's status (on server messages, and on the note of a response without a message). */
  status?: number;
  /**
   * The headers that matter to MCP, names lower-cased: every `mcp-*` header, `mcp-protocol-version`,
   * `content-type`, `accept`, `last-event-id`, `www-authenticate`; `authorization` and `cookie`
   * only as "[redacted]". Request headers on client messages, response headers on server messages.
   */
  headers: { [name: string]: string };
  /** Set when the message came in a server-sent event: its id and event name, when it had them. */
  sse?: { id?: string; event?: string };
}

/**
 * What a note means for the messages around it, when it means something a reader must act on
 * (`check` pairs requests with answers by it):
 * - `client-closed`: the client closed its side: on stdio its input (it will answer nothing more,
 *   and waits for nothing more), over HTTP an exchange's connection (it waits for no more of that
 *   exchange's answers).
 * - `not-recorded`: a message went through but was too large to record; it may be an answer.
 */
export type TraceNoteEvent = "client-closed" | "not-recorded";

/** Something the recorder saw that is not a message. */
export interface TraceNote {
  time: string;
  note: string;
  /** What the note means for pairing (written since mcpgen 0.2; older traces say it in `note` alone). */
  event?: TraceNoteEvent;
  /** The side it concerns, when it concerns one. */
  from?: "client" | "server";
  /** A line or body that was not JSON (at most 64 KiB of it). */
  text?: string;
  http?: TraceHttp;
}

export type TraceLine = TraceStart | TraceMessage | TraceNote;

/**
 * One line of a generated server's own message log (stderr, `logMessages: true` or
 * `MCP_LOG_MESSAGES=1`): a request and how it ended. Defined by the runtime that writes it.
 */
export type { ServerLogLine } from "@mcpgen/runtime/codegen";
