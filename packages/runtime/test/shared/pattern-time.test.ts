/**
 * The time for patterns on RE2JS per value checked (maxPatternMs): a plan carries the factor of its
 * costliest counted repetition, a string whose worst case would not fit in the time left is refused
 * before the engine runs, and each test's real time is taken from what is left.
 */
import { describe, expect, it, vi } from "vitest";
import { RE2JS } from "re2js";
import { planPattern } from "../../src/server/engine/patternPlans.js";
import { compilePlan, longestWithin, PatternTimeExceeded, withPatternTime, loadRe2 } from "../../src/shared/patterns.js";
import { createAjv } from "../../src/shared/ajv.js";
import { runValidator } from "../../src/shared/validation.js";

// Patterns that run on RE2JS need it loaded first, as the validators' prepare does (some compile as the tests are collected).
await loadRe2();

describe("plans carry the factor of their costliest counted repetition", () => {
  it.each([
    ["(?<=\\w{0,1000}x)y", { re2: "(?<=[0-9A-Z\\x{5f}a-z]{0,1000}x)y", lookbehind: true, factor: 1000 }],
    ["(?<![ab]{1,500})c", { re2: "(?<![a-b]{1,500})c", lookbehind: true, factor: 500 }],
    // Several repetitions: each costs its own at every character, so their factors add up.
    ["(?<=\\w{0,500}x|\\d{0,500}z)y", { re2: "(?<=[0-9A-Z\\x{5f}a-z]{0,500}x|[0-9]{0,500}z)y", lookbehind: true, factor: 1000 }],
    // At least 1,000: RE2 spells out the copies, as many ways as {0,1000}.
    ["(?<=\\w{1000,}x)y", { re2: "(?<=[0-9A-Z\\x{5f}a-z]{1000,}x)y", lookbehind: true, factor: 1000 }],
    // No counted repetition: no factor.
    ["(?<=a)b", { re2: "(?<=a)b", lookbehind: true }],
    // On RegExp (proved linear): no factor, no time taken.
    ["^[a-z]{1,5000}$", { regexp: true }],
  ])("%s", (source, plan) => {
    expect(planPattern(source)).toEqual(plan);
  });

  it("every search of a split plan carries the whole pattern's factor", () => {
    expect(planPattern("^(?=\\w{0,1000}$)(?!x)a")).toEqual({
      all: [
        { re2: "^(?:[0-9A-Z\\x{5f}a-z]{0,1000}$)", factor: 1000 },
        { re2: "^a", factor: 1000 },
      ],
      none: [{ re2: "^(?:x)", factor: 1000 }],
    });
  });
});

describe("withPatternTime", () => {
  const source = "(?<=\\w{0,1000}x)y";
  const matcher = compilePlan(planPattern(source), source);

  it("refuses a string whose worst case would not fit, before the engine runs; outside a check there is no limit", () => {
    const engine = vi.spyOn(RE2JS.prototype, "test");
    try {
      const longest = longestWithin(1000, 100);
      expect(longest).toBe(1663);
      expect(() => withPatternTime(100, () => matcher.test("y".repeat(longest + 1)))).toThrow(PatternTimeExceeded);
      expect(engine).not.toHaveBeenCalled();
      expect(withPatternTime(100, () => matcher.test("xy"))).toBe(true);
      expect(matcher.test("y".repeat(3000))).toBe(false);
      expect(engine).toHaveBeenCalledTimes(2);
    } finally {
      engine.mockRestore();
    }
  });

  it("takes each test's real time from what is left, its estimate when the machine is slower: the strings of one value share it, the next starts afresh", () => {
    const now = vi.spyOn(performance, "now");
    let clock = 0;
    let step = 0;
    now.mockImplementation(() => (clock += step / 2));
    // 580 characters: about 20.3 ms each at worst (580 × 580 ways), long enough to be timed.
    const ten = Array.from({ length: 10 }, () => "y".repeat(580));
    let tested = 0;
    const run = () =>
      withPatternTime(100, () => {
        for (const text of ten) {
          matcher.test(text);
          tested++;
        }
      });
    try {
      // Each takes 1 ms: all ten fit in the 100 ms (by their estimates alone, four would).
      step = 1;
      run();
      expect(tested).toBe(10);
      // Each takes 50 ms, more than its estimate: charged the estimate, so four run and the fifth is refused, on
      // any machine; the next value starts afresh.
      step = 50;
      for (let round = 0; round < 2; round++) {
        tested = 0;
        expect(run).toThrow(new PatternTimeExceeded(100));
        expect(tested).toBe(4);
      }
    } finally {
      now.mockRestore();
    }
  });

  it("charges a short string its estimate without reading the clock, so a flood of them is bounded too", () => {
    const now = vi.spyOn(performance, "now");
    try {
      let tested = 0;
      expect(() =>
        withPatternTime(100, () => {
          for (;;) {
            matcher.test("xy");
            tested++;
          }
        }),
      ).toThrow(PatternTimeExceeded);
      expect(now).not.toHaveBeenCalled();
      // About 2.5 µs each: 100 ms is some forty thousand of them.
      expect(tested).toBeGreaterThan(35_000);
      expect(tested).toBeLessThan(45_000);
    } finally {
      now.mockRestore();
    }
  });

  it("runValidator words it as a problem of the value, with the limit", () => {
    const validate = createAjv(false, planPattern).compile({ type: "array", items: { type: "string", pattern: "(?<=\\w{0,1000}x)y" } });
    expect(runValidator(validate, ["y".repeat(20_000)], 250)).toBe(
      "A string was not checked against its pattern: the patterns of this value would take more than 250 ms (maxPatternMs)",
    );
    expect(runValidator(validate, ["xy", "axy"])).toBeUndefined();
  });
});

describe("runValidator", () => {
  it("refuses what an $async schema would answer later (a promise read as valid before)", () => {
    const validate = createAjv(false, planPattern).compile({ $async: true, type: "string" });
    expect(runValidator(validate, 1)).toBe("The schema is asynchronous ($async), which mcpgen's validators do not run");
  });
});
