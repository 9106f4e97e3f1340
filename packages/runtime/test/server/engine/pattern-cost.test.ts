/** What a pattern's counted repetitions cost the linear-time engine per input character. */
import { describe, expect, it } from "vitest";
import { repetitionCosts } from "../../../src/server/engine/patternCost.js";

describe("repetitionCosts", () => {
  it.each<[string, ReturnType<typeof repetitionCosts>]>([
    ["(?<=\\w{0,1000}x)y", [{ culprit: "\\w{0,1000}", factor: 1000, inLookbehind: true }]],
    ["(?<![a-z]{500})z", [{ culprit: "[a-z]{500}", factor: 500, inLookbehind: true }]],
    // Nested: the inner count times the outer.
    [
      "(?<=(?:\\w{0,20}){0,10}x)y",
      [
        { culprit: "(?:\\w{0,20}){0,10}", factor: 10, inLookbehind: true },
        { culprit: "\\w{0,20}", factor: 200, inLookbehind: true },
      ],
    ],
    // A lookbehind starts again at 1, whatever repeats around it.
    [
      "(?:a(?<=b{0,5}c)){0,3}",
      [
        { culprit: "(?:a(?<=b{0,5}c)){0,3}", factor: 3, inLookbehind: false },
        { culprit: "b{0,5}", factor: 5, inLookbehind: true },
      ],
    ],
    // `*` and `+` loop: they do not multiply. `{n,}` spells out n copies: it counts n.
    ["(?<=\\w*x)y", []],
    ["(?<=\\w{1000,}x)y", [{ culprit: "\\w{1000,}", factor: 1000, inLookbehind: true }]],
    ["^(?:[a-z]{0,2000} )+$", [{ culprit: "[a-z]{0,2000}", factor: 2000, inLookbehind: false }]],
    [
      "^(?:[a-z0-9]{1,63}\\.){1,127}$",
      [
        { culprit: "(?:[a-z0-9]{1,63}\\.){1,127}", factor: 127, inLookbehind: false },
        { culprit: "[a-z0-9]{1,63}", factor: 8001, inLookbehind: false },
      ],
    ],
    ["^(?=\\w{0,1000}$)", [{ culprit: "\\w{0,1000}", factor: 1000, inLookbehind: false }]],
    ["(?<=a)b", []],
    ["a?", []],
    // Not a pattern: nothing to say (the validator reports it).
    ["(", []],
  ])("%s", (source, want) => {
    expect(repetitionCosts(source)).toEqual(want);
  });
});
