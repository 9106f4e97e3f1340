/** The linear-time plan of every `pattern` and `patternProperties` key in the tools' schemas (the definition's `patterns`). */
import { planPattern } from "@mcpgen/runtime/codegen";
import type { PatternPlan, PatternTable } from "@mcpgen/runtime/codegen";
import { isPlainObject, setOwn } from "../../common/objects.js";
import { forEachSchema, refTarget } from "../../jsonSchema/refs.js";
import type { ToolModel } from "./types.js";

/**
 * By pattern source, in the order the tools' wire schemas first use them: every `pattern` and
 * `patternProperties` key ajv compiles, that is every subschema under a keyword ajv applies
 * (SUBSCHEMAS, the one table), and what a local `$ref` points at wherever it is (ajv resolves
 * any JSON pointer, `#/properties/x` as much as `#/$defs/X`).
 */
export function planPatterns(tools: readonly ToolModel[]): PatternTable {
  const patterns: Record<string, PatternPlan> = {};
  for (const tool of tools) {
    for (const key of ["inputSchema", "outputSchema"]) {
      const root = tool.wire[key];
      const walked = new Set<object>();
      // Targets of refs are walked after the document, so the order stays the document's.
      const targets: unknown[] = [root];
      while (targets.length > 0)
        forEachSchema(targets.shift(), (node) => {
          if (walked.has(node)) return;
          walked.add(node);
          const sources = [
            ...(typeof node.pattern === "string" ? [node.pattern] : []),
            ...(isPlainObject(node.patternProperties) ? Object.keys(node.patternProperties) : []),
          ];
          for (const source of sources) if (!Object.hasOwn(patterns, source)) setOwn(patterns, source, planPattern(source));
          const target = typeof node.$ref === "string" ? refTarget(root, node.$ref) : undefined;
          if (isPlainObject(target) && !walked.has(target)) targets.push(target);
        });
    }
  }
  return patterns;
}
