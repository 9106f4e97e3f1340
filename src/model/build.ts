/**
 * Stage 3, build the normalized model from a validated manifest: wire JSON (with defs bundled),
 * identifiers (with every clash reported), static resource contents.
 */
import type { Diagnostic, DocPath } from "../diagnostics.js";
import { diagnosticAt } from "../load/loadManifest.js";
import type { CacheHintEntry, CompletionSource, Manifest, ValidManifest } from "../validate/manifestTypes.js";
import { isPlainObject, setOwn } from "../util/objects.js";
import { BUILTIN_TYPE_NAMES } from "../serverFolder/publicApi.js";
import { IdentifierScope, RESERVED_CLIENT_MEMBERS, toIdentifier } from "./identifiers.js";
import { nameLocalDefs, type LocalDefsOwner } from "./localDefs.js";
import { planPattern } from "../regex/translate.js";
import type { PatternPlan } from "../runtime/shared/patterns.js";
import { bundleSchema, forEachSchema, type JsonSchema } from "./refs.js";
import { toolUiMeta, WIDGET_MIME_TYPE, widgetResourceMeta } from "./widgets.js";
import { readResourceFile, resolveInManifestFolder } from "./manifestFiles.js";
import type {
  CompletionModel,
  GenerationOptions,
  Json,
  JsonObject,
  PromptModel,
  ResourceModel,
  ResourceTemplateModel,
  SchemaModel,
  ServerModel,
  ToolModel,
  WidgetModel,
} from "./types.js";

/** Cache hints when the manifest gives none: lists and static contents are the same for everyone. */
const DEFAULT_CACHE = {
  static: { ttlMs: 300_000, cacheScope: "public" },
  handler: { ttlMs: 0, cacheScope: "private" },
} as const;

type CacheHint = { ttlMs: number; cacheScope: string };

const CACHED_METHODS = ["server/discover", "tools/list", "prompts/list", "resources/list", "resources/templates/list"] as const;

/** A valid manifest's output folder: `server.folder`, or the server's name (then checked to be a folder name). */
export function serverFolder(manifest: Manifest): string {
  return manifest.server.folder ?? manifest.server.name;
}

