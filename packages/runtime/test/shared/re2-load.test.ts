/**
 * RE2JS is loaded only when a pattern runs on it: compiling such a plan before `loadRe2` is a bug
 * the runtime names, and the validators' `prepare` loads it when the definition's plans need it
 * (and only then), so that the check after it runs. Its own file: what is loaded is per process.
 */
import { describe, expect, it } from "vitest";
import { compilePlan, needsRe2, withFallback, type PatternTable } from "../../src/shared/patterns.js";
import { createAjv } from "../../src/shared/ajv.js";
import { SchemaValidators } from "../../src/shared/validation.js";

const ON_REGEXP: PatternTable = { "^[a-z]{1,8}$": { regexp: true } };
const ON_RE2: PatternTable = { ...ON_REGEXP, "^(a+)+$": { re2: "^(a+)+$" } };

describe("RE2JS, loaded when a pattern needs it", () => {
  it("is not loaded up front: a plan on it cannot be compiled yet, one on RegExp can", () => {
    expect(needsRe2(ON_REGEXP)).toBe(false);
    expect(needsRe2(undefined)).toBe(false);
    expect(needsRe2(ON_RE2)).toBe(true);
    // The server's plans with the translator behind them: the table decides (what falls back is ajv's, loaded with RE2JS).
    expect(needsRe2(withFallback(ON_REGEXP, () => ({ re2: "x" })))).toBe(false);
    expect(needsRe2(withFallback(ON_RE2, () => ({ regexp: true })))).toBe(true);
    expect(needsRe2(() => ({ regexp: true }))).toBe(true);
    expect(compilePlan({ regexp: true }, "^[a-z]{1,8}$").test("abc")).toBe(true);
    expect(() => compilePlan({ re2: "^(a+)+$" }, "^(a+)+$")).toThrow(
      "mcpgen: a pattern that runs on RE2JS was compiled before RE2JS was loaded (loadRe2, which the validators' prepare awaits)",
    );
  });

  it("needs nothing more for plans on RegExp: prepare is ready at once", () => {
    const schema = { type: "string", pattern: "^[a-z]{1,8}$" };
    const validators = new SchemaValidators(ON_REGEXP, {}, undefined, { createAjv });
    expect(validators.prepare(schema)).toBeUndefined();
    expect(validators.check(schema, "abc")).toBeUndefined();
    expect(needsRe2(ON_RE2)).toBe(true);
  });

  it("is loaded by prepare when a plan runs on it; the check after it runs the pattern in linear time", async () => {
    const schema = { type: "string", pattern: "^(a+)+$" };
    const validators = new SchemaValidators(ON_RE2, {}, undefined, { createAjv });
    const loading = validators.prepare(schema);
    expect(loading).toBeInstanceOf(Promise);
    await loading;
    expect(needsRe2(ON_RE2)).toBe(false);
    expect(validators.prepare(schema)).toBeUndefined();
    expect(validators.check(schema, "aaaa")).toBeUndefined();
    expect(validators.check(schema, `${"a".repeat(5000)}!`)).toBe('Arguments must match pattern "^(a+)+$"');
  });
});
