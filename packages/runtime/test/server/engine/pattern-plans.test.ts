/**
 * Patterns on the linear-time engine: the translation keeps ECMAScript's meaning (checked against
 * JavaScript's own RegExp on random patterns and strings), and plans are what they claim.
 */
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { RE2JS } from "re2js";
import { CATEGORY_NAMES, planPattern, WHITE_SPACE } from "../../../src/server/engine/patternPlans.js";
import { Ajv } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import { compilePlan, META_SCHEMA_PATTERNS, PatternInputTooLong, patternEngine, loadRe2 } from "../../../src/shared/patterns.js";
import { propertyParameters } from "../../../../../test/helpers/properties.js";

// Patterns that run on RE2JS need it loaded first, as the validators' prepare does.
beforeAll(() => loadRe2());

const test = (source: string, text: string) => compilePlan(planPattern(source), source).test(text);

/** Characters where ECMAScript and RE2 differ by default (line terminators, Unicode spaces, astral). */
const CHARS = ["a", "b", "1", "_", "-", ".", " ", "\n", "\r", "\t", "\v", "\u00a0", "\u2028", "\ufeff", "é", "Ω", "😀", "\ud800"];

const atom: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom("a", "b", "1", "é", "\\.", "-", "\\n", "\\u00a0", "\\u{1F600}", "\\x41", "😀", "Ω"),
  fc.constantFrom(".", "\\d", "\\D", "\\s", "\\S", "\\w", "\\W", "\\p{L}", "\\P{L}", "\\p{Nd}", "\\p{Script=Greek}", "\\p{Emoji}"),
  fc.constantFrom("[ab]", "[^a\\s]", "[a-c1]", "[]", "[^]", "[\\w-]", "[^\\d\\p{Lu}]", "[\\S]", "[.]"),
);

const pattern: fc.Arbitrary<string> = fc.letrec<{ expr: string; seq: string; term: string; unit: string }>((tie) => ({
  // What a quantifier may follow: characters, sets, classes and groups (never an assertion).
  unit: fc.oneof(
    { weight: 4, arbitrary: atom },
    { weight: 1, arbitrary: tie("expr").map((e) => `(${e})`) },
    { weight: 1, arbitrary: tie("expr").map((e) => `(?:${e})`) },
  ),
  term: fc.oneof(
    { weight: 4, arbitrary: tie("unit") },
    { weight: 2, arbitrary: fc.tuple(tie("unit"), fc.constantFrom("*", "+", "?", "{1,2}", "{2}", "*?", "{0,}")).map(([t, q]) => `${t}${q}`) },
    { weight: 1, arbitrary: fc.constantFrom("\\b", "\\B", "(?<=a)", "(?<!b)", "(?<=\\s)") },
  ),
  seq: fc.array(tie("term"), { minLength: 1, maxLength: 4 }).map((t) => t.join("")),
  expr: fc.array(tie("seq"), { minLength: 1, maxLength: 3 }).map((s) => s.join("|")),
})).expr;

const anchored = fc
  .tuple(fc.array(fc.tuple(fc.boolean(), pattern), { minLength: 1, maxLength: 2 }), pattern, fc.boolean())
  .map(([looks, rest, end]) => `^${looks.map(([neg, p]) => `(?${neg ? "!" : "="}${p})`).join("")}${rest}${end ? "$" : ""}`);

const text = fc.array(fc.constantFrom(...CHARS), { maxLength: 8 }).map((c) => c.join(""));

/**
 * JavaScript's RegExp as the spec defines it for the `u` flag: a match may start only where a code
 * point starts. V8 also tries the middle of a surrogate pair (`/\B/u.test("a😀a")` is true there,
 * false by the spec and on the linear engine), so the oracle tries each code point's start with a
 * sticky expression.
 */
function nativeTest(source: string, text: string): boolean {
  const re = new RegExp(source, "uy");
  for (let at = 0; at <= text.length; at += (text.codePointAt(at) ?? 0) > 0xffff ? 2 : 1) {
    re.lastIndex = at;
    if (re.test(text)) return true;
  }
  return false;
}

