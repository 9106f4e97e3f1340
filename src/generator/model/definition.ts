/**
 * The value of a server folder's `definition.ts`: what the runtime's `ServerDefinition` holds,
 * built from the model (emit/definition.ts prints it; `mock` serves it and `check` reads it).
 * A widget resource's content is its HTML, which the bundle stage makes from the model.
 */
import type { AccessRule } from "@mcpgen/runtime/shared";
import type { PatternTable } from "@mcpgen/runtime/codegen";
import { setOwn, type Json, type JsonObject } from "../../common/objects.js";
import type { AuthModel, CompletionModel, ListSwitchModel, ServerModel } from "./types.js";

/** Each widget's HTML, by the URI of its resource (the bundle stage's answer). */
export type WidgetHtml = ReadonlyMap<string, string>;

/** A top-level entry of `definition.ts`: wire JSON, or the model's completions and pattern plans (JSON data by their types). */
export type DefinitionEntry = Json | readonly CompletionModel[] | PatternTable;

/** The value of `definition.ts`; `widgetHtml`: each widget resource's content (none before bundling). */
export function definitionValue(model: ServerModel, widgetHtml: WidgetHtml = new Map()): Record<string, DefinitionEntry> {
  return {
    serverInfo: model.serverInfo,
    ...(model.instructions === undefined ? {} : { instructions: model.instructions }),
    capabilities: model.capabilities,
    tools: model.tools.map((t) => t.wire),
    ...taskSupport(model),
    resources: model.resources.map((r) => {
      const content = r.content ?? widgetContent(r.wire, widgetHtml.get(r.uri));
      return { resource: r.wire, ...(content ? { content } : {}) };
    }),
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
    ...(hideUnauthorized ? { hideUnauthorized } : {}),
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

/** A widget resource's content: its HTML, with the resource's `_meta` (MCP Apps reads `_meta.ui` there too). */
function widgetContent(wire: JsonObject, html: string | undefined): JsonObject | undefined {
  if (html === undefined) return undefined;
  const meta = wire["_meta"];
  return { text: html, ...(meta !== undefined && typeof meta === "object" && meta !== null && !Array.isArray(meta) ? { _meta: meta } : {}) };
}
