/**
 * The config's field table: every key of mcpgen.config.json (or .yaml, or package.json#mcpgen),
 * its type, its allowed values and what it is for. The loader checks a config with it, through the
 * same checker as manifests (validate/shape.ts), and schema/config.schema.json is written from it.
 */
import type { FieldSpec } from "../generator/validate/fields.js";

const PATH = "a path (a non-empty string)";
const path = (doc: string): FieldSpec => ({ kind: "string", nonEmpty: true, expected: PATH, doc });

export const configFields: Record<string, FieldSpec> = {
  manifests: {
    kind: "anyOf",
    of: [
      { kind: "string", nonEmpty: true },
      { kind: "list", nonEmpty: true, item: { kind: "string", nonEmpty: true, expected: PATH } },
    ],
    expected: "a path or a non-empty list of paths (files or folders)",
    doc: "Manifest files or folders, relative to the config file (default: manifests).",
  },
  out: path("The output folder, relative to the config file (default: generated)."),
  stubs: path("The folder of your handler stubs, created once and never overwritten (default: none)."),
  templates: path(
    "A folder whose files override the built-in templates by name (`stubs/tool.ts.hbs`, `init/main.ts.hbs`, …). Templates are handlebars compiled with `noEscape` and `strict`; they receive only checked identifiers, string literals made by mcpgen, and relative import paths.",
  ),
  invalidArguments: {
    kind: "string",
    oneOf: ["tool-error", "protocol-error"],
    doc: "The default of the generated server's `invalidArguments` option: what it answers to arguments that do not match a tool's inputSchema, a tool result with isError (`tool-error`, the default) or a JSON-RPC error (`protocol-error`).",
  },
  header: {
    kind: "anyOf",
    of: [{ kind: "string" }, { kind: "stringList" }],
    expected: "a string or a list of strings (comment lines added under the generated header)",
    doc: "Comment lines (`//`) added under the header of every generated file, such as a license line (linters are already turned off by the header).",
  },
  clientOnly: {
    kind: "anyOf",
    of: [{ kind: "boolean" }, { kind: "list", item: { kind: "string", nonEmpty: true } }],
    expected: "true, false, or a list of server names (output folders) to generate a client for and no server",
    doc: "Types, client and fixtures only, no server files: for every server (true), or for the servers named (output folders).",
  },
  runtime: {
    kind: "string",
    oneOf: ["package", "vendor"],
    doc: "Where generated code finds mcpgen's runtime: the `@mcpgen/runtime` package, a dependency of the project in the version of mcpgen (`package`, the default), or a copy of just the runtime files the output imports, under `<out>/_runtime/` (`vendor`: no runtime dependency; a server without tasks or authorization gets none of their files).",
  },
  diagnostics: {
    kind: "json",
    object: true,
    expected:
      'a mapping of warning codes to "off", "warn" or "error" (every manifest), and of manifest files or folders to such mappings (those manifests only)',
    doc: 'Levels of warning codes: a code mapped to "off", "warn" or "error" for every manifest, or a manifest file or folder (relative to the config file) mapped to codes and levels.',
  },
  lint: {
    kind: "json",
    object: true,
    expected: 'a mapping of rule names to "off", "warn" or "error" (see mcpgen lint --help)',
    doc: "Levels of the portability lint rules, as `diagnostics` sets them for every manifest (the older spelling; a rule set in both is an error).",
  },
};
