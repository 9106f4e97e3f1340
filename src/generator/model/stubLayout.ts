/** Where each user-owned handler stub lives, what it exports, and how it imports the generated folder: decided from the model. */
import * as path from "node:path";
import type { ServerModel } from "./types.js";
import { LOCAL } from "./modules.js";
import { toPosix } from "../../common/paths.js";

type StubKind = "tool" | "resource" | "resource-template" | "prompt" | "verifier";

export interface StubEntry {
  kind: StubKind;
  /** The `Handlers` group: tools, resources, resourceTemplates, prompts; or `verifyToken`, a member of its own (`auth.verifier: handler`). */
  group: "tools" | "resources" | "resourceTemplates" | "prompts" | "verifyToken";
  /** MCP name: the key in the group. */
  key: string;
  /** The exported function the stub file must have. */
  functionName: string;
  /** Path relative to `<stubs>/<server>/`, forward slashes. */
  file: string;
}

const FOLDERS: Record<StubKind, string> = {
  tool: "tools",
  resource: "resources",
  "resource-template": "resource-templates",
  prompt: "prompts",
  verifier: "auth",
};

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
    ...(model.auth?.verifier.kind === "handler" ? [entry("verifier", "verifyToken", "verifyToken", "verifyToken")] : []),
  ];
}

export const STUB_FOLDERS = Object.values(FOLDERS);

/** A relative ES module specifier from folder `from` to file `to` (`./x.js`, `../../y.js`). */
export function modulePath(from: string, to: string): string {
  const rel = toPosix(path.relative(from, to));
  return rel.startsWith(".") ? rel : `./${rel}`;
}

/**
 * The specifier of a module of a server's output folder (one of LOCAL: `./index.js`, `./serve.js`)
 * as a file in folder `from` imports it: the only modules of the generated code a stub imports.
 */
export function serverModule(from: string, outDir: string, server: string, module: string = LOCAL.index): string {
  return modulePath(from, path.join(outDir, server, module));
}
