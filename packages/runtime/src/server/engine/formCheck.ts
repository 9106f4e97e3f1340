/**
 * Elicitation forms checked without compiling code: MCP restricts a `requestedSchema` to a flat
 * object of primitive fields (strings, numbers, booleans, single- and multi-select enums), and a
 * form in that subset is interpreted here, keyword by keyword. Nothing is compiled from a string,
 * so forms are checked where code generation is refused (Cloudflare Workers, a page whose Content
 * Security Policy has no 'unsafe-eval'), and a form costs no compilation however many a server asks.
 *
 * The verdict and the errors are ajv's (forms.ts compiled every form with it before): the same
 * keywords in ajv's order (a schema's untyped keywords, then those of its type, the type error
 * where ajv puts it), the same error objects, so describeErrors words them alike; patterns run
 * on the same linear-time engine, after the length keywords hold (patternKeyword.ts).
 * test/server/engine/form-check.test.ts compares both on random forms and answers. A form
 * outside the subset is not interpreted (`compileForm` answers undefined) and goes to ajv.
 */
import { codePointLength } from "../../shared/codePoints.js";
import type { PatternMatcher } from "../../shared/patterns.js";
import type { ErrorObject } from "../../shared/validation.js";

/** A form's check, called as ajv's validate functions are (runValidator): the verdict, and `errors` when it fails. */
export interface FormCheck {
  (value: unknown): boolean;
  errors: ErrorObject[] | null;
}

/** Makes a pattern's matcher (the same engine the manifest's patterns run on); throws when it cannot be checked. */
export type MatcherFor = (source: string) => PatternMatcher;

/** A field of the form, as MCP's PrimitiveSchemaDefinition allows it. */
type Field =
  | { kind: "string"; minLength?: number; maxLength?: number; pattern?: { source: string; matcher: PatternMatcher }; enum?: unknown[]; oneOf?: unknown[] }
  | { kind: "number" | "integer"; minimum?: number; maximum?: number }
  | { kind: "boolean" }
  | { kind: "array"; minItems?: number; maxItems?: number; items: { enum: unknown[] } | { anyOf: unknown[] } };

/** Keywords that only annotate (ajv checks none of them; `format` is not asserted by mcpgen's ajv). */
const ANNOTATIONS = new Set(["title", "description", "default", "enumNames", "format", "$comment", "examples"]);

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const isCount = (v: unknown): v is number => typeof v === "number" && Number.isInteger(v) && v >= 0;

/** Whether `keys` of `schema` are all among `allowed` or annotations. */
function only(schema: Record<string, unknown>, allowed: readonly string[]): boolean {
  return Object.keys(schema).every((k) => allowed.includes(k) || ANNOTATIONS.has(k));
}

/** `[{const, title?}, ...]`, as titled enums list their options. */
function constOptions(list: unknown): list is { const: unknown }[] {
  return Array.isArray(list) && list.length > 0 && list.every((o) => isObject(o) && "const" in o && only(o, ["const"]));
}

/** The field a property schema is, or undefined when it is outside the subset. */
function fieldOf(schema: unknown, matcherFor: MatcherFor): Field | undefined {
  if (!isObject(schema)) return undefined;
  switch (schema["type"]) {
    case "string": {
      if (!only(schema, ["type", "minLength", "maxLength", "pattern", "enum", "oneOf"])) return undefined;
      const { minLength, maxLength, pattern } = schema;
      if ((minLength !== undefined && !isCount(minLength)) || (maxLength !== undefined && !isCount(maxLength))) return undefined;
      if (pattern !== undefined && typeof pattern !== "string") return undefined;
      if (schema["enum"] !== undefined && !(Array.isArray(schema["enum"]) && schema["enum"].length > 0)) return undefined;
      if (schema["oneOf"] !== undefined && !constOptions(schema["oneOf"])) return undefined;
      return {
        kind: "string",
        ...(minLength === undefined ? {} : { minLength }),
        ...(maxLength === undefined ? {} : { maxLength }),
        ...(pattern === undefined ? {} : { pattern: { source: pattern, matcher: matcherFor(pattern) } }),
        ...(schema["enum"] === undefined ? {} : { enum: schema["enum"] }),
        ...(schema["oneOf"] === undefined ? {} : { oneOf: schema["oneOf"] }),
      };
    }
    case "number":
    case "integer": {
      if (!only(schema, ["type", "minimum", "maximum"])) return undefined;
      const { minimum, maximum } = schema;
      if ((minimum !== undefined && typeof minimum !== "number") || (maximum !== undefined && typeof maximum !== "number")) return undefined;
      return { kind: schema["type"], ...(minimum === undefined ? {} : { minimum }), ...(maximum === undefined ? {} : { maximum }) };
    }
    case "boolean":
      return only(schema, ["type"]) ? { kind: "boolean" } : undefined;
    case "array": {
      if (!only(schema, ["type", "minItems", "maxItems", "items"])) return undefined;
      const { minItems, maxItems, items } = schema;
      if ((minItems !== undefined && !isCount(minItems)) || (maxItems !== undefined && !isCount(maxItems)) || !isObject(items)) return undefined;
      let options: Field & { kind: "array" };
      if (items["type"] === "string" && Array.isArray(items["enum"]) && items["enum"].length > 0 && only(items, ["type", "enum"]))
        options = { kind: "array", items: { enum: items["enum"] } };
      else if (constOptions(items["anyOf"]) && only(items, ["anyOf"])) options = { kind: "array", items: { anyOf: items["anyOf"] } };
      else return undefined;
      return { ...options, ...(minItems === undefined ? {} : { minItems }), ...(maxItems === undefined ? {} : { maxItems }) };
    }
    default:
      return undefined;
  }
}

