/** Runs `mcpgen trace` for the trace suites, and reads what it wrote. */
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import type { TraceMessage, TraceNote, TraceStart } from "../../src/commands/trace/record.js";
import { ROOT } from "./cli.js";

export const BIN = path.join(ROOT, "dist/cli/bin.js");
/** The gift server over stdio (through tsx), as the stdio suites start it. */
export const GIFT_STDIO = [process.execPath, "--import", "tsx", fileURLToPath(new URL("../servers/gift-stdio.ts", import.meta.url))];

export interface ReadTrace {
  start: TraceStart;
  lines: (TraceMessage | TraceNote)[];
  messages: TraceMessage[];
  notes: TraceNote[];
  text: string;
}

export function readTrace(file: string): ReadTrace {
  const text = readFileSync(file, "utf8");
  const [first, ...rest] = text
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as unknown);
  const lines = rest as (TraceMessage | TraceNote)[];
  return {
    start: first as TraceStart,
    lines,
    messages: lines.filter((l): l is TraceMessage => "message" in l),
    notes: lines.filter((l): l is TraceNote => "note" in l),
    text,
  };
}

/** `mcpgen trace --http UPSTREAM --listen 127.0.0.1:0 -o FILE`, once it says where it serves. */
export async function startHttpTrace(
  upstream: string,
  file: string,
  extra: string[] = [],
): Promise<{ url: string; child: ChildProcessWithoutNullStreams; stop(): Promise<number | null> }> {
  const child = spawn(process.execPath, [BIN, "trace", "--http", upstream, "--listen", "127.0.0.1:0", "-o", file, ...extra]);
  let stderr = "";
  const url = await new Promise<string>((resolve, reject) => {
    child.stderr.on("data", (d: Buffer) => {
      stderr += d.toString();
      const m = /serving (http:\/\/\S+)/.exec(stderr);
      if (m) resolve(m[1]!);
    });
    child.once("exit", () => reject(new Error(`mcpgen trace exited: ${stderr}`)));
  });
  const stop = () =>
    new Promise<number | null>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve(child.exitCode);
      child.once("exit", (code) => resolve(code));
      child.kill("SIGTERM");
    });
  return { url, child, stop };
}
