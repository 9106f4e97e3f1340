/**
 * `mcpgen trace -- COMMAND...`: the recorder in place of a stdio server. The client's stdin goes
 * to the server's stdin and the server's stdout to our stdout byte for byte, each chunk written
 * through as it arrives; the server's stderr goes to ours. A copy of each direction is split into
 * lines (MCP stdio is one JSON message per line) and recorded.
 *
 * The server runs in its own process group: when the recorder stops (exit, SIGINT, SIGTERM,
 * SIGHUP) it takes the group down with it. If the recorder is killed outright (SIGKILL), the
 * client sees our stdout close at once, and the server sees its stdin close.
 */
import { spawn } from "node:child_process";
import { constants } from "node:os";
import { LineSplitter } from "./lines.js";
import { recordCopied, type Side, type TraceWriter } from "./writer.js";

/** The longest line recorded (the forwarding has no limit; past 1 MiB a line is spooled to disk, not held). */
const MAX_LINE_BYTES = 64 * 1024 * 1024;

export interface StdioTraceOptions {
  command: string[];
  trace: TraceWriter;
  maxLineBytes?: number;
}

/** Runs the server until it exits; resolves with the exit code the recorder should exit with. */
export function traceStdio(options: StdioTraceOptions): Promise<number> {
  const { trace } = options;
  const [file, ...args] = options.command as [string, ...string[]];
  const child = spawn(file, args, { stdio: ["pipe", "pipe", "pipe"], detached: process.platform !== "win32" });

  const killGroup = (signal: NodeJS.Signals) => {
    if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
    try {
      if (process.platform === "win32") child.kill(signal);
      else process.kill(-child.pid, signal);
    } catch {
      // Already gone.
    }
  };
  const onExit = () => killGroup("SIGKILL");
  process.on("exit", onExit);
  const signals: NodeJS.Signals[] = ["SIGINT", "SIGTERM", "SIGHUP"];
  const forward = (signal: NodeJS.Signals) => {
    trace.note(`the recorder got ${signal}: passed on to the server`);
    killGroup(signal);
  };
  for (const s of signals) process.on(s, forward);

  const sideCopy = (from: Side) =>
    new LineSplitter({
      maxBytes: options.maxLineBytes ?? MAX_LINE_BYTES,
      spoolPath: () => trace.spoolPath(),
      onLine: (line) => void recordCopied(trace, from, line, "a line that is not JSON"),
      onOverflow(size) {
        trace.note(`a line longer than ${options.maxLineBytes ?? MAX_LINE_BYTES} bytes (${size} so far): forwarded, not recorded`, {
          from,
          event: "not-recorded",
        });
      },
    });
  const fromClient = sideCopy("client");
  const fromServer = sideCopy("server");

  // Client → server.
  const stdin = process.stdin;
  const onStdin = (chunk: Buffer) => {
    if (!child.stdin.writable) return;
    if (!child.stdin.write(chunk)) {
      stdin.pause();
      child.stdin.once("drain", () => stdin.resume());
    }
    fromClient.push(chunk);
  };
  stdin.on("data", onStdin);
  stdin.once("end", () => {
    fromClient.end();
    trace.note("the client closed its input: closing the server's", { from: "client", event: "client-closed" });
    child.stdin.end();
  });
  // A server that exits before reading everything: its stdin fails with EPIPE, which is not ours to report.
  child.stdin.on("error", () => {});

  // Server → client.
  child.stdout.on("data", (chunk: Buffer) => {
    if (!process.stdout.write(chunk)) {
      child.stdout.pause();
      process.stdout.once("drain", () => child.stdout.resume());
    }
    fromServer.push(chunk);
  });
  child.stderr.on("data", (chunk: Buffer) => process.stderr.write(chunk));
  // Our stdout closed (the client went away): the server's output has nowhere to go.
  process.stdout.on("error", () => {
    trace.note("the client closed its end of the server's output");
    killGroup("SIGTERM");
  });

  return new Promise<number>((resolve) => {
    let settled = false;
    const finish = (code: number) => {
      if (settled) return;
      settled = true;
      stdin.off("data", onStdin);
      stdin.pause();
      for (const s of signals) process.off(s, forward);
      resolve(code);
    };
    child.once("error", (error: NodeJS.ErrnoException) => {
      trace.note(`the server could not be started: ${error.code ?? error.message}`);
      process.stderr.write(`mcpgen trace: cannot start ${file}: ${error.code === "ENOENT" ? "no such command" : error.message}\n`);
      finish(127);
    });
    child.once("exit", (code, signal) => {
      // Its output may still be in the pipe: record it before the exit (bounded wait, for a
      // grandchild that keeps the pipe open).
      const done = () => {
        fromServer.end();
        trace.note(signal ? `the server was ended by ${signal}` : `the server exited with code ${code}`, { from: "server" });
        finish(signal ? 128 + (constants.signals[signal] ?? 0) : (code ?? 0));
      };
      if (child.stdout.readableEnded) return done();
      const timer = setTimeout(done, 2000);
      child.stdout.once("end", () => {
        clearTimeout(timer);
        done();
      });
    });
  });
}
