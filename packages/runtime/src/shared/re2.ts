/**
 * `@mcpgen/runtime/shared/re2`: the pattern engine with RE2JS at hand from the start, for checks
 * that are synchronous from their first use: a widget's (the view checks its server's output as it
 * arrives). Servers and clients load RE2JS only when a pattern needs it (patterns.ts, `loadRe2`).
 */
import { RE2JS } from "re2js";
import { patternEngine, useRe2 } from "./patterns.js";

/** `patternEngine`, RE2JS handed in first. */
export function patternEngineOnRe2(...args: Parameters<typeof patternEngine>): ReturnType<typeof patternEngine> {
  useRe2(RE2JS);
  return patternEngine(...args);
}