/**
 * The check of `schema` when it is a form in MCP's subset (an object of primitive fields), else
 * undefined. Throws what `matcherFor` throws for a pattern that cannot be checked.
 */
export function compileForm(schema: unknown, matcherFor: MatcherFor): FormCheck | undefined {
  if (!isObject(schema) || schema["type"] !== "object" || !only(schema, ["type", "properties", "required", "$schema"])) return undefined;
  const properties = schema["properties"] ?? {};
  const required = schema["required"] ?? [];
  if (!isObject(properties) || !Array.isArray(required) || !required.every((r) => typeof r === "string")) return undefined;
  const fields: [string, Field][] = [];
  for (const [name, property] of Object.entries(properties)) {
    const field = fieldOf(property, matcherFor);
    if (field === undefined) return undefined;
    fields.push([name, field]);
  }
  const check: FormCheck = Object.assign(
    (value: unknown): boolean => {
      const errors = run(value);
      check.errors = errors.length === 0 ? null : errors;
      return errors.length === 0;
    },
    { errors: null as ErrorObject[] | null },
  );
  const run = (value: unknown): ErrorObject[] => {
    const errors: ErrorObject[] = [];
    if (isObject(value)) {
      for (const name of required as string[])
        if (!Object.hasOwn(value, name)) errors.push(error("", "#/required", "required", { missingProperty: name }, `must have required property '${name}'`));
      for (const [name, field] of fields)
        if (Object.hasOwn(value, name) && value[name] !== undefined)
          checkField(field, value[name], `/${pointer(name)}`, `#/properties/${pointer(name)}`, errors);
    } else errors.push(typeError("", "#/type", "object"));
    return errors;
  };
  return check;
}

function error(instancePath: string, schemaPath: string, keyword: string, params: Record<string, unknown>, message: string): ErrorObject {
  return { instancePath, schemaPath, keyword, params, message };
}

function typeError(at: string, schemaPath: string, type: string): ErrorObject {
  return error(at, schemaPath, "type", { type }, `must be ${type}`);
}

