/**
 * The tools of the model: each one's tools/list entry (manifest defs bundled into its schemas,
 * MCP Apps' `_meta.ui` when a widget shows it or its visibility is set), its input and output
 * types, its client method, and who may call it.
 */
import type { DocPath } from "../../common/diagnostics.js";
import { setOwn } from "../../common/objects.js";
import type { ToolEntry, WidgetEntry } from "../validate/manifestTypes.js";
import { accessRule, ACCESS_KEYS, addSecuritySchemes } from "./auth.js";
import { SWITCH_KEYS, switchField } from "./switches.js";
import type { IdentifierClaims } from "./claims.js";
import { optionalString, type ModelContext } from "./context.js";
import { toIdentifier } from "./identifiers.js";
import { bundleSchema, type JsonSchema } from "../../jsonSchema/refs.js";
import type { SchemaModel, ToolModel } from "./types.js";
import { toolUiMeta } from "./widgets.js";
import type { JsonObject } from "../../common/objects.js";

export function buildTools(ctx: ModelContext): ToolModel[] {
  const root = ctx.manifest.value;
  const defs = new Map<string, JsonSchema>(Object.entries(root.defs ?? {}));
  // The tools that open a widget carry its URI.
  const widgets = new Map((root.widgets ?? []).map((w) => [w.name, w]));
  return (root.tools ?? []).map((tool, i) => buildTool(ctx, tool, i, defs, widgets));
}

/**
 * Claims the identifiers of `tools[i]`: its input and output types (their schemas' `$defs` named
 * later) and its client method. Also run on a manifest with errors (modelProblems.ts).
 */
export function claimTool(
  claims: IdentifierClaims,
  tool: { name: string; inputSchema: JsonSchema; outputSchema?: JsonSchema | undefined },
  i: number,
): { input: SchemaModel; output?: SchemaModel; methodName: string } {
  const name = tool.name;
  const base = toIdentifier(name, "pascal");
  const at: DocPath = ["tools", i, "name"];
  claims.type(`${base}Input`, `tool "${name}" (its input type)`, at);
  const input = claims.schema(tool.inputSchema, `${base}Input`, `tool "${name}"`, ["tools", i, "inputSchema"]);
  let output: SchemaModel | undefined;
  if (tool.outputSchema !== undefined) {
    claims.type(`${base}Output`, `tool "${name}" (its output type)`, at);
    output = claims.schema(tool.outputSchema, `${base}Output`, `tool "${name}"`, ["tools", i, "outputSchema"]);
  }
  const methodName = claims.member(toIdentifier(name, "camel"), `tool "${name}"`, at);
  return { input, ...(output ? { output } : {}), methodName };
}

function buildTool(ctx: ModelContext, tool: ToolEntry, i: number, defs: ReadonlyMap<string, JsonSchema>, widgets: ReadonlyMap<string, WidgetEntry>): ToolModel {
  const name = tool.name;
  const { input, output, methodName } = claimTool(ctx.claims, tool, i);
  const wire: JsonObject = {};
  for (const [key, value] of Object.entries(tool)) {
    if (key === "examples" || key === "widget" || key === "visibility" || ACCESS_KEYS.some((k) => k === key) || SWITCH_KEYS.some((k) => k === key)) continue;
    setOwn(wire, key, value);
  }
  // In place: a key keeps its position when set again.
  setOwn(wire, "inputSchema", bundleSchema(tool.inputSchema, defs));
  if (tool.outputSchema !== undefined) setOwn(wire, "outputSchema", bundleSchema(tool.outputSchema, defs));
  const visibility = tool.visibility ?? ["model", "app"];
  const widget = tool.widget;
  if (widget !== undefined || tool.visibility !== undefined)
    setOwn(wire, "_meta", toolUiMeta(tool._meta, widget === undefined ? undefined : widgets.get(widget), visibility, widgets.size > 0));
  const access = accessRule(ctx.manifest.value, tool);
  if (access !== undefined) addSecuritySchemes(wire, access);
  return {
    name,
    ...optionalString("description", tool.description),
    wire,
    input,
    ...(output ? { output } : {}),
    methodName,
    taskSupport: tool.execution?.taskSupport ?? "forbidden",
    argumentsOptional: !requiresArguments(tool.inputSchema),
    handlerName: toIdentifier(name, "camel"),
    examples: tool.examples ?? [],
    visibility,
    ...(widget === undefined ? {} : { widget }),
    ...(access === undefined ? {} : { access }),
    ...switchField(tool),
  };
}

/** The input schema lists a `required` property at its top (a `$ref` or `allOf` that requires one is not followed). */
function requiresArguments(schema: JsonSchema): boolean {
  return typeof schema === "object" && Array.isArray(schema.required) && schema.required.length > 0;
}
