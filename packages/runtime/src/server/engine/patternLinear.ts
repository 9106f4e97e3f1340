/**
 * Which patterns JavaScript's own backtracking engine runs in linear time, by a simple sufficient
 * condition: those run on RegExp (exact, and fast); the others on RE2JS (patternPlans.ts).
 */
import type { AST } from "@eslint-community/regexpp";
import { codePointsOf, complement, LINE_TERMINATORS, normalize, overlap, setItem, Unsupported, type Range } from "./patternSets.js";

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
export function backtracksLinearly(pattern: AST.Pattern): boolean {
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
