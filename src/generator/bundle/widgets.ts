/**
 * Stage 6, bundle: each widget's entry source, with everything it imports (the generated widget
 * client from this very run, taken from memory, CSS included), bundled by esbuild into one
 * self-contained HTML document: inline script and style, and a Content-Security-Policy built from
 * the manifest's `csp` that allows exactly those two (by hash) and the declared origins. The HTML
 * becomes the widget resource's text.
 */
import { createHash } from "node:crypto";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import type { Message, Plugin } from "esbuild";
import type { Diagnostic } from "../../common/diagnostics.js";
import { emitTypes } from "../emit/types.js";
import { emitWidgets } from "../emit/widgets.js";
import { runtimePackageDir } from "../emit/runtime.js";
import { RUNTIME_FOLDER, RUNTIME_PACKAGE, vendoredEntry } from "../model/modules.js";
import type { WidgetHtml } from "../model/definition.js";
import type { ServerModel, WidgetModel } from "../model/types.js";
import { toPosix } from "../../common/paths.js";
import { INLINE_SCRIPT_BUILD, inlineScript } from "./inlineScript.js";

/** mcpgen's package folder: its own dependencies back the generated widget clients' imports. */
const MCPGEN_ROOT = fileURLToPath(new URL("../../..", import.meta.url));

export interface BundleOptions {
  /** The output folder (absolute): imports into `<out>/<server>/` are served from memory. */
  outDir: string;
  /** The project root (absolute): esbuild's working folder, so the output names no absolute path. */
  cwd: string;
}

export interface BundleResult {
  /** Each widget's HTML, by its resource's URI (the definition serves it); absent after an error. */
  widgetHtml?: WidgetHtml;
  /** The files the widgets were built from, outside the output folder (absolute): the run records watch them. */
  sourceFiles: string[];
  diagnostics: Diagnostic[];
}

/** Builds every widget of a model, with its widget clients and the types they import as this run emits them (from memory). */
export async function bundleWidgets(model: ServerModel, options: BundleOptions): Promise<BundleResult> {
  const { build } = await import("esbuild");
  const memory = new Map<string, string>();
  for (const f of [...emitTypes(model), ...emitWidgets(model)]) memory.set(path.join(options.outDir, model.name, f.path), f.content);
  const diagnostics: Diagnostic[] = [];
  const html = new Map<string, string>();
  const sources = new Set<string>();
  for (const [at, widget] of model.widgets.entries()) {
    let result;
    try {
      result = await build({
        entryPoints: [widget.entry],
        absWorkingDir: options.cwd,
        bundle: true,
        write: false,
        outdir: "mcpgen-widget",
        format: "esm",
        platform: "browser",
        target: "es2022",
        minify: true,
        charset: "utf8",
        metafile: true,
        logLevel: "silent",
        ...INLINE_SCRIPT_BUILD,
        plugins: [ownRuntime(options.outDir), fromMemory(memory, options.outDir, options.cwd), zodEnglishOnly],
      });
    } catch (error) {
      const failure = error as { errors?: Message[] };
      if (!failure.errors) throw error;
      diagnostics.push(...failure.errors.map((m) => fromEsbuild(m, widget, at, options.cwd)));
      continue;
    }
    // No `<!--` nor `</script` left anywhere (a manifest string holding `<!--<script>` broke the page).
    const js = inlineScript(
      result.outputFiles
        .filter((f) => f.path.endsWith(".js"))
        .map((f) => f.text)
        .join("\n"),
    );
    const css = result.outputFiles
      .filter((f) => f.path.endsWith(".css"))
      .map((f) => f.text)
      .join("\n");
    // esbuild escapes `</style` in CSS strings; anything left would end the element early.
    if (/<\/style/i.test(css)) {
      diagnostics.push(
        widgetDiagnostic(widget, at, `widget ${widget.name}: the bundle's CSS holds "</style" outside a string, which would break its HTML`, options.cwd),
      );
      continue;
    }
    html.set(widget.uri, widgetHtml(widget, js, css));
    for (const input of Object.keys(result.metafile.inputs)) {
      const abs = path.resolve(options.cwd, input);
      if (!abs.startsWith(options.outDir + path.sep) && !input.includes(":")) sources.add(abs);
    }
  }
  // Widgets that share code fail the same way: each problem once.
  if (diagnostics.length > 0)
    return {
      sourceFiles: [],
      diagnostics: diagnostics.filter(
        (d, i) =>
          diagnostics.findIndex(
            (e) =>
              e.file === d.file && e.line === d.line && e.col === d.col && e.message.replace(/^widget \S+: /, "") === d.message.replace(/^widget \S+: /, ""),
          ) === i,
      ),
    };
  return { widgetHtml: html, sourceFiles: [...sources].sort(), diagnostics };
}

