/**
 * ECMAScript patterns (as JSON Schema and ajv read them: the `u` flag, no other) translated into
 * plans for the generated code's linear-time engine (shared/patterns.ts), keeping
 * ECMAScript's meaning: `.` excludes the four line terminators, `\s` is JavaScript's white space,
 * Unicode properties are the code points JavaScript gives them (read off this Node's engine), and
 * captures, laziness and group names, which a yes/no test cannot see, are dropped.
 *
 * Supported: everything ECMAScript has in `u` mode except backreferences and lookaheads other than
 * those right after a leading `^` (which become separate tests of the input's start); lookbehinds
 * run on RE2JS's linear lookbehind mode. Counted repetition is limited to 1,000 per quantifier, as
 * RE2 limits it (larger counts are split, up to 10,000 in all).
 *
 * The one translator: mcpgen plans a manifest's patterns with it at generate time (the
 * definition's `patterns`), and the generated server plans its handlers' forms (elicitation
 * `requestedSchema`) with it at run time, so a pattern means the same wherever it is checked.
 */
import { RegExpParser, type AST } from "@eslint-community/regexpp";
import { RE2JS } from "re2js";
import type { PatternPlan } from "../../shared/patterns.js";
import { LINE_TERMINATORS, MAX_CODE_POINT, normalize, setItem, Unsupported, type ClassItem, type Range } from "./patternSets.js";
import { backtracksLinearly } from "./patternLinear.js";
import { repetitionCosts } from "./patternCost.js";

export { CATEGORY_NAMES, WHITE_SPACE } from "./patternSets.js";

/** RE2's largest repeat count, and the most repetitions mcpgen spells out by splitting. */
const RE2_MAX_REPEAT = 1000;
const MAX_EXPANDED_REPEAT = 10_000;

const parser = new RegExpParser({ ecmaVersion: 2025 });

/** Plans kept, the most recently used: a generate run reads each pattern several times; a server, its forms' on every answer. */
const KEPT_PLANS = 1000;
const cache = new Map<string, PatternPlan>();

/**
 * The plan for one pattern. Never throws: a source that is no valid pattern (the validator says so
 * separately) or one the engine cannot run gives `{unchecked: reason}`.
 */
export function planPattern(source: string): PatternPlan {
  let plan = cache.get(source);
  if (plan === undefined) {
    plan = translate(source);
    if (cache.size >= KEPT_PLANS) cache.delete(cache.keys().next().value!);
  } else cache.delete(source);
  cache.set(source, plan);
  return plan;
}

function translate(source: string): PatternPlan {
  let pattern: AST.Pattern;
  try {
    new RegExp(source, "u");
    pattern = parser.parsePattern(source, 0, source.length, { unicode: true });
  } catch (error) {
    return { unchecked: `not a valid regular expression (${(error as Error).message})` };
  }
  // Exact and fastest: JavaScript's own engine, where it provably cannot backtrack super-linearly.
  if (backtracksLinearly(pattern)) return { regexp: true };
  try {
    const plain: string[] = [];
    let lookbehind = false;
    const planned: PatternPlan[] = [];
    for (const alternative of pattern.alternatives) {
      const split = leadingLookaheads(alternative);
      if (split) {
        planned.push(split);
        continue;
      }
      const out = new Emitter();
      plain.push(out.alternative(alternative.elements));
      lookbehind ||= out.lookbehind;
    }
    const plans: PatternPlan[] = [];
    if (plain.length > 0) plans.push(re2Plan(plain.join("|"), lookbehind));
    plans.push(...planned);
    // The sum of every repetition's factor: each can cost its own at every character.
    const factor = Math.max(
      1,
      repetitionCosts(pattern).reduce((sum, cost) => sum + cost.factor, 0),
    );
    return withFactor(plans.length === 1 ? plans[0]! : { any: plans }, factor);
  } catch (error) {
    if (error instanceof Unsupported) return { unchecked: error.message };
    throw error;
  }
}

/** `plan` with `factor` on each of its RE2 searches (the whole pattern's: a bound for each part), when over 1. */
function withFactor(plan: PatternPlan, factor: number): PatternPlan {
  if (factor <= 1) return plan;
  if ("re2" in plan) return { ...plan, factor };
  if ("any" in plan) return { any: plan.any.map((p) => withFactor(p, factor)) };
  if ("all" in plan) {
    const all = plan.all.map((p) => withFactor(p, factor));
    return plan.none === undefined ? { all } : { all, none: plan.none.map((p) => withFactor(p, factor)) };
  }
  return plan;
}

/** A checked RE2 plan: RE2JS must compile it, else the pattern is not supported. */
function re2Plan(re2: string, lookbehind: boolean): PatternPlan {
  try {
    RE2JS.compile(re2, lookbehind ? RE2JS.LOOKBEHINDS : 0);
  } catch (error) {
    throw new Unsupported(`the linear-time engine refuses it (${(error as Error).message})`);
  }
  return lookbehind ? { re2, lookbehind: true } : { re2 };
}

/**
 * `^(?=A)(?!B)REST`: the input starts with A, does not start with B, and starts with REST, each a
 * separate search anchored at the start. Undefined when the alternative has no such form.
 */
