/** Emits `definition.ts`: the wire JSON the server serves and the client checks against. */
import type { Json, ServerModel } from "../model/types.js";
import { jsonLiteral } from "../print/literal.js";
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
  file.print(`/** The manifest as served on the wire. */\nexport const definition: ${type} = ${jsonLiteral(value)};`);
  return [{ path: file.path, content: file.render() }];
}
