/**
 * JSON Schema -> TypeScript types, written for this project instead of calling
 * json-schema-to-typescript per schema: one pass over the model, no formatter, shared named types
 * for `$ref`s, identifiers from the model, and literal text only through print/literal.ts.
 *
 * Mapping (2020-12 and draft-07): type (and type lists), enum, const, properties/required,
 * additionalProperties, patternProperties, items/prefixItems (tuples), anyOf/oneOf (unions),
 * allOf (intersections), $ref (named types), true/false schemas. Objects get an index signature
 * only when additionalProperties or patternProperties says so, as openapi-typescript does.
 */
import { docComment, jsonLiteralType, typePropertyKey } from "../print/literal.js";
import { matchesPattern } from "../../jsonSchema/patterns.js";
import { classifyRef, type JsonSchema } from "../../jsonSchema/refs.js";
import { isPlainObject } from "../../common/objects.js";

export interface TypeContext {
  /** Type name for a `$ref` in this schema, or undefined when unresolvable (validation prevents it). */
  resolveRef(ref: string): string | undefined;
}

type Schema = { [key: string]: unknown };

const COMPOSITION = ["anyOf", "oneOf", "allOf"];

/** True when the schema is best declared as an `interface` (a plain object shape). */
export function isInterfaceLike(schema: JsonSchema): boolean {
  if (typeof schema !== "object") return false;
  if (schema.type !== undefined && schema.type !== "object") return false;
  if (schema.$ref !== undefined || schema.enum !== undefined || schema.const !== undefined) return false;
  if (COMPOSITION.some((k) => schema[k] !== undefined)) return false;
  return schema.type === "object" || schema.properties !== undefined;
}

/** The members of an object schema, one per line, for an interface body or a type literal. */
export function objectMembers(schema: Schema, ctx: TypeContext, indent: string): string {
  const required = new Set(Array.isArray(schema.required) ? schema.required.filter((r): r is string => typeof r === "string") : []);
  const properties = isPlainObject(schema.properties) ? schema.properties : {};
  let out = "";
  const propertyTypes: string[] = [];
  for (const [name, sub] of Object.entries(properties)) {
    const type = typeOf(sub as JsonSchema, ctx, indent);
    propertyTypes.push(type);
    out += docComment(schemaDoc(sub), indent);
    out += `${indent}${typePropertyKey(name)}${required.has(name) ? "" : "?"}: ${type};\n`;
  }
  // Required but not declared: the value must be there, typed by what admits it (as the
  // validator does), so a client cannot compile a call the server would refuse.
  for (const name of required) {
    if (Object.hasOwn(properties, name)) continue;
    const type = undeclaredType(schema, name, ctx, indent);
    propertyTypes.push(type);
    out += `${indent}${typePropertyKey(name)}: ${type};\n`;
  }
  const extra: string[] = [];
  if (schema.additionalProperties === true) extra.push("unknown");
  else if (isPlainObject(schema.additionalProperties)) extra.push(typeOf(schema.additionalProperties as JsonSchema, ctx, indent));
  if (isPlainObject(schema.patternProperties)) {
    for (const sub of Object.values(schema.patternProperties)) extra.push(typeOf(sub as JsonSchema, ctx, indent));
  }
  if (Object.keys(properties).length === 0 && extra.length === 0) {
    // No declared properties: open (`{ [key: string]: unknown }`) or closed (`never` values, since
    // a bare `{}` would accept any non-null value).
    extra.push(schema.additionalProperties === false ? "never" : "unknown");
  }
  if (extra.length > 0) {
    // An index signature must admit every declared property's type too.
    const anyOptional = Object.keys(properties).some((name) => !required.has(name));
    const all = extra.includes("unknown") ? ["unknown"] : unique([...extra, ...propertyTypes, ...(anyOptional ? ["undefined"] : [])]);
    out += `${indent}[key: string]: ${union(all)};\n`;
  }
  return out;
}

/** The type of an undeclared property `name`: its patternProperties, else additionalProperties. */
function undeclaredType(schema: Schema, name: string, ctx: TypeContext, indent: string): string {
  if (isPlainObject(schema.patternProperties)) {
    const matching = Object.entries(schema.patternProperties).filter(([pattern]) => matchesPattern(pattern, name));
    // Several patterns all apply (an intersection); one keeps it simple.
    if (matching.length === 1) return typeOf(matching[0]![1] as JsonSchema, ctx, indent);
    if (matching.length > 1) return "unknown";
  }
  const extra = schema.additionalProperties;
  if (extra === false) return "never";
  if (isPlainObject(extra)) return typeOf(extra as JsonSchema, ctx, indent);
  return "unknown";
}

