/**
 * How much `mcpgen pull` reads from a server before it stops: a server that answers with 400 MB,
 * or pages without end, gets a message that says which limit it passed and how to raise it,
 * instead of a manifest of that size or a process that runs out of memory.
 *
 * The defaults are far above real servers (the largest list a few hundred tools, well under
 * 1 MiB) and far below what makes pull slow: a 100,000-tool page (15 MB) pulls in about 6 s with a
 * peak of 350 MiB; stopping at a limit takes 1 to 4 s and at most 250 MiB.
 */

import { flagSize, formatSize, MiB } from "../../common/size.js";

export interface PullLimits {
  /** Bytes in one answer: one line of a stdio server's stdout, one HTTP response body. */
  answerBytes: number;
  /** Bytes in all answers together. */
  totalBytes: number;
  /** Definitions in the four lists (tools, resources, templates, prompts) together. */
  items: number;
}

const DEFAULT_ANSWER_BYTES = 32 * MiB;
/** The most `--max-bytes` takes: JavaScript strings end at 512 MiB, and parsing takes several times an answer's size. */
export const MAX_ANSWER_BYTES = 256 * MiB;
const DEFAULT_ITEMS = 100_000;

/** The limits for `--max-bytes` and `--max-items`: all answers together may be twice one answer. */
export function pullLimits(answerBytes = DEFAULT_ANSWER_BYTES, items = DEFAULT_ITEMS): PullLimits {
  return { answerBytes, totalBytes: 2 * answerBytes, items };
}

/** A limit passed: the message says which, and how to raise it. */
export class LimitError extends Error {}

/**
 * What pull has read so far, checked against its limits. The transports call `read` and `answer`
 * as bytes arrive (before anything is parsed), the list loop calls `items` per page. A limit passed is
 * thrown, and also given to `onExceeded` (a transport's own error path may swallow it).
 */
export class Budget {
  private bytes = 0;
  private definitions = 0;

  constructor(
    readonly limits: PullLimits,
    private readonly onExceeded: (error: LimitError) => void = () => {},
  ) {}

  /** `bytes` more read from the server, in any answer. */
  read(bytes: number): void {
    this.bytes += bytes;
    if (this.bytes > this.limits.totalBytes) {
      throw this.exceeded(
        `the server's answers add up to more than ${formatSize(this.limits.totalBytes)}, the most pull reads from one server (twice --max-bytes ${flagSize(this.limits.answerBytes)}); if the server really sends that much, pull again with --max-bytes ${flagSize(this.raised(this.limits.answerBytes))}`,
      );
    }
  }

  /** One answer is `size` bytes long so far: a `line` of a stdio server's stdout, or an HTTP response `body`. */
  answer(size: number, unit: "line" | "body"): void {
    if (size > this.limits.answerBytes) throw this.tooLarge(unit);
  }

  /** An answer that says it is `declared` bytes long (HTTP Content-Length), before reading it. */
  declare(declared: number): void {
    if (declared > this.limits.answerBytes) throw this.tooLarge("body", declared);
  }

  /** `count` more definitions listed. */
  items(count: number): void {
    this.definitions += count;
    if (this.definitions > this.limits.items) {
      throw this.exceeded(
        `the server lists more than ${this.limits.items} definitions (tools, resources, templates and prompts together), the most pull reads (--max-items ${this.limits.items}); if it really serves that many, pull again with --max-items ${this.limits.items * 2}`,
      );
    }
  }

  private tooLarge(unit: "line" | "body", declared?: number): LimitError {
    const what = unit === "line" ? "a line of the server's stdout (one answer) is longer than" : "an answer is larger than";
    const size = declared === undefined ? "" : ` (it says ${declared} bytes)`;
    const raised = this.raised(Math.max(this.limits.answerBytes, declared ?? 0));
    const how =
      raised > MAX_ANSWER_BYTES
        ? `--max-bytes goes up to ${flagSize(MAX_ANSWER_BYTES)}, less than this answer`
        : `if the server really sends that much, pull again with --max-bytes ${flagSize(raised)}`;
    return this.exceeded(
      `${what} ${formatSize(this.limits.answerBytes)}${size}, the most pull reads in one answer (--max-bytes ${flagSize(this.limits.answerBytes)}); ${how}`,
    );
  }

  /** The next power of two above `bytes` (at least twice the limit), a figure to suggest. */
  private raised(bytes: number): number {
    let next = 2 * this.limits.answerBytes;
    while (next <= bytes) next *= 2;
    return next;
  }

  private exceeded(message: string): LimitError {
    const error = new LimitError(message);
    this.onExceeded(error);
    return error;
  }
}
