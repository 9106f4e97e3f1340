/**
 * What changed between two versions of a server's surface (its tools, resources, templates and
 * prompts), each change classified for the two sides that depend on it:
 *
 * - clients (code calling the server, the generated client): breaking when a call that worked may
 *   now fail, or a typed client stops compiling (a tool, resource or prompt removed or renamed, a
 *   new required argument, an input narrowed, an output widened or made optional...);
 * - servers (the handlers implementing it): breaking when handler code must change (a new tool to
 *   implement, an input widened, an output narrowed...).
 *
 * A third class, behaviour, is for changes that break no call but change what clients do on their
 * own: a tool's annotation hints (readOnlyHint decides whether many clients ask before running it).
 */
import type { JsonObject } from "../../common/objects.js";
import { hintDifferences } from "./hints.js";
import { metaBeyondSecurity, securityDifferences } from "./security.js";
import type { Schema } from "./difference.js";
import { schemaDifferences } from "./schemaRows.js";
import { jsonEqual } from "../../common/objects.js";
import { pairRenames } from "./renames.js";
import { switched } from "./switched.js";
import { nameText, type Difference, type DifferenceKind, type Surface } from "./difference.js";

export type { Difference, Surface } from "./difference.js";

export function classify(before: Surface, after: Surface): Difference[] {
  const out: Difference[] = [];
  server(before, after, out);
  tools(before, after, out);
  resources(before, after, out);
  templates(before, after, out);
  prompts(before, after, out);
  switched(before, after, out);
  return out;
}

function index(list: JsonObject[], key: string): Map<string, JsonObject> {
  return new Map(list.map((item) => [nameText(item[key]), item]));
}

const INFO_FIELDS = ["title", "description", "annotations", "icons", "_meta"];

function infoDifferences(kind: DifferenceKind, name: string, a: JsonObject, b: JsonObject, out: Difference[]): void {
  for (const field of INFO_FIELDS) {
    if (field === "annotations" && kind === "tool") out.push(...hintDifferences(name, a.annotations, b.annotations));
    else if (field === "_meta" && kind === "tool" ? !jsonEqual(metaBeyondSecurity(a._meta), metaBeyondSecurity(b._meta)) : !jsonEqual(a[field], b[field]))
      out.push({
        kind,
        name,
        path: field,
        change: `${field === "_meta" ? "meta" : field}-changed`,
        message: `${field} changed`,
        clients: false,
        servers: false,
      });
  }
}

/** serverInfo fields and instructions: what clients show and models read; never breaking. */
function server(before: Surface, after: Surface, out: Difference[]): void {
  if (!before.server || !after.server) return;
  const a = before.server.info;
  const b = after.server.info;
  const name = nameText(b.name ?? a.name ?? "");
  for (const key of [...new Set([...Object.keys(a), ...Object.keys(b)])]) {
    if (jsonEqual(a[key], b[key])) continue;
    const shown = (v: unknown) => (v === undefined ? "(none)" : typeof v === "string" ? JSON.stringify(v) : "(changed)");
    out.push({
      kind: "server",
      name,
      path: `serverInfo.${key}`,
      change: `server-${key === "version" ? "version" : "info"}-changed`,
      message: `${key} ${shown(a[key])} -> ${shown(b[key])}`,
      clients: false,
      servers: false,
    });
  }
  if (before.server.instructions !== after.server.instructions) {
    out.push({ kind: "server", name, path: "instructions", change: "instructions-changed", message: "instructions changed", clients: false, servers: false });
  }
}

function tools(before: Surface, after: Surface, out: Difference[]): void {
  const a = index(before.tools, "name");
  const b = index(after.tools, "name");
  const removed = [...a.values()].filter((t) => !b.has(nameText(t.name)));
  const added = [...b.values()].filter((t) => !a.has(nameText(t.name)));
  const renames = new Map(pairRenames(removed, added).map((r) => [r.from, r]));
  const renamedTo = new Set([...renames.values()].map((r) => r.to));
  for (const [name, tool] of a) {
    const next = b.get(name);
    if (next !== undefined) {
      toolDifferences(name, tool, next, out);
      continue;
    }
    const rename = renames.get(name);
    if (rename === undefined) {
      out.push({ kind: "tool", name, path: "", change: "tool-removed", message: "tool removed: calls to it fail", clients: true, servers: false });
      continue;
    }
    out.push({
      kind: "tool",
      name,
      path: "",
      change: "tool-renamed",
      message: rename.same
        ? `renamed to ${rename.to}? (same schemas): calls by the old name fail`
        : `renamed to ${rename.to}? (alike: ${rename.alike.join(", ")}): calls by the old name fail; its other changes are listed under ${rename.to}`,
      clients: true,
      servers: true,
    });
    // What else changed, under the new name, each with its own verdict.
    toolDifferences(rename.to, tool, b.get(rename.to)!, out);
  }
  for (const name of added.map((t) => nameText(t.name))) {
    if (renamedTo.has(name)) continue;
    out.push({ kind: "tool", name, path: "", change: "tool-added", message: "tool added: a handler to write", clients: false, servers: true });
  }
}

