/**
 * Emits `fixtures/*.json`: the `result` of each list method the server answers, byte for byte
 * what the generated server sends (one page, no nextCursor).
 */
import type { ServerModel } from "../model/types.js";
import { jsonFile } from "../print/literal.js";
import type { OutputFile } from "./common.js";

export function emitFixtures(model: ServerModel): OutputFile[] {
  const files: OutputFile[] = [];
  if (model.capabilities.tools) files.push({ path: "fixtures/tools-list.json", content: jsonFile({ tools: model.tools.map((t) => t.wire) }) });
  if (model.capabilities.resources) {
    files.push({ path: "fixtures/resources-list.json", content: jsonFile({ resources: model.resources.map((r) => r.wire) }) });
    files.push({ path: "fixtures/resource-templates-list.json", content: jsonFile({ resourceTemplates: model.resourceTemplates.map((t) => t.wire) }) });
  }
  if (model.capabilities.prompts) files.push({ path: "fixtures/prompts-list.json", content: jsonFile({ prompts: model.prompts.map((p) => p.wire) }) });
  return files;
}
