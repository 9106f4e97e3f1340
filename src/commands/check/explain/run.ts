/** `mcpgen explain` without the command line: the log, annotated message by message, to a writer. */
import type { LogFormat } from "../read/index.js";
import { openLog } from "../read/index.js";
import type { Side } from "../model.js";
import { showId } from "../pair/classify.js";
import { Pairer } from "../pair/pairer.js";
import { describe, describeHttp, describeServerLog } from "./describe.js";

/** One line of the explanation: `--format jsonl` prints these as they are. */
export interface Explained {
  /** The line of the log, or `end` for what is said once the log is read. */
  line: number | "end";
  from?: Side;
  /** The JSON-RPC id and method of the message, when it has them (a reply: its request's method). */
  id?: unknown;
  method?: string;
  /** A reply: the line of the request it answers, and how long it took. */
  answers?: number;
  durationMs?: number;
  text: string;
}

const ARROW = { client: "client → server", server: "server → client" } as const;

/** An explained line as text: `12    client → server  request #3 tools/call ...`. */
export function explainedText(e: Explained): string {
  return `${String(e.line).padEnd(4)}  ${e.from ? `${ARROW[e.from]}  ` : ""}${e.text}`;
}

/** Gives one Explained per message (and per note); returns the format read. */
export async function explainLog(file: string, write: (e: Explained) => void, format?: LogFormat): Promise<LogFormat> {
  const log = await openLog(file, format);
  const pairer = new Pairer();
  for await (const event of log.events) {
    if (event.kind === "note") {
      pairer.note(event);
      write({ line: event.line, text: `${event.unreadable ? "unreadable" : "note"}: ${event.note}${event.text ? `: ${event.text}` : ""}` });
    } else if (event.kind === "server-log") {
      const { log: l } = event;
      write({
        line: event.line,
        from: l.direction === "in" ? "client" : "server",
        ...(l.id === undefined ? {} : { id: l.id }),
        method: l.method,
        ...(l.durationMs === undefined ? {} : { durationMs: l.durationMs }),
        text: describeServerLog(l),
      });
    } else {
      const p = pairer.add(event);
      const s = p.shape;
      const reply = s.kind === "response" && p.request ? p.request : undefined;
      write({
        line: event.line,
        from: event.from,
        ...(s.kind !== "invalid" && "id" in s && s.id !== undefined ? { id: s.id } : {}),
        ...(s.kind === "request" || s.kind === "notification" ? { method: s.method } : reply ? { method: reply.method } : {}),
        ...(reply ? { answers: reply.line } : {}),
        ...(p.durationMs === undefined ? {} : { durationMs: p.durationMs }),
        text: `${describe(p)}${describeHttp(event.http)}`,
      });
    }
  }
  for (const r of pairer.unanswered())
    write({ line: "end", id: r.id, method: r.method, text: `request #${showId(r.id)} ${r.method} (line ${r.line}) was never answered` });
  return log.format;
}
