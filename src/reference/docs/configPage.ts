/**
 * docs/reference/config.md, from the config's field table (config/fields.ts), the table the loader
 * checks a config with, and the warning codes a config can set (common/diagnostics.ts).
 */
import { configFields } from "../../config/fields.js";
import { WARNING_CODES } from "../../common/diagnostics.js";
import type { FieldSpec } from "../../generator/validate/fields.js";
import { block, code, generatedNote, table } from "./markdown.js";

export function configPage(): string {
  const rows = Object.entries(configFields).map(([key, spec]) => [code(key), typeOf(spec), spec.doc ?? ""]);
  const out = [
    generatedNote(["src/config/fields.ts", "src/common/diagnostics.ts"]),
    "# Config reference",
    [
      'mcpgen reads `mcpgen.config.json`, `mcpgen.config.yaml` / `.yml`, or an `"mcpgen"` key in package.json, in the working directory (or the file `--config FILE` names).',
      "Paths are relative to the file. The flags `--manifests`, `--out` and `--stubs` win over it.",
      "The editor schema `schema/config.schema.json` is written from the same table.",
    ].join(" "),
    block('{ "manifests": "manifests", "out": "generated", "stubs": "src/handlers" }', "json"),
    "## Keys",
    table(["key", "value", "what it is"], rows),
    "## Warning levels",
    block(
      [
        "diagnostics:",
        "  pattern-backtracking: error        # every manifest",
        "  manifests/chrome.yaml:             # a pulled manifest: its vendor keys are upstream's",
        "    unknown-field: off",
      ].join("\n"),
      "yaml",
    ),
    [
      "Only warnings have a level: an error code in `diagnostics` (`yaml-syntax: off`) is refused with an `error config` diagnostic.",
      "A code that is a warning in some cases and an error in others (`unknown-field` is an error for a typo of a known field, `keyword-typo` and `required-without-schema` outside pulled manifests) keeps its errors whatever the level, so no config makes an invalid manifest pass.",
      "`error` makes a warning fail the run, writing nothing. The most specific entry wins; a manifest path that does not exist is an error.",
      "`generate`, `validate` and `lint` apply the levels alike; `mcpgen lint --rule CODE=LEVEL` wins over them for one run.",
    ].join(" "),
    `The codes that can be set (an unknown one gets a "did you mean" and this list): ${WARNING_CODES.map((c) => code(c)).join(", ")}. See the [diagnostics reference](diagnostics.md) for what each means.`,
    "## How a config is checked",
    [
      'By the manifests\' own checker, from the table above: an unknown key is an `unknown-field` error at the key, with a "did you mean" (`stub` → `stubs`).',
      "A value of the wrong type or outside the allowed ones is an `invalid-type` or `invalid-value` error at the value (`mcpgen.config.json:4:5: error invalid-type: item must be a path (a non-empty string), not number 3`).",
      "A bad `diagnostics` or `lint` entry, a missing config file and two config files at once are `error config` diagnostics.",
      "`generate --watch` re-reads a config that changes; a config with errors is reported and the previous one kept.",
    ].join(" "),
  ];
  return `${out.join("\n\n")}\n`;
}

function typeOf(spec: FieldSpec): string {
  if ("expected" in spec && spec.expected) return spec.expected;
  if (spec.kind === "string" && spec.oneOf) return spec.oneOf.map((v) => code(JSON.stringify(v))).join(" or ");
  return spec.kind;
}
