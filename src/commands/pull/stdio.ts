/**
 * The SDK's stdio client transport, fitted for pull: answers read in linear time up to the
 * `Budget`'s limits, and the server's exit status kept for the message when it quits.
 *
 * Why reach into the transport: its ReadBuffer concatenates the whole pending line with each
 * 64 KiB chunk and searches it again for a newline (quadratic: a 16 MB answer takes 7 s, a 64 MB
 * one 100 s), and when an answer passes its `maxBufferSize` it closes the connection, so the
 * pending request fails as "Connection closed" without saying why. The SDK has no public seam
 * for either (upstream: modelcontextprotocol/typescript-sdk#2245), so the transport keeps its
 * class (the SDK's auto version negotiation probes on a sibling process only for that exact
 * class) and gets this file's line buffer in place of its own, and so does the sibling. If a later SDK renames the fields, pull
 * still works, with the SDK's buffer and `maxBufferSize` as the limit (test/hostile/pull-limits
 * checks that the fields are there).
 */
import type { ChildProcess } from "node:child_process";
import type { Budget } from "./limits.js";

/** The transport's fields this file replaces or reads. */
interface StdioInternals {
  _readBuffer?: unknown;
  _process?: ChildProcess;
  start(): Promise<void>;
}

export interface FittedStdio {
  /** How the server's process ended (`exited with code 3`, `was killed by SIGKILL`), once it has. */
  exit(): string | undefined;
  /** The first line the server wrote to stdout that is not a JSON-RPC message (a banner, a log line), as it came. */
  strayLine(): string | undefined;
  /** Ends the server's process now (after a limit: it may still be writing). */
  kill(): void;
}

/** Fits `transport` (an SDK StdioClientTransport, not started) for pull. */
export function fitStdio(transport: object, budget: Budget, parse: (line: string) => unknown): FittedStdio {
  const internals = transport as StdioInternals;
  const stray: StrayLine = {};
  const fit = (target: StdioInternals) => {
    if ("_readBuffer" in target) target._readBuffer = new LineBuffer(budget, parse, stray);
  };
  fit(internals);
  // In auto mode the SDK probes for 2026-07-28 on a sibling process it makes with
  // `new transport.constructor(params)`, and a silent server spends the whole timeout there: the
  // sibling reads through a LineBuffer too, so a banner it gets is said as well.
  const Transport = transport.constructor as new (params: object) => StdioInternals;
  Object.defineProperty(transport, "constructor", {
    value: function Sibling(params: object) {
      const sibling = new Transport(params);
      fit(sibling);
      return sibling;
    },
    configurable: true,
    writable: true,
  });
  let child: ChildProcess | undefined;
  let exit: string | undefined;
  const start = internals.start.bind(transport);
  internals.start = async () => {
    await start();
    child = internals._process;
    child?.once("exit", (code, signal) => (exit = code !== null ? `exited with code ${code}` : `was killed by ${signal}`));
  };
  return {
    exit: () => exit,
    strayLine: () => stray.line,
    kill: () => {
      if (child && child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    },
  };
}

/** The first line a server wrote to stdout that is not a JSON-RPC message, shared by the buffers of its processes. */
interface StrayLine {
  line?: string;
}

/**
 * Newline-delimited JSON-RPC messages from a stream of chunks, each byte looked at once. Same
 * contract as the SDK's ReadBuffer (`append`, `readMessage`, `clear`; lines that are not JSON are
 * skipped, the first of them kept for the message when the handshake fails), plus the budget: a
 * line longer than one answer may be, or more bytes than all answers together, throw (the transport then reports the error and closes), and the rest is dropped.
 */
export class LineBuffer {
  /** The pieces of the line not yet ended by a newline. */
  private pending: Buffer[] = [];
  private pendingSize = 0;
  /** Whole lines not yet read. */
  private lines: Buffer[] = [];
  private stopped = false;

  constructor(
    private readonly budget: Budget,
    private readonly parse: (line: string) => unknown,
    private readonly stray: StrayLine = {},
  ) {}

  append(chunk: Buffer): void {
    if (this.stopped) return;
    try {
      this.budget.read(chunk.length);
      let start = 0;
      for (let newline = chunk.indexOf(10); newline !== -1; newline = chunk.indexOf(10, start)) {
        const size = this.pendingSize + newline - start;
        this.budget.answer(size, "line");
        this.pending.push(chunk.subarray(start, newline));
        this.lines.push(Buffer.concat(this.pending, size));
        this.pending = [];
        this.pendingSize = 0;
        start = newline + 1;
      }
      if (start < chunk.length) {
        this.budget.answer(this.pendingSize + chunk.length - start, "line");
        this.pending.push(chunk.subarray(start));
        this.pendingSize += chunk.length - start;
      }
    } catch (error) {
      this.stopped = true;
      this.clear();
      throw error;
    }
  }

  readMessage(): unknown {
    for (let line = this.lines.shift(); line !== undefined; line = this.lines.shift()) {
      const text = line.toString("utf8").replace(/\r$/, "");
      try {
        return this.parse(text);
      } catch (error) {
        // JSON that is not JSON-RPC (a log record) is the transport's to report; both are kept.
        if (text.trim() !== "") this.stray.line ??= text.slice(0, 1000);
        if (!(error instanceof SyntaxError)) throw error;
      }
    }
    return null;
  }

  clear(): void {
    this.pending = [];
    this.pendingSize = 0;
    this.lines = [];
  }
}
