/**
 * ECMAScript patterns (as JSON Schema and ajv read them: the `u` flag, no other) translated into
 * plans for the generated code's linear-time engine (src/runtime/patterns.ts), keeping
 * ECMAScript's meaning: `.` excludes the four line terminators, `\s` is JavaScript's white space,
 * Unicode properties are the code points JavaScript gives them (read off this Node's engine), and
 * captures, laziness and group names, which a yes/no test cannot see, are dropped.
 *
 * Supported: everything ECMAScript has in `u` mode except backreferences and lookaheads other than
 * those right after a leading `^` (which become separate tests of the input's start); lookbehinds
 * run on RE2JS's linear lookbehind mode. Counted repetition is limited to 1,000 per quantifier, as
 * RE2 limits it (larger counts are split, up to 10,000 in all).
 */
import { RegExpParser, type AST } from "@eslint-community/regexpp";
import { RE2JS } from "re2js";
import type { PatternPlan } from "../runtime/patterns.js";

/** A part of a pattern the linear engine cannot run: the plan is `{unchecked: reason}`. */
class Unsupported extends Error {}

const MAX_CODE_POINT = 0x10ffff;
/** RE2's largest repeat count, and the most repetitions mcpgen spells out by splitting. */
const RE2_MAX_REPEAT = 1000;
const MAX_EXPANDED_REPEAT = 10_000;

const parser = new RegExpParser({ ecmaVersion: 2025 });
const cache = new Map<string, PatternPlan>();

/**
 * The plan for one pattern. Never throws: a source that is no valid pattern (the validator says so
 * separately) or one the engine cannot run gives `{unchecked: reason}`.
 */
export function planPattern(source: string): PatternPlan {
  let plan = cache.get(source);
  if (plan === undefined) {
    plan = translate(source);
    cache.set(source, plan);
  }
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
    return plans.length === 1 ? plans[0]! : { any: plans };
  } catch (error) {
    if (error instanceof Unsupported) return { unchecked: error.message };
    throw error;
  }
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

type Range = readonly [number, number];

/** Part of a class: code points, or a Unicode general category RE2 knows by the same name. */
type ClassItem = { ranges: readonly Range[] } | { category: string; negate: boolean };

/** `.` excludes these (ECMAScript's LineTerminator). */
const LINE_TERMINATORS = [0x0a, 0x0d, 0x2028, 0x2029];

/** ECMAScript's `\s`: WhiteSpace (with every Zs space) and LineTerminator. */
export const WHITE_SPACE: readonly Range[] = [
  [0x09, 0x0d], [0x20, 0x20], [0xa0, 0xa0], [0x1680, 0x1680], [0x2000, 0x200a],
  [0x2028, 0x2029], [0x202f, 0x202f], [0x205f, 0x205f], [0x3000, 0x3000], [0xfeff, 0xfeff],
];
const DIGIT: readonly Range[] = [[0x30, 0x39]];
const WORD: readonly Range[] = [[0x30, 0x39], [0x41, 0x5a], [0x5f, 0x5f], [0x61, 0x7a]];

/**
 * ECMAScript's General_Category names and aliases, as RE2 spells them. RE2JS's tables and this
 * Node's agree on every category's code points (test/unit/patterns.test.ts checks it), so these go
 * to RE2 by name; other properties (scripts, binary properties) are spelled out as ranges.
 */
const CATEGORIES: Readonly<Record<string, string>> = Object.assign(Object.create(null) as Record<string, string>, {
  Cased_Letter: "LC", Close_Punctuation: "Pe", Connector_Punctuation: "Pc", Control: "Cc", cntrl: "Cc", Currency_Symbol: "Sc",
  Dash_Punctuation: "Pd", Decimal_Number: "Nd", digit: "Nd", Enclosing_Mark: "Me", Final_Punctuation: "Pf", Format: "Cf",
  Initial_Punctuation: "Pi", Letter: "L", Letter_Number: "Nl", Line_Separator: "Zl", Lowercase_Letter: "Ll", Mark: "M",
  Combining_Mark: "M", Math_Symbol: "Sm", Modifier_Letter: "Lm", Modifier_Symbol: "Sk", Nonspacing_Mark: "Mn", Number: "N",
  Open_Punctuation: "Ps", Other: "C", Other_Letter: "Lo", Other_Number: "No", Other_Punctuation: "Po", Other_Symbol: "So",
  Paragraph_Separator: "Zp", Private_Use: "Co", Punctuation: "P", punct: "P", Separator: "Z", Space_Separator: "Zs",
  Spacing_Mark: "Mc", Surrogate: "Cs", Symbol: "S", Titlecase_Letter: "Lt", Unassigned: "Cn", Uppercase_Letter: "Lu",
});
export const CATEGORY_NAMES = [...new Set(Object.values(CATEGORIES))];

/** `\d`, `\s`, `\w`, `\p{…}` and their negations, as a class item. */
function setItem(node: AST.EscapeCharacterSet | AST.UnicodePropertyCharacterSet): ClassItem {
  if (node.kind === "property") {
    if (node.strings) throw new Unsupported(`a property of strings (${node.raw})`);
    if (node.key === "General_Category" || node.key === "gc") {
      const name = node.value === null ? undefined : (CATEGORIES[node.value] ?? node.value);
      if (name !== undefined && CATEGORY_NAMES.includes(name)) return { category: name, negate: node.negate };
    }
    const ranges = propertyRanges(node.raw.replace(/^\\P/, "\\p"));
    return { ranges: node.negate ? complement(ranges) : ranges };
  }
  const base = node.kind === "digit" ? DIGIT : node.kind === "space" ? WHITE_SPACE : WORD;
  return { ranges: node.negate ? complement(base) : base };
}

