/**
 * Keys of JSON Schemas that no validator reads: a key of no dialect (`nullable`, `tsType`), which
 * JSON Schema allows, or a keyword of the other dialect (`prefixItems` in a draft-07 schema). Typos
 * of keywords are validation errors already (`keyword-typo`, validate/schemaKeys.ts); these stay
 * valid, and lint says what they do: nothing. Every schema is read: inputSchema, outputSchema, defs.
 */
import type { DocPath } from "../../common/diagnostics.js";
import { isPlainObject } from "../../common/objects.js";
import { dialectOf, schemaKeyFindings, type KeyFinding } from "../../generator/validate/schemaKeys.js";
import type { LintFinding } from "./rules.js";

/** The findings for every schema of a manifest (`root`: the parsed manifest, fields as written). */
export function lintSchemaKeys(root: Readonly<Record<string, unknown>>, pulled: boolean): LintFinding[] {
  const out: LintFinding[] = [];
  const check = (schema: unknown, at: DocPath) => {
    const dialect = dialectOf(schema);
    for (const finding of schemaKeyFindings(schema, dialect)) {
      if (finding.kind === "typo") continue;
      out.push({ rule: "unknown-keyword", path: [...at, ...finding.path], message: message(finding, dialect, pulled) });
    }
  };
  if (isPlainObject(root.defs)) for (const [name, def] of Object.entries(root.defs)) check(def, ["defs", name]);
  (Array.isArray(root.tools) ? root.tools : []).forEach((tool: unknown, i) => {
    if (!isPlainObject(tool)) return;
    for (const key of ["inputSchema", "outputSchema"]) if (tool[key] !== undefined) check(tool[key], ["tools", i, key]);
  });
  return out;
}

function message(finding: Exclude<KeyFinding, { kind: "typo" }>, dialect: string, pulled: boolean): string {
  const { key } = finding;
  const upstream = "the upstream server sends it so: report it there if it was meant to check something";
  if (finding.kind === "unknown") {
    const fix = pulled ? upstream : `if it is a note of yours, name it \`x-${key}\` (or put it in \`description\`); otherwise remove it`;
    return `\`${key}\` is not a JSON Schema keyword: no validator checks it, and clients get it as it is; ${fix}`;
  }
  const fix = pulled
    ? upstream
    : dialect === "draft-07"
      ? "remove `$schema` to write 2020-12 (MCP's default), or use draft-07's keywords"
      : "use the 2020-12 form (`items` after `prefixItems`), or declare draft-07 with `$schema: http://json-schema.org/draft-07/schema#`";
  const why = dialect === "draft-07" ? "this schema is draft-07 (its `$schema` says so)" : "this schema is 2020-12 (it declares no draft-07 `$schema`)";
  return `\`${key}\` is a ${finding.other} keyword, and ${why}: its validators ignore it; ${fix}`;
}