/** A type expression for `schema`; nested object literals are indented from `indent`. */
export function typeOf(schema: JsonSchema, ctx: TypeContext, indent = ""): string {
  if (schema === true) return "unknown";
  if (schema === false) return "never";
  if (!isPlainObject(schema)) return "unknown";

  if (typeof schema.$ref === "string") {
    const name = ctx.resolveRef(schema.$ref);
    const base = name ?? "unknown";
    // Siblings of $ref (2020-12) narrow it further; keep the common case simple.
    const rest = withoutKeys(schema, ["$ref", "description", "title", "default", "examples", "deprecated", "$comment"]);
    // `type: object` next to a $ref to an object adds nothing a reader would want to see.
    if (Object.keys(rest).length === 1 && rest.type === "object") return base;
    return Object.keys(rest).length > 0 ? intersection([base, typeOf(rest, ctx, indent)]) : base;
  }
  if (schema.const !== undefined) return jsonLiteralType(schema.const);
  if (Array.isArray(schema.enum)) return union(unique(schema.enum.map(jsonLiteralType)));

  const variants = foldRequiredBranches(schema);
  // Past a few dozen variants (groups of branches multiply), the looser unfolded type reads better.
  if (variants && variants.length <= MAX_VARIANTS) return union(unique(variants.map((v) => typeOf(v as JsonSchema, ctx, indent))));

  const parts: string[] = [];
  const hasOwnShape =
    schema.type !== undefined ||
    schema.properties !== undefined ||
    schema.items !== undefined ||
    schema.prefixItems !== undefined ||
    schema.additionalProperties !== undefined;
  if (hasOwnShape) parts.push(shapeOf(schema, ctx, indent));
  for (const key of ["anyOf", "oneOf"]) {
    const list = schema[key];
    if (Array.isArray(list) && list.length > 0) parts.push(paren(union(unique(list.map((s) => typeOf(s as JsonSchema, ctx, indent))))));
  }
  if (Array.isArray(schema.allOf) && schema.allOf.length > 0) {
    for (const s of schema.allOf) parts.push(paren(typeOf(s as JsonSchema, ctx, indent)));
  }
  if (parts.length === 0) return "unknown";
  if (parts.length === 1) return unwrap(parts[0]!);
  return intersection(parts);
}

/** At most this many object variants from folding required-only branches. */
const MAX_VARIANTS = 32;

/** Keys a branch may have and still only say which properties are required. */
const REQUIRED_ONLY = new Set(["required", "title", "description", "$comment"]);

/**
 * `anyOf: [{required: [phone]}, {required: [email]}]` (or `allOf`, `oneOf`) next to an object's
 * own properties only makes some of them required: folded into the object, one variant per
 * branch, so the type requires what the validator requires ({phone: string; email?: string} |
 * {phone?: string; email: string}). Undefined when there is nothing to fold.
 */
function foldRequiredBranches(schema: Schema): Schema[] | undefined {
  if (schema.type !== "object" && schema.properties === undefined) return undefined;
  const requiredOnly = (branch: unknown) => isPlainObject(branch) && Array.isArray(branch.required) && Object.keys(branch).every((k) => REQUIRED_ONLY.has(k));
  const names = (branch: unknown) => ((branch as Schema).required as unknown[]).filter((r): r is string => typeof r === "string");
  const own = Array.isArray(schema.required) ? schema.required.filter((r): r is string => typeof r === "string") : [];
  // allOf: [{anyOf: [{required: [a]}, {required: [b]}]}] is the parent's own anyOf.
  const liftable = (branch: unknown) =>
    isPlainObject(branch) &&
    Object.keys(branch).length === 1 &&
    ["anyOf", "oneOf"].some(
      (k) => Array.isArray(branch[k]) && (branch[k] as unknown[]).length > 0 && (branch[k] as unknown[]).every(requiredOnly) && schema[k] === undefined,
    );
  if (Array.isArray(schema.allOf)) {
    const lift = schema.allOf.find(liftable) as Schema | undefined;
    if (lift) {
      const rest = schema.allOf.filter((b) => b !== lift);
      return foldRequiredBranches({ ...withoutKeys(schema, ["allOf"]), ...lift, ...(rest.length ? { allOf: rest } : {}) });
    }
  }
  if (Array.isArray(schema.allOf) && schema.allOf.some(requiredOnly)) {
    const rest = schema.allOf.filter((b) => !requiredOnly(b));
    const folded: Schema = {
      ...withoutKeys(schema, ["allOf"]),
      required: [...new Set([...own, ...schema.allOf.filter(requiredOnly).flatMap(names)])],
      ...(rest.length ? { allOf: rest } : {}),
    };
    return foldRequiredBranches(folded) ?? [folded];
  }
  for (const key of ["anyOf", "oneOf"]) {
    const list = schema[key];
    if (!Array.isArray(list) || list.length === 0 || !list.every(requiredOnly)) continue;
    const base = withoutKeys(schema, [key]);
    return list.flatMap((branch) => {
      const variant: Schema = { ...base, required: [...new Set([...own, ...names(branch)])] };
      return foldRequiredBranches(variant) ?? [variant];
    });
  }
  return undefined;
}

function shapeOf(schema: Schema, ctx: TypeContext, indent: string): string {
  const declared = Array.isArray(schema.type) ? schema.type : schema.type === undefined ? [inferType(schema)] : [schema.type];
  const types = declared.map((t) => {
    switch (t) {
      case "string":
        return "string";
      case "number":
      case "integer":
        return "number";
      case "boolean":
        return "boolean";
      case "null":
        return "null";
      case "array":
        return arrayOf(schema, ctx, indent);
      case "object":
        return `{\n${objectMembers(schema, ctx, indent + "  ")}${indent}}`;
      default:
        return "unknown";
    }
  });
  return union(unique(types));
}

