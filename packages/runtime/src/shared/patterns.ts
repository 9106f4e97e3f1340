/**
 * JSON Schema `pattern` and `patternProperties` in linear time. A schema's patterns are
 * ECMAScript regular expressions; JavaScript's own engine backtracks, so `^(a+)+$` against
 * "aaaa…!" takes exponential time and one request would freeze the server (or a client checking a
 * hostile server's output). mcpgen translates each pattern of a manifest at generate time into a
 * plan for RE2JS, a linear-time engine (matching time proportional to the input's length), with
 * ECMAScript's meaning kept exactly (`.` and `\s` as JavaScript defines them, `\u{…}`, Unicode
 * properties), and the generated definition carries the plans. The server plans the patterns of
 * the forms its handlers ask for (elicitation) at run time with the same translator
 * (server/engine/patternPlans.ts); nothing else translates a pattern.
 *
 * RE2JS itself is loaded only when a plan runs on it (`loadRe2`, awaited by the validators'
 * `prepare`), or handed in at once where checks are synchronous from the start (`useRe2`: the
 * widget checks through `patternEngineOnRe2`, mcpgen's own commands): a server whose patterns all
 * run on RegExp, or that has none, never loads it.
 */
import type { RE2JS } from "re2js";

/** RE2JS, once loaded or handed in. */
let re2: typeof RE2JS | undefined;

/** Hands in RE2JS, for code whose checks are synchronous from the start (widget checks, mcpgen's commands). */
export function useRe2(engine: typeof RE2JS): void {
  re2 ??= engine;
}

/** Loads RE2JS (once per process); `compilePlan` needs it for a plan that runs on it. */
export async function loadRe2(): Promise<void> {
  if (re2 === undefined) useRe2((await import("re2js")).RE2JS);
}

/**
 * Whether RE2JS must be loaded before these plans are compiled: some plan of the table runs on
 * it. A translator (a function) may plan any pattern on it, unless it is `withFallback`'s, whose
 * table is what printed validators use (what falls back to the translator is compiled by ajv, and
 * what loads ajv for it loads RE2JS too).
 */
export function needsRe2(plans: PatternPlans | undefined): boolean {
  if (re2 !== undefined || plans === undefined) return false;
  const table = typeof plans === "function" ? (plans as { table?: PatternTable }).table : plans;
  if (table === undefined) return true;
  for (const source in table) if (runsOnRe2(table[source]!)) return true;
  return false;
}

/** The definition's plans, then `fallback` for a pattern they lack (a schema without a printed validator, planned by the translator). */
export function withFallback(table: PatternTable, fallback: (source: string) => PatternPlan): PatternPlans {
  return Object.assign((source: string) => (Object.hasOwn(table, source) ? table[source] : fallback(source)), { table });
}

/**
 * How one pattern is tested. RE2 has no lookahead; a lookahead right after a leading `^` (password
 * rules, zod's email pattern) is a test of the input's start, so such an alternative becomes the
 * conjunction of its parts, each an RE2 search.
 */
export type PatternPlan =
  /**
   * JavaScript's own RegExp, with the pattern as written: mcpgen proved it runs in linear time
   * there (anchored, single characters repeated, each repetition followed by characters it cannot
   * match: `^[a-z0-9-]{1,64}$`, `^\d{4}-\d{2}-\d{2}$`); exact, and about 15 times faster than RE2JS.
   */
  | { regexp: true }
  /**
   * One unanchored RE2 search; `lookbehind`: the expression has lookbehinds (RE2JS's linear NFA
   * mode); `factor`: the steps per input character of its counted repetitions, the sum of their
   * factors (server/engine/patternCost.ts), when over 1.
   */
  | { re2: string; lookbehind?: true; factor?: number }
  /** Matches when any of the plans does (the pattern's top-level alternatives). */
  | { any: readonly PatternPlan[] }
  /** Matches when every plan in `all` does and none in `none` does. */
  | { all: readonly PatternPlan[]; none?: readonly PatternPlan[] }
  /**
   * A pattern the linear engine cannot run (a backreference, a lookahead elsewhere than at the
   * start): not checked, and the reason. mcpgen refuses it in a hand-written manifest; a pulled
   * manifest keeps it with a warning; a form a handler asks for (elicitation) with one is refused.
   */
  | { unchecked: string };

/** The plans of a server's patterns, by pattern source. */
export type PatternTable = { readonly [source: string]: PatternPlan };