function leadingLookaheads(alternative: AST.Alternative): PatternPlan | undefined {
  const [first, ...rest] = alternative.elements;
  if (first?.type !== "Assertion" || first.kind !== "start") return undefined;
  let count = 0;
  while (count < rest.length && isLookahead(rest[count]!)) count++;
  if (count === 0) return undefined;
  const all: PatternPlan[] = [];
  const none: PatternPlan[] = [];
  for (const look of rest.slice(0, count) as AST.LookaheadAssertion[]) {
    const out = new Emitter();
    const plan = re2Plan(`^(?:${out.alternatives(look.alternatives)})`, out.lookbehind);
    (look.negate ? none : all).push(plan);
  }
  const out = new Emitter();
  all.push(re2Plan(`^${out.alternative(rest.slice(count))}`, out.lookbehind));
  return none.length > 0 ? { all, none } : { all };
}

function isLookahead(element: AST.Element): element is AST.LookaheadAssertion {
  return element.type === "Assertion" && element.kind === "lookahead";
}

/** Writes RE2 syntax for a part of a pattern; `lookbehind` records whether it used one. */
class Emitter {
  lookbehind = false;

  alternatives(alternatives: readonly AST.Alternative[]): string {
    return alternatives.map((a) => this.alternative(a.elements)).join("|");
  }

  alternative(elements: readonly AST.Element[]): string {
    return elements.map((e) => this.element(e)).join("");
  }

  private element(node: AST.Element): string {
    switch (node.type) {
      case "Character":
        return literal(node.value);
      case "CharacterSet":
        return this.set(node);
      case "CharacterClass":
        return characterClass(node);
      case "ExpressionCharacterClass":
        throw new Unsupported("class set operations (the v flag)");
      case "Group":
        if (node.modifiers) throw new Unsupported("inline modifiers (?i:…)");
        return `(?:${this.alternatives(node.alternatives)})`;
      case "CapturingGroup":
        return `(?:${this.alternatives(node.alternatives)})`;
      case "Quantifier":
        return this.quantifier(node);
      case "Backreference":
        throw new Unsupported(`a backreference (${node.raw})`);
      case "Assertion":
        return this.assertion(node);
    }
  }

  private set(node: AST.CharacterSet): string {
    if (node.kind === "any") return `[^${LINE_TERMINATORS.map(literal).join("")}]`;
    return `[${classText([setItem(node)], false)}]`;
  }

  private assertion(node: AST.Assertion): string {
    switch (node.kind) {
      case "start":
        return "^";
      case "end":
        return "$";
      case "word":
        return node.negate ? "\\B" : "\\b";
      case "lookahead":
        throw new Unsupported(`a lookahead (${node.raw}) that is not right after a leading ^`);
      case "lookbehind": {
        this.lookbehind = true;
        return `(?<${node.negate ? "!" : "="}${this.alternatives(node.alternatives)})`;
      }
    }
  }

  private quantifier(node: AST.Quantifier): string {
    const atom = this.element(node.element);
    // Laziness changes which match is found, never whether one is: a test ignores it.
    const { min, max } = node;
    if (max <= RE2_MAX_REPEAT) return `${atom}${repeat(min, max)}`;
    if (max === Infinity && min <= RE2_MAX_REPEAT) return `${atom}${repeat(min, max)}`;
    // Counts above RE2's limit: the same language as a sequence of bounded repeats.
    const total = max === Infinity ? min : max;
    if (total > MAX_EXPANDED_REPEAT) throw new Unsupported(`a repetition count above ${MAX_EXPANDED_REPEAT} (${node.raw})`);
    const parts: string[] = [];
    for (let left = min; left > 0; left -= RE2_MAX_REPEAT) parts.push(`${atom}{${Math.min(left, RE2_MAX_REPEAT)}}`);
    if (max === Infinity) parts.push(`${atom}*`);
    else for (let left = max - min; left > 0; left -= RE2_MAX_REPEAT) parts.push(`${atom}{0,${Math.min(left, RE2_MAX_REPEAT)}}`);
    return `(?:${parts.join("")})`;
  }
}

function repeat(min: number, max: number): string {
  if (min === 0 && max === Infinity) return "*";
  if (min === 1 && max === Infinity) return "+";
  if (min === 0 && max === 1) return "?";
  if (max === Infinity) return `{${min},}`;
  return min === max ? `{${min}}` : `{${min},${max}}`;
}

/** A code point in RE2 syntax: letters and digits as they are, anything else as `\x{…}`. */
function literal(codePoint: number): string {
  const c = String.fromCodePoint(codePoint);
  return /^[A-Za-z0-9]$/.test(c) ? c : `\\x{${codePoint.toString(16)}}`;
}

/** A class `[…]` in RE2 syntax with ECMAScript's meaning (`[]` matches nothing, `[^]` anything). */
function characterClass(node: AST.CharacterClass): string {
  if (node.unicodeSets) throw new Unsupported("class set operations (the v flag)");
  const items: ClassItem[] = [];
  const ranges: Range[] = [];
  for (const element of node.elements) {
    if (element.type === "Character") ranges.push([element.value, element.value]);
    else if (element.type === "CharacterClassRange") ranges.push([element.min.value, element.max.value]);
    else items.push(setItem(element));
  }
  items.unshift({ ranges: normalize(ranges) });
  return `[${classText(items, node.negate)}]`;
}

/** The inside of RE2 brackets; an empty set is the complement of everything. */
function classText(items: readonly ClassItem[], negate: boolean): string {
  let text = "";
  for (const item of items) {
    if ("category" in item) text += `\\${item.negate ? "P" : "p"}{${item.category}}`;
    else text += item.ranges.map(([a, b]) => (a === b ? literal(a) : `${literal(a)}-${literal(b)}`)).join("");
  }
  const everything = `\\x{0}-\\x{${MAX_CODE_POINT.toString(16)}}`;
  if (text === "") return negate ? everything : `^${everything}`;
  return negate ? `^${text}` : text;
}
