/**
 * Emits `validators.ts`: each tool's input and output validator, compiled by ajv here, at
 * generate time, and printed as plain functions (standalone.ts). server.ts hands them to the
 * runtime, so a server compiles no code at run time: Cloudflare Workers and a Node process run with
 * `--disallow-code-generation-from-strings` forbid it, and it no longer costs start time.
 */
import type { ServerModel } from "../model/types.js";
import { stringLiteral } from "../print/literal.js";
import { CodeFile } from "../print/codeFile.js";
import { moduleResolver } from "../model/modules.js";
import { header, LOCAL, type OutputFile } from "./common.js";
import { CODE_POINT_LENGTH, indent, PATTERN_ENGINE, standaloneValidators } from "./standalone.js";

export function emitValidators(model: ServerModel): OutputFile[] {
  if (model.tools.length === 0) return [];
  // ajv's standalone code is plain JavaScript: the file is not type-checked (the pragma must lead it).
  const file = new CodeFile(
    "validators.ts",
    `${header(model)}// @ts-nocheck: ajv's standalone validators, compiled by mcpgen at generate time (no code is compiled at run time).\n`,
    moduleResolver("validators.ts", model.options.runtime ?? "package"),
  );
  const schemas = new Map<string, object>();
  model.tools.forEach((tool, i) => {
    schemas.set(`${i}:in`, tool.wire["inputSchema"] as object);
    const output = tool.wire["outputSchema"];
    if (output !== undefined) schemas.set(`${i}:out`, output as object);
  });
  const printed = standaloneValidators(schemas, model.patterns, `server ${model.name}`);
  // The printed code calls these names: the import of the counter takes another one.
  file.declare(CODE_POINT_LENGTH, PATTERN_ENGINE);
  const length = file.importValue(LOCAL.runtimeShared, "codePointLength");
  const made = file.importType(LOCAL.runtimeServer, "PrintedValidators");
  const rows = model.tools.map((tool, i) => {
    const output = printed.names.get(`${i}:out`);
    return `    [${stringLiteral(tool.name)}, [exports.${printed.names.get(`${i}:in`)!}${output === undefined ? "" : `, exports.${output}`}]],\n`;
  });
  const body = [
    `  const ${CODE_POINT_LENGTH} = ${length};`,
    ...printed.helpers.map((helper) => indent(helper)),
    "  const exports = {};",
    indent(printed.code),
    `  return new Map([\n${rows.join("")}  ]);`,
  ];
  file.exportDeclaration({
    doc: [
      `The validators of ${model.name}'s tools, by tool name: [input, output]. \`${PATTERN_ENGINE}\` makes the matchers of their patterns (the server's, with its limits).`,
    ],
    kind: "const",
    name: "createValidators",
    text: `: ${made} = (${PATTERN_ENGINE}) => {\n${body.join("\n")}\n};`,
  });
  return [{ path: file.path, content: file.render() }];
}