function inferType(schema: Schema): string {
  if (schema.properties !== undefined || schema.additionalProperties !== undefined) return "object";
  if (schema.items !== undefined || schema.prefixItems !== undefined) return "array";
  return "unknown";
}

function arrayOf(schema: Schema, ctx: TypeContext, indent: string): string {
  const tuple = Array.isArray(schema.prefixItems) ? schema.prefixItems : Array.isArray(schema.items) ? schema.items : undefined;
  if (tuple) {
    const rest = Array.isArray(schema.items) ? schema.additionalItems : schema.items;
    const minItems = typeof schema.minItems === "number" ? schema.minItems : 0;
    const elements = tuple.map((s, i) => `${typeOf(s as JsonSchema, ctx, indent)}${i >= minItems ? "?" : ""}`);
    if (rest !== false && rest !== undefined) elements.push(`...${paren(typeOf(rest as JsonSchema, ctx, indent))}[]`);
    else if (rest === undefined) elements.push("...unknown[]");
    return `[${elements.join(", ")}]`;
  }
  if (schema.items === undefined) return "unknown[]";
  return `${paren(typeOf(schema.items as JsonSchema, ctx, indent))}[]`;
}

/** Lines for a JSDoc comment from title, description, default and deprecated. */
export function schemaDoc(schema: unknown): string[] {
  if (!isPlainObject(schema)) return [];
  const lines: string[] = [];
  if (typeof schema.title === "string") lines.push(schema.title);
  if (typeof schema.description === "string") lines.push(schema.description);
  if (schema.default !== undefined) lines.push(`@default ${JSON.stringify(schema.default)}`);
  if (schema.deprecated === true) lines.push("@deprecated");
  return lines;
}

/** Resolves `#/defs/X` to a def's type, and local `$defs`/`definitions`/`#` to the schema's own. */
export function refResolver(
  defTypeNames: ReadonlyMap<string, string>,
  local?: { rootTypeName: string; localTypeNames: ReadonlyMap<string, string> },
): TypeContext {
  return {
    resolveRef(ref) {
      const target = classifyRef(ref);
      if (target.kind === "def") return defTypeNames.get(target.name);
      if (target.kind === "local") return local?.localTypeNames.get(`${target.container}/${target.name}`);
      if (target.kind === "root") return local?.rootTypeName;
      return undefined;
    },
  };
}

function withoutKeys(schema: Schema, keys: string[]): Schema {
  const out: Schema = {};
  for (const [k, v] of Object.entries(schema)) if (!keys.includes(k)) Object.defineProperty(out, k, { value: v, enumerable: true });
  return out;
}

function unique(list: string[]): string[] {
  return [...new Set(list)];
}

function union(types: string[]): string {
  if (types.length === 0) return "never";
  if (types.includes("unknown")) return "unknown";
  return types.length === 1 ? types[0]! : types.map(paren).join(" | ");
}

function intersection(types: string[]): string {
  return types.length === 1 ? types[0]! : types.map(paren).join(" & ");
}

/** Parenthesizes unions and intersections and function types where precedence needs it. */
function paren(type: string): string {
  return /^[\w$.]+$|^"|^\{|^\[|^\(|\[\]$/.test(type) && !topLevelOperator(type) ? type : `(${type})`;
}

/** `(A | B)` -> `A | B` when the parentheses wrap the whole expression. */
function unwrap(type: string): string {
  if (!type.startsWith("(") || !type.endsWith(")")) return type;
  const inner = type.slice(1, -1);
  // Only when the inner text is balanced on its own (ignoring strings and comments).
  return balanced(inner) ? inner : type;
}

function balanced(type: string): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < type.length; i++) {
    const c = type[i]!;
    if (inString) {
      if (c === "\\") i++;
      else if (c === '"') inString = false;
      continue;
    }
    if (c === "/" && type[i + 1] === "*") {
      const end = type.indexOf("*/", i + 2);
      i = end === -1 ? type.length : end + 1;
      continue;
    }
    if (c === '"') inString = true;
    else if (c === "(" || c === "{" || c === "[") depth++;
    else if (c === ")" || c === "}" || c === "]") {
      depth--;
      if (depth < 0) return false;
    }
  }
  return depth === 0;
}

function topLevelOperator(type: string): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < type.length; i++) {
    const c = type[i]!;
    // Doc comments inside object types can hold any bracket or quote: skip them whole.
    if (!inString && c === "/" && type[i + 1] === "*") {
      const end = type.indexOf("*/", i + 2);
      i = end === -1 ? type.length : end + 1;
      continue;
    }
    if (inString) {
      if (c === "\\") i++;
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') inString = true;
    else if (c === "{" || c === "[" || c === "(" || c === "<") depth++;
    else if (c === "}" || c === "]" || c === ")" || c === ">") depth--;
    else if (depth === 0 && (c === "|" || c === "&")) return true;
  }
  return false;
}