/** The changes of one tool present on both sides (under `name`, its name after). */
function toolDifferences(name: string, tool: JsonObject, next: JsonObject, out: Difference[]): void {
  schemaDifferences(name, "inputSchema", tool.inputSchema as Schema, next.inputSchema as Schema, "input", out);
  const outA = tool.outputSchema as Schema | undefined;
  const outB = next.outputSchema as Schema | undefined;
  if (outA === undefined && outB !== undefined)
    out.push({
      kind: "tool",
      name,
      path: "outputSchema",
      change: "output-added",
      message: "an outputSchema added: the typed method now resolves to structured output, and the handler must return it",
      clients: true,
      servers: true,
    });
  else if (outA !== undefined && outB === undefined)
    out.push({
      kind: "tool",
      name,
      path: "outputSchema",
      change: "output-removed",
      message: "outputSchema removed: no structured output to rely on",
      clients: true,
      servers: false,
    });
  else if (outA !== undefined && outB !== undefined) schemaDifferences(name, "outputSchema", outA, outB, "output", out);
  const supportA = taskSupport(tool);
  const supportB = taskSupport(next);
  if (supportA !== supportB) {
    out.push({
      kind: "tool",
      name,
      path: "execution.taskSupport",
      change: "task-support-changed",
      message: `taskSupport ${supportA} -> ${supportB}${supportB === "required" ? ": it must now be called as a task" : supportB === "forbidden" ? ": calls as a task are refused" : ""}`,
      clients: supportB === "required" || supportB === "forbidden",
      servers: false,
    });
  }
  // taskSupport compared above (absent is "forbidden"): the rest of execution here.
  if (!jsonEqual(executionBeyondSupport(tool), executionBeyondSupport(next)))
    out.push({ kind: "tool", name, path: "execution", change: "execution-changed", message: "execution changed", clients: false, servers: false });
  out.push(...securityDifferences(name, tool, next));
  infoDifferences("tool", name, tool, next, out);
}

function executionBeyondSupport(tool: JsonObject): JsonObject {
  const { taskSupport: _, ...rest } = typeof tool.execution === "object" && tool.execution !== null ? (tool.execution as JsonObject) : {};
  return rest;
}

function taskSupport(tool: JsonObject): string {
  const execution = tool.execution;
  const support = typeof execution === "object" && execution !== null ? (execution as JsonObject).taskSupport : undefined;
  return typeof support === "string" ? support : "forbidden";
}

function resources(before: Surface, after: Surface, out: Difference[]): void {
  const a = index(before.resources, "uri");
  const b = index(after.resources, "uri");
  for (const [uri, r] of a) {
    const next = b.get(uri);
    if (!next) {
      out.push({
        kind: "resource",
        name: uri,
        path: "",
        change: "resource-removed",
        message: "resource removed: reads of it fail",
        clients: true,
        servers: false,
      });
      continue;
    }
    if (r.name !== next.name)
      out.push({
        kind: "resource",
        name: uri,
        path: "name",
        change: "resource-renamed",
        message: `name ${JSON.stringify(r.name)} -> ${JSON.stringify(next.name)}: the typed reader method is renamed`,
        clients: true,
        servers: true,
      });
    if (!jsonEqual(r.mimeType, next.mimeType))
      out.push({
        kind: "resource",
        name: uri,
        path: "mimeType",
        change: "mime-type-changed",
        message: `mimeType ${JSON.stringify(r.mimeType ?? null)} -> ${JSON.stringify(next.mimeType ?? null)}: its content changes form`,
        clients: true,
        servers: false,
      });
    infoDifferences("resource", uri, r, next, out);
  }
  for (const [uri, r] of b) {
    if (a.has(uri)) continue;
    const handler = !after.staticResources?.has(uri);
    out.push({
      kind: "resource",
      name: uri,
      path: "",
      change: "resource-added",
      message: `resource ${JSON.stringify(r.name)} added${handler ? ": a handler to write" : ""}`,
      clients: false,
      servers: handler,
    });
  }
}

