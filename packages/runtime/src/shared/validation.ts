/**
 * JSON Schema validation shared by the generated server (arguments, outputs), the generated
 * client (outputs) and mcpgen itself (examples), so all three say the same thing the same way.
 */
import { Ajv, type ErrorObject } from "ajv";
export type { ErrorObject };
import { Ajv2020 } from "ajv/dist/2020.js";
import { isDraft07 } from "./dialect.js";
import { describeErrors } from "./describeErrors.js";
import { lengthFirstPattern } from "./patternKeyword.js";
import { DEFAULT_MAX_PATTERN_MS, PatternInputTooLong, PatternTimeExceeded, patternEngine, withPatternTime, type PatternPlans } from "./patterns.js";

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

/**
 * `fn`'s verdict on `value`: undefined when valid, else the problems in words. Patterns on RE2JS
 * get `maxPatternMs` for the whole value. A string longer than the pattern cap in a place the
 * pattern keyword does not see first (a property name tested against patternProperties), or one
 * whose check would not fit in the time left, ends the check with that limit as the problem.
 */
export function runValidator(
  fn: { (value: unknown): unknown; errors?: ErrorObject[] | null | undefined },
  value: unknown,
  maxPatternMs = DEFAULT_MAX_PATTERN_MS,
): string | undefined {
  try {
    const valid: unknown = withPatternTime(maxPatternMs, () => fn(value));
    // An `$async` schema answers a promise, which would read as valid: mcpgen does not run those.
    if (valid !== true && valid !== false) {
      // Its outcome is dropped, never left unhandled.
      if (valid instanceof Promise) valid.catch(() => {});
      return "The schema is asynchronous ($async), which mcpgen's validators do not run";
    }
    return valid ? undefined : describeErrors(fn.errors);
  } catch (error) {
    if (error instanceof PatternInputTooLong) return `A string is longer than ${error.limit} characters, the most a pattern is checked against`;
    if (error instanceof PatternTimeExceeded)
      return `A string was not checked against its pattern: the patterns of this value would take more than ${error.limitMs} ms (maxPatternMs)`;
    throw error;
  }
}

/** A validator: ajv's compiled function, or the one mcpgen printed at generate time (the same code). */
export interface CompiledValidator {
  (value: unknown): boolean;
  errors?: ErrorObject[] | null;
}

/** The engine printed validators make their pattern matchers with (the runtime's patternEngine). */
export type PatternEngine = ReturnType<typeof patternEngine>;

/**
 * What a generated `validators.ts` exports: given the process's pattern engine, each tool's input
 * and output validator by tool name (a tool without an outputSchema has none), compiled by mcpgen
 * at generate time, so the server compiles no code at run time.
 */
export type PrintedValidators = (engine: PatternEngine) => ReadonlyMap<string, readonly [input: CompiledValidator, output?: CompiledValidator]>;

/**
 * Compiles validators on first use and keeps them; one instance per server or client. Schemas
 * are the definition's (kept by identity: as many as the definition has); forms made at run time
 * go to the server's own bounded cache (server/engine/forms.ts). `printed`: the validators mcpgen
 * printed for these schemas, made at the first check; a schema they lack is compiled by ajv
 * (a definition edited by hand), which a platform that forbids code from strings refuses.
 */
export class SchemaValidators {
  private readonly cache = new Map<object, CompiledValidator>();
  private ajv07: Ajv | undefined;
  private ajv2020: Ajv | undefined;
  private printedReady = false;

  /** `patterns`: the generated definition's plans for the schemas' patterns (or a translator). */
  constructor(
    private readonly patterns?: PatternPlans,
    private readonly options: ValidatorOptions = {},
    private readonly printed?: { make: PrintedValidators; schemas: () => Iterable<readonly [name: string, input: object, output: object | undefined]> },
  ) {}

  validator(schema: object): CompiledValidator {
    if (!this.printedReady) this.takePrinted();
    let fn = this.cache.get(schema);
    if (fn === undefined) {
      const ajv = isDraft07(schema)
        ? (this.ajv07 ??= createAjv(true, this.patterns, this.options))
        : (this.ajv2020 ??= createAjv(false, this.patterns, this.options));
      try {
        fn = ajv.compile(schema);
      } catch (error) {
        if (error instanceof EvalError)
          throw new Error(
            "mcpgen: this platform forbids compiling code at run time, and a schema has no validator printed at generate time: pass the generated validators.ts (`validators: createValidators` in server.ts, as mcpgen generates it), or regenerate",
            { cause: error },
          );
        throw error;
      }
      this.cache.set(schema, fn);
    }
    return fn;
  }

  /** Undefined when `value` matches `schema`, else the problems in words. */
  check(schema: object, value: unknown): string | undefined {
    return runValidator(this.validator(schema), value, this.options.maxPatternMs);
  }

  /** Keeps the printed validators by the definition's schema objects, as compiled ones are kept. */
  private takePrinted(): void {
    this.printedReady = true;
    if (this.printed === undefined) return;
    const engine = patternEngine(this.patterns, this.options.maxPatternInput === undefined ? {} : { maxInput: this.options.maxPatternInput });
    const made = this.printed.make(engine);
    for (const [name, input, output] of this.printed.schemas()) {
      const fns = made.get(name);
      if (fns === undefined) continue;
      this.cache.set(input, fns[0]);
      if (output !== undefined && fns[1] !== undefined) this.cache.set(output, fns[1]);
    }
  }
}
