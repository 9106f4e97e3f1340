/** Where each user-owned handler stub lives, and what it exports: decided from the model. */
import type { ServerModel } from "../model/types.js";

type StubKind = "tool" | "resource" | "resource-template" | "prompt";

export interface StubEntry {
  kind: StubKind;
  /** The `Handlers` group: tools, resources, resourceTemplates, prompts. */
  group: "tools" | "resources" | "resourceTemplates" | "prompts";
  /** MCP name: the key in the group. */
  key: string;
  /** The exported function the stub file must have. */
  functionName: string;
  /** Path relative to `<stubs>/<server>/`, forward slashes. */
  file: string;
}

const FOLDERS: Record<StubKind, string> = { tool: "tools", resource: "resources", "resource-template": "resource-templates", prompt: "prompts" };

/** Every handler the manifest needs, in manifest order (tools, resources, templates, prompts). */
export function stubEntries(model: ServerModel): StubEntry[] {
  // A server you only consume has no handlers of yours.
  if (model.options.clientOnly) return [];
  const entry = (kind: StubKind, group: StubEntry["group"], key: string, functionName: string): StubEntry => ({
    kind,
    group,
    key,
    functionName,
    file: `${FOLDERS[kind]}/${functionName.replace(/\$$/, "")}.ts`,
  });
  return [
    ...model.tools.map((t) => entry("tool", "tools", t.name, t.handlerName)),
    ...model.resources.filter((r) => r.needsHandler).map((r) => entry("resource", "resources", r.name, r.handlerName)),
    ...model.resourceTemplates.map((t) => entry("resource-template", "resourceTemplates", t.name, t.handlerName)),
    ...model.prompts.filter((p) => p.needsHandler).map((p) => entry("prompt", "prompts", p.name, p.handlerName)),
  ];
}

export const STUB_FOLDERS = Object.values(FOLDERS);
