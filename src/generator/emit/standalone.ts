/**
 * ajv's standalone code: validators compiled here, at generate time, and printed as plain
 * JavaScript, for the places that may not compile code at run time (a view under a strict
 * Content-Security-Policy, Cloudflare Workers, a Node server run with
 * `--disallow-code-generation-from-strings`). They accept what the runtime's validators accept and
 * word their errors the same way: the same options (AJV_OPTIONS), the same `pattern` keyword
 * (length first, RE2JS where mcpgen could not prove a pattern linear).
 *
 * Schemas are compiled once per JSON text and dialect: tools that share a schema share its
 * function, and a manifest of many alike tools costs what its distinct schemas cost.
 */
import type { Ajv } from "ajv";
import standalone from "ajv/dist/standalone/index.js";
import { createAjv, isDraft07, type PatternTable } from "@mcpgen/runtime/codegen";

/** The name the printed code calls to make a pattern's matcher: `(source, flags) => { test(text) }` (the runtime's `patternEngine`). */
export const PATTERN_ENGINE = "patternEngine";
/** The name the printed code calls to count a string's code points. */
export const CODE_POINT_LENGTH = "codePointLength";

/** ajv's runtime helpers, as the printed code names them: each becomes a local function or a name the file provides. */
const HELPERS: Readonly<Record<string, { name: string; code?: string }>> = {
  'require("ajv/dist/runtime/ucs2length").default': { name: CODE_POINT_LENGTH },
  'require("ajv/dist/runtime/equal").default': {
    name: "equal",
    code: '/** Structural equality of JSON values. */\nfunction equal(a, b) {\n  if (a === b) return true;\n  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return a !== a && b !== b;\n  if (Array.isArray(a) !== Array.isArray(b)) return false;\n  const keys = Object.keys(a);\n  if (keys.length !== Object.keys(b).length) return false;\n  return keys.every((k) => Object.prototype.hasOwnProperty.call(b, k) && equal(a[k], b[k]));\n}',
  },
};

/** The printed validators of a set of schemas. */
export interface StandaloneCode {
  /**
   * Statements that define one function per distinct schema and assign each to `exports.<name>`
   * (CommonJS style: the caller decides where `exports` lives). They call `patternEngine` and
   * `codePointLength`, which the caller provides in scope.
   */
  code: string;
  /** Local functions the code needs (ajv's runtime helpers, written out). */
  helpers: string[];
  /** The export name of each schema, by the key it was given. */
  names: Map<string, string>;
  /** Whether some pattern runs on RE2JS (the caller's matcher must then carry the plans). */
  usesRe2: boolean;
}

/**
 * What was printed for a schema text in this process: its code, the helpers it needs, and the
 * plan of each pattern it was printed with (the same text with other plans is printed again).
 * mcpgen generates several servers in a run (and again in --watch): alike schemas are compiled once.
 */
interface Printed {
  code: string;
  helpers: string[];
  plans: Record<string, string>;
}
const PRINTED = new Map<string, Printed[]>();
/** Schema texts kept at most; then the cache starts over (a long --watch session stays bounded). */
const MAX_PRINTED = 5_000;

/**
 * Compiles `schemas` (key → schema) to standalone code. `what` names the output in the error a
 * schema ajv cannot print would raise (a bug of mcpgen's to report).
 */
export function standaloneValidators(schemas: ReadonlyMap<string, object>, plans: PatternTable, what: string): StandaloneCode {
  const ajvs: { draft07?: Ajv; draft2020?: Ajv } = {};
  // The plan of each pattern the compile asked for: what the printed code depends on besides the schema.
  let used: Record<string, string> = {};
  const lookup = (source: string) => {
    const plan = Object.hasOwn(plans, source) ? plans[source] : undefined;
    used[source] = JSON.stringify(plan ?? null);
    return plan;
  };
  const names = new Map<string, string>();
  const byText = new Map<string, string>();
  const parts: string[] = [];
  const helpers = new Set<string>();
  for (const [key, schema] of schemas) {
    const draft07 = isDraft07(schema);
    const text = `${draft07 ? "07" : "2020"}:${JSON.stringify(schema)}`;
    let name = byText.get(text);
    if (name === undefined) {
      name = `v${byText.size}`;
      byText.set(text, name);
      const known = PRINTED.get(text)?.find((entry) => Object.entries(entry.plans).every(([source, plan]) => JSON.stringify(plans[source] ?? null) === plan));
      let printed = known;
      if (printed === undefined) {
        used = {};
        const ajv = draft07 ? (ajvs.draft07 ??= createAjv(true, lookup, {}, true)) : (ajvs.draft2020 ??= createAjv(false, lookup, {}, true));
        ajv.addSchema(schema, "mcpgen:schema");
        printed = printOne(standalone.default(ajv, { f: "mcpgen:schema" }), what);
        ajv.removeSchema("mcpgen:schema");
        printed.plans = used;
        if (PRINTED.size >= MAX_PRINTED) PRINTED.clear();
        PRINTED.set(text, [...(PRINTED.get(text) ?? []), printed]);
      }
      for (const helper of printed.helpers) helpers.add(helper);
      parts.push(`exports.${name} = (() => {\n  const exports = {};\n${indent(printed.code)}\n  return exports.f;\n})();`);
    }
    names.set(key, name);
  }
  const usesRe2 = Object.values(plans).some((plan) => !("regexp" in plan));
  return { code: parts.join("\n"), helpers: [...helpers], names, usesRe2 };
}