/**
 * The runtime a widget client imports (`@mcpgen/runtime/widget`, or its copy under
 * `<out>/_runtime/` in vendor mode) is bundled from the TypeScript sources of this mcpgen's own
 * `@mcpgen/runtime`: the HTML is the same in both modes and whatever the project has installed.
 */
function ownRuntime(outDir: string): Plugin {
  const src = path.join(runtimePackageDir(), "src");
  const copy = path.join(outDir, RUNTIME_FOLDER) + path.sep;
  return {
    name: "mcpgen-runtime",
    setup(build) {
      build.onResolve({ filter: /^@mcpgen\/runtime\// }, (args) => {
        const entry = vendoredEntry(args.path);
        return entry === undefined ? { errors: [{ text: `${args.path} is not an entry of ${RUNTIME_PACKAGE}` }] } : { path: path.join(src, entry) };
      });
      build.onResolve({ filter: /^\.\.?\// }, (args) => {
        const target = path.resolve(args.resolveDir, args.path);
        return target.startsWith(copy) ? { path: path.join(src, target.slice(copy.length).replace(/\.js$/, ".ts")) } : undefined;
      });
    },
  };
}

/**
 * Imports of this run's generated files (`.js` specifiers of `.ts` files) come from memory, not the
 * disk; packages they import are found from the project root (their folder may not exist yet).
 */
function fromMemory(memory: ReadonlyMap<string, string>, outDir: string, cwd: string): Plugin {
  return {
    name: "mcpgen-generated",
    setup(build) {
      build.onResolve({ filter: /^[^./]/, namespace: "mcpgen" }, async (args) => {
        if (args.pluginData === "from-root") return undefined;
        // The project's copy first; else mcpgen's own (a new project, before its npm install).
        let found = await build.resolve(args.path, { kind: args.kind, resolveDir: cwd, pluginData: "from-root" });
        if (found.errors.length) {
          const own = await build.resolve(args.path, { kind: args.kind, resolveDir: MCPGEN_ROOT, pluginData: "from-root" });
          if (!own.errors.length) found = own;
        }
        return found.errors.length ? { errors: found.errors } : { path: found.path, ...(found.namespace === "file" ? {} : { namespace: found.namespace }) };
      });
      build.onResolve({ filter: /^\.\.?\// }, (args) => {
        const target = path.resolve(args.resolveDir, args.path);
        if (!target.startsWith(outDir + path.sep)) return undefined;
        const ts = target.replace(/\.js$/, ".ts");
        if (memory.has(ts)) return { path: ts, namespace: "mcpgen" };
        return { errors: [{ text: `${args.path} is not a file mcpgen generates in ${path.relative(process.cwd(), outDir) || "."}` }] };
      });
      build.onLoad({ filter: /.*/, namespace: "mcpgen" }, (args) => ({ contents: memory.get(args.path)!, loader: "ts", resolveDir: path.dirname(args.path) }));
    },
  };
}

/**
 * zod's messages in English only: `zod`'s namespace re-exports all of its locales (about 260 KB
 * minified, 40% of a widget), which the view's packages (the MCP Apps App, the SDK) never switch
 * to. A widget that wants another imports it by its own path (`zod/v4/locales/fr.js`), which this
 * leaves alone; only `z.locales.<other>` is gone.
 */
