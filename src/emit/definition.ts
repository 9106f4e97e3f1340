/** Emits `definition.ts`: the wire JSON the server serves and the client checks against. */
import type { AuthModel, CompletionModel, Json, JsonObject, ListSwitchModel, ServerModel } from "../model/types.js";
import type { AccessRule } from "@mcpgen/runtime/shared";
import { setOwn } from "../util/objects.js";
import type { PatternTable } from "@mcpgen/runtime/codegen";
import { jsonTemplate } from "../print/literal.js";
import { codeFile, LOCAL, type OutputFile } from "./common.js";

export function emitDefinition(model: ServerModel): OutputFile[] {
  const file = codeFile(model, "definition.ts");
  const type = file.importType(LOCAL.runtimeShared, "ServerDefinition");
  const value = definitionValue(model);
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

/** A top-level entry of `definition.ts`: wire JSON, or the model's completions and pattern plans (JSON data by their types). */
type DefinitionEntry = Json | readonly CompletionModel[] | PatternTable;

/** The value of `definition.ts`: what the runtime's `ServerDefinition` holds. */
export function definitionValue(model: ServerModel): Record<string, DefinitionEntry> {
  return {
    serverInfo: model.serverInfo,
    ...(model.instructions === undefined ? {} : { instructions: model.instructions }),
    capabilities: model.capabilities,
    tools: model.tools.map((t) => t.wire),
    ...taskSupport(model),
    resources: model.resources.map((r) => ({ resource: r.wire, ...(r.content ? { content: r.content } : {}) })),
    resourceTemplates: model.resourceTemplates.map((t) => t.wire),
    prompts: model.prompts.map((p) => ({ prompt: p.wire, ...(p.messages ? { messages: p.messages } : {}) })),
    ...(model.completions.length ? { completions: model.completions } : {}),
    cache: model.cache,
    ...(Object.keys(model.patterns).length ? { patterns: model.patterns } : {}),
    ...(model.auth ? { auth: authDefinition(model, model.auth) } : {}),
    ...switches(model),
  };
}

/** The definition's `switches`: the entries that write `enabled` or `tags`, by kind and name (resources by URI); nothing when none does. */
function switches(model: ServerModel): { switches?: JsonObject } {
  const out: JsonObject = {};
  const kind = <T extends { switch?: ListSwitchModel }>(key: string, entries: readonly T[], name: (entry: T) => string): void => {
    const table: JsonObject = {};
    for (const entry of entries) if (entry.switch) setOwn(table, name(entry), { enabled: entry.switch.enabled, tags: [...entry.switch.tags] });
    if (Object.keys(table).length > 0) out[key] = table;
  };
  kind("tools", model.tools, (t) => t.name);
  kind("resources", model.resources, (r) => r.uri);
  kind("resourceTemplates", model.resourceTemplates, (t) => t.name);
  kind("prompts", model.prompts, (p) => p.name);
  return Object.keys(out).length ? { switches: out } : {};
}

/** The definition's `auth` (the runtime's `AuthDefinition`): the settings, then every entry's rule by name (resources by URI). */
function authDefinition(model: ServerModel, auth: AuthModel): JsonObject {
  const { hideUnauthorized, verifier, ...settings } = auth;
  const rules = <T extends { access?: AccessRule }>(entries: readonly T[], key: (entry: T) => string): JsonObject => {
    const out: JsonObject = {};
    for (const entry of entries) if (entry.access !== undefined) setOwn(out, key(entry), entry.access === "none" ? "none" : [...entry.access]);
    return out;
  };
  return {
    ...settings,
    verifier: { ...verifier },
    ...(hideUnauthorized ? { hideUnauthorized: true } : {}),
    tools: rules(model.tools, (t) => t.name),
    resources: rules(model.resources, (r) => r.uri),
    resourceTemplates: rules(model.resourceTemplates, (t) => t.name),
    prompts: rules(model.prompts, (p) => p.name),
  };
}

/** The definition's `taskSupport`: the tools that can run as a task, by name; nothing when none can. */
function taskSupport(model: ServerModel): { taskSupport?: JsonObject } {
  const support: JsonObject = {};
  for (const tool of model.tools) if (tool.taskSupport !== "forbidden") setOwn(support, tool.name, tool.taskSupport);
  return Object.keys(support).length ? { taskSupport: support } : {};
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
