import { describe, expect, it } from "vitest";
import { nextTaskCursor, taskCursor, taskTtl } from "../../../src/server/tasks/tasks.js";

const HOUR = 3600_000;

describe("the ttl a 2025-era task-augmented call asks for", () => {
  it.each([
    ["none", undefined, HOUR],
    ["null", null, HOUR],
    ["a whole number within the server's", 60_000, 60_000],
    ["1.5 ms, rounded up (Redis's PEXPIRE takes whole ms)", 1.5, 2],
    ["0.001 ms", 0.001, 1],
    ["more than the server's", 2 * HOUR, HOUR],
    ["zero", 0, HOUR],
    ["a negative one", -5, HOUR],
    ["Infinity (1e999 in JSON)", Infinity, HOUR],
    ["NaN", NaN, HOUR],
  ])("%s: %s gives %s", (_, requested, ttl) => {
    expect(taskTtl(requested, HOUR)).toBe(ttl);
  });

  it("never more than 24 hours when the server's own ttl is longer", () => {
    expect(taskTtl(100 * HOUR, 48 * HOUR)).toBe(24 * HOUR);
    expect(taskTtl(undefined, 48 * HOUR)).toBe(48 * HOUR);
  });

  it.each([
    ["a string", "1.5"],
    ["an object", { ms: 1 }],
    ["a boolean", true],
    ["an array", [1]],
  ])("refuses %s with -32602", (_, requested) => {
    expect(() => taskTtl(requested, HOUR)).toThrow(
      expect.objectContaining({ code: -32602, message: "Invalid params: task.ttl must be a number of milliseconds" }),
    );
  });
});

describe("the tasks/list cursor", () => {
  it("round-trips a store's key, up to 16 digits (microseconds since the epoch)", () => {
    for (const key of [1, 36, 1_796_447_815_257_000, Number.MAX_SAFE_INTEGER]) expect(taskCursor(nextTaskCursor(key))).toBe(key);
    expect(taskCursor(undefined)).toBeUndefined();
    expect(taskCursor(null)).toBeUndefined();
  });

  it.each([
    ["another list's", "tools.2"],
    ["a negative key", "tasks.-1"],
    ["too long a key", "tasks.zzzzzzzzzzzz"],
    ["a number", 7],
    ["empty", ""],
  ])("refuses %s with -32602", (_, cursor) => {
    expect(() => taskCursor(cursor)).toThrow(expect.objectContaining({ code: -32602 }));
  });
});
