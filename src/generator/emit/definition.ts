/** Emits `definition.ts`: the wire JSON the server serves and the client checks against (built by model/definition.ts). */
import { definitionValue, type DefinitionEntry } from "../model/definition.js";
import type { ServerModel } from "../model/types.js";
import { jsonTemplate } from "../print/literal.js";
import { codeFile, LOCAL, type EmitContext, type OutputFile } from "./common.js";

export function emitDefinition(model: ServerModel, context: EmitContext = { widgetHtml: new Map() }): OutputFile[] {
  const file = codeFile(model, "definition.ts");
  const type = file.importType(LOCAL.runtimeShared, "ServerDefinition");
  const value = definitionValue(model, context.widgetHtml);
  // JSON text in one raw template: type-checking it costs nothing whatever its size (an object
  // literal of thousands of tools is slow to check), JSON.parse is faster than evaluating an
  // object literal, and `__proto__` keys stay plain data. One line per tool, resource, prompt: a
  // change shows as that entry's line in a diff; fixtures/ has the same JSON, indented, to read.
  file.exportDeclaration({
    doc: ["The manifest as served on the wire."],
    kind: "const",
    name: "definition",
    text: `: ${type} = JSON.parse(${jsonTemplate(jsonLines(value).join("\n"))});`,
  });
  return [{ path: file.path, content: file.render() }];
}

/** JSON text of an object, one line per top-level key and one per element of a top-level array. */
function jsonLines(value: Record<string, DefinitionEntry>): string[] {
  const lines = ["{"];
  const entries = Object.entries(value);
  entries.forEach(([key, item], i) => {
    const comma = i < entries.length - 1 ? "," : "";
    if (!Array.isArray(item) || item.length === 0) {
      lines.push(`${JSON.stringify(key)}: ${JSON.stringify(item)}${comma}`);
      return;
    }
    lines.push(`${JSON.stringify(key)}: [`);
    item.forEach((element, j) => lines.push(JSON.stringify(element) + (j < item.length - 1 ? "," : "")));
    lines.push(`]${comma}`);
  });
  lines.push("}");
  return lines;
}
