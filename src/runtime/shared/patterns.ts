/**
 * JSON Schema `pattern` and `patternProperties` in linear time. A schema's patterns are
 * ECMAScript regular expressions; JavaScript's own engine backtracks, so `^(a+)+$` against
 * "aaaa…!" takes exponential time and one request would freeze the server (or a client checking a
 * hostile server's output). mcpgen translates each pattern of a manifest at generate time into a
 * plan for RE2JS, a linear-time engine (matching time proportional to the input's length), with
 * ECMAScript's meaning kept exactly (`.` and `\s` as JavaScript defines them, `\u{…}`, Unicode
 * properties), and the generated definition carries the plans.
 */
import { RE2JS } from "re2js";

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
  /** One unanchored RE2 search; `lookbehind`: the expression has lookbehinds (RE2JS's linear NFA mode). */
  | { re2: string; lookbehind?: true }
  /** Matches when any of the plans does (the pattern's top-level alternatives). */
  | { any: readonly PatternPlan[] }
  /** Matches when every plan in `all` does and none in `none` does. */
  | { all: readonly PatternPlan[]; none?: readonly PatternPlan[] }
  /**
   * A pattern the linear engine cannot run (a backreference, a lookahead elsewhere than at the
   * start): not checked, and the reason. mcpgen refuses it in a hand-written manifest; a pulled
   * manifest keeps it with a warning.
   */
  | { unchecked: string };

/** The plans of a server's patterns, by pattern source. */
export type PatternTable = { readonly [source: string]: PatternPlan };

/** What ajv's `code.regExp` hands back: a test, and a key unique to the pattern. */
export interface PatternMatcher {
  test(text: string): boolean;
  toString(): string;
}

const ALWAYS: Pick<PatternMatcher, "test"> = { test: () => true };

/** A plan for `source` made runnable. Throws when RE2JS refuses an expression (a plan mcpgen did not make). */
export function compilePlan(plan: PatternPlan, source: string): Pick<PatternMatcher, "test"> {
  if ("regexp" in plan) return new RegExp(source, "u");
  if ("re2" in plan) {
    const compiled = RE2JS.compile(plan.re2, plan.lookbehind ? RE2JS.LOOKBEHINDS : 0);
    return { test: (text) => compiled.test(text) };
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

/**
 * ajv's `code.regExp`: each pattern's plan from the table (or, in mcpgen itself, from the
 * translator); one not there (a schema made at run time, such as an elicitation form) goes to
 * RE2JS after its own light translation, still in linear time, or is refused when RE2JS cannot
 * run it.
 */
export function patternEngine(plans: PatternTable | ((source: string) => PatternPlan) = {}): { (source: string, flags: string): PatternMatcher; code: string } {
  const find = typeof plans === "function" ? plans : (source: string) => (Object.hasOwn(plans, source) ? plans[source] : undefined);
  const engine = (source: string): PatternMatcher => {
    const plan = find(source) ?? { re2: RE2JS.translateRegExp(source) };
    const matcher = compilePlan(plan, source);
    // ajv shares one compiled pattern per key: the key must be the pattern's own.
    return { test: (text) => matcher.test(text), toString: () => `re2:${source}` };
  };
  // Read by ajv only when it prints standalone code, which mcpgen does not do.
  return Object.assign(engine, { code: "patternEngine" });
}
