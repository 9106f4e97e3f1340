/**
 * The forms handlers ask for (elicitation `requestedSchema`), checked against the user's answers.
 * Handlers build a form at run time, usually a new object per call: validators are kept by the
 * form's JSON text (the same form asked twice is compiled once), at most `maxFormValidators` on one
 * ajv. ajv keeps every schema it compiled (and its patterns) for the life of the instance, so when
 * that many are compiled the instance is dropped with them and the next form starts a new one:
 * memory stays bounded however many forms a server asks for.
 *
 * A form in MCP's subset (a flat object of primitive fields, what clients render) is interpreted
 * by formCheck.ts, with ajv's verdicts and errors and no code compiled; any other schema is
 * compiled by ajv.
 *
 * A form's patterns are planned by mcpgen's translator (patternPlans.ts) and run on the same
 * linear-time engine as the manifest's, with the same meaning. A form that cannot be checked (a
 * pattern the engine cannot run, a schema ajv refuses) is refused when the handler asks it, with
 * the reason, before the question goes to the client.
 *
 * ajv and the translator are loaded when a form first needs them (`prepare`, when the handler
 * asks): a server whose forms are all in the subset without patterns never loads them.
 */
import type { createAjv } from "../../shared/ajv.js";
import { isDraft07 } from "../../shared/dialect.js";
import { patternEngine, type PatternPlan } from "../../shared/patterns.js";
import { runValidator, type SchemaCompiler, type ValidatorOptions } from "../../shared/validation.js";
import { compileForm, type FormCheck } from "./formCheck.js";
import { loadCompiler, NotLoaded, plannerNow } from "./planner.js";

type Ajv = ReturnType<typeof createAjv>;
type ValidateFunction = ReturnType<Ajv["compile"]> | FormCheck;

/** Default number of form validators kept (`maxFormValidators`). */
export const DEFAULT_MAX_FORM_VALIDATORS = 100;

/** A form that cannot be checked: the reason, in words for the handler's author. */
class FormRefused extends Error {}

/** The matcher `prepare` interprets a form without patterns with: never called. */
const noMatcher = (): never => {
  throw new NotLoaded("a form without patterns asked for a matcher");
};

/** A pattern's plan for a form: refused when the engine cannot run it (never left unchecked). */
function formPlan(source: string): PatternPlan {
  const plan = plannerNow()(source);
  if ("unchecked" in plan) throw new FormRefused(`pattern ${JSON.stringify(source)} cannot be checked in linear time: ${plan.unchecked}`);
  return plan;
}

export class FormValidators {
  private kept = new Map<string, ValidateFunction | { refused: string }>();
  private ajv07: Ajv | undefined;
  private ajv2020: Ajv | undefined;
  /** ajv, once loaded (with the translator). */
  private compiler: SchemaCompiler | undefined;
  private loading: Promise<void> | undefined;
  /** The pattern engine of interpreted forms: the plans of formPlan, the options' input cap. */
  private readonly matcherFor: (source: string) => ReturnType<ReturnType<typeof patternEngine>>;

  constructor(
    private readonly max: number = DEFAULT_MAX_FORM_VALIDATORS,
    private readonly options: ValidatorOptions = {},
  ) {
    const engine = patternEngine(formPlan, options.maxPatternInput === undefined ? {} : { maxInput: options.maxPatternInput });
    this.matcherFor = (source) => engine(source, "u");
  }

  /** Forms compiled on the current ajv (for tests: the bound holds). */
  get size(): number {
    return this.kept.size;
  }

  /**
   * Makes `problem` and `check` ready for `schema`: undefined when they are (a form in MCP's subset
   * without patterns, or ajv and the translator already here), else a promise that settles once
   * they are loaded.
   */
  prepare(schema: object): Promise<void> | undefined {
    if (this.compiler !== undefined) return undefined;
    let text: string | undefined;
    try {
      text = JSON.stringify(schema);
    } catch {
      // Refused as it is, without ajv.
      return undefined;
    }
    if (text === undefined || this.kept.has(text)) return undefined;
    if (!text.includes('"pattern"')) {
      try {
        const made = compileForm(JSON.parse(text) as object, noMatcher);
        if (made !== undefined) {
          // Interpreted as it is: kept, so the check that follows does not compile it again.
          this.makeRoom();
          this.kept.set(text, made);
          return undefined;
        }
      } catch {
        // Refused by the interpreter, or ajv's to say: loaded below.
      }
    }
    return (this.loading ??= loadCompiler().then((compiler) => void (this.compiler = compiler)));
  }

  /** Why `schema` cannot be checked, or undefined when it can (it is compiled and kept then). */
  problem(schema: object): string | undefined {
    const found = this.validator(schema);
    return "refused" in found ? found.refused : undefined;
  }

  /** Undefined when `value` fills the form `schema`, else the problems in words (or why the form cannot be checked). */
  check(schema: object, value: unknown): string | undefined {
    const found = this.validator(schema);
    return "refused" in found ? `the form cannot be checked: ${found.refused}` : runValidator(found, value, this.options.maxPatternMs);
  }

  private ajvFor(schema: object): Ajv {
    const compiler = this.compiler;
    if (compiler === undefined) throw new NotLoaded("mcpgen: a form outside MCP's subset was checked before ajv was loaded (FormValidators.prepare)");
    return isDraft07(schema)
      ? (this.ajv07 ??= compiler.createAjv(true, formPlan, this.options))
      : (this.ajv2020 ??= compiler.createAjv(false, formPlan, this.options));
  }

  private validator(schema: object): ValidateFunction | { refused: string } {
    let text: string;
    try {
      text = JSON.stringify(schema);
    } catch (error) {
      return { refused: `requestedSchema is not JSON (${(error as Error).message})` };
    }
    const hit = this.kept.get(text);
    if (hit !== undefined) return hit;
    this.makeRoom();
    let made: ValidateFunction | { refused: string };
    try {
      // From its own parse of the text: the handler's object may change after asking.
      const parsed = JSON.parse(text) as object;
      // MCP's subset, interpreted; anything else compiled by ajv.
      made = compileForm(parsed, this.matcherFor) ?? this.ajvFor(parsed).compile(parsed);
    } catch (error) {
      if (error instanceof NotLoaded) throw error;
      made = { refused: error instanceof FormRefused ? error.message : `requestedSchema is not a schema ajv can compile (${(error as Error).message})` };
    }
    this.kept.set(text, made);
    return made;
  }

  /** At `max` forms kept, drops them all with their ajv instances (before compiling the next). */
  private makeRoom(): void {
    if (this.kept.size < this.max) return;
    // Dropping the instances is what frees what they compiled.
    this.kept = new Map();
    this.ajv07 = this.ajv2020 = undefined;
  }
}