/** `manifestFile` is the project-relative path written in generated headers. */
export async function buildModel(
  manifest: ValidManifest,
  manifestFile: string = manifest.file,
  options: GenerationOptions = { headerLines: [] },
): Promise<{ model?: ServerModel; diagnostics: Diagnostic[] }> {
  const diagnostics: Diagnostic[] = [];
  const root = manifest.value;
  const server = root.server;
  const defs = new Map<string, JsonSchema>(Object.entries(root.defs ?? {}));
  const toolEntries = root.tools ?? [];
  const resourceEntries = root.resources ?? [];
  const templateEntries = root.resourceTemplates ?? [];
  const promptEntries = root.prompts ?? [];
  const widgetEntries = root.widgets ?? [];

  const folder = serverFolder(root);
  const typePrefix = toIdentifier(folder, "pascal");
  const types = new IdentifierScope([
    ...BUILTIN_TYPE_NAMES.map((n): [string, string] => [n, `mcpgen's built-in type ${n}`]),
    [`${typePrefix}Client`, `the generated client interface ${typePrefix}Client`],
  ]);
  const members = new IdentifierScope();
  const typeLoc = new Map<string, DocPath>();
  const memberLoc = new Map<string, DocPath>();
  const claimType = (id: string, owner: string, at: DocPath) => claim(types, typeLoc, id, owner, at, "TypeScript type name");
  const claimMember = (candidate: string, owner: string, at: DocPath) => {
    const id = RESERVED_CLIENT_MEMBERS.has(candidate) ? `${candidate}$` : candidate;
    claim(members, memberLoc, id, owner, at, "client method name");
    return id;
  };
  function claim(scope: IdentifierScope, locs: Map<string, DocPath>, id: string, owner: string, at: DocPath, what: string): void {
    // Defs are named by their key; everything else by its `name:` value.
    const side = at[0] === "defs" && at.length === 2 ? "key" : "value";
    const previous = scope.claim(id, owner);
    if (previous === undefined) {
      locs.set(id, at);
      return;
    }
    const where = locs.get(id);
    const first = where ? ` (line ${manifest.locate(where).line})` : "";
    diagnostics.push(
      diagnosticAt(manifest, at, "identifier-collision", `${owner} and ${previous}${first} both become the ${what} ${id}; rename one of them`, { at: side }),
    );
  }

  // Local $defs are named once every other type is: see localDefs.ts.
  const localDefOwners: LocalDefsOwner[] = [];
  const schemaModel = (schema: JsonSchema, typeName: string, owner: string, at: DocPath): SchemaModel => {
    const model: SchemaModel = { schema, typeName, localTypeNames: new Map(), declares: [] };
    localDefOwners.push({ model, owner, at });
    return model;
  };

  const defModels = [...defs].map(([name, schema]) => {
    const typeName = toIdentifier(name, "pascal");
    claimType(typeName, `def "${name}"`, ["defs", name]);
    return { name, typeName, schema };
  });

  // Widgets first: the tools that open them carry their URI.
  const widgetsByName = new Map(widgetEntries.map((w) => [w.name, w]));

  const tools: ToolModel[] = toolEntries.map((tool, i) => {
    const name = tool.name;
    const base = toIdentifier(name, "pascal");
    const at: DocPath = ["tools", i, "name"];
    claimType(`${base}Input`, `tool "${name}" (its input type)`, at);
    const input = schemaModel(tool.inputSchema, `${base}Input`, `tool "${name}"`, ["tools", i, "inputSchema"]);
    let output: SchemaModel | undefined;
    if (tool.outputSchema !== undefined) {
      claimType(`${base}Output`, `tool "${name}" (its output type)`, at);
      output = schemaModel(tool.outputSchema, `${base}Output`, `tool "${name}"`, ["tools", i, "outputSchema"]);
    }
    const wire: JsonObject = {};
    for (const [key, value] of Object.entries(tool)) {
      if (key === "examples" || key === "widget" || key === "visibility") continue;
      setOwn(wire, key, value);
    }
    // In place: a key keeps its position when set again.
    setOwn(wire, "inputSchema", bundleSchema(tool.inputSchema, defs));
    if (tool.outputSchema !== undefined) setOwn(wire, "outputSchema", bundleSchema(tool.outputSchema, defs));
    const examples = tool.examples ?? [];
    const visibility = tool.visibility ?? ["model", "app"];
    const widget = tool.widget;
    if (widget !== undefined || tool.visibility !== undefined)
      setOwn(wire, "_meta", toolUiMeta(tool._meta, widget === undefined ? undefined : widgetsByName.get(widget), visibility));
    return {
      name,
      ...optionalString("description", tool.description),
      wire,
      input,
      ...(output ? { output } : {}),
      methodName: claimMember(toIdentifier(name, "camel"), `tool "${name}"`, at),
      handlerName: toIdentifier(name, "camel"),
      examples,
      visibility,
      ...(widget === undefined ? {} : { widget }),
    };
  });

  const resources: ResourceModel[] = [];
  const sourceFiles: string[] = [];
  for (const [i, resource] of resourceEntries.entries()) {
    const name = resource.name;
    const wire: JsonObject = {};
    for (const [key, value] of Object.entries(resource)) if (key !== "text" && key !== "blob" && key !== "file" && key !== "cache") setOwn(wire, key, value);
    let content: ResourceModel["content"];
    if (resource.text !== undefined) content = { text: resource.text };
    else if (resource.blob !== undefined) content = { blob: resource.blob };
    else if (resource.file !== undefined) {
      const read = await readResourceFile(manifest, resource.file, resource.mimeType, ["resources", i, "file"]);
      if ("diagnostic" in read) diagnostics.push(read.diagnostic);
      else {
        content = read.content;
        sourceFiles.push(read.source);
      }
    }
    resources.push({
      name,
      uri: resource.uri,
      ...optionalString("description", resource.description),
      wire,
      ...(content ? { content } : {}),
      readerName: claimMember(`read${toIdentifier(name, "pascal")}`, `resource "${name}"`, ["resources", i, "name"]),
      handlerName: toIdentifier(name, "camel"),
    });
  }

  // Each widget is a resource too: its HTML is built later (src/bundle), its `_meta.ui` is here.
  const widgets: WidgetModel[] = [];
  for (const [i, widget] of widgetEntries.entries()) {
    const name = widget.name;
    const at: DocPath = ["widgets", i];
    const entry = await resolveInManifestFolder(manifest, widget.entry, [...at, "entry"], "widget-build");
    if ("diagnostic" in entry) {
      diagnostics.push(entry.diagnostic);
      continue;
    }
    const typeName = toIdentifier(name, "pascal");
    claimType(`${typeName}Widget`, `widget "${name}" (its client type)`, [...at, "name"]);
    const csp = widget.csp ?? {};
    const model: WidgetModel = {
      name,
      uri: widget.uri,
      entry: entry.path,
      ...optionalString("title", widget.title),
      typeName,
      fileName: toIdentifier(name, "camel"),
      tools: toolEntries.flatMap((t) => (t.widget === name ? [t.name] : [])),
      csp: {
        connectDomains: csp.connectDomains ?? [],
        resourceDomains: csp.resourceDomains ?? [],
        frameDomains: csp.frameDomains ?? [],
        baseUriDomains: csp.baseUriDomains ?? [],
      },
      ...(widget.chatgpt ? { chatgpt: widget.chatgpt } : {}),
    };
    widgets.push(model);
    const meta = widgetResourceMeta(widget);
    const wire: JsonObject = {};
    setOwn(wire, "uri", model.uri);
    setOwn(wire, "name", name);
    for (const key of ["title", "description"] as const) if (widget[key] !== undefined) setOwn(wire, key, widget[key]);
    setOwn(wire, "mimeType", WIDGET_MIME_TYPE);
    setOwn(wire, "_meta", meta);
    resources.push({
      name,
      uri: model.uri,
      ...optionalString("description", widget.description),
      wire,
      widget: name,
      readerName: claimMember(`read${toIdentifier(name, "pascal")}`, `widget "${name}"`, [...at, "name"]),
      handlerName: toIdentifier(name, "camel"),
    });
  }

  const resourceTemplates: ResourceTemplateModel[] = templateEntries.map((template, i) => {
    const name = template.name;
    const uriTemplate = template.uriTemplate;
    const variablesTypeName = `${toIdentifier(name, "pascal")}Variables`;
    claimType(variablesTypeName, `resource template "${name}" (its variables type)`, ["resourceTemplates", i, "name"]);
    return {
      name,
      uriTemplate,
      ...optionalString("description", template.description),
      wire: omit(template, ["complete", "cache"]),
      variables: [...uriTemplate.matchAll(/\{([A-Za-z0-9_]+)\}/g)].map((m) => m[1]!),
      variablesTypeName,
      readerName: claimMember(`read${toIdentifier(name, "pascal")}`, `resource template "${name}"`, ["resourceTemplates", i, "name"]),
      handlerName: toIdentifier(name, "camel"),
    };
  });

  const prompts: PromptModel[] = promptEntries.map((prompt, i) => {
    const name = prompt.name;
    const argumentsTypeName = `${toIdentifier(name, "pascal")}Arguments`;
    claimType(argumentsTypeName, `prompt "${name}" (its arguments type)`, ["prompts", i, "name"]);
    const wire: JsonObject = {};
    for (const [key, value] of Object.entries(prompt)) {
      if (key === "messages") continue;
      // `complete` is mcpgen's, not MCP's: never on the wire.
      setOwn(wire, key, value);
    }
    if (prompt.arguments !== undefined)
      setOwn(
        wire,
        "arguments",
        prompt.arguments.map((a) => omit(a, ["complete"])),
      );
    const args = prompt.arguments ?? [];
    return {
      name,
      ...optionalString("description", prompt.description),
      wire,
      arguments: args.map((a) => ({ name: a.name, required: a.required === true, ...optionalString("description", a.description) })),
      argumentsTypeName,
      ...(prompt.messages ? { messages: prompt.messages } : {}),
      handlerName: toIdentifier(name, "camel"),
    };
  });

  nameLocalDefs(localDefOwners, {
    tryClaim: (id, owner, at) => {
      if (types.claim(id, owner) !== undefined) return false;
      typeLoc.set(id, at);
      return true;
    },
    claim: claimType,
  });

  const serverInfo: JsonObject = {};
  for (const [key, value] of Object.entries(server)) if (key !== "instructions" && key !== "folder") setOwn(serverInfo, key, value);
  const completions: CompletionModel[] = [];
  const source = (value: CompletionSource) => (value === "handler" ? { handler: true as const } : { values: value });
  promptEntries.forEach((prompt) => {
    for (const a of prompt.arguments ?? []) {
      if (a.complete !== undefined) completions.push({ ref: "prompt", name: prompt.name, argument: a.name, ...source(a.complete) });
    }
  });
  templateEntries.forEach((template) => {
    for (const [variable, value] of Object.entries(template.complete ?? {}))
      completions.push({ ref: "resourceTemplate", name: template.name, argument: variable, ...source(value) });
  });

  // Declared truthfully: what the manifest serves, plus what it opts into under `capabilities:`.
  const optIn = root.capabilities ?? {};
  const capabilities: JsonObject = {};
  if (tools.length > 0) capabilities.tools = {};
  if (resources.length + resourceTemplates.length > 0) {
    const subscribe = optIn.resources?.subscribe === true;
    capabilities.resources = subscribe ? { subscribe: true } : {};
  }
  if (prompts.length > 0) capabilities.prompts = {};
  if (completions.length > 0) capabilities.completions = {};
  if (optIn.logging) capabilities.logging = optIn.logging;
  if (optIn.experimental) capabilities.experimental = optIn.experimental;
  const taskTools = toolEntries.some((t) => t.execution?.taskSupport === "optional" || t.execution?.taskSupport === "required");
  if (taskTools) capabilities.tasks = { list: {}, cancel: {}, requests: { tools: { call: {} } } };

  // 2026-07-28 cache hints: the manifest's `cache:` per method, then per resource or template.
  const hint = (given: CacheHintEntry | undefined, base: CacheHint): CacheHint => ({
    ttlMs: given?.ttlMs ?? base.ttlMs,
    cacheScope: given?.cacheScope ?? base.cacheScope,
  });
  const cacheIn = root.cache ?? {};
  const cache: JsonObject = {};
  for (const method of CACHED_METHODS) setOwn(cache, method, hint(cacheIn[method], DEFAULT_CACHE.static));
  const readDefault = hint(cacheIn["resources/read"], DEFAULT_CACHE.handler);
  setOwn(cache, "resources/read", readDefault);
  const perResource: JsonObject = {};
  resourceEntries.forEach((r, i) => {
    const base = cacheIn["resources/read"] ? readDefault : resources[i]?.content ? DEFAULT_CACHE.static : DEFAULT_CACHE.handler;
    setOwn(perResource, r.uri, hint(r.cache, base));
  });
  const perTemplate: JsonObject = {};
  templateEntries.forEach((t) => setOwn(perTemplate, t.name, hint(t.cache, readDefault)));
  if (Object.keys(perResource).length) cache.resources = perResource;
  if (Object.keys(perTemplate).length) cache.resourceTemplates = perTemplate;

  if (diagnostics.length > 0) return { diagnostics };
  const patterns: Record<string, PatternPlan> = {};
  for (const tool of tools) {
    for (const key of ["inputSchema", "outputSchema"]) {
      forEachSchema(tool.wire[key], (node) => {
        const sources = [
          ...(typeof node.pattern === "string" ? [node.pattern] : []),
          ...(isPlainObject(node.patternProperties) ? Object.keys(node.patternProperties) : []),
        ];
        for (const source of sources) if (!Object.hasOwn(patterns, source)) setOwn(patterns, source, planPattern(source));
      });
    }
  }
  return {
    diagnostics,
    model: {
      manifestFile,
      name: folder,
      serverInfo,
      ...optionalString("instructions", server.instructions),
      capabilities,
      typePrefix,
      defs: defModels,
      tools,
      resources,
      resourceTemplates,
      prompts,
      completions,
      cache,
      widgets,
      patterns,
      options,
      sourceFiles,
    },
  };
}

function omit(value: { readonly [key: string]: unknown }, keys: string[]): JsonObject {
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(value)) if (!keys.includes(k)) setOwn(out, k, v);
  return out;
}

function optionalString<K extends string>(key: K, value: string | undefined): Partial<Record<K, string>> {
  const out: Partial<Record<K, string>> = {};
  if (value !== undefined) out[key] = value;
  return out;
}
