/** The linear-time plan of every `pattern` and `patternProperties` key in the tools' schemas (the definition's `patterns`). */
import { planPattern } from "../regex/translate.js";
import type { PatternPlan, PatternTable } from "../runtime/shared/patterns.js";
import { isPlainObject, setOwn } from "../util/objects.js";
import { forEachSchema } from "./refs.js";
import type { ToolModel } from "./types.js";

/** By pattern source, in the order the tools' wire schemas first use them. */
export function planPatterns(tools: readonly ToolModel[]): PatternTable {
  const patterns: Record<string, PatternPlan> = {};
  for (const tool of tools) {
    for (const key of ["inputSchema", "outputSchema"]) {
      forEachSchema(tool.wire[key], (node) => {
        const sources = [
          ...(typeof node.pattern === "string" ? [node.pattern] : []),
          ...(isPlainObject(node.patternProperties) ? Object.keys(node.patternProperties) : []),
        ];
        for (const source of sources) if (!Object.hasOwn(patterns, source)) setOwn(patterns, source, planPattern(source));
      });
    }
  }
  return patterns;
}
