/**
 * The only paths from manifest text into generated code. Every string, key and JSON value that
 * came from a manifest goes through one of these functions: nothing is ever concatenated raw.
 */

/**
 * A TypeScript string literal for any string: JSON escaping plus U+2028/U+2029 (line terminators
 * in older JavaScript parsers and in some tools), and `</`, `<!--` and `<script` (harmless in .ts,
 * but keeps generated text safe to inline in an HTML `<script>`, whose parser ends the element at
 * `</script` and, after `<!--<script`, no longer at the next `</script>`). Lone surrogates come out
 * as `\uXXXX` escapes via JSON.stringify.
 */
export function stringLiteral(value: string): string {
  return safeJson(JSON.stringify(value));
}

/**
 * JSON text made safe to paste into TypeScript source: U+2028/U+2029, `</`, `<!--` and `<script`
 * escaped. JSON already escapes quotes, backslashes and control characters inside its strings.
 */
export function safeJson(json: string): string {
  return json.replace(UNSAFE_IN_SOURCE, (found) => SOURCE_ESCAPES[found] ?? `\\u003c${found.slice(1)}`);
}

/** What ends or bends an HTML script element (`</`, `<!--`, `<script` in any case), and JavaScript's odd line terminators. */
const UNSAFE_IN_SOURCE = /[\u2028\u2029]|<\/|<!--|<script/gi;
const SOURCE_ESCAPES: Readonly<Record<string, string>> = { "\u2028": "\\u2028", "\u2029": "\\u2029", "</": "<\\/" };

/**
 * JSON text as a `String.raw` template literal, for `JSON.parse(...)` in generated code: the text
 * stays as it is, unescaped, so it is cheap to write and to read. A template could only be left
 * through a backtick or `${`; JSON has neither outside its strings, and inside them both become
 * JSON escapes (`\u0060`, `$\u007b`), as do U+2028/U+2029, the `/` of `</` and the `<` of `<!--`
 * and `<script`, which JSON.parse reads back unchanged. JSON text never ends with a backslash,
 * which would escape the closing backtick, nor holds a raw carriage return, which a template
 * would turn into a line feed.
 */
export function jsonTemplate(json: string): string {
  return `String.raw\`${json.replace(UNSAFE_IN_TEMPLATE, (found) => TEMPLATE_ESCAPES[found] ?? `\\u003c${found.slice(1)}`)}\``;
}

const UNSAFE_IN_TEMPLATE = /`|\$\{|[\u2028\u2029]|<\/|<!--|<script/gi;
const TEMPLATE_ESCAPES: Readonly<Record<string, string>> = { "`": "\\u0060", "${": "$\\u007b", "\u2028": "\\u2028", "\u2029": "\\u2029", "</": "<\\/" };

const IDENTIFIER_NAME = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** True when `name` can be written bare as a property name (`{ name: 1 }`, `x.name`). */
function isIdentifierName(name: string): boolean {
  return IDENTIFIER_NAME.test(name);
}

/**
 * A property key for an object literal. `__proto__` is written computed (`["__proto__"]`), because
 * a plain `__proto__: value` in an object literal sets the prototype instead of defining a key.
 */
export function propertyKey(name: string): string {
  if (name === "__proto__") return `[${stringLiteral(name)}]`;
  return isIdentifierName(name) ? name : stringLiteral(name);
}

/** A property key in a type (interface or type literal): quoted unless it is an identifier. */
export function typePropertyKey(name: string): string {
  return isIdentifierName(name) ? name : stringLiteral(name);
}

/** A TypeScript literal type for a JSON value (`"a"`, `1`, `{ "k": true }`). */
export function jsonLiteralType(value: unknown): string {
  if (value === null) return "null";
  if (typeof value === "string") return stringLiteral(value);
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  if (Array.isArray(value)) return `readonly [${value.map(jsonLiteralType).join(", ")}]`;
  if (typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>);
    return `{ ${entries.map(([k, v]) => `${typePropertyKey(k)}: ${jsonLiteralType(v)}`).join("; ")} }`;
  }
  return "unknown";
}

/**
 * Text for a JSDoc block. `*\/` would close the comment early, so it is broken up; every line
 * terminator (including U+2028/U+2029) starts a new ` * ` line.
 */
export function docComment(lines: readonly string[], indent = ""): string {
  const text = lines
    .filter((l) => l.length > 0)
    .join("\n\n")
    .replace(/\*\//g, "*\\/")
    .replace(/\r\n?|[\u2028\u2029]/g, "\n")
    // NUL and other C0 controls are legal in comments but confuse editors and diff tools.
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
  if (text === "") return "";
  const body = text.split("\n");
  if (body.length === 1) return `${indent}/** ${body[0]} */\n`;
  return `${indent}/**\n${body.map((l) => (l === "" ? `${indent} *` : `${indent} * ${l}`)).join("\n")}\n${indent} */\n`;
}

/** Stable JSON text for fixtures: two-space indent, trailing newline. */
export function jsonFile(value: unknown): string {
  return JSON.stringify(value, null, 2) + "\n";
}
