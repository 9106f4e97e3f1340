/** The forms handlers ask for (elicitation): checked on mcpgen's plans, kept by their text, bounded, refused when uncheckable. */
import { describe, expect, it } from "vitest";
import { FormValidators } from "../../../src/server/engine/forms.js";

const form = (pattern: string, extra: object = {}) => ({
  type: "object",
  properties: { code: { type: "string", pattern } },
  required: ["code"],
  ...extra,
});

/** A FormValidators with ajv and the translator loaded, as the first form with a pattern leaves it. */
async function loadedForms(...args: ConstructorParameters<typeof FormValidators>): Promise<FormValidators> {
  const forms = new FormValidators(...args);
  await forms.prepare(form("x"));
  return forms;
}

describe("FormValidators", () => {
  it("loads ajv and the translator only for a form that needs them, and a check of one not prepared says so", async () => {
    const forms = new FormValidators();
    const plain = { type: "object", properties: { name: { type: "string", minLength: 2 } }, required: ["name"] };
    const nested = { type: "object", properties: { address: { type: "object", properties: { city: { type: "string" } } } } };
    // In MCP's subset, without patterns: interpreted, nothing to load.
    expect(forms.prepare(plain)).toBeUndefined();
    expect(forms.check(plain, { name: "x" })).toBe("Property 'name' must NOT have fewer than 2 characters");
    expect(() => forms.check(nested, {})).toThrow(/checked before ajv was loaded/);
    const loading = forms.prepare(nested);
    expect(loading).toBeInstanceOf(Promise);
    await loading;
    expect(forms.prepare(nested)).toBeUndefined();
    expect(forms.check(nested, { address: { city: 1 } })).toBe("Property 'address.city' must be string");
  });

  it("checks answers with ECMAScript's meaning (RE2's would take \\r and \\u2028 for `.`)", async () => {
    const forms = await loadedForms();
    expect(forms.check(form("^.$"), { code: "é" })).toBeUndefined();
    expect(forms.check(form("^.$"), { code: "\r" })).toBe(`Property 'code' must match pattern "^.$"`);
    expect(forms.check(form("^.$"), { code: "\u2028" })).toBe(`Property 'code' must match pattern "^.$"`);
    expect(forms.check(form("(?<=a)b"), { code: "ab" })).toBeUndefined();
    expect(forms.check(form("(?<=a)b"), {})).toBe("Missing required property 'code'");
  });

  it("keeps one validator per form text, however many objects carry it", async () => {
    const forms = await loadedForms(5);
    for (let i = 0; i < 50; i++) expect(forms.check(form("^[a-z]+$"), { code: "abc" })).toBeUndefined();
    expect(forms.size).toBe(1);
    // The same form with its keys in another order is another text: kept apart, still right.
    expect(forms.check({ required: ["code"], properties: { code: { type: "string", pattern: "^[a-z]+$" } }, type: "object" }, { code: "1" })).toBe(
      `Property 'code' must match pattern "^[a-z]+$"`,
    );
    expect(forms.size).toBe(2);
  });

  it("keeps at most `max` forms: past it, all are dropped (with their ajv) and compiled again when asked", async () => {
    const forms = await loadedForms(5);
    for (let i = 0; i < 23; i++) {
      expect(forms.check(form("^[a-z]+$", { title: `form ${i}` }), { code: "x" })).toBeUndefined();
      expect(forms.size).toBeLessThanOrEqual(5);
    }
    expect(forms.size).toBe(3);
    expect(forms.check(form("^[a-z]+$", { title: "form 0" }), { code: "1" })).toBe(`Property 'code' must match pattern "^[a-z]+$"`);
  });

  it("refuses a form it cannot check, with the reason, and remembers the refusal", async () => {
    const forms = await loadedForms();
    expect(forms.problem(form("^(a)\\1$"))).toBe('pattern "^(a)\\\\1$" cannot be checked in linear time: a backreference (\\1)');
    expect(forms.check(form("^(a)\\1$"), { code: "aa" })).toBe(
      'the form cannot be checked: pattern "^(a)\\\\1$" cannot be checked in linear time: a backreference (\\1)',
    );
    expect(forms.size).toBe(1);
    expect(forms.problem({ type: "object", properties: { code: { type: 5 } } })).toMatch(
      /^requestedSchema is not a schema ajv can compile \(schema is invalid: /,
    );
    const cyclic: Record<string, unknown> = { type: "object" };
    cyclic["properties"] = { self: cyclic };
    expect(forms.problem(cyclic)).toMatch(/^requestedSchema is not JSON \(/);
    expect(forms.problem(form("^[a-z]+$"))).toBeUndefined();
  });

  it("runs a pattern only once the length keywords hold, and never past the cap", async () => {
    const forms = await loadedForms(100, { maxPatternInput: 10 });
    const bounded = { type: "object", properties: { code: { type: "string", maxLength: 3, pattern: "(?<=a)b" } } };
    expect(forms.check(bounded, { code: "xxxxx" })).toBe("Property 'code' must NOT have more than 3 characters");
    const open = form("(?<=a)b");
    expect(forms.check(open, { code: "ab" + "x".repeat(9) })).toBe(
      `Property 'code' must NOT have more than 10 characters to be checked against pattern "(?<=a)b"`,
    );
    expect(forms.check(open, { code: "ab" + "x".repeat(8) })).toBeUndefined();
  });
});