/** Where an engine finds a pattern's plan: the definition's table, or a translator (the server's, mcpgen's). */
export type PatternPlans = PatternTable | ((source: string) => PatternPlan | undefined);

/** What ajv's `code.regExp` hands back: a test, and a key unique to the pattern. */
export interface PatternMatcher {
  test(text: string): boolean;
  toString(): string;
  /** The longest text this matcher tests (RE2JS plans with a cap); a longer one throws PatternInputTooLong. */
  readonly maxInput?: number;
}

/**
 * A text longer than the cap on what a pattern running on RE2JS is tested against
 * (`maxPatternInputLength`): linear time is still time, up to a few microseconds per character
 * and repetition for a lookbehind. The validators refuse such a value with this limit in words.
 */
export class PatternInputTooLong extends Error {
  constructor(readonly limit: number) {
    super(`a text longer than ${limit} characters is not tested against a pattern (maxPatternInputLength)`);
    this.name = "PatternInputTooLong";
  }
}

/** The default cap on the text a pattern running on RE2JS is tested against, in UTF-16 code units. */
export const DEFAULT_MAX_PATTERN_INPUT = 100_000;

/**
 * Time for patterns on RE2JS, per value checked (arguments, an output, a form's answer): a string
 * whose worst case would not fit in what is left is refused untested, and each test's real time
 * is taken from what is left (its estimate when that is less). The cap on length bounds one string, this the whole value: an array
 * of strings, each within the cap, against `(?<=\w{0,1000}x)y` cost seconds.
 */
export class PatternTimeExceeded extends Error {
  constructor(readonly limitMs: number) {
    super(`checking patterns would take more than ${limitMs} ms for one value (maxPatternMs)`);
    this.name = "PatternTimeExceeded";
  }
}

/** The default time for patterns on RE2JS per value checked, in ms. */
export const DEFAULT_MAX_PATTERN_MS = 100;

/**
 * What a test of a text of L characters may cost RE2JS, in ms: TEST_MS, plus CHAR_MS a character,
 * plus STEP_MS for each way a counted repetition can be at each character (L × min(factor, L):
 * a repetition cannot be in more ways than there are characters). Measured on a 2-core EPYC:
 * (?<=\w{0,1000}x)y on "yyy…" took 53 µs a character (1,000 ways), ^(\w+\s?)*$ 0.12 µs, a test
 * of a short string 0.3 to 1.6 µs. Each a little over what was measured, so that the estimate
 * bounds the real time.
 */
const TEST_MS = 0.002;
const CHAR_MS = 0.00012;
const STEP_MS = 0.00006;

/**
 * Below this estimate a test is charged its estimate, not timed: reading the clock twice would
 * double the cost of checking a short string, and the estimate is the larger anyway.
 */
const TIMED_FROM_MS = 0.05;

/** The most a test of `length` characters may take a plan of `factor`, in ms. */
function worstMs(length: number, factor: number): number {
  const ways = factor > 1 ? Math.min(factor, length) : 0;
  return TEST_MS + length * (CHAR_MS + ways * STEP_MS);
}

/** The longest text a plan of `factor` is tested on within `ms` (what `pattern-cost` tells a manifest's author). */
export function longestWithin(factor: number, ms = DEFAULT_MAX_PATTERN_MS): number {
  const room = ms - TEST_MS;
  if (factor <= 1) return Math.floor(room / CHAR_MS);
  // Up to `factor` characters the cost grows with length², past it with length × factor.
  const square = Math.floor((-CHAR_MS + Math.sqrt(CHAR_MS * CHAR_MS + 4 * STEP_MS * room)) / (2 * STEP_MS));
  return square <= factor ? square : Math.floor(room / (CHAR_MS + factor * STEP_MS));
}

/** The time left to the value being checked (runValidator sets it; none outside a check: no limit). */
let left: { ms: number; readonly limitMs: number } | undefined;

/**
 * Runs `check` (one synchronous validation) with `limitMs` of pattern time. Validation never
 * waits, so one budget at a time is the current one; a check inside a check keeps its own.
 */
export function withPatternTime<T>(limitMs: number, check: () => T): T {
  const outer = left;
  left = { ms: limitMs, limitMs };
  try {
    return check();
  } finally {
    left = outer;
  }
}

