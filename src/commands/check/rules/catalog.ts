/**
 * What the server offers, for the rules that name tools, resources and prompts: from the
 * manifests given (`--manifests`), else learnt from the server's own list answers in the log
 * (tools/list gives names and schemas). A kind is judged only once it is known: from a manifest,
 * or once a list answer without `nextCursor` (its last page) was seen.
 */
import type { ServerDefinition, WireTool } from "@mcpgen/runtime/shared";
import { parseUriTemplate, type UriTemplate } from "@mcpgen/runtime/codegen";
import { isRecord } from "../model.js";

type Kind = "tools" | "resources" | "prompts";

export class Catalog {
  readonly tools = new Map<string, WireTool>();
  readonly resources = new Set<string>();
  readonly templates = new Map<string, UriTemplate>();
  readonly prompts = new Set<string>();
  private readonly known = new Set<Kind>();
  private readonly fromManifest: boolean;

  constructor(definitions: readonly ServerDefinition[] = []) {
    this.fromManifest = definitions.length > 0;
    for (const d of definitions) {
      for (const t of d.tools) this.tools.set(t.name, t);
      for (const r of d.resources) this.resources.add(r.resource.uri);
      for (const t of d.resourceTemplates) this.templates.set(t.uriTemplate, parseUriTemplate(t.uriTemplate));
      for (const p of d.prompts) this.prompts.add(p.prompt.name);
    }
    if (this.fromManifest) for (const k of ["tools", "resources", "prompts"] as const) this.known.add(k);
  }

  /** Where the names come from, for messages: `the manifest` or `tools/list in the log`. */
  source(kind: Kind): string {
    return this.fromManifest ? "the manifests" : `${kind}/list in the log`;
  }

  isKnown(kind: Kind): boolean {
    return this.known.has(kind);
  }

  /** Takes what a list answer says, unless the manifests already say it. */
  learn(method: string, result: unknown): void {
    if (this.fromManifest || !isRecord(result)) return;
    const last = result["nextCursor"] === undefined || result["nextCursor"] === null;
    const items = (key: string) => (Array.isArray(result[key]) ? (result[key] as unknown[]).filter(isRecord) : []);
    if (method === "tools/list") {
      for (const t of items("tools")) {
        if (typeof t["name"] !== "string") continue;
        const before = this.tools.get(t["name"]);
        // Keep the object seen first when it is the same: validators are compiled per schema object.
        if (!before || JSON.stringify(before) !== JSON.stringify(t)) this.tools.set(t["name"], t as WireTool);
      }
      if (last) this.known.add("tools");
    } else if (method === "resources/list") {
      for (const r of items("resources")) if (typeof r["uri"] === "string") this.resources.add(r["uri"]);
      if (last) this.known.add("resources");
    } else if (method === "resources/templates/list") {
      for (const t of items("resourceTemplates"))
        if (typeof t["uriTemplate"] === "string" && !this.templates.has(t["uriTemplate"]))
          this.templates.set(t["uriTemplate"], parseUriTemplate(t["uriTemplate"]));
    } else if (method === "prompts/list") {
      for (const p of items("prompts")) if (typeof p["name"] === "string") this.prompts.add(p["name"]);
      if (last) this.known.add("prompts");
    }
  }

  hasResource(uri: string): boolean {
    if (this.resources.has(uri)) return true;
    for (const t of this.templates.values()) if (t.match(uri)) return true;
    return false;
  }
}
