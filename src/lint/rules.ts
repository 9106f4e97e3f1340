/**
 * Portability lint: definitions that are valid MCP but break in widely used clients or model APIs.
 * Each rule looks at one tool (its name, its inputSchema as written in the manifest) and reports
 * where to fix it. Only inputSchema is checked: it is what clients hand to the model as the tool's
 * parameters; outputSchema stays between the server and the client.
 */
import type { DocPath } from "../diagnostics.js";
import { isPlainObject } from "../validate/shape.js";

export const LINT_RULES = {
  "tool-name-length": "the tool name with a `mcp__<server>__` prefix (as Claude Code and other clients build it) is over 64 characters, the limit of OpenAI and Anthropic function names",
  "tool-name-characters": "the tool name has characters besides letters, digits, `_` and `-` (MCP allows `.`; OpenAI and Anthropic function names do not)",
  "input-top-level-composition": "inputSchema has `anyOf`, `oneOf`, `allOf` or `not` at its root, which the Anthropic API refuses and OpenAI's strict mode does not support",
  "schema-refs": "inputSchema uses `$ref`/`$defs`/`definitions`, which some model APIs (Gemini function declarations, several OpenAI-compatible gateways) refuse or ignore",
  "type-arrays": "a `type` is a list (`[string, \"null\"]`), which some model APIs (Gemini function declarations) refuse; `anyOf` is understood more widely",
} as const;

export type LintRule = keyof typeof LINT_RULES;
export type LintLevel = "off" | "warn" | "error";
export const RULE_NAMES = Object.keys(LINT_RULES) as LintRule[];

/** The usual budget for a model-facing tool name. */
const NAME_LIMIT = 64;

export interface LintFinding {
  rule: LintRule;
  /** Where in the manifest. */
  path: DocPath;
  message: string;
}

/** The findings for one tool, `tools[index]` of a manifest whose output folder is `server`. */
export function lintTool(tool: Record<string, unknown>, index: number, server: string): LintFinding[] {
  const out: LintFinding[] = [];
  const name = String(tool.name);
  const at: DocPath = ["tools", index];
  const prefixed = `mcp__${server}__${name}`;
  if (prefixed.length > NAME_LIMIT) {
    const room = NAME_LIMIT - `mcp__${server}__`.length;
    out.push({
      rule: "tool-name-length",
      path: [...at, "name"],
      message: `\`${prefixed}\` is ${prefixed.length} characters; clients that prefix tool names with mcp__<server>__ pass it to models capped at ${NAME_LIMIT}: keep ${JSON.stringify(name)} to ${Math.max(room, 1)} characters${room < 1 ? " (and the server name shorter)" : ""}`,
    });
  }
  if (!/^[A-Za-z0-9_-]+$/.test(name)) {
    const bad = [...new Set(name.replace(/[A-Za-z0-9_-]/g, ""))].map((c) => JSON.stringify(c)).join(", ");
    out.push({ rule: "tool-name-characters", path: [...at, "name"], message: `${JSON.stringify(name)} has ${bad}: model APIs accept only letters, digits, _ and - in function names (use _ or -)` });
  }
  const input = tool.inputSchema;
  if (isPlainObject(input)) {
    const schemaAt: DocPath = [...at, "inputSchema"];
    for (const key of ["anyOf", "oneOf", "allOf", "not"]) {
      if (Object.hasOwn(input, key)) {
        out.push({
          rule: "input-top-level-composition",
          path: [...schemaAt, key],
          message: `\`${key}\` at the root of inputSchema is refused by the Anthropic API and unsupported by OpenAI's strict mode: make the root one object (optional properties, or one tool per variant)`,
        });
      }
    }
    walk(input, schemaAt, out);
  }
  return out;
}

/** `$ref`s and type lists anywhere under inputSchema (keyword by keyword, not into `enum`/`const` values). */
function walk(schema: Record<string, unknown>, at: DocPath, out: LintFinding[]): void {
  for (const [key, value] of Object.entries(schema)) {
    const here: DocPath = [...at, key];
    if (key === "$ref" && typeof value === "string") {
      out.push({ rule: "schema-refs", path: here, message: `\`$ref: ${value}\`: inline the definition where the model sees this schema (shared \`defs:\` of a manifest are sent as \`$defs\` and \`$ref\`)` });
    } else if ((key === "$defs" || key === "definitions") && isPlainObject(value)) {
      out.push({ rule: "schema-refs", path: here, message: `\`${key}\` in inputSchema: some model APIs refuse it; inline the definitions` });
      for (const [name, sub] of Object.entries(value)) if (isPlainObject(sub)) walk(sub, [...here, name], out);
    } else if (key === "type" && Array.isArray(value)) {
      const alternatives = value.map((t) => `{type: ${JSON.stringify(t)}}`).join(", ");
      out.push({ rule: "type-arrays", path: here, message: `\`type: ${JSON.stringify(value)}\`: write \`anyOf: [${alternatives}]\` instead` });
    } else if (key === "enum" || key === "const" || key === "examples" || key === "default") {
      continue;
    } else if (key === "properties" || key === "patternProperties" || key === "dependentSchemas") {
      if (isPlainObject(value)) for (const [name, sub] of Object.entries(value)) if (isPlainObject(sub)) walk(sub, [...here, name], out);
    } else if (Array.isArray(value)) {
      value.forEach((sub, i) => isPlainObject(sub) && walk(sub, [...here, i], out));
    } else if (isPlainObject(value)) walk(value, here, out);
  }
}
