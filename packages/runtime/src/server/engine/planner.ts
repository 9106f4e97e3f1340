/**
 * The pattern translator (patternPlans.ts, with the regexpp parser), loaded when first needed:
 * generated definitions carry a plan for every pattern of the manifest, so only a form with a
 * pattern or a definition written by hand uses it, and a server that has neither never loads it.
 */
import type { planPattern } from "./patternPlans.js";

let loaded: typeof planPattern | undefined;

/** Loads the translator (once per process). */
export async function loadPlanner(): Promise<typeof planPattern> {
  return (loaded ??= (await import("./patternPlans.js")).planPattern);
}

/** A module used before it was loaded: a bug of the caller, never a verdict on a schema or a form. */
export class NotLoaded extends Error {
  override name = "NotLoaded";
}

/** The translator, once loaded. */
export function plannerNow(): typeof planPattern {
  if (loaded === undefined) throw new NotLoaded("mcpgen: a pattern was planned before the translator was loaded (loadPlanner)");
  return loaded;
}
