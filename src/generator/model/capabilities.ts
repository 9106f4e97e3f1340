/** The capabilities the server declares: truthfully, what the manifest serves, plus what it opts into under `capabilities:`. */
import type { Manifest } from "../validate/manifestTypes.js";
import type { CompletionModel, PromptModel, ResourceModel, ResourceTemplateModel, ToolModel } from "./types.js";
import type { JsonObject } from "../../common/objects.js";

/** What the server serves, as the other builders made it. */
export interface Served {
  tools: readonly ToolModel[];
  /** With the widgets' resources. */
  resources: readonly ResourceModel[];
  resourceTemplates: readonly ResourceTemplateModel[];
  prompts: readonly PromptModel[];
  completions: readonly CompletionModel[];
}

export function buildCapabilities(root: Manifest, served: Served): JsonObject {
  const optIn = root.capabilities ?? {};
  const capabilities: JsonObject = {};
  // listChanged: when an entry of the kind writes `enabled` or `tags`, or the manifest opts in.
  const switched = (entries: readonly { switch?: unknown }[], opted: boolean | undefined): JsonObject =>
    opted === true || entries.some((e) => e.switch !== undefined) ? { listChanged: true } : {};
  if (served.tools.length > 0) capabilities.tools = switched(served.tools, optIn.tools?.listChanged);
  if (served.resources.length + served.resourceTemplates.length > 0) {
    const subscribe = optIn.resources?.subscribe === true;
    capabilities.resources = {
      ...(subscribe ? { subscribe: true } : {}),
      ...switched([...served.resources, ...served.resourceTemplates], optIn.resources?.listChanged),
    };
  }
  if (served.prompts.length > 0) capabilities.prompts = switched(served.prompts, optIn.prompts?.listChanged);
  if (served.completions.length > 0) capabilities.completions = {};
  if (optIn.logging) capabilities.logging = optIn.logging;
  if (optIn.experimental) capabilities.experimental = optIn.experimental;
  // 2025-11-25 task-augmented tools/call, when a tool can run as a task.
  if (served.tools.some((t) => t.taskSupport !== "forbidden")) capabilities.tasks = { list: {}, cancel: {}, requests: { tools: { call: {} } } };
  return capabilities;
}
