/**
 * ajv's `pattern` keyword, length first. With `allErrors` ajv runs every keyword of a schema, so a
 * pattern ran on text that `maxLength` had already refused: `maxLength: 64` beside
 * `(?<=\w{0,1000}x)y` cost 18 s on a 256 KiB string (linear, but in length × repetitions). Here
 * the pattern runs only when the schema's own `minLength`/`maxLength` hold (their error is the
 * answer otherwise), and never on text longer than the matcher's cap (`maxInput`, RE2JS plans):
 * such text gets its own error instead. Error keyword, params and message are otherwise ajv's.
 * For validators compiled and run in one process (createAjv): it cannot be printed as standalone code.
 */
import { _, str, type Code, type CodeKeywordDefinition, type KeywordCxt, type KeywordErrorDefinition } from "ajv";
import type { PatternMatcher } from "./patterns.js";

const error: KeywordErrorDefinition = {
  message: ({ schemaCode, params }) =>
    params["limit"] === undefined
      ? str`must match pattern "${schemaCode}"`
      : str`must NOT have more than ${params["limit"]} characters to be checked against pattern "${schemaCode}"`,
  params: ({ schemaCode, params }) => (params["limit"] === undefined ? _`{pattern: ${schemaCode}}` : _`{pattern: ${schemaCode}, limit: ${params["limit"]}}`),
};

/** A string's length in code points, as JSON Schema's minLength and maxLength count it. */
export function codePointLength(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    // A high surrogate followed by a low one is one code point.
    if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i++;
    }
    n++;
  }
  return n;
}

/** The code that is true when the schema's own length keywords hold for `data`, or undefined when it has none. */
function lengthHolds(cxt: KeywordCxt): Code | undefined {
  const { gen, data, parentSchema } = cxt;
  const max: unknown = parentSchema["maxLength"];
  const min: unknown = parentSchema["minLength"];
  if (typeof max !== "number" && typeof min !== "number") return undefined;
  const length = gen.scopeValue("func", { ref: codePointLength });
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
    const matcher = it.opts.code.regExp(schema as string, "u") as PatternMatcher;
    // No `code`: these validators are compiled in the process that runs them, never printed standalone.
    const rx = gen.scopeValue("pattern", { key: matcher.toString(), ref: matcher });
    const limit = matcher.maxInput;
    const test = () => {
      const fails = () => gen.if(_`!${rx}.test(${data})`, () => cxt.error());
      if (limit === undefined || !Number.isFinite(limit)) return fails();
      gen.if(_`${data}.length > ${limit}`, () => cxt.error(false, { limit }), fails);
    };
    const holds = lengthHolds(cxt);
    if (holds === undefined) test();
    else gen.if(holds, test);
  },
};
