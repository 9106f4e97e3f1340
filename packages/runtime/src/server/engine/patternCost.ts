/**
 * What a pattern costs on mcpgen's linear-time engine (RE2JS), beyond the input's length: linear
 * is time × a factor, and a counted repetition multiplies the factor. Inside a lookbehind RE2JS
 * keeps a thread for every way the repetition can end at every position: `(?<=\w{0,1000}x)y`
 * costs about 50 µs per input character (on "yyy…"), `(?<=\w{0,10}x)y` a hundredth of it.
 * Elsewhere RE2JS often absorbs a repetition (`^(?:[a-z0-9]{1,63}\.){1,127}$` costs next to
 * nothing) but not always (`^(?:[a-z]{0,2000} )+$` on "aaa…": about 40 µs per character). The
 * factor of a repetition is the product of its count and those of the repetitions around it (a
 * `{n,m}` counts m, `{n,}` counts n, since RE2 spells out its n copies; `*` and `+` count 1: they
 * loop, they do not multiply threads).
 *
 * The translator (patternPlans.ts) writes the largest factor into a pattern's plan, which the
 * engine uses to refuse a string whose worst case would not fit in the time left to the value
 * being checked (shared/patterns.ts); mcpgen warns of costly patterns, or refuses them, at
 * generate time (`pattern-cost`).
 */
import { RegExpParser, type AST } from "@eslint-community/regexpp";

/** One counted repetition of a pattern and what it costs. */
export interface RepetitionCost {
  /** The repetition, as written (`\w{0,1000}`). */
  culprit: string;
  /** The product of its count and those of the repetitions around it. */
  factor: number;
  inLookbehind: boolean;
}

const parser = new RegExpParser({ ecmaVersion: 2025 });

/**
 * Every counted repetition of a pattern that can repeat more than once (`{n,m}` with m over 1,
 * `{n,}` with n over 1), in the order written, with its factor; none for an invalid pattern (the
 * validator says so).
 */
export function repetitionCosts(pattern: AST.Pattern | string): RepetitionCost[] {
  let parsed: AST.Pattern;
  if (typeof pattern === "string") {
    try {
      parsed = parser.parsePattern(pattern, 0, pattern.length, { unicode: true });
    } catch {
      return [];
    }
  } else parsed = pattern;
  const costs: RepetitionCost[] = [];
  const visit = (node: AST.Node, factor: number, inLookbehind: boolean): void => {
    switch (node.type) {
      case "Pattern":
      case "Group":
      case "CapturingGroup":
        for (const alternative of node.alternatives) visit(alternative, factor, inLookbehind);
        return;
      case "Alternative":
        for (const element of node.elements) visit(element, factor, inLookbehind);
        return;
      case "Assertion":
        // A lookbehind runs at every position whatever repeats around it: its factor starts at 1.
        if (node.kind === "lookbehind") for (const alternative of node.alternatives) visit(alternative, inLookbehind ? factor : 1, true);
        else if (node.kind === "lookahead") for (const alternative of node.alternatives) visit(alternative, factor, inLookbehind);
        return;
      case "Quantifier": {
        const count = Number.isFinite(node.max) ? node.max : Math.max(node.min, 1);
        const here = factor * Math.max(count, 1);
        if (count > 1) costs.push({ culprit: node.raw, factor: here, inLookbehind });
        visit(node.element, here, inLookbehind);
        return;
      }
      default:
        return;
    }
  };
  visit(parsed, 1, false);
  return costs;
}
