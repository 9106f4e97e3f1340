/**
 * Stage 2c, validate what only makes sense across fields: URI templates, prompt placeholders, and
 * x-mcp-header annotations.
 */
import type { Diagnostic } from "../../common/diagnostics.js";
import { diagnosticAt, type LoadedManifest } from "../load/loadManifest.js";
import { scanParamHeaders } from "@mcpgen/runtime/codegen";
import { PLACEHOLDER } from "@mcpgen/runtime/codegen";
import { uriTemplateProblems } from "./uriTemplates.js";
import { isPlainObject } from "../../common/objects.js";
import { didYouMean } from "../../common/didYouMean.js";

export function validateSemantics(manifest: LoadedManifest): Diagnostic[] {
  const out: Diagnostic[] = [];
  const root = manifest.value as Record<string, unknown>;

  // x-mcp-header (2026-07-28): an invalid annotation makes HTTP clients drop the whole tool.
  (Array.isArray(root.tools) ? root.tools : []).forEach((tool, i) => {
    if (!isPlainObject(tool)) return;
    for (const problem of scanParamHeaders(tool.inputSchema).problems)
      out.push(diagnosticAt(manifest, ["tools", i, "inputSchema", ...problem.at], "invalid-value", problem.message));
    // Wrapped under a key other than `properties`, every annotation inside counts as misplaced.
    for (const problem of scanParamHeaders({ output: tool.outputSchema }).problems)
      out.push(
        diagnosticAt(
          manifest,
          ["tools", i, "outputSchema", ...problem.at.slice(1)],
          "invalid-value",
          "x-mcp-header marks tool arguments: it has no meaning in an outputSchema",
        ),
      );
  });
  if (isPlainObject(root.defs)) {
    for (const [name, def] of Object.entries(root.defs)) {
      // Defs are reached through $ref, where x-mcp-header is never valid.
      for (const problem of scanParamHeaders({ def }).problems)
        out.push(
          diagnosticAt(
            manifest,
            ["defs", name, ...problem.at.slice(1)],
            "invalid-value",
            "x-mcp-header cannot be in a def: a property reached through $ref cannot be mirrored in a header; put the property in the tool's inputSchema",
          ),
        );
    }
  }

  const checkComplete = (value: unknown, at: (string | number)[]) => {
    if (value === "handler") return;
    if (Array.isArray(value) && value.every((v) => typeof v === "string")) return;
    out.push(diagnosticAt(manifest, at, "invalid-value", '`complete` is a list of strings (the values offered) or "handler" (a completion handler answers)'));
  };
  (Array.isArray(root.resourceTemplates) ? root.resourceTemplates : []).forEach((template, i) => {
    if (!isPlainObject(template) || typeof template.uriTemplate !== "string") return;
    const problems = uriTemplateProblems(template.uriTemplate);
    for (const problem of problems) {
      out.push(
        diagnosticAt(
          manifest,
          ["resourceTemplates", i, "uriTemplate"],
          "invalid-uri-template",
          `uriTemplate ${JSON.stringify(template.uriTemplate)}: ${problem}`,
        ),
      );
    }
    if (isPlainObject(template.complete) && problems.length === 0) {
      const variables = [...template.uriTemplate.matchAll(/\{([A-Za-z0-9_]+)\}/g)].map((m) => m[1]!);
      for (const [name, value] of Object.entries(template.complete)) {
        if (!variables.includes(name))
          out.push(
            diagnosticAt(
              manifest,
              ["resourceTemplates", i, "complete", name],
              "invalid-value",
              `\`complete\` names ${JSON.stringify(name)}, which is not a variable of ${template.uriTemplate} (variables: ${variables.join(", ")})`,
              { at: "key" },
            ),
          );
        else checkComplete(value, ["resourceTemplates", i, "complete", name]);
      }
    }
  });
  (Array.isArray(root.prompts) ? root.prompts : []).forEach((prompt, i) => {
    if (!isPlainObject(prompt) || !Array.isArray(prompt.arguments)) return;
    prompt.arguments.forEach((argument, j) => {
      if (isPlainObject(argument) && argument.complete !== undefined) checkComplete(argument.complete, ["prompts", i, "arguments", j, "complete"]);
    });
  });

  (Array.isArray(root.prompts) ? root.prompts : []).forEach((prompt, i) => {
    if (!isPlainObject(prompt) || !Array.isArray(prompt.messages)) return;
    const declared = new Set(
      (Array.isArray(prompt.arguments) ? prompt.arguments : []).flatMap((a) => (isPlainObject(a) && typeof a.name === "string" ? [a.name] : [])),
    );
    prompt.messages.forEach((message, j) => {
      if (!isPlainObject(message) || !isPlainObject(message.content)) return;
      const content = message.content;
      const resource = isPlainObject(content.resource) ? content.resource : {};
      const texts: [string[], unknown][] = [
        [["content", "text"], content.text],
        [["content", "uri"], content.type === "resource_link" ? content.uri : undefined],
        [["content", "resource", "text"], resource.text],
        [["content", "resource", "uri"], resource.uri],
      ];
      for (const [path, text] of texts) {
        if (typeof text !== "string") continue;
        for (const m of text.matchAll(PLACEHOLDER)) {
          const name = m[1]!;
          if (!declared.has(name)) {
            const near = didYouMean(name, declared);
            const fix = near
              ? `did you mean {{${near}}}? (declared: ${[...declared].join(", ")})`
              : declared.size
                ? `declared: ${[...declared].join(", ")}; add it under \`arguments:\`, or use one of these`
                : "declare it under `arguments:`";
            out.push(
              diagnosticAt(
                manifest,
                ["prompts", i, "messages", j, ...path],
                "unknown-placeholder",
                `placeholder {{${name}}} names no argument of prompt ${JSON.stringify(prompt.name)}; ${fix}`,
              ),
            );
          }
        }
      }
    });
  });
  out.push(...checkWidgets(manifest));
  return out;
}

