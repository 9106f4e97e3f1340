/**
 * JSON Schema validation shared by the generated server (arguments, outputs), the generated
 * client (outputs) and mcpgen itself (examples), so all three say the same thing the same way.
 */
import { Ajv, type ValidateFunction } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import { isDraft07 } from "./dialect.js";
import { describeErrors } from "./describeErrors.js";
import { patternEngine, type PatternPlan, type PatternTable } from "./patterns.js";

export { isDraft07, describeErrors };

/**
 * The options of every ajv that checks values against a manifest's schemas: the server's and the
 * client's (createAjv below), the widget output checks mcpgen compiles at generate time
 * (src/emit/widgets.ts) and its precompiled meta-schema checks (src/schema/metaValidators.ts), so
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

/**
 * An ajv for one dialect, with AJV_OPTIONS. Patterns run on the linear-time engine (patterns.ts),
 * with the plans mcpgen made for them at generate time.
 */
export function createAjv(draft07: boolean, patterns?: PatternTable | ((source: string) => PatternPlan)): Ajv {
  const options = { ...AJV_OPTIONS, code: { regExp: patternEngine(patterns) } };
  // Ajv2020 and Ajv are sibling subclasses of ajv's core class with the same public API; ajv's
  // types tell them apart only by private members, so one static type is restated here.
  return draft07 ? new Ajv(options) : (new Ajv2020(options) as unknown as Ajv);
}

/** Compiles validators on first use and keeps them; one instance per server or client. */
export class SchemaValidators {
  private readonly cache = new Map<object, ValidateFunction>();
  private ajv07: Ajv | undefined;
  private ajv2020: Ajv | undefined;

  /** `patterns`: the generated definition's plans for the schemas' patterns. */
  constructor(private readonly patterns?: PatternTable) {}

  validator(schema: object): ValidateFunction {
    let fn = this.cache.get(schema);
    if (fn === undefined) {
      const ajv = isDraft07(schema) ? (this.ajv07 ??= createAjv(true, this.patterns)) : (this.ajv2020 ??= createAjv(false, this.patterns));
      fn = ajv.compile(schema);
      this.cache.set(schema, fn);
    }
    return fn;
  }

  /** Undefined when `value` matches `schema`, else the problems in words. */
  check(schema: object, value: unknown): string | undefined {
    const fn = this.validator(schema);
    return fn(value) ? undefined : describeErrors(fn.errors);
  }
}
