/** Emits `definition.ts`: the wire JSON the server serves and the client checks against. */
import type { Json, ServerModel } from "../model/types.js";
import { safeJson } from "../print/literal.js";
import { codeFile, LOCAL, type OutputFile } from "./common.js";

export function emitDefinition(model: ServerModel): OutputFile[] {
  const file = codeFile(model, "definition.ts");
  const type = file.importType(LOCAL.runtimeDefinition, "ServerDefinition");
  const value: Record<string, Json> = {
    serverInfo: model.serverInfo,
    ...(model.instructions === undefined ? {} : { instructions: model.instructions }),
    capabilities: model.capabilities,
    tools: model.tools.map((t) => t.wire),
    resources: model.resources.map((r) => ({ resource: r.wire, ...(r.content ? { content: r.content } : {}) })),
    resourceTemplates: model.resourceTemplates.map((t) => t.wire),
    prompts: model.prompts.map((p) => ({ prompt: p.wire, ...(p.messages ? { messages: p.messages } : {}) })),
    ...(model.completions.length ? { completions: model.completions as unknown as Json } : {}),
  };
  // JSON text, one string literal per line: type-checking it costs nothing whatever its size (an
  // object literal of thousands of tools is slow to check), JSON.parse is faster than evaluating
  // an object literal, and `__proto__` keys stay plain data. fixtures/ has the same JSON to read.
  // The lines as one JSON array of strings, one per line, made safe as a whole: a JSON string is
  // a TypeScript string literal once U+2028/U+2029 and `</` are escaped (what stringLiteral does).
  const lines = safeJson(`[\n    ${JSON.stringify(value, null, 1).split("\n").map((line) => JSON.stringify(line)).join(",\n    ")}\n  ]`);
  file.print(`/** The manifest as served on the wire. */\nexport const definition: ${type} = JSON.parse(\n  ${lines}.join("\\n"),\n);`);
  return [{ path: file.path, content: file.render() }];
}