describe("patterns on the linear-time engine", () => {
  it("the oracle follows the spec where V8 does not: no match starts inside a surrogate pair", () => {
    expect(/\B/u.test("a😀a")).toBe(true); // V8, at index 2
    expect(nativeTest("\\B", "a😀a")).toBe(false);
    expect(test("\\B", "a😀a")).toBe(false);
    expect(nativeTest("(?:\\B|[ab].)a*|a\\b", "_😀_")).toBe(false);
    expect(nativeTest("\\B", "😀")).toBe(true); // before and after a non-word character
    expect(nativeTest("a\\b", "ba")).toBe(true);
  });

  it("agree with JavaScript's RegExp (u flag) on random patterns and strings", () => {
    fc.assert(
      fc.property(fc.oneof(pattern, anchored), fc.array(text, { minLength: 1, maxLength: 6 }), (source, texts) => {
        const plan = planPattern(source);
        expect(plan, source).not.toHaveProperty("unchecked");
        for (const t of texts) expect(test(source, t), `${source} on ${JSON.stringify(t)}`).toBe(nativeTest(source, t));
      }),
      propertyParameters(250, 20261207),
    );
    // A deep run (MCPGEN_PROPERTY_SCALE) takes seconds per hundred patterns, more when suites share the cores.
  }, 120_000);

  it.each([
    ["^(a+)+$", "a".repeat(5000) + "!", false],
    ["(a|a)*b", "a".repeat(100_000), false],
    ["^(\\w+\\s?)*$", "word ".repeat(20_000) + "!", false],
    ["^(?!\\.)(?!.*\\.\\.)([A-Za-z0-9_'+\\-\\.]*)[A-Za-z0-9_+-]@([A-Za-z0-9][A-Za-z0-9\\-]*\\.)+[A-Za-z]{2,}$", "a".repeat(100_000) + "@", false],
  ])("answers %s on hostile input at once", (source, input, expected) => {
    const started = performance.now();
    expect(test(source, input)).toBe(expected);
    // Backtracking takes seconds to ages on these; linear matching, milliseconds.
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it.each([
    [
      "zod's email pattern",
      "^(?!\\.)(?!.*\\.\\.)([A-Za-z0-9_'+\\-\\.]*)[A-Za-z0-9_+-]@([A-Za-z0-9][A-Za-z0-9\\-]*\\.)+[A-Za-z]{2,}$",
      ["a@b.co", ".a@b.co", "a..b@c.de", "a.b@c.de", "x@y"],
    ],
    ["a password rule", "^(?=.*[A-Z])(?=.*\\d)(?!.*\\s).{8,}$", ["Passw0rd", "password", "Pass w0rd", "PASSWORD1", "Aa1"]],
    ["counts above RE2's limit", "^a{1500,2500}$", ["a".repeat(1499), "a".repeat(1500), "a".repeat(2500), "a".repeat(2501)]],
    ["alternatives, one with lookaheads", "^(?=a)ab|^c", ["ab", "c", "cb", "b"]],
  ])("keeps the meaning of %s", (_, source, inputs) => {
    const native = new RegExp(source, "u");
    for (const input of inputs) expect(test(source, input), input).toBe(native.test(input));
  });

  it.each([
    ["(a)\\1", "a backreference (\\1)"],
    ["(?<x>a)\\k<x>", "a backreference (\\k<x>)"],
    ["a(?=b)", "a lookahead ((?=b)) that is not right after a leading ^"],
    ["a{20000}", "a repetition count above 10000 (a{20000})"],
    ["(", "not a valid regular expression"],
  ])("does not run %s, and says why", (source, reason) => {
    const plan = planPattern(source);
    expect(plan).toHaveProperty("unchecked");
    expect((plan as { unchecked: string }).unchecked).toContain(reason);
  });

  it("spells \\s as JavaScript's white space, exactly", () => {
    const js = /^\s$/u;
    for (let cp = 0; cp <= 0xffff; cp++) {
      const inside = WHITE_SPACE.some(([a, b]) => cp >= a && cp <= b);
      if (inside !== js.test(String.fromCharCode(cp))) throw new Error(`U+${cp.toString(16)}: table says ${inside}`);
    }
  });

  it("names general categories as RE2 does: RE2JS and JavaScript agree on their code points", () => {
    // Every 13th code point, and each category's use in a class and negated.
    for (const name of CATEGORY_NAMES) {
      const re2 = RE2JS.compile(`^\\p{${name}}$`);
      const js = new RegExp(`^\\p{${name}}$`, "u");
      for (let cp = 0; cp <= 0x10ffff; cp += 13) {
        const c = String.fromCodePoint(cp);
        if (re2.test(c) !== js.test(c)) throw new Error(`\\p{${name}} and U+${cp.toString(16)}: RE2JS ${re2.test(c)}, JavaScript ${js.test(c)}`);
      }
    }
    expect(planPattern("[^\\p{Letter}\\d]")).toEqual({ re2: "[^\\p{L}0-9]" });
    expect(planPattern("\\P{gc=Lu}")).toEqual({ re2: "[\\P{Lu}]" });
  });

  it.each([
    ["^[a-z][a-z0-9_-]{0,63}$", true],
    ["^\\d{4}-\\d{2}-\\d{2}$", true],
    ["^[^@\\s]+@[^@\\s]+$", true],
    ["^\\p{L}[\\p{L} .'-]*$", true],
    ["^.*$", true],
    ["^(a+)+$", false],
    ["^a*a$", false],
    ["^[a-z]+[a-z0-9]*$", false],
    ["[a-z]+@", false],
    ["^a|^b", false],
  ])("runs %s on JavaScript's RegExp only when it provably backtracks linearly: %s", (source, native) => {
    expect("regexp" in planPattern(source)).toBe(native);
  });

  it("patterns given to JavaScript's RegExp answer at once on input made to make them backtrack", () => {
    // Sequences of single characters, repeated or not; those mcpgen hands to RegExp must stay fast
    // on runs of the characters they repeat followed by one that fails.
    const atoms = [
      ["a", "a"],
      ["[a-z]", "q"],
      ["[a-z0-9]", "7"],
      ["\\d", "5"],
      ["\\s", " "],
      ["[^@\\s]", "x"],
      [".", "z"],
      ["-", "-"],
      ["@", "@"],
      ["\\p{L}", "é"],
    ] as const;
    let native = 0;
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.constantFrom(...atoms), fc.constantFrom("", "*", "+", "?", "{0,5}", "{2,}", "{3}")), { minLength: 1, maxLength: 5 }),
        fc.boolean(),
        (parts, end) => {
          const source = `^${parts.map(([[atom], q]) => atom + q).join("")}${end ? "$" : ""}`;
          if (!("regexp" in planPattern(source))) return;
          native++;
          const input = parts.map(([[, sample]]) => sample.repeat(20_000)).join("") + "\u0000";
          const started = performance.now();
          new RegExp(source, "u").test(input);
          expect(performance.now() - started, source).toBeLessThan(500);
        },
      ),
      propertyParameters(150, 20261207),
    );
    expect(native).toBeGreaterThan(50);
  });

  it("gives ajv one matcher per pattern from its plans, and refuses a pattern without one (no other translation)", () => {
    const engine = patternEngine({ "^a$": planPattern("^a$"), "^b$": planPattern("^b$") });
    expect(engine("^a$", "u").toString()).not.toBe(engine("^b$", "u").toString());
    expect(engine("^b$", "u").test("b")).toBe(true);
    expect(() => engine("^(c+)+$", "u")).toThrow('pattern "^(c+)+$" has no linear-time plan');
    expect(() => engine("constructor", "u")).toThrow("has no linear-time plan");
    // With the translator as its plans (the server's forms, mcpgen's own checks): any pattern, linear.
    expect(patternEngine(planPattern)("^(c+)+$", "u").test("c".repeat(10_000) + "!")).toBe(false);
  });

  it("knows the plans of the patterns ajv's meta-schemas hold (ajv compiles them with the schema's engine)", () => {
    for (const make of [() => new Ajv({ code: { regExp: recording } }), () => new Ajv2020({ code: { regExp: recording } })]) {
      // A schema ajv checks against its dialect's meta-schema first, which compiles its patterns.
      make().compile({ type: "string" });
    }
    expect([...metaPatterns].sort()).toEqual(Object.keys(META_SCHEMA_PATTERNS).sort());
    for (const source of metaPatterns) expect(planPattern(source)).toEqual(META_SCHEMA_PATTERNS[source]);
  });

  it("caps the text a pattern on RE2JS is tested against, not one on RegExp proved linear", () => {
    const engine = patternEngine(planPattern, { maxInput: 10 });
    const re2 = engine("^(a|b)+$", "u");
    expect(re2.maxInput).toBe(10);
    expect(re2.test("ab".repeat(5))).toBe(true);
    expect(() => re2.test("ab".repeat(5) + "a")).toThrow(PatternInputTooLong);
    const native = engine("^[ab]+$", "u");
    expect(native.maxInput).toBeUndefined();
    expect(native.test("ab".repeat(1000))).toBe(true);
  });

  it.each([
    // RE2JS's own translation gave these RE2 meanings (`.` took "\r" and "\u2028") or refused them.
    ["^.$", "\r", false],
    ["^.$", "\u2028", false],
    ["^.$", "é", true],
    ["(?<=a)b", "ab", true],
    ["(?<=a)b", "cb", false],
    ["^\\s$", "\ufeff", true],
  ])("plans %s with ECMAScript's meaning: %j matches: %s", (source, text, matches) => {
    expect(patternEngine(planPattern)(source, "u").test(text)).toBe(matches);
    expect(new RegExp(source, "u").test(text)).toBe(matches);
  });
});

const metaPatterns = new Set<string>();
const recording = Object.assign(
  (source: string, flags: string) => {
    metaPatterns.add(source);
    return new RegExp(source, flags);
  },
  { code: "recording" },
);
