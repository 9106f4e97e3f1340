/**
 * The `pattern` keyword of mcpgen's validators: ajv's errors, except that the pattern does not
 * run when the schema's own minLength or maxLength fails (their error is the answer), and a
 * string past the cap of a pattern on RE2JS gets its own error.
 */
import { Ajv2020 } from "ajv/dist/2020.js";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { loadRe2 } from "../../src/shared/patterns.js";
import { planPattern } from "../../src/server/engine/patternPlans.js";
import { AJV_OPTIONS, createAjv } from "../../src/shared/ajv.js";
import { runValidator } from "../../src/shared/validation.js";
import { propertyParameters } from "../../../../test/helpers/properties.js";

// Patterns that run on RE2JS need it loaded first, as the validators' prepare does.
beforeAll(() => loadRe2());

/** ajv's own keyword, JavaScript's RegExp: what the errors were. */
const plain = new Ajv2020({ ...AJV_OPTIONS });
const ours = createAjv(false, planPattern, { maxPatternInput: 50 });

describe("the length-first pattern keyword", () => {
  it("gives ajv's errors, without the pattern's when a length keyword failed, on random schemas and strings", () => {
    fc.assert(
      fc.property(
        fc.constantFrom("^a+$", "b", "^[ab]*$", "(?<=a)b", "^.{2}$"),
        fc.option(fc.nat(6), { nil: undefined }),
        fc.option(fc.nat(6), { nil: undefined }),
        fc.array(fc.constantFrom("a", "b", "😀", "\n"), { maxLength: 8 }).map((c) => c.join("")),
        (pattern, minLength, maxLength, text) => {
          const schema = { type: "string", pattern, ...(minLength === undefined ? {} : { minLength }), ...(maxLength === undefined ? {} : { maxLength }) };
          const before = plain.compile(schema);
          const now = ours.compile(schema);
          before(text);
          now(text);
          const lengthFailed = (before.errors ?? []).some((e) => e.keyword === "minLength" || e.keyword === "maxLength");
          const expected = (before.errors ?? []).filter((e) => !(lengthFailed && e.keyword === "pattern"));
          expect(now.errors ?? [], JSON.stringify({ schema, text })).toEqual(expected);
        },
      ),
      propertyParameters(200, 20261207),
    );
  });

  it("counts code points as maxLength does: 😀 is one character", () => {
    const validate = ours.compile({ type: "string", maxLength: 2, pattern: "^a" });
    expect(runValidator(validate, "😀😀")).toBe(`Arguments must match pattern "^a"`);
    expect(runValidator(validate, "😀😀😀")).toBe("Arguments must NOT have more than 2 characters");
    expect(runValidator(ours.compile({ type: "string", minLength: 2, pattern: "^a" }), "😀")).toBe("Arguments must NOT have fewer than 2 characters");
  });

  it("refuses a string past the cap of a pattern on RE2JS untested; a pattern on RegExp has no cap", () => {
    expect(runValidator(ours.compile({ type: "string", pattern: "^(a|b)+$" }), "a".repeat(51))).toBe(
      'Arguments must NOT have more than 50 characters to be checked against pattern "^(a|b)+$"',
    );
    const error = ours.compile({ type: "string", pattern: "^(a|b)+$" });
    error("a".repeat(51));
    expect(error.errors?.[0]).toMatchObject({ keyword: "pattern", params: { pattern: "^(a|b)+$", limit: 50 } });
    expect(runValidator(ours.compile({ type: "string", pattern: "^[ab]+$" }), "a".repeat(10_000))).toBeUndefined();
    // A property name past it, tested against patternProperties, ends the check with the limit.
    expect(runValidator(ours.compile({ type: "object", patternProperties: { "^(a|b)+$": { type: "number" } } }), { ["a".repeat(51)]: 1 })).toBe(
      "A string is longer than 50 characters, the most a pattern is checked against",
    );
  });
});