function templates(before: Surface, after: Surface, out: Difference[]): void {
  const a = index(before.resourceTemplates, "uriTemplate");
  const b = index(after.resourceTemplates, "uriTemplate");
  for (const [uri, t] of a) {
    const next = b.get(uri);
    if (!next) {
      out.push({
        kind: "resourceTemplate",
        name: uri,
        path: "",
        change: "template-removed",
        message: "resource template removed: reads of its URIs fail",
        clients: true,
        servers: false,
      });
      continue;
    }
    if (t.name !== next.name)
      out.push({
        kind: "resourceTemplate",
        name: uri,
        path: "name",
        change: "template-renamed",
        message: `name ${JSON.stringify(t.name)} -> ${JSON.stringify(next.name)}: the typed reader method is renamed`,
        clients: true,
        servers: true,
      });
    if (!jsonEqual(t.mimeType, next.mimeType))
      out.push({
        kind: "resourceTemplate",
        name: uri,
        path: "mimeType",
        change: "mime-type-changed",
        message: `mimeType ${JSON.stringify(t.mimeType ?? null)} -> ${JSON.stringify(next.mimeType ?? null)}`,
        clients: true,
        servers: false,
      });
    infoDifferences("resourceTemplate", uri, t, next, out);
  }
  for (const [uri, t] of b) {
    if (!a.has(uri))
      out.push({
        kind: "resourceTemplate",
        name: uri,
        path: "",
        change: "template-added",
        message: `resource template ${JSON.stringify(t.name)} added: a handler to write`,
        clients: false,
        servers: true,
      });
  }
}

function prompts(before: Surface, after: Surface, out: Difference[]): void {
  const a = index(before.prompts, "name");
  const b = index(after.prompts, "name");
  for (const [name, p] of a) {
    const next = b.get(name);
    if (!next) {
      out.push({ kind: "prompt", name, path: "", change: "prompt-removed", message: "prompt removed: gets of it fail", clients: true, servers: false });
      continue;
    }
    const argsA = new Map(argumentsOf(p).map((x) => [nameText(x.name), x]));
    const argsB = new Map(argumentsOf(next).map((x) => [nameText(x.name), x]));
    for (const [arg, x] of argsA) {
      const y = argsB.get(arg);
      const path = `arguments.${arg}`;
      if (!y)
        out.push({
          kind: "prompt",
          name,
          path,
          change: "argument-removed",
          message: `argument ${arg} removed: the typed arguments lose it`,
          clients: true,
          servers: false,
        });
      else if (x.required !== true && y.required === true)
        out.push({ kind: "prompt", name, path, change: "argument-now-required", message: `argument ${arg} is now required`, clients: true, servers: false });
      else if (x.required === true && y.required !== true)
        out.push({
          kind: "prompt",
          name,
          path,
          change: "argument-now-optional",
          message: `argument ${arg} is now optional: the handler may get none`,
          clients: false,
          servers: true,
        });
      else if (!jsonEqual(x, y))
        out.push({
          kind: "prompt",
          name,
          path,
          change: "argument-annotation",
          message: `argument ${arg}: title or description changed`,
          clients: false,
          servers: false,
        });
    }
    for (const [arg, y] of argsB) {
      if (argsA.has(arg)) continue;
      const required = y.required === true;
      out.push({
        kind: "prompt",
        name,
        path: `arguments.${arg}`,
        change: required ? "argument-added-required" : "argument-added",
        message: `${required ? "required " : ""}argument ${arg} added`,
        clients: required,
        servers: false,
      });
    }
    infoDifferences("prompt", name, p, next, out);
  }
  for (const [name] of b) {
    if (a.has(name)) continue;
    const handler = !after.staticPrompts?.has(name);
    out.push({
      kind: "prompt",
      name,
      path: "",
      change: "prompt-added",
      message: `prompt added${handler ? ": a handler to write" : ""}`,
      clients: false,
      servers: handler,
    });
  }
}

function argumentsOf(prompt: JsonObject): JsonObject[] {
  return Array.isArray(prompt.arguments) ? (prompt.arguments as JsonObject[]).filter((x) => typeof x === "object" && x !== null) : [];
}
