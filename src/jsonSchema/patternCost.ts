/**
 * What a pattern costs on mcpgen's linear-time engine (RE2JS), beyond the input's length: linear
 * is time × a factor, and a counted repetition multiplies the factor. Inside a lookbehind RE2JS
 * keeps a thread for every way the repetition can end at every position: `(?<=\w{0,1000}x)y`
 * costs about 70 µs per input character (18.6 s on 256 KiB), `(?<=\w{0,10}x)y` a hundredth of
 * it. Elsewhere RE2JS's DFA absorbs most repetitions, until its state budget runs out
 * (`[ab]*a[ab]{300}$`: about 3 µs per character). The factor here is the product of the counts of
 * the repetitions around the worst one (a `{n,m}` counts m, `*` and `+` count 1: they loop, they
 * do not multiply threads).
 */
import { RegExpParser, type AST } from "@eslint-community/regexpp";

/** Factors from which a pattern is reported: inside a lookbehind, and elsewhere. */
const LOOKBEHIND_FACTOR = 100;
const ELSEWHERE_FACTOR = 1000;

interface PatternCost {
  /** The repetition at fault, as written (`\w{0,1000}`). */
  culprit: string;
  /** The product of its count and those of the repetitions around it. */
  factor: number;
  inLookbehind: boolean;
}

const parser = new RegExpParser({ ecmaVersion: 2025 });

/**
 * The costliest counted repetition of a pattern when it reaches the reporting factor (100 inside
 * a lookbehind, 1,000 elsewhere), else undefined (an invalid pattern too: the validator says so).
 */
export function patternCost(source: string): PatternCost | undefined {
  let pattern: AST.Pattern;
  try {
    pattern = parser.parsePattern(source, 0, source.length, { unicode: true });
  } catch {
    return undefined;
  }
  let worst: PatternCost | undefined;
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
        const count = Number.isFinite(node.max) ? node.max : 1;
        const here = factor * Math.max(count, 1);
        if (
          count > 1 &&
          here >= threshold(inLookbehind) &&
          (worst === undefined || here / threshold(inLookbehind) > worst.factor / threshold(worst.inLookbehind))
        )
          worst = { culprit: node.raw, factor: here, inLookbehind };
        visit(node.element, here, inLookbehind);
        return;
      }
      default:
        return;
    }
  };
  visit(pattern, 1, false);
  return worst;
}

function threshold(inLookbehind: boolean): number {
  return inLookbehind ? LOOKBEHIND_FACTOR : ELSEWHERE_FACTOR;
}
