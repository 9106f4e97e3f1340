/**
 * Opens a log of any of the four formats check and explain read, told apart by their first JSON
 * line: mcpgen's trace (`mcpgenTrace`), a generated server's log (`mcpgenLog`), a HAR (`log.entries`,
 * or a first line that is `{` alone: a JSON document across lines), else plain JSONL.
 */
import { open } from "node:fs/promises";
import { isRecord, type LogEvent } from "../model.js";
import { readHar } from "./har.js";
import { readMcpgenTrace, readPlainJsonl, readServerLog } from "./jsonl.js";
import { parseJson } from "./lines.js";

export type LogFormat = "mcpgen" | "jsonl" | "har" | "server-log";

export { UnreadableHar } from "./har.js";

/** The first 64 KiB: enough for a format's first line. */
async function head(file: string): Promise<string> {
  const handle = await open(file, "r");
  try {
    const buffer = Buffer.alloc(64 * 1024);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    return buffer
      .subarray(0, bytesRead)
      .toString("utf8")
      .replace(/^\uFEFF/, "");
  } finally {
    await handle.close();
  }
}

export async function detectFormat(file: string): Promise<LogFormat> {
  const text = await head(file);
  if (file.toLowerCase().endsWith(".har")) return "har";
  const lines = text.split(/\r?\n/).slice(0, 50);
  const first = lines.find((l) => l.trim() !== "");
  if (first !== undefined && first.trim() === "{") return "har";
  for (const l of lines) {
    if (!l.trim().startsWith("{")) continue;
    const parsed = parseJson(l);
    if (!parsed || !("value" in parsed) || !isRecord(parsed.value)) continue;
    const v = parsed.value;
    if (Object.hasOwn(v, "mcpgenTrace")) return "mcpgen";
    if (v["mcpgenLog"] === 1) return "server-log";
    if (isRecord(v["log"]) && Array.isArray(v["log"]["entries"])) return "har";
    return "jsonl";
  }
  return "jsonl";
}

export async function openLog(file: string, format?: LogFormat): Promise<{ format: LogFormat; events: AsyncGenerator<LogEvent> }> {
  const f = format ?? (await detectFormat(file));
  const events = f === "mcpgen" ? readMcpgenTrace(file) : f === "har" ? readHar(file) : f === "server-log" ? readServerLog(file) : readPlainJsonl(file);
  return { format: f, events };
}