/** Tests `text` with `test` when its worst case fits in the time left (then taken from it), else throws PatternTimeExceeded. */
function timed(text: string, factor: number, test: (text: string) => boolean): boolean {
  const budget = left;
  if (budget === undefined) return test(text);
  const estimate = worstMs(text.length, factor);
  if (estimate > budget.ms) throw new PatternTimeExceeded(budget.limitMs);
  if (estimate < TIMED_FROM_MS) {
    budget.ms -= estimate;
    return test(text);
  }
  // Its real time, when less than the estimate: a loaded machine is slower than the estimate says,
  // and that must not refuse the cheap checks that follow (what is admitted depends on the pattern
  // and the text, not on the machine's load).
  const started = performance.now();
  try {
    return test(text);
  } finally {
    budget.ms -= Math.min(performance.now() - started, estimate);
  }
}

const ALWAYS: Pick<PatternMatcher, "test"> = { test: () => true };

/**
 * The patterns of the meta-schemas ajv checks a schema against before compiling it (2020-12's
 * rules for `$id` and `$anchor`), which it compiles with the same engine; mcpgen's translator
 * plans both for RegExp (packages/runtime/test/server/engine/pattern-plans.test.ts checks the list against ajv's own).
 */
export const META_SCHEMA_PATTERNS: PatternTable = { "^[^#]*#?$": { regexp: true }, "^[A-Za-z_][-A-Za-z0-9._]*$": { regexp: true } };

/** A plan for `source` made runnable. Throws when RE2JS refuses an expression (a plan mcpgen did not make). */
export function compilePlan(plan: PatternPlan, source: string): Pick<PatternMatcher, "test"> {
  if ("regexp" in plan) return new RegExp(source, "u");
  if ("re2" in plan) {
    if (re2 === undefined)
      throw new Error("mcpgen: a pattern that runs on RE2JS was compiled before RE2JS was loaded (loadRe2, which the validators' prepare awaits)");
    const compiled = re2.compile(plan.re2, plan.lookbehind ? re2.LOOKBEHINDS : 0);
    const factor = plan.factor ?? 1;
    const test = (text: string) => compiled.test(text);
    return { test: (text) => timed(text, factor, test) };
  }
  if ("any" in plan) {
    const parts = plan.any.map((p) => compilePlan(p, source));
    return { test: (text) => parts.some((p) => p.test(text)) };
  }
  if ("all" in plan) {
    const all = plan.all.map((p) => compilePlan(p, source));
    const none = (plan.none ?? []).map((p) => compilePlan(p, source));
    return { test: (text) => all.every((p) => p.test(text)) && !none.some((p) => p.test(text)) };
  }
  return ALWAYS;
}

/** Whether a plan runs on RE2JS (whose cost the input cap bounds), not on RegExp proved linear or not at all. */
function runsOnRe2(plan: PatternPlan): boolean {
  return !("regexp" in plan) && !("unchecked" in plan);
}

/**
 * ajv's `code.regExp`: each pattern's plan from `plans` (the definition's table, made by mcpgen's
 * translator at generate time, or the translator itself). There is no other translation: a
 * pattern without a plan is a schema mcpgen did not see, and compiling it throws, so the schema
 * is refused rather than checked with another meaning. A matcher on RE2JS refuses text longer
 * than `maxInput` (PatternInputTooLong).
 */
export function patternEngine(
  plans: PatternPlans = {},
  options: { maxInput?: number } = {},
): { (source: string, flags: string): PatternMatcher; code: string } {
  const find = typeof plans === "function" ? plans : (source: string) => (Object.hasOwn(plans, source) ? plans[source] : undefined);
  const maxInput = options.maxInput ?? DEFAULT_MAX_PATTERN_INPUT;
  const engine = (source: string): PatternMatcher => {
    const plan = find(source) ?? (Object.hasOwn(META_SCHEMA_PATTERNS, source) ? META_SCHEMA_PATTERNS[source] : undefined);
    if (plan === undefined) throw new Error(`pattern ${JSON.stringify(source)} has no linear-time plan: regenerate the definition with mcpgen`);
    const matcher = compilePlan(plan, source);
    // ajv shares one compiled pattern per key: the key must be the pattern's own.
    const toString = () => `re2:${source}`;
    if (!runsOnRe2(plan)) return { test: (text) => matcher.test(text), toString };
    return {
      test: (text) => {
        if (text.length > maxInput) throw new PatternInputTooLong(maxInput);
        return matcher.test(text);
      },
      toString,
      maxInput,
    };
  };
  // The name standalone code calls the engine by (patternKeyword.ts); generated validators provide it.
  return Object.assign(engine, { code: "patternEngine" });
}
