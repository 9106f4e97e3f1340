/**
 * The resources and resource templates of the model: their list entries, static contents
 * (`text`, `blob`, or a `file:` read next to the manifest), reader methods and variables types.
 * Widgets are resources too: model/widgets.ts adds theirs.
 */
import type { ResourceEntry, ResourceTemplateEntry } from "../validate/manifestTypes.js";
import { accessRule, ACCESS_KEYS } from "./auth.js";
import { SWITCH_KEYS, switchField } from "./switches.js";
import type { IdentifierClaims } from "./claims.js";
import { omit, optionalString, type ModelContext } from "./context.js";
import { toIdentifier } from "./identifiers.js";
import { readResourceFile } from "./manifestFiles.js";
import type { ResourceModel, ResourceTemplateModel } from "./types.js";
import type { JsonObject } from "../../common/objects.js";

/** The manifest's `resources:`, in order, and the files their contents were read from. */
export async function buildResources(ctx: ModelContext): Promise<{ resources: ResourceModel[]; sourceFiles: string[] }> {
  const resources: ResourceModel[] = [];
  const sourceFiles: string[] = [];
  for (const [i, resource] of (ctx.manifest.value.resources ?? []).entries()) {
    const read = await contentOf(ctx, resource, i);
    if (read.source !== undefined) sourceFiles.push(read.source);
    const name = resource.name;
    const access = accessRule(ctx.manifest.value, resource);
    resources.push({
      name,
      uri: resource.uri,
      ...optionalString("description", resource.description),
      wire: omit(resource, ["text", "blob", "file", "cache", ...ACCESS_KEYS, ...SWITCH_KEYS]),
      ...(read.content ? { content: read.content } : {}),
      needsHandler: read.content === undefined,
      readerName: claimResource(ctx.claims, name, i),
      handlerName: toIdentifier(name, "camel"),
      ...(access === undefined ? {} : { access }),
      ...switchField(resource),
    });
  }
  return { resources, sourceFiles };
}

/** Claims the client's reader method of `resources[i]`, named `name`, and returns it (also run on a manifest with errors: modelProblems.ts). */
export function claimResource(claims: IdentifierClaims, name: string, i: number): string {
  return claims.member(`read${toIdentifier(name, "pascal")}`, `resource "${name}"`, ["resources", i, "name"]);
}

/** A resource's static content: `text`, `blob`, or its `file:` read (a problem reading it is a diagnostic); none when a handler serves it. */
async function contentOf(ctx: ModelContext, resource: ResourceEntry, i: number): Promise<{ content?: ResourceModel["content"]; source?: string }> {
  if (resource.text !== undefined) return { content: { text: resource.text } };
  if (resource.blob !== undefined) return { content: { blob: resource.blob } };
  if (resource.file === undefined) return {};
  const read = await readResourceFile(ctx.manifest, resource.file, resource.mimeType, ["resources", i, "file"]);
  if ("diagnostic" in read) {
    ctx.diagnostics.push(read.diagnostic);
    return {};
  }
  return read;
}

/** The manifest's `resourceTemplates:`, in order. */
export function buildResourceTemplates(ctx: ModelContext): ResourceTemplateModel[] {
  return (ctx.manifest.value.resourceTemplates ?? []).map((template, i) => buildTemplate(ctx, template, i));
}

/** Claims the variables type and the reader method of `resourceTemplates[i]`, named `name` (also run on a manifest with errors: modelProblems.ts). */
export function claimTemplate(claims: IdentifierClaims, name: string, i: number): { variablesTypeName: string; readerName: string } {
  const variablesTypeName = `${toIdentifier(name, "pascal")}Variables`;
  claims.type(variablesTypeName, `resource template "${name}" (its variables type)`, ["resourceTemplates", i, "name"]);
  const readerName = claims.member(`read${toIdentifier(name, "pascal")}`, `resource template "${name}"`, ["resourceTemplates", i, "name"]);
  return { variablesTypeName, readerName };
}

function buildTemplate(ctx: ModelContext, template: ResourceTemplateEntry, i: number): ResourceTemplateModel {
  const name = template.name;
  const uriTemplate = template.uriTemplate;
  const { variablesTypeName, readerName } = claimTemplate(ctx.claims, name, i);
  const wire: JsonObject = omit(template, ["complete", "cache", ...ACCESS_KEYS, ...SWITCH_KEYS]);
  const access = accessRule(ctx.manifest.value, template);
  return {
    name,
    uriTemplate,
    ...optionalString("description", template.description),
    wire,
    variables: [...uriTemplate.matchAll(/\{([A-Za-z0-9_]+)\}/g)].map((m) => m[1]!),
    variablesTypeName,
    readerName,
    handlerName: toIdentifier(name, "camel"),
    ...(access === undefined ? {} : { access }),
    ...switchField(template),
  };
}
