/** What a pattern costs the linear-time engine per input character (the `pattern-cost` warning). */
import { describe, expect, it } from "vitest";
import { patternCost } from "../../../src/jsonSchema/patternCost.js";

describe("patternCost", () => {
  it.each<[string, ReturnType<typeof patternCost>]>([
    // Inside a lookbehind, from a factor of 100: RE2JS tries every way the repetition can end, at every position.
    ["(?<=\\w{0,1000}x)y", { culprit: "\\w{0,1000}", factor: 1000, inLookbehind: true }],
    ["(?<=\\w{0,100}x)y", { culprit: "\\w{0,100}", factor: 100, inLookbehind: true }],
    ["(?<![a-z]{500})z", { culprit: "[a-z]{500}", factor: 500, inLookbehind: true }],
    ["(?<=(?:\\w{0,20}){0,10}x)y", { culprit: "\\w{0,20}", factor: 200, inLookbehind: true }],
    ["(?<=\\w{0,99}x)y", undefined],
    ["(?<=\\w*x)y", undefined],
    ["(?<=a)b", undefined],
    // Elsewhere, from 1,000 (RE2JS's DFA absorbs smaller ones).
    ["^(?:[a-z]{0,2000} )+$", { culprit: "[a-z]{0,2000}", factor: 2000, inLookbehind: false }],
    ["^(?:[a-z0-9]{1,63}\\.){1,127}$", { culprit: "[a-z0-9]{1,63}", factor: 8001, inLookbehind: false }],
    ["^(?=\\w{0,1000}$)", { culprit: "\\w{0,1000}", factor: 1000, inLookbehind: false }],
    ["^[a-z0-9-]{1,63}$", undefined],
    ["^\\d{4}-\\d{2}-\\d{2}$", undefined],
    // The worst of several, relative to its threshold: the lookbehind's 200 outweighs 1,500 elsewhere.
    ["^[a-z]{0,1500}(?<=\\w{0,200}x)y", { culprit: "\\w{0,200}", factor: 200, inLookbehind: true }],
    // Not a pattern: nothing to say (the validator reports it).
    ["(", undefined],
  ])("%s", (source, want) => {
    expect(patternCost(source)).toEqual(want);
  });
});