/**
 * ChatGPT's access aliases written by hand in a tool's `_meta` that say otherwise than its
 * visibility (`visibility` as written, or the default of a tool that opens a widget): mcpgen
 * serves the aliases from the visibility on a server with widgets, so the hand-written value is
 * not what hosts see; on a server without, the two would tell hosts different things.
 */
function aliasContradictions(manifest: LoadedManifest, tool: Record<string, unknown>, i: number, serverHasWidgets: boolean): Diagnostic[] {
  if (!isPlainObject(tool._meta)) return [];
  const written = Array.isArray(tool.visibility) ? tool.visibility.filter((v): v is string => typeof v === "string") : undefined;
  if (written === undefined && typeof tool.widget !== "string") return [];
  const visibility = written ?? ["model", "app"];
  const shown = written === undefined ? "the default visibility [model, app] (the tool opens a widget)" : `\`visibility: [${written.join(", ")}]\``;
  const out: Diagnostic[] = [];
  for (const [key, wanted] of Object.entries(accessAliases(visibility))) {
    if (!Object.hasOwn(tool._meta, key) || tool._meta[key] === wanted) continue;
    const outcome = serverHasWidgets ? `mcpgen serves ${JSON.stringify(wanted)} from the visibility` : `it should be ${JSON.stringify(wanted)}`;
    out.push(
      diagnosticAt(
        manifest,
        ["tools", i, "_meta", key],
        "alias-contradiction",
        `\`${key}: ${JSON.stringify(tool._meta[key])}\` contradicts ${shown}: ${outcome}; remove the alias (mcpgen writes ChatGPT's aliases from \`visibility\`), or change \`visibility\``,
        { at: "key", severity: "warning" },
      ),
    );
  }
  return out;
}

/**
 * Widgets (MCP Apps views) and the tools that open or call them: a tool names a widget that
 * exists, every widget is opened by some tool, an app-only tool has a view to call it, and CSP
 * entries are origins (they are written into the view's Content-Security-Policy).
 */