const zodEnglishOnly: Plugin = {
  name: "mcpgen-zod-english",
  setup(build) {
    build.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      /[\\/]zod[\\/]v4[\\/](classic|core)[\\/]/.test(args.importer)
        ? { path: path.resolve(args.resolveDir, args.path), namespace: "mcpgen-zod-locales" }
        : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: "mcpgen-zod-locales" }, (args) => ({
      contents: 'export { default as en } from "./en.js";',
      loader: "js",
      resolveDir: path.dirname(args.path),
    }));
  },
};

/**
 * The widget's HTML: its script and style inline, under a Content-Security-Policy that allows
 * them by hash, nothing inline besides, no `eval`, and only the origins the manifest declares.
 */
export function widgetHtml(widget: WidgetModel, js: string, css: string): string {
  const hash = (text: string) => `'sha256-${createHash("sha256").update(text, "utf8").digest("base64")}'`;
  const list = (origins: readonly string[], none: string) => (origins.length ? origins.join(" ") : none);
  const resources = widget.csp.resourceDomains;
  const policy = [
    "default-src 'none'",
    `script-src ${hash(js)}${resources.length ? ` ${resources.join(" ")}` : ""}`,
    `style-src ${css ? hash(css) : "'none'"}${resources.length ? ` ${resources.join(" ")}` : ""}`,
    `img-src data: blob:${resources.length ? ` ${resources.join(" ")}` : ""}`,
    `font-src data:${resources.length ? ` ${resources.join(" ")}` : ""}`,
    `media-src data: blob:${resources.length ? ` ${resources.join(" ")}` : ""}`,
    `connect-src ${list(widget.csp.connectDomains, "'none'")}`,
    `frame-src ${list(widget.csp.frameDomains, "'none'")}`,
    `base-uri ${list(widget.csp.baseUriDomains, "'self'")}`,
    "form-action 'none'",
  ].join("; ");
  const title = escapeHtml(widget.title ?? widget.name);
  return [
    "<!doctype html>",
    '<html lang="en">',
    "<head>",
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<meta http-equiv="Content-Security-Policy" content="${escapeHtml(policy)}">`,
    `<title>${title}</title>`,
    ...(css ? [`<style>${css}</style>`] : []),
    "</head>",
    "<body>",
    `<script type="module">${js}</script>`,
    "</body>",
    "</html>",
    "",
  ].join("\n");
}

/** Text as HTML element content or attribute value. */
export function escapeHtml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

/** A problem with a widget's code, at its entry (the manifest's `widgets[i].entry` is its path). */
function widgetDiagnostic(widget: WidgetModel, at: number, message: string, cwd: string): Diagnostic {
  return { severity: "error", code: "widget-build", message, file: shown(widget.entry, cwd), line: 1, col: 1, path: `widgets[${at}].entry` };
}

/** An esbuild error at its own file:line:col (the widget's source, or a generated file), in mcpgen's form. */
function fromEsbuild(message: Message, widget: WidgetModel, at: number, cwd: string): Diagnostic {
  const location = message.location;
  const missing = /^Could not resolve "(@modelcontextprotocol\/ext-apps|re2js|ajv)[^"]*"/.exec(message.text);
  // A package the widget client needs: say which to install, not esbuild's advice to mark it external.
  const text = missing
    ? `${message.text}: install it in the project (npm install ${missing[1]}); the generated widget clients need it`
    : `${message.text}${message.notes.length ? ` (${message.notes.map((n) => n.text).join("; ")})` : ""}`;
  const diagnostic = widgetDiagnostic(widget, at, `widget ${widget.name}: ${text}`, cwd);
  if (!location) return diagnostic;
  // Files served from memory (this run's generated code) are named by their path on disk.
  const file = location.file.replace(/^mcpgen:/, "");
  return { ...diagnostic, file: shown(path.resolve(cwd, file), cwd), line: location.line, col: location.column + 1 };
}

function shown(file: string, cwd: string): string {
  return toPosix(path.relative(cwd, file));
}
