/**
 * JSON Schema validation shared by the generated server (arguments, outputs), the generated
 * client (outputs) and mcpgen itself (examples), so all three say the same thing the same way.
 *
 * ajv itself is in ajv.ts, which this module never imports: a server whose validators mcpgen
 * printed at generate time checks with them and never loads ajv (about 75 ms of a cold start and
 * 10 MiB); a schema without one (a definition edited by hand) loads it when first checked.
 */
import type { ErrorObject } from "ajv";
export type { ErrorObject };
import type { createAjv, ValidatorOptions } from "./ajv.js";
export type { ValidatorOptions } from "./ajv.js";
import { isDraft07 } from "./dialect.js";
import { describeErrors } from "./describeErrors.js";
import {
  DEFAULT_MAX_PATTERN_MS,
  loadRe2,
  needsRe2,
  PatternInputTooLong,
  PatternTimeExceeded,
  patternEngine,
  withPatternTime,
  type PatternPlans,
} from "./patterns.js";

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

/** What compiles a schema at run time: ajv (ajv.ts), given or loaded when first needed. */
export interface SchemaCompiler {
  createAjv: typeof createAjv;
}

type Ajv = ReturnType<typeof createAjv>;

/**
 * Compiles validators on first use and keeps them; one instance per server or client. Schemas
 * are the definition's (kept by identity: as many as the definition has); forms made at run time
 * go to the server's own bounded cache (server/engine/forms.ts). `printed`: the validators mcpgen
 * printed for these schemas, made at the first check; a schema they lack is compiled by ajv
 * (a definition edited by hand), which a platform that forbids code from strings refuses.
 *
 * `compiler`: ajv, given (the client, mcpgen's own commands: every check is synchronous), or how
 * to load it (the server): `prepare` then loads it when a schema about to be checked has no
 * printed validator, and `check` needs the schemas it checks prepared.
 */
export class SchemaValidators {
  private readonly cache = new Map<object, CompiledValidator>();
  private ajv07: Ajv | undefined;
  private ajv2020: Ajv | undefined;
  private printedReady = false;
  /** Set once RE2JS is here or these plans do not need it (neither changes after): prepare stops asking. */
  private re2Ready = false;
  private compiler: SchemaCompiler | undefined;
  private loading: Promise<void> | undefined;

  /** `patterns`: the generated definition's plans for the schemas' patterns (or a translator). */
  constructor(
    private readonly patterns: PatternPlans | undefined,
    private readonly options: ValidatorOptions,
    private readonly printed:
      { make: PrintedValidators; schemas: () => Iterable<readonly [name: string, input: object, output: object | undefined]> } | undefined,
    compiler: SchemaCompiler | (() => Promise<SchemaCompiler>),
  ) {
    if (typeof compiler === "function") this.load = compiler;
    else this.compiler = compiler;
  }

  private readonly load: (() => Promise<SchemaCompiler>) | undefined;

  /**
   * Makes `check` ready for these schemas: undefined when it is (each has a validator, or ajv is
   * here, and RE2JS when a pattern runs on it), else a promise that settles once what they need is
   * loaded.
   */
  prepare(...schemas: (object | undefined)[]): Promise<void> | undefined {
    if (!this.re2Ready) {
      if (needsRe2(this.patterns)) return loadRe2().then(() => this.prepare(...schemas));
      this.re2Ready = true;
    }
    if (!this.printedReady) this.takePrinted();
    if (this.compiler !== undefined || schemas.every((schema) => schema === undefined || this.cache.has(schema))) return undefined;
    return (this.loading ??= this.load!().then((compiler) => void (this.compiler = compiler)));
  }

  validator(schema: object): CompiledValidator {
    if (!this.printedReady) this.takePrinted();
    let fn = this.cache.get(schema);
    if (fn === undefined) {
      const compiler = this.compiler;
      if (compiler === undefined) throw new Error("mcpgen: a schema without a printed validator was checked before ajv was loaded (SchemaValidators.prepare)");
      const ajv = isDraft07(schema)
        ? (this.ajv07 ??= compiler.createAjv(true, this.patterns, this.options))
        : (this.ajv2020 ??= compiler.createAjv(false, this.patterns, this.options));
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