/** A property name in a JSON pointer. */
function pointer(name: string): string {
  return name.replace(/~/g, "~0").replace(/\//g, "~1");
}

/** JSON Schema's equality of two JSON values (ajv's `equal` for enum and const). */
function equal(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) return a.length === (b as unknown[]).length && a.every((v, i) => equal(v, (b as unknown[])[i]));
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  return ka.length === kb.length && ka.every((k) => Object.hasOwn(b, k) && equal((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

const enumError = (at: string, path: string, allowedValues: unknown[]) =>
  error(at, `${path}/enum`, "enum", { allowedValues }, "must be equal to one of the allowed values");

/**
 * The branches of oneOf / anyOf of const options, as ajv reports them: when the keyword fails,
 * each failing branch's const error, then the keyword's own. oneOf keeps ajv's bookkeeping as it
 * is: a second passing branch makes it fail (passingSchemas [first, second]), a third makes it
 * pass again.
 */
function constBranches(keyword: "oneOf" | "anyOf", options: unknown[], value: unknown, at: string, path: string, errors: ErrorObject[]): void {
  const branchErrors: ErrorObject[] = [];
  let valid = false;
  let passing: unknown = null;
  for (let i = 0; i < options.length; i++) {
    const allowedValue = (options[i] as { const: unknown }).const;
    const holds = equal(value, allowedValue);
    if (!holds) branchErrors.push(error(at, `${path}/${keyword}/${i}/const`, "const", { allowedValue }, "must be equal to constant"));
    if (keyword === "anyOf") {
      valid ||= holds;
      // anyOf looks no further once a branch holds.
      if (valid) break;
    } else if (i > 0 && holds && valid) {
      valid = false;
      passing = [passing, i];
    } else if (holds) {
      valid = true;
      passing = i;
    }
  }
  if (valid) return;
  errors.push(...branchErrors);
  if (keyword === "anyOf") errors.push(error(at, `${path}/anyOf`, "anyOf", {}, "must match a schema in anyOf"));
  else errors.push(error(at, `${path}/oneOf`, "oneOf", { passingSchemas: passing }, "must match exactly one schema in oneOf"));
}

function checkField(field: Field, value: unknown, at: string, path: string, errors: ErrorObject[]): void {
  switch (field.kind) {
    case "string": {
      const typed = field.minLength !== undefined || field.maxLength !== undefined || field.pattern !== undefined;
      // ajv checks the type first when the schema has no string keyword, else in their group's else branch (after enum and oneOf).
      if (!typed && typeof value !== "string") errors.push(typeError(at, `${path}/type`, "string"));
      if (field.enum !== undefined && !field.enum.some((v) => equal(v, value))) errors.push(enumError(at, path, field.enum));
      if (field.oneOf !== undefined) constBranches("oneOf", field.oneOf, value, at, path, errors);
      if (!typed) return;
      if (typeof value !== "string") {
        errors.push(typeError(at, `${path}/type`, "string"));
        return;
      }
      const length = codePointLength(value);
      const tooLong = field.maxLength !== undefined && length > field.maxLength;
      const tooShort = field.minLength !== undefined && length < field.minLength;
      if (tooLong)
        errors.push(error(at, `${path}/maxLength`, "maxLength", { limit: field.maxLength }, `must NOT have more than ${field.maxLength} characters`));
      if (tooShort)
        errors.push(error(at, `${path}/minLength`, "minLength", { limit: field.minLength }, `must NOT have fewer than ${field.minLength} characters`));
      // The pattern runs only once the lengths hold (patternKeyword.ts), and never past the matcher's cap.
      if (field.pattern !== undefined && !tooLong && !tooShort) {
        const { source, matcher } = field.pattern;
        const limit = matcher.maxInput;
        if (limit !== undefined && Number.isFinite(limit) && value.length > limit)
          errors.push(
            error(
              at,
              `${path}/pattern`,
              "pattern",
              { pattern: source, limit },
              `must NOT have more than ${limit} characters to be checked against pattern "${source}"`,
            ),
          );
        else if (!matcher.test(value)) errors.push(error(at, `${path}/pattern`, "pattern", { pattern: source }, `must match pattern "${source}"`));
      }
      return;
    }
    case "number":
    case "integer": {
      const bounded = field.minimum !== undefined || field.maximum !== undefined;
      const isNumber = typeof value === "number" && Number.isFinite(value);
      // integer has no group of its own: its type is checked first, then the number keywords on any number.
      if (field.kind === "integer" && !(isNumber && value % 1 === 0)) errors.push(typeError(at, `${path}/type`, "integer"));
      if (field.kind === "number" && !bounded && !isNumber) errors.push(typeError(at, `${path}/type`, "number"));
      if (!bounded) return;
      if (!isNumber) {
        if (field.kind === "number") errors.push(typeError(at, `${path}/type`, "number"));
        return;
      }
      // The limit as ajv's generated code writes it: JSON's number (-0 is 0).
      if (field.maximum !== undefined && !(value <= field.maximum))
        errors.push(error(at, `${path}/maximum`, "maximum", { comparison: "<=", limit: field.maximum || 0 }, `must be <= ${field.maximum}`));
      if (field.minimum !== undefined && !(value >= field.minimum))
        errors.push(error(at, `${path}/minimum`, "minimum", { comparison: ">=", limit: field.minimum || 0 }, `must be >= ${field.minimum}`));
      return;
    }
    case "boolean":
      if (typeof value !== "boolean") errors.push(typeError(at, `${path}/type`, "boolean"));
      return;
    case "array": {
      if (!Array.isArray(value)) {
        errors.push(typeError(at, `${path}/type`, "array"));
        return;
      }
      if (field.maxItems !== undefined && value.length > field.maxItems)
        errors.push(error(at, `${path}/maxItems`, "maxItems", { limit: field.maxItems }, `must NOT have more than ${field.maxItems} items`));
      if (field.minItems !== undefined && value.length < field.minItems)
        errors.push(error(at, `${path}/minItems`, "minItems", { limit: field.minItems }, `must NOT have fewer than ${field.minItems} items`));
      value.forEach((item, i) => {
        const itemAt = `${at}/${i}`;
        if ("enum" in field.items) {
          if (typeof item !== "string") errors.push(typeError(itemAt, `${path}/items/type`, "string"));
          if (!field.items.enum.some((v) => equal(v, item))) errors.push(enumError(itemAt, `${path}/items`, field.items.enum));
        } else constBranches("anyOf", field.items.anyOf, item, itemAt, `${path}/items`, errors);
      });
      return;
    }
  }
}
