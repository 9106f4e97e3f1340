/**
 * common/didYouMean.ts: the one distance (Damerau-Levenshtein, optimal string alignment) and the one
 * rule that makes a name a typo of a known one, which every "did you mean" of mcpgen uses.
 */
import { describe, expect, it } from "vitest";
import { didYouMean, editDistance, nearNames } from "../../../src/common/didYouMean.js";

describe("editDistance", () => {
  it.each([
    ["", "", 0],
    ["", "abc", 3],
    ["title", "title", 0],
    // A swap of two neighbours is one edit (Levenshtein counts two).
    ["titel", "title", 1],
    ["tilte", "title", 1],
    ["nmae", "name", 1],
    ["requried", "required", 1],
    ["properites", "properties", 1],
    ["minLenght", "minLength", 1],
    ["descritpion", "description", 1],
    // Insertion, deletion, substitution.
    ["names", "name", 1],
    ["nam", "name", 1],
    ["url", "uri", 1],
    // Optimal string alignment: no substring is edited twice ("ca" -> "abc" is 3, not 2).
    ["ca", "abc", 3],
    ["tsType", "type", 2],
    ["discripton", "description", 2],
  ])("%j -> %j is %i", (a, b, d) => {
    expect(editDistance(a, b)).toBe(d);
    expect(editDistance(b, a)).toBe(d);
  });
});

describe("didYouMean: within one edit, two from 6 characters, three from 9, case aside", () => {
  const TOOL = ["name", "title", "description", "inputSchema", "outputSchema", "annotations", "_meta"];
  it.each([
    ["titel", TOOL, "title"],
    ["tilte", TOOL, "title"],
    ["nmae", TOOL, "name"],
    ["descritpion", TOOL, "description"],
    ["discripton", TOOL, "description"],
    ["inputschema", TOOL, "inputSchema"],
    ["meta", TOOL, "_meta"],
    ["url", ["uri", "name"], "uri"],
    ["stub", ["stubs", "out"], "stubs"],
  ])("%j is a typo of the known %s", (typed, known, want) => {
    expect(didYouMean(typed, known)).toBe(want);
  });

  it.each([
    // Two edits from a 4-letter name: the allowance follows the shorter of the two names.
    ["tsType", ["type"]],
    ["tags", TOOL],
    ["vendorKey", TOOL],
    ["x", ["y"]],
  ])("%j is no typo of %j", (typed, known) => {
    expect(didYouMean(typed, known)).toBeUndefined();
  });

  it("never suggests the name itself, and ranks the closest first, ties in the order given", () => {
    expect(didYouMean("title", ["title"])).toBeUndefined();
    expect(nearNames("$def", ["$ref", "$defs"])).toEqual(["$ref", "$defs"]);
    expect(nearNames("propertis", ["patternProperties", "properties"])).toEqual(["properties"]);
    expect(nearNames("Type", ["types", "type"])).toEqual(["type", "types"]);
  });
});