const properties = new Map<string, readonly Range[]>();

/** A Unicode property's code points as this Node's RegExp gives them (read once per property). */
function propertyRanges(escape: string): readonly Range[] {
  let ranges = properties.get(escape);
  if (ranges === undefined) {
    const test = new RegExp(`^${escape}$`, "u");
    const found: Range[] = [];
    let start = -1;
    for (let cp = 0; cp <= MAX_CODE_POINT + 1; cp++) {
      const inside = cp <= MAX_CODE_POINT && test.test(String.fromCodePoint(cp));
      if (inside && start < 0) start = cp;
      else if (!inside && start >= 0) {
        found.push([start, cp - 1]);
        start = -1;
      }
    }
    ranges = found;
    properties.set(escape, ranges);
  }
  return ranges;
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

/** Sorted, merged ranges. */
function normalize(ranges: readonly Range[]): Range[] {
  const sorted = [...ranges].sort((x, y) => x[0] - y[0]);
  const out: [number, number][] = [];
  for (const [a, b] of sorted) {
    const last = out[out.length - 1];
    if (last && a <= last[1] + 1) last[1] = Math.max(last[1], b);
    else out.push([a, b]);
  }
  return out;
}

function complement(ranges: readonly Range[]): Range[] {
  const out: Range[] = [];
  let next = 0;
  for (const [a, b] of normalize(ranges)) {
    if (a > next) out.push([next, a - 1]);
    next = b + 1;
  }
  if (next <= MAX_CODE_POINT) out.push([next, MAX_CODE_POINT]);
  return out;
}

/**
 * Whether JavaScript's backtracking engine runs this pattern in linear time, by a simple sufficient
 * condition: anchored at the start (`^`), one alternative, a sequence of single characters (a
 * character, a class, `.`, `\d`, `\p{…}`), each perhaps repeated (`*`, `+`, `?`, `{n,m}`), then
 * perhaps `$`; and every repetition of variable length is followed only by characters it cannot
 * match itself (`[a-z]+@`, `\d{4}-`, `[^@\s]+@`, `[a-z0-9_-]{0,63}$`). Then each character of the
 * input is taken by at most one repetition in one way: when the rest fails, giving back a
 * character fails at once (the next element cannot match it), so the engine does at most a few
 * steps per input character, and only tries position 0. Anything else goes to RE2JS.
 */
function backtracksLinearly(pattern: AST.Pattern): boolean {
  if (pattern.alternatives.length !== 1) return false;
  const [first, ...rest] = pattern.alternatives[0]!.elements;
  if (first?.type !== "Assertion" || first.kind !== "start") return false;
  const sequence: { set: readonly Range[]; min: number; max: number }[] = [];
  let ended = false;
  for (const element of rest) {
    if (ended) return false;
    if (element.type === "Assertion" && element.kind === "end") {
      ended = true;
      continue;
    }
    const atom = element.type === "Quantifier" ? element.element : element;
    const set = singleCharacter(atom);
    if (set === undefined) return false;
    sequence.push({ set, min: element.type === "Quantifier" ? element.min : 1, max: element.type === "Quantifier" ? element.max : 1 });
  }
  for (let i = 0; i < sequence.length; i++) {
    const repeated = sequence[i]!;
    if (repeated.min === repeated.max) continue;
    // What may come right after it: the next elements up to the first one that must match.
    for (let j = i + 1; j < sequence.length; j++) {
      if (overlap(repeated.set, sequence[j]!.set)) return false;
      if (sequence[j]!.min > 0) break;
    }
  }
  return true;
}

/** The code points one element matches, when it matches exactly one character. */
function singleCharacter(node: AST.Node): readonly Range[] | undefined {
  try {
    switch (node.type) {
      case "Character":
        return [[node.value, node.value]];
      case "CharacterSet":
        if (node.kind === "any") return complement(LINE_TERMINATORS.map((c) => [c, c] as const));
        return codePointsOf(setItem(node));
      case "CharacterClass": {
        if (node.unicodeSets) return undefined;
        const ranges: Range[] = [];
        for (const element of node.elements) {
          if (element.type === "Character") ranges.push([element.value, element.value]);
          else if (element.type === "CharacterClassRange") ranges.push([element.min.value, element.max.value]);
          else ranges.push(...codePointsOf(setItem(element)));
        }
        return node.negate ? complement(ranges) : normalize(ranges);
      }
      default:
        return undefined;
    }
  } catch (error) {
    if (error instanceof Unsupported) return undefined;
    throw error;
  }
}

function codePointsOf(item: ClassItem): readonly Range[] {
  if ("ranges" in item) return item.ranges;
  const ranges = propertyRanges(`\\p{${item.category}}`);
  return item.negate ? complement(ranges) : ranges;
}

/** Whether two sets of sorted, merged ranges share a code point. */
function overlap(a: readonly Range[], b: readonly Range[]): boolean {
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const [a0, a1] = a[i]!;
    const [b0, b1] = b[j]!;
    if (a1 < b0) i++;
    else if (b1 < a0) j++;
    else return true;
  }
  return false;
}
