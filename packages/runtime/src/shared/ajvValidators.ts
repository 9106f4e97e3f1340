/**
 * Validators with ajv loaded up front, so that every check is synchronous: for the generated
 * client (it checks outputs as they come) and mcpgen's own commands. The server loads ajv only
 * when a schema has no printed validator (validation.ts).
 */
import * as compiler from "./ajv.js";
import type { PatternPlans } from "./patterns.js";
import { SchemaValidators, type ValidatorOptions } from "./validation.js";

export function ajvValidators(patterns?: PatternPlans, options: ValidatorOptions = {}): SchemaValidators {
  return new SchemaValidators(patterns, options, undefined, compiler);
}
