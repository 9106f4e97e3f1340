/**
 * Emits `handlers.ts` when handler stubs are on: imports each user-owned handler from the stub
 * folder and wires them by MCP name into a `Handlers` object for createServer.
 */
import type { ServerModel } from "../model/types.js";
import { propertyKey, stringLiteral } from "../print/literal.js";
import { codeFile, LOCAL, type OutputFile } from "./common.js";
import { stubEntries } from "../model/stubLayout.js";

export function emitHandlers(model: ServerModel): OutputFile[] {
  const stubs = model.options.stubs;
  if (!stubs) return [];
  const file = codeFile(model, "handlers.ts");
  file.declare("handlers");
  const groups = new Map<string, string[]>();
  let verifier = "";
  for (const entry of stubEntries(model)) {
    const module = `${stubs.importBase}/${entry.file.replace(/\.ts$/, ".js")}`;
    const local = file.importValue(module, entry.functionName);
    if (entry.group === "verifyToken") {
      verifier = `  verifyToken: ${local},\n`;
      continue;
    }
    const members = groups.get(entry.group) ?? [];
    members.push(`    ${propertyKey(entry.key)}: ${local},\n`);
    groups.set(entry.group, members);
  }
  const handlersType = file.importType(LOCAL.server, "Handlers");
  const body = [...groups].map(([group, members]) => `  ${group}: {\n${members.join("")}  },\n`).join("") + verifier;
  file.exportDeclaration({
    doc: [`The handlers of ${model.name}, from the files you own under ${stringLiteral(stubs.importBase)} (relative to this folder), wired by MCP name.`],
    kind: "const",
    name: "handlers",
    text: `: ${handlersType} = {${body ? `\n${body}` : ""}};`,
  });
  return [{ path: file.path, content: file.render() }];
}