function checkWidgets(manifest: LoadedManifest): Diagnostic[] {
  const out: Diagnostic[] = [];
  const root = manifest.value as Record<string, unknown>;
  const widgets = (Array.isArray(root.widgets) ? root.widgets : []).filter(isPlainObject);
  const tools = Array.isArray(root.tools) ? root.tools : [];
  const names = widgets.flatMap((w) => (typeof w.name === "string" ? [w.name] : []));
  const opened = new Set<string>();
  tools.forEach((tool, i) => {
    if (!isPlainObject(tool)) return;
    if (typeof tool.widget === "string") {
      if (names.includes(tool.widget)) opened.add(tool.widget);
      else
        out.push(
          diagnosticAt(
            manifest,
            ["tools", i, "widget"],
            "unknown-widget",
            `\`widget: ${tool.widget}\` names no widget; ${names.length ? `declared widgets: ${names.join(", ")}` : "declare it under `widgets:` (name, uri, entry)"}`,
          ),
        );
    }
    if (Array.isArray(tool.visibility)) {
      if (tool.visibility.length === 0)
        out.push(
          diagnosticAt(
            manifest,
            ["tools", i, "visibility"],
            "invalid-value",
            "`visibility` lists who may call the tool: model, app or both; an empty list hides it from everyone (remove the tool instead)",
          ),
        );
      else if (!tool.visibility.includes("model") && widgets.length === 0) {
        out.push(
          diagnosticAt(
            manifest,
            ["tools", i, "visibility"],
            "app-only-tool",
            "`visibility: [app]` hides the tool from the model, but this server has no widget to call it: add a widget under `widgets:`, or add `model`",
            { severity: "warning" },
          ),
        );
      }
    }
    out.push(...aliasContradictions(manifest, tool, i, widgets.length > 0));
    if ((tool.widget !== undefined || tool.visibility !== undefined) && isPlainObject(tool._meta) && tool._meta.ui !== undefined) {
      out.push(
        diagnosticAt(
          manifest,
          ["tools", i, "_meta", "ui"],
          "invalid-value",
          "`_meta.ui` is written by mcpgen from `widget` and `visibility`: set those, or `_meta.ui` by hand, not both",
          { at: "key" },
        ),
      );
    }
  });
  const uris = new Set((Array.isArray(root.resources) ? root.resources : []).flatMap((r) => (isPlainObject(r) && typeof r.uri === "string" ? [r.uri] : [])));
  (Array.isArray(root.widgets) ? root.widgets : []).forEach((widget, i) => {
    if (!isPlainObject(widget)) return;
    if (typeof widget.name === "string" && !opened.has(widget.name)) {
      out.push(
        diagnosticAt(
          manifest,
          ["widgets", i, "name"],
          "widget-unused",
          `no tool opens widget ${JSON.stringify(widget.name)}: add \`widget: ${widget.name}\` to the tool whose result it shows (app-visible tools can still be called from other widgets)`,
          { severity: "warning" },
        ),
      );
    }
    if (typeof widget.uri === "string" && uris.has(widget.uri)) {
      out.push(
        diagnosticAt(
          manifest,
          ["widgets", i, "uri"],
          "duplicate-name",
          `widget uri ${JSON.stringify(widget.uri)} is also a resource's uri; each resource and widget needs its own`,
        ),
      );
    }
    if (isPlainObject(widget.csp)) {
      for (const [key, list] of Object.entries(widget.csp)) {
        if (!Array.isArray(list)) continue;
        list.forEach((origin, j) => {
          if (typeof origin === "string" && !isCspOrigin(origin)) {
            out.push(
              diagnosticAt(
                manifest,
                ["widgets", i, "csp", key, j],
                "invalid-csp",
                `${JSON.stringify(origin)} is not an origin: write the scheme, host and port only, such as "https://api.example.com", "https://*.example.com" or "wss://live.example.com:8443" (no path, no quotes or keywords)`,
              ),
            );
          }
        });
      }
    }
  });
  return out;
}

/** An origin for a CSP source list: http(s) or ws(s), a host (maybe `*.` a subdomain wildcard), an optional port. */
function isCspOrigin(value: string): boolean {
  return /^(https?|wss?):\/\/(\*\.)?[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?)*(:\d{1,5})?$/.test(value);
}

/**
 * ChatGPT's access aliases of a tool's visibility: `openai/widgetAccessible` (views may call it:
 * includes `app`) and `openai/visibility` (`private`: hidden from the model, no `model`).
 */
export function accessAliases(visibility: readonly string[]): { "openai/widgetAccessible": boolean; "openai/visibility": "public" | "private" } {
  return { "openai/widgetAccessible": visibility.includes("app"), "openai/visibility": visibility.includes("model") ? "public" : "private" };
}
