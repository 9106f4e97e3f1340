/** `mcpgen explain` without the command line: the log, annotated line by line, to a writer. */
import type { LogFormat } from "../read/index.js";
import { openLog } from "../read/index.js";
import { showId } from "../pair/classify.js";
import { Pairer } from "../pair/pairer.js";
import { describe, describeHttp, describeServerLog } from "./describe.js";

const ARROW = { client: "client → server", server: "server → client" } as const;

/** Writes one line per message (and per note); gives the format read. */
export async function explainLog(file: string, write: (line: string) => void, format?: LogFormat): Promise<LogFormat> {
  const log = await openLog(file, format);
  const pairer = new Pairer();
  const at = (line: number) => String(line).padEnd(4);
  for await (const event of log.events) {
    if (event.kind === "note") write(`${at(event.line)}  ${event.unreadable ? "unreadable" : "note"}: ${event.note}${event.text ? `: ${event.text}` : ""}`);
    else if (event.kind === "server-log") {
      const from = event.log.direction === "in" ? "client" : "server";
      write(`${at(event.line)}  ${ARROW[from]}  ${describeServerLog(event.log)}`);
    } else {
      const p = pairer.add(event);
      write(`${at(event.line)}  ${ARROW[event.from]}  ${describe(p)}${describeHttp(event.http)}`);
    }
  }
  for (const r of pairer.unanswered()) write(`end   request #${showId(r.id)} ${r.method} (line ${r.line}) was never answered`);
  return log.format;
}
