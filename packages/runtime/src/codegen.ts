/**
 * `@mcpgen/runtime/codegen`: what mcpgen's generator and commands share with the runtime, so
 * that a manifest is checked, mocked and traced by the very code that serves it. Not an API for
 * application code: it changes with every version of mcpgen, which depends on this package's
 * exact version.
 */
import { RE2JS } from "re2js";
import { useRe2 } from "./shared/patterns.js";

// mcpgen's commands check synchronously from the start: RE2JS is handed in as this entry loads.
useRe2(RE2JS);

export { runValidator, type SchemaValidators } from "./shared/validation.js";
export { AJV_OPTIONS, createAjv, type ValidatorOptions } from "./shared/ajv.js";
export { ajvValidators } from "./shared/ajvValidators.js";
export { isDraft07 } from "./shared/dialect.js";
export { codePointLength } from "./shared/codePoints.js";
export {
  compilePlan,
  DEFAULT_MAX_PATTERN_INPUT,
  DEFAULT_MAX_PATTERN_MS,
  longestWithin,
  patternEngine,
  type PatternPlan,
  type PatternTable,
} from "./shared/patterns.js";
export { parseUriTemplate, type UriTemplate } from "./shared/uriTemplate.js";
export { planPattern } from "./server/engine/patternPlans.js";
export { repetitionCosts, type RepetitionCost } from "./server/engine/patternCost.js";
export type { ServerLogLine } from "./server/engine/messageLog.js";
export type { AnyFunction, RuntimeHandlers } from "./server/engine/handlerTypes.js";
export { fillPlaceholders, PLACEHOLDER } from "./server/methods/placeholders.js";
export { checkParamHeaders, decodeHeaderValue, paramHeaderDeclarations, scanParamHeaders, type ParamHeader } from "./server/http/paramHeaders.js";
export { hostAllowed, originAllowed, type OriginRules } from "./server/http/originCheck.js";
