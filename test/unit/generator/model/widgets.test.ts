/** model/widgets.ts: each widget and the resource it is served as (test/widgets.test.ts builds them). */
import { describe, expect, it } from "vitest";
import { formatDiagnostic, sortDiagnostics } from "../../../../src/common/diagnostics.js";
import { parseManifestText } from "../../../../src/generator/load/loadManifest.js";
import { buildWidgets } from "../../../../src/generator/model/widgets.js";
import { validateManifest } from "../../../../src/generator/validate/validate.js";
import { buildOf, contextOf } from "../../../helpers/model.js";
import { tempProject } from "../../../helpers/tmp.js";

const SERVER = "server: {name: s, version: '1'}\n";
const TOOLS = "tools:\n  - {name: show_gifts, inputSchema: {type: object}, widget: gift-list}\n  - {name: other, inputSchema: {type: object}}\n";

describe("a widget", () => {
  it("is a widget model and a resource that no handler serves, named after it", async () => {
    const dir = tempProject({ "ui/gifts.ts": "" });
    const ctx = await contextOf(
      `${SERVER}${TOOLS}widgets:\n  - {name: gift-list, uri: 'ui://s/gifts.html', entry: ui/gifts.ts, title: Gifts, description: The list, csp: {connectDomains: ['https://api.example']}}\n`,
      dir,
    );
    const { widgets, resources } = await buildWidgets(ctx);
    expect(ctx.diagnostics).toEqual([]);
    const { entry, ...widget } = widgets[0]!;
    expect(entry.endsWith("gifts.ts")).toBe(true);
    expect(widget).toEqual({
      name: "gift-list",
      uri: "ui://s/gifts.html",
      title: "Gifts",
      sdk: "mcpgen",
      typeName: "GiftList",
      fileName: "giftList",
      tools: ["show_gifts"],
      csp: { connectDomains: ["https://api.example"], resourceDomains: [], frameDomains: [], baseUriDomains: [] },
    });
    expect(resources).toEqual([
      {
        name: "gift-list",
        uri: "ui://s/gifts.html",
        description: "The list",
        wire: {
          uri: "ui://s/gifts.html",
          name: "gift-list",
          title: "Gifts",
          description: "The list",
          mimeType: "text/html;profile=mcp-app",
          _meta: { ui: { csp: { connectDomains: ["https://api.example"] } } },
        },
        widget: "gift-list",
        needsHandler: false,
        readerName: "readGiftList",
        handlerName: "giftList",
      },
    ]);
  });

  it.each([
    ["", "mcpgen"],
    ["sdk: mcpgen, ", "mcpgen"],
    ["sdk: ext-apps, ", "ext-apps"],
  ] as const)("is built on the bridge its sdk names (%s)", async (key, sdk) => {
    const ctx = await contextOf(
      `${SERVER}${TOOLS}widgets:\n  - {${key}name: gift-list, uri: 'ui://s/gifts.html', entry: ui/gifts.ts}\n`,
      tempProject({ "ui/gifts.ts": "" }),
    );
    const { widgets } = await buildWidgets(ctx);
    expect(ctx.diagnostics).toEqual([]);
    expect(widgets[0]?.sdk).toBe(sdk);
  });

  it("refuses an sdk it does not know, with the nearest one", async () => {
    const yaml = `${SERVER}widgets:\n  - {name: w, uri: 'ui://s/w.html', entry: w.ts, sdk: ext-app}\n`;
    const loaded = parseManifestText(yaml, "/nowhere/m.yaml", "m.yaml");
    if (!loaded.ok) throw new Error(loaded.diagnostics.map(formatDiagnostic).join("\n"));
    const { diagnostics } = await validateManifest(loaded.manifest);
    expect(sortDiagnostics(diagnostics).map((d) => `${d.line}:${d.col} ${d.code}: ${d.message}`)).toContain(
      '3:55 invalid-value: `sdk` must be one of "mcpgen", "ext-apps", not "ext-app" (did you mean "ext-apps"?)',
    );
  });

  it("reports an entry outside the manifest's folder and makes neither a widget nor a resource", async () => {
    const ctx = await contextOf(`${SERVER}widgets:\n  - {name: w, uri: 'ui://s/w.html', entry: ../w.ts}\n`, tempProject());
    const { widgets, resources } = await buildWidgets(ctx);
    expect(widgets).toEqual([]);
    expect(resources).toEqual([]);
    expect(ctx.diagnostics.map((d) => d.code)).toEqual(["widget-build"]);
  });

  it("claims its client type: a def of that name clashes", async () => {
    const dir = tempProject({ "w.ts": "" });
    const { diagnostics } = await buildOf(`${SERVER}defs:\n  CardWidget: {type: object}\nwidgets:\n  - {name: card, uri: 'ui://s/w.html', entry: w.ts}\n`, dir);
    expect(diagnostics).toEqual([
      'm.yaml:5:12: error identifier-collision: widget "card" (its client type) and def "CardWidget" (line 3) both become the TypeScript type name CardWidget; rename one of them',
    ]);
  });
});
