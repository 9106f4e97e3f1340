/**
 * Widgets from the manifest: their diagnostics, the build (esbuild errors at the widget's own
 * file:line:col, the HTML and its CSP), the output checks compiled at generate time, and the run
 * records (an edit of a widget's source is seen without --no-cache).
 */
import { readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { inlineScript } from "../src/generator/bundle/inlineScript.js";
import { widgetHtml } from "../src/generator/bundle/widgets.js";
import { formatDiagnostic } from "../src/common/diagnostics.js";
import { runPipeline } from "../src/generator/pipeline.js";
import type { WidgetModel } from "../src/generator/model/types.js";
import { checks } from "../examples/gift-server/generated/gift-server/widgets/gifts.checks.js";
import { ROOT } from "./helpers/cli.js";
import { linkNodeModules, tempProject } from "./helpers/tmp.js";

const server = "server: {name: w, version: '1'}\n";
const CARD =
  'import { createCardWidget } from "../../out/w/widgets/card.js";\nconst widget = createCardWidget();\nwidget.onToolResult((r) => { document.body.textContent = r.ok ? String(r.output.n) : r.error.message; });\nawait widget.connect();\n';

/** A project with node_modules (for the bundles) and these files. */
function project(files: Record<string, string>): string {
  const dir = tempProject({ "package.json": '{"type":"module"}', ...files });
  linkNodeModules(dir);
  return dir;
}

async function generate(dir: string, cache = false) {
  const result = await runPipeline({ manifests: ["m"], out: "out", cwd: dir, mode: "write", cache });
  return result.diagnostics.map(formatDiagnostic);
}

const TOOL =
  "  - name: a\n    inputSchema: {type: object}\n    outputSchema: {type: object, properties: {n: {type: integer}}, required: [n]}\n    widget: card\n";
const WIDGET = "widgets:\n  - name: card\n    uri: ui://w/card.html\n    entry: widgets/card.ts\n";

describe("widget diagnostics", () => {
  it.each([
    [
      "a tool naming no widget",
      `${server}tools:\n  - name: a\n    inputSchema: {type: object}\n    widget: nope\n`,
      ["m/m.yaml:5:13: error unknown-widget: `widget: nope` names no widget; declare it under `widgets:` (name, uri, entry)"],
    ],
    [
      "a widget no tool opens, an app-only tool on a server without widgets",
      `${server}tools:\n  - name: a\n    inputSchema: {type: object}\n    visibility: [app]\n`,
      [
        "m/m.yaml:5:17: warning app-only-tool: `visibility: [app]` hides the tool from the model, but this server has no widget to call it: add a widget under `widgets:`, or add `model`",
      ],
    ],
    [
      "CSP entries that are not origins, and _meta.ui written by hand beside widget",
      `${server}tools:\n${TOOL}    _meta: {ui: {resourceUri: ui://x}}\n${WIDGET}    csp: {resourceDomains: ["https://cdn.example.com/lib", "https://ok.example.com", "* 'unsafe-eval'"]}\n`,
      [
        "m/m.yaml:7:13: error invalid-value: `_meta.ui` is written by mcpgen from `widget` and `visibility`: set those, or `_meta.ui` by hand, not both",
        'm/m.yaml:12:29: error invalid-csp: "https://cdn.example.com/lib" is not an origin: write the scheme, host and port only, such as "https://api.example.com", "https://*.example.com" or "wss://live.example.com:8443" (no path, no quotes or keywords)',
        `m/m.yaml:12:86: error invalid-csp: "* 'unsafe-eval'" is not an origin: write the scheme, host and port only, such as "https://api.example.com", "https://*.example.com" or "wss://live.example.com:8443" (no path, no quotes or keywords)`,
      ],
    ],
    [
      "an entry that does not exist",
      `${server}tools:\n${TOOL}${WIDGET.replace("widgets/card.ts", "widgets/gone.ts")}`,
      ['m/m.yaml:10:12: error widget-build: file "widgets/gone.ts" does not exist (paths are relative to the manifest\'s folder)'],
    ],
    [
      "an entry outside the manifest's folder",
      `${server}tools:\n${TOOL}${WIDGET.replace("widgets/card.ts", "../card.ts")}`,
      ['m/m.yaml:10:12: error widget-build: file "../card.ts" resolves outside the manifest\'s folder; copy it next to the manifest'],
    ],
  ])("%s", async (_, manifest, want) => {
    const dir = project({ "m/m.yaml": manifest, "m/widgets/card.ts": CARD, "card.ts": "" });
    expect(await generate(dir)).toEqual(want);
  });

  it("reports a widget's code errors at their own file:line:col, and writes nothing", async () => {
    const dir = project({
      "m/m.yaml": `${server}tools:\n${TOOL}${WIDGET}`,
      "m/widgets/card.ts": 'import { createCardWidget } from "../../out/w/widgets/card.js";\nconst widget = createCardWidget(;\n',
    });
    expect(await generate(dir)).toEqual(['m/widgets/card.ts:2:33: error widget-build: widget card: Unexpected ";"']);
    const missing = project({ "m/m.yaml": `${server}tools:\n${TOOL}${WIDGET}`, "m/widgets/card.ts": 'import "./nowhere.js";\n' });
    expect(await generate(missing)).toEqual(['m/widgets/card.ts:1:8: error widget-build: widget card: Could not resolve "./nowhere.js"']);
  }, 30_000);

  it("builds the widget into its resource's HTML; an edit of its source is seen by the next run without --no-cache", async () => {
    const dir = project({ "m/m.yaml": `${server}tools:\n${TOOL}${WIDGET}`, "m/widgets/card.ts": CARD });
    expect(await generate(dir, true)).toEqual([]);
    const definition = () => readFileSync(path.join(dir, "out/w/definition.ts"), "utf8");
    // The HTML as JSON text in definition.ts (where "</" is written "<\\/").
    expect(definition()).toContain("<title>card<\\/title>");
    expect(definition()).not.toContain("edited-by-the-test");
    writeFileSync(path.join(dir, "m/widgets/card.ts"), CARD.replace("String(r.output.n)", '"edited-by-the-test"'));
    expect(await generate(dir, true)).toEqual([]);
    expect(definition()).toContain("edited-by-the-test");
  }, 30_000);
});

describe("the widget's HTML", () => {
  const widget: WidgetModel = {
    name: "card",
    uri: "ui://w/card.html",
    entry: "/x.ts",
    sdk: "mcpgen",
    typeName: "Card",
    fileName: "card",
    tools: [],
    csp: { connectDomains: ["https://api.example.com"], resourceDomains: ["https://cdn.example.com"], frameDomains: [], baseUriDomains: [] },
    title: "A <card> & more",
  };

  it("allows its own script and style by hash, the declared origins, and nothing else", () => {
    // The hashes are openssl's: printf 'console.log(1)' | openssl dgst -sha256 -binary | base64
    const html = widgetHtml(widget, "console.log(1)", "body{}");
    const policy = /content="([^"]+)"/.exec(html.split("\n").find((l) => l.includes("Content-Security-Policy"))!)![1]!;
    expect(policy.split("; ")).toEqual([
      "default-src 'none'",
      "script-src 'sha256-CihokcEcBW4atb/CW/XWsvWwbTjqwQlE9nj9ii5ww5M=' https://cdn.example.com",
      "style-src 'sha256-fJgEClQWV1hGkK4qHMO0KotTsVnMYMXTq7/suurGyUo=' https://cdn.example.com",
      "img-src data: blob: https://cdn.example.com",
      "font-src data: https://cdn.example.com",
      "media-src data: blob: https://cdn.example.com",
      "connect-src https://api.example.com",
      "frame-src 'none'",
      "base-uri 'self'",
      "form-action 'none'",
    ]);
    expect(html).toContain("<title>A &lt;card&gt; &amp; more</title>");
    expect(html).toContain('<script type="module">console.log(1)</script>');
    expect(widgetHtml(widget, "x", "")).toContain("style-src 'none' https://cdn.example.com;");
  });
});

