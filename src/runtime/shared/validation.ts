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
 * An ajv for one dialect. `format` is an annotation in 2020-12 (not asserted by default), so
 * formats are not validated: unknown formats never break a server. Unknown keywords are allowed
 * because real-world schemas carry vendor extensions. Patterns run on the linear-time engine
 * (patterns.ts), with the plans mcpgen made for them at generate time.
 */
export function createAjv(draft07: boolean, patterns?: PatternTable | ((source: string) => PatternPlan)): Ajv {
  // ownProperties: an argument object's inherited members (constructor, toString...) are not its
  // properties, so `required: [toString]` is not met by {} and an optional `constructor` property
  // is not "present" when absent.
  const options = {
    strict: false,
    allErrors: true,
    validateFormats: false,
    logger: false,
    ownProperties: true,
    code: { regExp: patternEngine(patterns) },
  } as const;
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
