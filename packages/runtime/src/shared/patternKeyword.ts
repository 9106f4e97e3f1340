/**
 * ajv's `pattern` keyword, length first. With `allErrors` ajv runs every keyword of a schema, so a
 * pattern ran on text that `maxLength` had already refused: `maxLength: 64` beside
 * `(?<=\w{0,1000}x)y` cost 18 s on a 256 KiB string (linear, but in length × repetitions). Here
 * the pattern runs only when the schema's own `minLength`/`maxLength` hold (their error is the
 * answer otherwise), and never on text longer than the matcher's cap (`maxInput`, RE2JS plans):
 * such text gets its own error instead. Error keyword, params and message are otherwise ajv's.
 *
 * It prints as standalone code too (mcpgen's generate-time validators): the printed code makes
 * each matcher by calling the engine by its `code` name, and reads the cap from the matcher the
 * engine of the process that runs it made, so a server's `maxPatternInputLength` still holds.
 */
import { _, Name, str, type Code, type CodeKeywordDefinition, type KeywordCxt, type KeywordErrorDefinition } from "ajv";
import { codePointLength } from "./codePoints.js";
import type { PatternMatcher } from "./patterns.js";

const error: KeywordErrorDefinition = {
  message: ({ schemaCode, params }) =>
    params["limit"] === undefined
      ? str`must match pattern "${schemaCode}"`
      : str`must NOT have more than ${params["limit"]} characters to be checked against pattern "${schemaCode}"`,
  params: ({ schemaCode, params }) => (params["limit"] === undefined ? _`{pattern: ${schemaCode}}` : _`{pattern: ${schemaCode}, limit: ${params["limit"]}}`),
};

/** The code that is true when the schema's own length keywords hold for `data`, or undefined when it has none. */
function lengthHolds(cxt: KeywordCxt): Code | undefined {
  const { gen, data, parentSchema } = cxt;
  const max: unknown = parentSchema["maxLength"];
  const min: unknown = parentSchema["minLength"];
  if (typeof max !== "number" && typeof min !== "number") return undefined;
  const length = gen.scopeValue("func", { ref: codePointLength, code: new Name("codePointLength") });
  const parts: Code[] = [];
  // `.length` counts UTF-16 units: at least the code points, at most twice as many.
  if (typeof max === "number") parts.push(_`(${data}.length <= ${max} || ${length}(${data}) <= ${max})`);
  if (typeof min === "number") parts.push(_`(${data}.length >= ${2 * min} || ${length}(${data}) >= ${min})`);
  return parts.reduce((all, part) => _`${all} && ${part}`);
}

export const lengthFirstPattern: CodeKeywordDefinition = {
  keyword: "pattern",
  type: "string",
  schemaType: "string",
  error,
  code(cxt: KeywordCxt) {
    const { gen, data, schema, it } = cxt;
    const engine = it.opts.code.regExp;
    const matcher = engine(schema as string, "u") as PatternMatcher;
    const made = gen.scopeValue("func", { ref: engine, code: new Name(engine.code) });
    const rx = gen.scopeValue("pattern", { key: matcher.toString(), ref: matcher, code: _`${made}(${schema as string}, "u")` });
    // A matcher on RE2JS has a cap; the one that runs the code says how long (its process's option).
    const capped = matcher.maxInput !== undefined && Number.isFinite(matcher.maxInput);
    const test = () => {
      const fails = () => gen.if(_`!${rx}.test(${data})`, () => cxt.error());
      if (!capped) return fails();
      gen.if(_`${data}.length > ${rx}.maxInput`, () => cxt.error(false, { limit: _`${rx}.maxInput` }), fails);
    };
    const holds = lengthHolds(cxt);
    if (holds === undefined) test();
    else gen.if(holds, test);
  },
};
