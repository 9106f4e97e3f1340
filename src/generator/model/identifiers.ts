/**
 * The one place where MCP names become TypeScript identifiers. Every generated identifier is
 * built here, and every clash is decided here, once, in the model.
 */

/** Words that cannot be used as a binding or type name, in any mode TypeScript accepts. */
const RESERVED = new Set([
  // ECMAScript reserved words and strict-mode / module reserved words
  "break",
  "case",
  "catch",
  "class",
  "const",
  "continue",
  "debugger",
  "default",
  "delete",
  "do",
  "else",
  "enum",
  "export",
  "extends",
  "false",
  "finally",
  "for",
  "function",
  "if",
  "import",
  "in",
  "instanceof",
  "new",
  "null",
  "return",
  "super",
  "switch",
  "this",
  "throw",
  "true",
  "try",
  "typeof",
  "var",
  "void",
  "while",
  "with",
  "yield",
  "let",
  "static",
  "implements",
  "interface",
  "package",
  "private",
  "protected",
  "public",
  "await",
  "arguments",
  "eval",
  // TypeScript type names that cannot be redeclared
  "any",
  "unknown",
  "never",
  "object",
  "string",
  "number",
  "boolean",
  "symbol",
  "bigint",
  "undefined",
  "type",
  "keyof",
  "infer",
  "is",
  "asserts",
  "readonly",
  "unique",
  "satisfies",
]);

/**
 * Members that a generated client object must not define as its own: Object.prototype members
 * (shadowing them breaks string conversion and `in` checks), `then` (the object would become a
 * thenable and `await` would call it) and the client's built-in methods.
 */
export const RESERVED_CLIENT_MEMBERS = new Set([
  "constructor",
  "toString",
  "toLocaleString",
  "valueOf",
  "hasOwnProperty",
  "isPrototypeOf",
  "propertyIsEnumerable",
  "__proto__",
  "__defineGetter__",
  "__defineSetter__",
  "__lookupGetter__",
  "__lookupSetter__",
  "then",
  "catch",
  "finally",
  "sdk",
  "callTool",
  "readResource",
  "getPrompt",
  "tasks",
  "listTools",
  "listResources",
  "listResourceTemplates",
  "listPrompts",
  "onListChanged",
]);

/** Splits `suggest_gifts`, `suggest-gifts`, `suggestGifts`, `HTTPServer2` into words. */
export function words(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2")
    .split(/[^A-Za-z0-9]+/)
    .filter((w) => w.length > 0);
}

function capitalize(w: string): string {
  return w.charAt(0).toUpperCase() + w.slice(1).toLowerCase();
}

/**
 * `suggest_gifts` -> `SuggestGifts` (types), or `suggestGifts` (methods). Names with no letters
 * or digits become `Unnamed`; a leading digit gets a `_` prefix; a reserved word gets a `$` suffix.
 * Words already in camel case keep their inner capitals lowered only when they are all-caps
 * (`HTTPServer` -> `HttpServer`), so the result is predictable from the name alone.
 */
export function toIdentifier(name: string, style: "pascal" | "camel"): string {
  const parts = words(name);
  let id = parts.map(capitalize).join("");
  if (id === "") id = "Unnamed";
  if (style === "camel") id = id.charAt(0).toLowerCase() + id.slice(1);
  if (/^[0-9]/.test(id)) id = `_${id}`;
  if (RESERVED.has(id)) id = `${id}$`;
  return id;
}

/** Decides identifiers within one namespace and reports which declarations collide. */
export class IdentifierScope {
  private readonly owners = new Map<string, string>();

  constructor(reserved: Iterable<[string, string]> = []) {
    for (const [id, owner] of reserved) this.owners.set(id, owner);
  }

  /**
   * Claims `id` for `owner` (a human description such as `tool "suggest_gifts"`). Returns the
   * previous owner when the identifier is already taken, or undefined when the claim succeeded.
   */
  claim(id: string, owner: string): string | undefined {
    const previous = this.owners.get(id);
    if (previous !== undefined) return previous;
    this.owners.set(id, owner);
    return undefined;
  }
}
