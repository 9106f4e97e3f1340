/**
 * Sets of code points in ECMAScript's meaning (the `u` flag), shared by the translation to RE2
 * (patternPlans.ts) and the proof that a pattern backtracks linearly (patternLinear.ts): `\\d`, `\\s`, `\\w`,
 * `.`, Unicode properties, ranges and their algebra.
 */
import type { AST } from "@eslint-community/regexpp";

/** A part of a pattern the linear engine cannot run: the plan is `{unchecked: reason}`. */
export class Unsupported extends Error {}

export const MAX_CODE_POINT = 0x10ffff;

export type Range = readonly [number, number];

/** Part of a class: code points, or a Unicode general category RE2 knows by the same name. */
export type ClassItem = { ranges: readonly Range[] } | { category: string; negate: boolean };

/** `.` excludes these (ECMAScript's LineTerminator). */
export const LINE_TERMINATORS = [0x0a, 0x0d, 0x2028, 0x2029];

/** ECMAScript's `\s`: WhiteSpace (with every Zs space) and LineTerminator. */
export const WHITE_SPACE: readonly Range[] = [
  [0x09, 0x0d],
  [0x20, 0x20],
  [0xa0, 0xa0],
  [0x1680, 0x1680],
  [0x2000, 0x200a],
  [0x2028, 0x2029],
  [0x202f, 0x202f],
  [0x205f, 0x205f],
  [0x3000, 0x3000],
  [0xfeff, 0xfeff],
];
const DIGIT: readonly Range[] = [[0x30, 0x39]];
const WORD: readonly Range[] = [
  [0x30, 0x39],
  [0x41, 0x5a],
  [0x5f, 0x5f],
  [0x61, 0x7a],
];

/**
 * ECMAScript's General_Category names and aliases, as RE2 spells them. RE2JS's tables and this
 * Node's agree on every category's code points (packages/runtime/test/server/engine/pattern-plans.test.ts checks it), so these go
 * to RE2 by name; other properties (scripts, binary properties) are spelled out as ranges.
 */
const CATEGORIES: Readonly<Record<string, string>> = Object.assign(Object.create(null) as Record<string, string>, {
  Cased_Letter: "LC",
  Close_Punctuation: "Pe",
  Connector_Punctuation: "Pc",
  Control: "Cc",
  cntrl: "Cc",
  Currency_Symbol: "Sc",
  Dash_Punctuation: "Pd",
  Decimal_Number: "Nd",
  digit: "Nd",
  Enclosing_Mark: "Me",
  Final_Punctuation: "Pf",
  Format: "Cf",
  Initial_Punctuation: "Pi",
  Letter: "L",
  Letter_Number: "Nl",
  Line_Separator: "Zl",
  Lowercase_Letter: "Ll",
  Mark: "M",
  Combining_Mark: "M",
  Math_Symbol: "Sm",
  Modifier_Letter: "Lm",
  Modifier_Symbol: "Sk",
  Nonspacing_Mark: "Mn",
  Number: "N",
  Open_Punctuation: "Ps",
  Other: "C",
  Other_Letter: "Lo",
  Other_Number: "No",
  Other_Punctuation: "Po",
  Other_Symbol: "So",
  Paragraph_Separator: "Zp",
  Private_Use: "Co",
  Punctuation: "P",
  punct: "P",
  Separator: "Z",
  Space_Separator: "Zs",
  Spacing_Mark: "Mc",
  Surrogate: "Cs",
  Symbol: "S",
  Titlecase_Letter: "Lt",
  Unassigned: "Cn",
  Uppercase_Letter: "Lu",
});
export const CATEGORY_NAMES = [...new Set(Object.values(CATEGORIES))];

/** `\d`, `\s`, `\w`, `\p{…}` and their negations, as a class item. */
export function setItem(node: AST.EscapeCharacterSet | AST.UnicodePropertyCharacterSet): ClassItem {
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

/** Sorted, merged ranges. */
export function normalize(ranges: readonly Range[]): Range[] {
  const sorted = [...ranges].sort((x, y) => x[0] - y[0]);
  const out: [number, number][] = [];
  for (const [a, b] of sorted) {
    const last = out[out.length - 1];
    if (last && a <= last[1] + 1) last[1] = Math.max(last[1], b);
    else out.push([a, b]);
  }
  return out;
}

export function complement(ranges: readonly Range[]): Range[] {
  const out: Range[] = [];
  let next = 0;
  for (const [a, b] of normalize(ranges)) {
    if (a > next) out.push([next, a - 1]);
    next = b + 1;
  }
  if (next <= MAX_CODE_POINT) out.push([next, MAX_CODE_POINT]);
  return out;
}

export function codePointsOf(item: ClassItem): readonly Range[] {
  if ("ranges" in item) return item.ranges;
  const ranges = propertyRanges(`\\p{${item.category}}`);
  return item.negate ? complement(ranges) : ranges;
}

/** Whether two sets of sorted, merged ranges share a code point. */
export function overlap(a: readonly Range[], b: readonly Range[]): boolean {
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
