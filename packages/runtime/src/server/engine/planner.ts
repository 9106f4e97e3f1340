/**
 * What the server loads late: ajv and the pattern translator (patternPlans.ts, with the regexpp
 * parser). Generated definitions carry a printed validator for every tool schema and a plan for
 * every pattern of the manifest, so only a form with a pattern or outside MCP's subset, or a
 * definition written by hand, uses them, and a server that has neither never loads them.
 */
import { loadRe2 } from "../../shared/patterns.js";
import type { SchemaCompiler } from "../../shared/validation.js";
import type { planPattern } from "./patternPlans.js";

let loaded: typeof planPattern | undefined;

/** Loads the translator (once per process). */
async function loadPlanner(): Promise<typeof planPattern> {
  return (loaded ??= (await import("./patternPlans.js")).planPattern);
}

/** ajv, with the translator and RE2JS its patterns may need: what a schema without a printed validator, or a form outside MCP's subset, is compiled with. */
export async function loadCompiler(): Promise<SchemaCompiler> {
  const [compiler] = await Promise.all([import("../../shared/ajv.js"), loadPlanner(), loadRe2()]);
  return compiler;
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
