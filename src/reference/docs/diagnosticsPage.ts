/**
 * docs/reference/diagnostics.md, from the problem codes (common/diagnostics.ts DIAGNOSTICS,
 * WARNING_CODES) and the lint rules' own words (its LINT_RULES).
 */
import { DIAGNOSTIC_CODES, DIAGNOSTICS, WARNING_CODES, type DiagnosticCode } from "../../common/diagnostics.js";
import { LINT_RULES } from "../../common/diagnostics.js";
import { block, code, generatedNote, table } from "./markdown.js";

export function diagnosticsPage(): string {
  const settable = new Set<DiagnosticCode>(WARNING_CODES);
  const meaning = (c: DiagnosticCode) =>
    Object.hasOwn(LINT_RULES, c) ? `${DIAGNOSTICS[c]} Fires when ${LINT_RULES[c as keyof typeof LINT_RULES]}.` : DIAGNOSTICS[c];
  const out = [
    generatedNote(["src/common/diagnostics.ts", "src/commands/lint/rules.ts"]),
    "# Diagnostics reference",
    [
      "Every problem in every manifest is reported at once, as `file:line:col: error CODE: message` (then `; ` and the fix, when the message does not already say it), and when any manifest is invalid nothing is written.",
      "The checks of JSON Schemas, URI templates and placeholders run even when the manifest's shape has errors, so a duplicate name or a typo never hides an invalid schema elsewhere (as tsc and buf report all they find); so do the identifier clashes and the files (`file:`, a widget's `entry`) of the model stage; a duplicate names the line of the other declaration.",
    ].join(" "),
    block(
      [
        'manifests/gift-server.yaml:24:13: error schema-not-object: tools[0].inputSchema: type must be "object" (MCP clients reject other tool input schemas); wrap other values in a property',
        "manifests/gift-server.yaml:31:5: error unknown-field: unknown field `titel` in a tool (did you mean `title`?); allowed: name, title, ...",
      ].join("\n"),
    ),
    [
      "A problem with the command line or the output folder is the same kind of diagnostic, located at the argument as typed or at the folder (`mcpgen: generated/: error write-failed: ...`).",
      "A warning code can be turned off (or made an error) for good, for every manifest or one, with the config's [`diagnostics`](config.md#warning-levels) key, or for one `lint` run with `--rule CODE=off`; `--quiet` hides warnings for one run. Errors cannot be turned off.",
    ].join(" "),
    "## Codes",
    "*Settable*: a warning code the config's `diagnostics` key and `lint --rule` can set to `off`, `warn` or `error` (its errors, where it has some, stay errors).",
    table(
      ["code", "settable", "problem"],
      DIAGNOSTIC_CODES.map((c) => [code(c), settable.has(c) ? "yes" : "", meaning(c)]),
    ),
  ];
  return `${out.join("\n\n")}\n`;
}
