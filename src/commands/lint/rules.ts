/**
 * Portability lint: definitions that are valid MCP but break in widely used clients or model APIs.
 * Each rule looks at one tool (its name, its inputSchema as written in the manifest) and reports
 * where to fix it. Only inputSchema is checked: it is what clients hand to the model as the tool's
 * parameters; outputSchema stays between the server and the client.
 */
import type { DocPath, LintRule } from "../../common/diagnostics.js";
import { isPlainObject } from "../../common/objects.js";
import { SUBSCHEMAS } from "../../jsonSchema/keywords.js";

/** The usual budget for a model-facing tool name. */
const NAME_LIMIT = 64;

export interface LintFinding {
  rule: LintRule;
  /** Where in the manifest. */
  path: DocPath;
  message: string;
}

/**
 * The findings for one tool, `tools[index]` of a manifest whose output folder is `server`.
 * `pulled`: the manifest mirrors a server someone else owns (written by `mcpgen pull`), so the
 * advice is for its consumer (what the upstream server does, what can be done about it here)
 * rather than "rename your tool".
 */
export function lintTool(tool: Record<string, unknown>, index: number, server: string, pulled = false): LintFinding[] {
  const out: LintFinding[] = [];
  const name = String(tool.name);
  const at: DocPath = ["tools", index];
  const prefixed = `mcp__${server}__${name}`;
  if (prefixed.length > NAME_LIMIT) {
    const room = NAME_LIMIT - `mcp__${server}__`.length;
    // Room for the server's name in the client's config: mcp__ + it + __ + the tool's name.
    const clientRoom = NAME_LIMIT - "mcp____".length - name.length;
    const upstream =
      clientRoom >= 1
        ? `the upstream server names this tool: register the server in your client under a name of ${clientRoom} character${clientRoom === 1 ? "" : "s"} or fewer (the prefix uses that name, \`claude mcp add <name> ...\`), or report it upstream`
        : `the upstream server names this tool, too long for any server name: report it upstream`;
    out.push({
      rule: "tool-name-length",
      path: [...at, "name"],
      message: `\`${prefixed}\` is ${prefixed.length} characters; clients that prefix tool names with mcp__<server>__ pass it to models capped at ${NAME_LIMIT}: ${pulled ? upstream : `keep ${JSON.stringify(name)} to ${Math.max(room, 1)} characters${room < 1 ? " (and the server name shorter)" : ""}`}`,
    });
  }
  // A character MCP itself advises against (a space) is validate's invalid-name warning already: one
  // finding per slip. This rule adds what MCP allows and model APIs refuse (`.`).
  if (!/^[A-Za-z0-9_-]+$/.test(name) && /^[A-Za-z0-9_.-]{1,128}$/.test(name)) {
    const bad = [...new Set(name.replace(/[A-Za-z0-9_-]/g, ""))].map((c) => JSON.stringify(c)).join(", ");
    const fix = pulled
      ? "; the upstream server names this tool: report it there (the typed client calls it by its name either way; a client that hands it to a model may rename or drop it)"
      : " (use _ or -)";
    out.push({
      rule: "tool-name-characters",
      path: [...at, "name"],
      message: `${JSON.stringify(name)} has ${bad}: model APIs accept only letters, digits, _ and - in function names${fix}`,
    });
  }
  const input = tool.inputSchema;
  if (isPlainObject(input)) {
    const schemaAt: DocPath = [...at, "inputSchema"];
    for (const key of ["anyOf", "oneOf", "allOf", "not"]) {
      if (Object.hasOwn(input, key)) {
        const fix = pulled
          ? "the upstream server sends it so: report it there (the typed client is not affected; a client that hands the tool to such a model is)"
          : "make the root one object (optional properties, or one tool per variant)";
        out.push({
          rule: "input-top-level-composition",
          path: [...schemaAt, key],
          message: `\`${key}\` at the root of inputSchema is refused by the Anthropic API and unsupported by OpenAI's strict mode: ${fix}`,
        });
      }
    }
    walk(input, schemaAt, out, pulled);
  }
  return out;
}

/** What a consumer can do about a schema finding: the upstream server sends it. */
const UPSTREAM_SCHEMA =
  "the upstream server sends it so: report it there (the typed client is not affected; a client that passes the schema to such a model API is)";

/** `$ref`s and type lists anywhere under inputSchema (keyword by keyword, not into `enum`/`const` values). */
function walk(schema: Record<string, unknown>, at: DocPath, out: LintFinding[], pulled: boolean): void {
  for (const [key, value] of Object.entries(schema)) {
    const here: DocPath = [...at, key];
    if (key === "$ref" && typeof value === "string") {
      out.push({
        rule: "schema-refs",
        path: here,
        message: `\`$ref: ${value}\`: ${pulled ? `some model APIs refuse \`$ref\`; ${UPSTREAM_SCHEMA}` : "inline the definition where the model sees this schema (shared `defs:` of a manifest are sent as `$defs` and `$ref`)"}`,
      });
    } else if ((key === "$defs" || key === "definitions") && isPlainObject(value)) {
      out.push({
        rule: "schema-refs",
        path: here,
        message: `\`${key}\` in inputSchema: some model APIs refuse it; ${pulled ? UPSTREAM_SCHEMA : "inline the definitions"}`,
      });
      for (const [name, sub] of Object.entries(value)) if (isPlainObject(sub)) walk(sub, [...here, name], out, pulled);
    } else if (key === "type" && Array.isArray(value)) {
      const alternatives = value.map((t) => `{type: ${JSON.stringify(t)}}`).join(", ");
      out.push({
        rule: "type-arrays",
        path: here,
        message: `\`type: ${JSON.stringify(value)}\`: ${pulled ? `some model APIs refuse a list of types; ${UPSTREAM_SCHEMA}` : `write \`anyOf: [${alternatives}]\` instead`}`,
      });
    } else if (key === "enum" || key === "const" || key === "examples" || key === "default") {
      continue;
    } else if (SUBSCHEMAS[key] === "map") {
      if (isPlainObject(value)) for (const [name, sub] of Object.entries(value)) if (isPlainObject(sub)) walk(sub, [...here, name], out, pulled);
    } else if (Array.isArray(value)) {
      value.forEach((sub, i) => isPlainObject(sub) && walk(sub, [...here, i], out, pulled));
    } else if (isPlainObject(value)) walk(value, here, out, pulled);
  }
}
