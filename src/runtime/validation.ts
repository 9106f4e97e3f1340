/**
 * JSON Schema validation shared by the generated server (arguments, outputs), the generated
 * client (outputs) and mcpgen itself (examples), so all three say the same thing the same way.
 */
import { Ajv, type ErrorObject, type ValidateFunction } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import { isDraft07 } from "./dialect.js";
import { patternEngine, type PatternPlan, type PatternTable } from "./patterns.js";

export { isDraft07 };

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
  const options = { strict: false, allErrors: true, validateFormats: false, logger: false, ownProperties: true, code: { regExp: patternEngine(patterns) } } as const;
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

/** At most this many problems are listed in one message. */
const MAX_LISTED = 5;

/** Ajv errors in words: `Missing required property 'budget'; Property 'tags[0]' must be string`. */
export function describeErrors(errors: readonly ErrorObject[] | null | undefined): string {
  const list = (errors ?? []).filter((e) => e.keyword !== "if");
  const messages = [...new Set(list.map(describeError))];
  const shown = messages.slice(0, MAX_LISTED).join("; ");
  return messages.length > MAX_LISTED ? `${shown}; and ${messages.length - MAX_LISTED} more` : shown;
}

function describeError(error: ErrorObject): string {
  const at = error.instancePath === "" ? [] : error.instancePath.split("/").slice(1).map((s) => s.replace(/~1/g, "/").replace(/~0/g, "~"));
  const params = error.params as Record<string, unknown>;
  if (error.keyword === "required") return `Missing required property '${propertyPath([...at, String(params.missingProperty)])}'`;
  if (error.keyword === "additionalProperties") return `Unknown property '${propertyPath([...at, String(params.additionalProperty)])}'`;
  let message = error.message ?? "is invalid";
  if (error.keyword === "enum" && Array.isArray(params.allowedValues)) message = `must be one of ${params.allowedValues.map((v) => JSON.stringify(v)).join(", ")}`;
  return at.length === 0 ? `Arguments ${message}` : `Property '${propertyPath(at)}' ${message}`;
}

/** `["gifts", "0", "name"]` -> `gifts[0].name`. */
function propertyPath(segments: readonly string[]): string {
  let out = "";
  for (const s of segments) out += /^\d+$/.test(s) ? `[${s}]` : out === "" ? s : `.${s}`;
  return out;
}