describe("code inlined in a <script> element", () => {
  // Each: code whose value holds `<!--` or `</script`, in a string, a regular expression (with and without u), a comment, after a backslash.
  it.each([
    ["a string", 'return "<!--<script>x</script>";'],
    ["a string, any case", 'return "<!--<SCRIPT></SCRIPT>";'],
    ["an escaped backslash before it", 'return "\\\\<!--";'],
    ["an identity escape before it", 'return "\\<!--\\</script";'],
    ["a regular expression", 'return /<!--<script>/.test("<!--<script>") + /a<!--b/u.test("a<!--b") + /<\\/script>/.test("</script>");'],
    ["a regular expression with an identity escape", 'return /\\<!--/.test("<!--");'],
    ["a comment", "/* <!-- </script> */ return 1;"],
  ])("%s: keeps its value, and holds no <!-- nor </script", (_, code) => {
    const escaped = inlineScript(code);
    expect(escaped).not.toMatch(/<!--|<\/script/i);
    expect(new Function(escaped)()).toEqual(new Function(code)());
  });
});

describe("output checks compiled at generate time", () => {
  it("check the gift widget's outputs as the server's validator would, in words", () => {
    expect(checks.suggest_gifts({ gifts: [{ name: "Dice set", price: 20 }] })).toBeUndefined();
    expect(checks.suggest_gifts({ gifts: [{ name: "Dice set", price: "cheap" }] })).toBe("Property 'gifts[0].price' must be number");
    expect(checks.gift_details({ name: "x", description: "y", category: "toys" })).toBe('Property \'category\' must be one of "boardgames", "books", "games"');
  });

  it("run patterns there too, on RE2JS where they need it, with no code compiled at run time", async () => {
    const dir = project({
      "m/m.yaml": `${server}tools:\n  - name: a\n    inputSchema: {type: object}\n    outputSchema: {type: object, properties: {n: {type: integer}, code: {type: string, pattern: '^(a+)+$'}, id: {type: string, pattern: '^[a-z]+$'}}, required: [n]}\n    widget: card\n${WIDGET}`,
      "m/widgets/card.ts": CARD,
    });
    expect(await generate(dir)).toEqual([
      'm/m.yaml:5:97: warning pattern-backtracking: pattern "^(a+)+$" can take exponential time in backtracking regex engines (JavaScript\'s RegExp, which most MCP clients\' validators use): (a+)+ can match a run of "a" in many ways, so such input plus one character that fails can stall them. mcpgen\'s server and client match it in linear time; rewrite it so that no two quantifiers can match the same text',
    ]);
    const text = readFileSync(path.join(dir, "out/w/widgets/card.checks.ts"), "utf8");
    expect(text).toContain('import { codePointLength as codePointLength$1, describeErrors } from "@mcpgen/runtime/shared";');
    // RE2JS comes with the engine the checks make at load: they run synchronously from the start.
    expect(text).toContain('import { patternEngineOnRe2 } from "@mcpgen/runtime/shared/re2";');
    expect(text).not.toMatch(/new Function|eval\(/);
    const module = (await import(path.join(dir, "out/w/widgets/card.checks.ts"))) as { checks: Record<string, (v: unknown) => string | undefined> };
    expect(module.checks.a!({ n: 1, code: "a".repeat(5000) + "!" })).toBe("Property 'code' must match pattern \"^(a+)+$\"");
    expect(module.checks.a!({ n: 1, id: "abc", code: "aaa" })).toBeUndefined();
  }, 30_000);
});

describe("widget output checks in vendor mode", () => {
  it("import the runtime's copy under _runtime/, as the widget's client does, not the package", async () => {
    const dir = project({ "m/m.yaml": `${server}tools:\n${TOOL}${WIDGET}`, "m/widgets/card.ts": CARD });
    const result = await runPipeline({ manifests: ["m"], out: "out", cwd: dir, mode: "write", cache: false, runtime: "vendor" });
    expect(result.diagnostics.map(formatDiagnostic)).toEqual([]);
    const imports = (file: string) => readFileSync(path.join(dir, "out/w/widgets", file), "utf8").match(/^import .*$/gm);
    expect(imports("card.checks.ts")).toEqual(['import { codePointLength as codePointLength$1, describeErrors } from "../../_runtime/shared/index.js";']);
    expect(imports("card.ts")!.join("\n")).toContain('from "../../_runtime/widget/index.js"');
  });
});

describe("the runtime's ext-apps entry as a project's own bundler takes it", () => {
  // The package's exports load its bundled entries (dist/bundle/). Within one bundled file the
  // imports of packages are all evaluated before its code, so zod is made jitless in a chunk of its
  // own: esbuild's output holds module code in evaluation order, and that chunk must come before
  // ext-apps and the MCP client build their zod schemas (zod's probe of `new Function` breaks a
  // view's CSP), as it does when the entry is bundled from the runtime's sources.
  it.each([
    ["the package's exports (dist/bundle/)", []],
    ["the runtime's sources", ["mcpgen-source"]],
  ])("makes zod jitless before ext-apps' modules run: %s", async (_, conditions) => {
    const { build } = await import("esbuild");
    const dir = tempProject({ "entry.js": 'import { createWidget } from "@mcpgen/runtime/widget/ext-apps";\nconsole.log(typeof createWidget);\n' });
    const out = await build({
      entryPoints: [path.join(dir, "entry.js")],
      bundle: true,
      format: "esm",
      platform: "browser",
      write: false,
      nodePaths: [path.join(ROOT, "node_modules")],
      conditions,
      logLevel: "silent",
    });
    const text = out.outputFiles[0]!.text;
    const jitless = text.indexOf("config({ jitless: true })");
    const extApps = text.indexOf("// node_modules/@modelcontextprotocol/ext-apps/");
    const client = text.indexOf("// node_modules/@modelcontextprotocol/client/");
    expect(jitless).toBeGreaterThan(0);
    expect(extApps).toBeGreaterThan(jitless);
    expect(client).toBeGreaterThan(jitless);
  });
});
