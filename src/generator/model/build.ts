/**
 * Stage 3, build the normalized model from a validated manifest, one entity at a time around one
 * identifier-claims object: wire JSON (with defs bundled), identifiers (with every clash
 * reported), static resource contents, capabilities and cache hints.
 */
import type { Diagnostic } from "../../common/diagnostics.js";
import type { Manifest, ValidManifest } from "../validate/manifestTypes.js";
import { buildAuth } from "./auth.js";
import { buildCacheHints } from "./cache.js";
import { buildCapabilities } from "./capabilities.js";
import { IdentifierClaims } from "./claims.js";
import { buildCompletions } from "./completions.js";
import { omit, optionalString, type ModelContext } from "./context.js";
import { buildDefs } from "./defs.js";
import { toIdentifier } from "./identifiers.js";
import { planPatterns } from "./patterns.js";
import { buildPrompts } from "./prompts.js";
import { buildResources, buildResourceTemplates } from "./resources.js";
import { buildTools } from "./tools.js";
import type { GenerationOptions, ServerModel } from "./types.js";
import { buildWidgets } from "./widgets.js";

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
  const root = manifest.value;
  const name = serverFolder(root);
  const typePrefix = toIdentifier(name, "pascal");
  const diagnostics: Diagnostic[] = [];
  const clientTypeName = `${typePrefix}Client`;
  const claims = new IdentifierClaims(manifest, diagnostics, clientTypeName);
  const ctx: ModelContext = { manifest, claims, diagnostics };

  // The order of the claims: the first of two clashing declarations keeps its name.
  const defs = buildDefs(ctx);
  const tools = buildTools(ctx);
  const own = await buildResources(ctx);
  const widgets = await buildWidgets(ctx);
  const resources = [...own.resources, ...widgets.resources];
  const resourceTemplates = buildResourceTemplates(ctx);
  const prompts = buildPrompts(ctx);
  claims.nameLocalDefs();
  const completions = buildCompletions(root);
  const capabilities = buildCapabilities(root, { tools, resources, resourceTemplates, prompts, completions });
  const cache = buildCacheHints(root, own.resources);
  if (diagnostics.length > 0) return { diagnostics };
  const auth = buildAuth(root);
  const runsTasks = tools.some((tool) => tool.taskSupport !== "forbidden");
  // What replicas must share besides tasks, as the runtime's canChange reads the capabilities.
  const flag = (kind: string, name: string) => {
    const capability = capabilities[kind];
    return typeof capability === "object" && capability !== null && !Array.isArray(capability) && capability[name] === true;
  };
  const changes = flag("tools", "listChanged") || flag("resources", "listChanged") || flag("prompts", "listChanged") || flag("resources", "subscribe");

  return {
    diagnostics,
    model: {
      manifestFile,
      name,
      // serverInfo on the wire: the manifest's `server:` without the instructions and mcpgen's `folder`.
      serverInfo: omit(root.server, ["instructions", "folder"]),
      ...optionalString("instructions", root.server.instructions),
      capabilities,
      typePrefix,
      clientTypeName,
      needsHandlers:
        tools.length > 0 ||
        resourceTemplates.length > 0 ||
        [...resources, ...prompts].some((entity) => entity.needsHandler) ||
        auth?.verifier.kind === "handler",
      runsTasks,
      sharesState: runsTasks || changes,
      defs,
      tools,
      resources,
      resourceTemplates,
      prompts,
      completions,
      cache,
      widgets: widgets.widgets,
      patterns: planPatterns(tools),
      ...(auth ? { auth } : {}),
      options,
      sourceFiles: own.sourceFiles,
    },
  };
}