/** One schema's standalone code, its ajv helpers made local and its `__proto__` keys kept keys. */
function printOne(source: string, what: string): Printed {
  const helpers = new Set<string>();
  let code = source.replace(/"use strict";/g, "").replace(/require\("[^"]+"\)(\.\w+)?/g, (found) => {
    const helper = HELPERS[found];
    if (!helper) throw new Error(`mcpgen: ${what}: a validator needs ${found}, which mcpgen cannot print yet; please report it with the schema`);
    if (helper.code) helpers.add(helper.code);
    return helper.name;
  });
  // ajv prints a schema's values as object literals, where a `"__proto__"` key would set the
  // prototype instead of making a key: printed as a computed key, it stays a key.
  code = code.replace(/(?<=[{,])"__proto__":/g, '["__proto__"]:');
  return { code: breakStatements(renumber(code)), helpers: [...helpers], plans: {} };
}

/**
 * ajv's scope names (`validate20`, `schema31`, `func0`, `pattern2`...) numbered from 0 in the
 * order they appear, outside string literals and property accesses: an ajv numbers them by what it
 * printed before, and the output must depend on the schema alone (the same in every run, whatever
 * the cache held). Local names never take these prefixes (ajv keeps them for its scope), so the
 * renaming is one to one.
 */
function renumber(code: string): string {
  const names = new Map<string, string>();
  const counts = new Map<string, number>();
  let out = "";
  let i = 0;
  while (i < code.length) {
    const c = code[i]!;
    if (c === '"') {
      // A string literal, copied as it is.
      let j = i + 1;
      while (j < code.length && code[j] !== '"') j += code[j] === "\\" ? 2 : 1;
      out += code.slice(i, j + 1);
      i = j + 1;
      continue;
    }
    const name = /^(?:validate|wrapper|root|schema|keyword|pattern|formats|func|obj|Error)\d+\b/.exec(code.slice(i, i + 40));
    if (name !== null && !/[\w$.]/.test(code[i - 1] ?? "")) {
      let renamed = names.get(name[0]);
      if (renamed === undefined) {
        const prefix = name[0].replace(/\d+$/, "");
        const n = counts.get(prefix) ?? 0;
        counts.set(prefix, n + 1);
        renamed = `${prefix}${n}`;
        names.set(name[0], renamed);
      }
      out += renamed;
      i += name[0].length;
      continue;
    }
    out += c;
    i++;
  }
  return out;
}

/** `code` two spaces deeper (empty lines stay empty): printed code placed inside a function. */
export function indent(code: string): string {
  return code
    .split("\n")
    .map((line) => (line === "" ? line : `  ${line}`))
    .join("\n");
}

/**
 * One top-level statement per line (ajv prints each dialect's code on one line). Only outside
 * string literals, where a schema's text could hold the same characters; ajv prints every string
 * double-quoted.
 */
function breakStatements(code: string): string {
  let out = "";
  let quoted = false;
  for (let i = 0; i < code.length; i++) {
    const c = code[i]!;
    out += c;
    if (quoted) {
      if (c === "\\") out += code[++i] ?? "";
      else if (c === '"') quoted = false;
    } else if (c === '"') quoted = true;
    else if (c === ";" && /^(const |function |exports\.)/.test(code.slice(i + 1, i + 10))) out += "\n";
  }
  return out;
}
