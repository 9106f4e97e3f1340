/** A schema's `pattern`, run on a manifest's own text (a hostile manifest never gets a backtracking RegExp). */
import { compilePlan, planPattern } from "@mcpgen/runtime/codegen";

/**
 * Whether `text` matches the manifest pattern `source`, in linear time (a manifest may be hostile:
 * mcpgen never runs one of its patterns on JavaScript's backtracking RegExp unless the plan says
 * it is linear there). False for a pattern the engine cannot run.
 */
export function matchesPattern(source: string, text: string): boolean {
  const plan = planPattern(source);
  return !("unchecked" in plan) && compilePlan(plan, source).test(text);
}
