/**
 * What the server offers, for the rules that name tools, resources and prompts: the manifests
 * given (`--manifests`) joined with the server's own list answers in the log (tools/list gives
 * names and schemas; a manifest's definition wins over the log's for the same name). A server may
 * list more to one client than to another (to a client that declares capabilities, say, where
 * `pull` declares none): what the log lists counts as offered. A kind is judged only once it is
 * known: from a manifest, or once a list answer without `nextCursor` (its last page) was seen; a
 * resource URI once both resources/list and resources/templates/list are known (it may match a
 * template).
 *
 * Manifests written by `pull` are what the server listed to a client declaring the capabilities
 * their header names (`pulledWith`). Once a client in the log declares a capability pull did not
 * (in initialize, or 2026-07-28's per-request envelope), the server may list more to it: the
 * pulled manifests no longer make a kind known, only the log's own lists do.
 */
import type { ServerDefinition, WireTool } from "@mcpgen/runtime/shared";
import { parseUriTemplate, type UriTemplate } from "@mcpgen/runtime/codegen";
import { isRecord } from "../model.js";

type Kind = "tools" | "resources" | "prompts";
type Listed = Kind | "templates";

export class Catalog {
  readonly tools = new Map<string, WireTool>();
  readonly resources = new Set<string>();
  readonly templates = new Map<string, UriTemplate>();
  readonly prompts = new Set<string>();
  /** Per prompt, the names of the arguments it declares (bounded as the lists are: by what the server lists). */
  readonly promptArguments = new Map<string, string[]>();
  private readonly known = new Set<Listed>();
  private readonly fromManifest: boolean;
  /** The tools the manifests define: the log's definitions do not replace them. */
  private readonly manifestTools = new Set<string>();
  /** The kinds the log listed. */
  private readonly listed = new Set<Kind>();
  /** The kinds whose last page the log listed. */
  private readonly knownFromLog = new Set<Listed>();
  /** A client in the log declared a capability pull did not: the pulled manifests may lack what it is shown. */
  private pulledForOthers = false;

  constructor(
    definitions: readonly ServerDefinition[] = [],
    private readonly pulledWith?: Record<string, unknown>,
  ) {
    this.fromManifest = definitions.length > 0;
    for (const d of definitions) {
      for (const t of d.tools) {
        this.tools.set(t.name, t);
        this.manifestTools.add(t.name);
      }
      for (const r of d.resources) this.resources.add(r.resource.uri);
      for (const t of d.resourceTemplates) this.templates.set(t.uriTemplate, parseUriTemplate(t.uriTemplate));
      for (const p of d.prompts) this.addPrompt(p.prompt as unknown as Record<string, unknown>);
    }
    if (this.fromManifest) for (const k of ["tools", "resources", "templates", "prompts"] as const) this.known.add(k);
  }

  /** Where the names come from, for messages: `the manifests`, `tools/list in the log`, or both. */
  source(kind: Kind): string {
    const log = `${kind}/list in the log`;
    if (!this.fromManifest) return log;
    return this.listed.has(kind) ? `the manifests and ${log}` : "the manifests";
  }

  /** resources/list is known (its last page seen, or the manifests), whatever the templates. */
  resourcesListed(): boolean {
    return this.has("resources");
  }

  isKnown(kind: Kind): boolean {
    return kind === "resources" ? this.has("resources") && this.has("templates") : this.has(kind);
  }

  private has(kind: Listed): boolean {
    return this.knownFromLog.has(kind) || (this.known.has(kind) && !this.pulledForOthers);
  }

  /** A client's request: the capabilities it declares, against those the pulled manifests were listed to. */
  clientRequest(method: string, params: unknown): void {
    if (!this.pulledWith || this.pulledForOthers || !isRecord(params)) return;
    const meta = isRecord(params["_meta"]) ? params["_meta"] : undefined;
    const declared = method === "initialize" ? params["capabilities"] : meta?.["io.modelcontextprotocol/clientCapabilities"];
    if (!isRecord(declared)) return;
    this.pulledForOthers = Object.keys(declared).some((key) => !Object.hasOwn(this.pulledWith!, key));
  }

  /** Takes what a list answer says (a tool the manifests define keeps their definition). */
  learn(method: string, result: unknown): void {
    if (!isRecord(result)) return;
    const kind = method === "resources/templates/list" ? "resources" : method.slice(0, method.indexOf("/"));
    if (kind === "tools" || kind === "resources" || kind === "prompts") this.listed.add(kind);
    const last = result["nextCursor"] === undefined || result["nextCursor"] === null;
    const items = (key: string) => (Array.isArray(result[key]) ? (result[key] as unknown[]).filter(isRecord) : []);
    if (method === "tools/list") {
      for (const t of items("tools")) {
        if (typeof t["name"] !== "string" || this.manifestTools.has(t["name"])) continue;
        const before = this.tools.get(t["name"]);
        // Keep the object seen first when it is the same: validators are compiled per schema object.
        if (!before || JSON.stringify(before) !== JSON.stringify(t)) this.tools.set(t["name"], t as WireTool);
      }
      if (last) this.knownFromLog.add("tools");
    } else if (method === "resources/list") {
      for (const r of items("resources")) if (typeof r["uri"] === "string") this.resources.add(r["uri"]);
      if (last) this.knownFromLog.add("resources");
    } else if (method === "resources/templates/list") {
      for (const t of items("resourceTemplates"))
        if (typeof t["uriTemplate"] === "string" && !this.templates.has(t["uriTemplate"]))
          this.templates.set(t["uriTemplate"], parseUriTemplate(t["uriTemplate"]));
      if (last) this.knownFromLog.add("templates");
    } else if (method === "prompts/list") {
      for (const p of items("prompts")) this.addPrompt(p);
      if (last) this.knownFromLog.add("prompts");
    }
  }

  private addPrompt(prompt: Record<string, unknown>): void {
    const name = prompt["name"];
    if (typeof name !== "string") return;
    this.prompts.add(name);
    const args = Array.isArray(prompt["arguments"]) ? prompt["arguments"] : [];
    this.promptArguments.set(
      name,
      args.flatMap((a) => (isRecord(a) && typeof a["name"] === "string" ? [a["name"]] : [])),
    );
  }

  hasResource(uri: string): boolean {
    if (this.resources.has(uri)) return true;
    for (const t of this.templates.values()) if (t.match(uri)) return true;
    return false;
  }
}
