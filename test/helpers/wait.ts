/**
 * Waiting in tests: a pause, and polling until something holds. A poll that runs out throws with
 * what it waited for and the last value it saw, so a slow or intermittent failure names itself
 * instead of surfacing later as an unrelated assertion.
 */
export { setTimeout as sleep } from "node:timers/promises";
import { setTimeout as sleep } from "node:timers/promises";
import { inspect } from "node:util";

export interface PollOptions {
  /** Give up after this many milliseconds (default 10 s, well under the test timeout). */
  timeout?: number;
  /** Milliseconds between two polls (default 20). */
  every?: number;
}

/** Polls `check` until it returns true; throws `timed out waiting for <what>` after `timeout`. */
export async function until(check: () => boolean | Promise<boolean>, what: string, options: PollOptions = {}): Promise<void> {
  await untilValue(check, (ok) => ok, what, options);
}

/**
 * Polls `get` until `done` accepts its value, and returns that value; throws after `timeout`
 * with `what` and the last value seen (or the error the last `get` threw).
 */
export async function untilValue<T>(get: () => T | Promise<T>, done: (value: T) => boolean, what: string, options: PollOptions = {}): Promise<T> {
  const { timeout = 10_000, every = 20 } = options;
  const deadline = Date.now() + timeout;
  let last: { value: T } | { error: unknown } | undefined;
  for (;;) {
    try {
      const value = await get();
      if (done(value)) return value;
      last = { value };
    } catch (error) {
      last = { error };
    }
    if (Date.now() >= deadline) break;
    await sleep(every);
  }
  const seen = last === undefined ? "nothing" : "error" in last ? `an error: ${String(last.error)}` : inspect(last.value, { depth: 4, breakLength: Infinity });
  throw new Error(`timed out after ${timeout} ms waiting for ${what}; last saw ${seen}`);
}
