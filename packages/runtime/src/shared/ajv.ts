/**
 * ajv as mcpgen configures it, for one dialect. Apart from validation.ts so that loading that
 * module does not load ajv: a server whose validators were printed never does (see there).
 */
import { Ajv } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import { lengthFirstPattern } from "./patternKeyword.js";
import { patternEngine, type PatternPlans } from "./patterns.js";

/**
 * The options of every ajv that checks values against a manifest's schemas: the server's and the
 * client's (createAjv below), the widget output checks mcpgen compiles at generate time
 * (src/generator/emit/widgets.ts) and its precompiled meta-schema checks (src/reference/schema/metaValidators.ts), so
 * that all accept the same values and word their errors the same way. Each adds only its `code`
 * options (how the validators are compiled, not what they accept).
 *
 * - `format` is an annotation in 2020-12 (not asserted by default), so formats are not
 *   validated: unknown formats never break a server.
 * - Unknown keywords are allowed (`strict: false`): real-world schemas carry vendor extensions.
 * - Every error is reported (`allErrors`), not only the first.
 * - ownProperties: an argument object's inherited members (constructor, toString...) are not its
 *   properties, so `required: [toString]` is not met by {} and an optional `constructor`
 *   property is not "present" when absent.
 */
export const AJV_OPTIONS = {
  strict: false,
  allErrors: true,
  validateFormats: false,
  logger: false,
  ownProperties: true,
} as const;

/** What every validator of a process may set: the caps on patterns that run on RE2JS. */
export interface ValidatorOptions {
  /** Longest text (in UTF-16 code units) tested against a pattern that runs on RE2JS; default 100,000. */
  maxPatternInput?: number;
  /** Time for patterns on RE2JS per value checked, in ms (default 100): a string that would not fit is refused untested. */
  maxPatternMs?: number;
}

/**
 * An ajv for one dialect, with AJV_OPTIONS. Patterns run on the linear-time engine (patterns.ts),
 * with the plans mcpgen made for them (at generate time, or the server's translator for a form),
 * and only once the schema's own minLength and maxLength hold (patternKeyword.ts). `printable`:
 * its validators are for ajv's standalone code (CommonJS-style `exports`, no line breaks), which
 * calls `patternEngine` and `codePointLength` for patterns and lengths; it does not check schemas
 * against their meta-schema (mcpgen's validate stage did).
 */
export function createAjv(draft07: boolean, patterns?: PatternPlans, options: ValidatorOptions = {}, printable = false): Ajv {
  const engine = patternEngine(patterns, options.maxPatternInput === undefined ? {} : { maxInput: options.maxPatternInput });
  // Printed at generate time, after mcpgen checked the schemas against their meta-schema: not again.
  const print = printable ? { validateSchema: false, code: { regExp: engine, source: true, esm: false, lines: false } } : { code: { regExp: engine } };
  const settings = { ...AJV_OPTIONS, ...print };
  // Ajv2020 and Ajv are sibling subclasses of ajv's core class with the same public API; ajv's
  // types tell them apart only by private members, so one static type is restated here.
  const ajv = draft07 ? new Ajv(settings) : (new Ajv2020(settings) as unknown as Ajv);
  ajv.removeKeyword("pattern");
  ajv.addKeyword(lengthFirstPattern);
  return ajv;
}
