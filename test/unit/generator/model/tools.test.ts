/** model/tools.ts: what the model decides about each tool, from small manifests. */
import { describe, expect, it } from "vitest";
import { buildTools } from "../../../../src/generator/model/tools.js";
import type { ToolModel } from "../../../../src/generator/model/types.js";
import { buildOf, contextOf } from "../../../helpers/model.js";

const SERVER = "server: {name: s, version: '1'}\n";

/** The tools of a manifest whose `tools:` holds these flow mappings, and what claiming their names reported. */
async function toolsOf(...tools: string[]): Promise<{ tools: ToolModel[]; diagnostics: string[] }> {
  const ctx = await contextOf(`${SERVER}tools:\n${tools.map((t) => `  - ${t}\n`).join("")}`);
  const built = buildTools(ctx);
  return { tools: built, diagnostics: ctx.diagnostics.map((d) => `${d.line}:${d.col} ${d.code}: ${d.message}`) };
}

describe("a tool's task support", () => {
  const cases: [string, { given: string; want: ToolModel["taskSupport"] }][] = [
    ["no execution: never a task", { given: "{name: t, inputSchema: {type: object}}", want: "forbidden" }],
    ["execution without taskSupport", { given: "{name: t, inputSchema: {type: object}, execution: {}}", want: "forbidden" }],
    ["forbidden", { given: "{name: t, inputSchema: {type: object}, execution: {taskSupport: forbidden}}", want: "forbidden" }],
    ["optional", { given: "{name: t, inputSchema: {type: object}, execution: {taskSupport: optional}}", want: "optional" }],
    ["required", { given: "{name: t, inputSchema: {type: object}, execution: {taskSupport: required}}", want: "required" }],
  ];
  it.each(cases)("%s", async (_, { given, want }) => {
    const { tools } = await toolsOf(given);
    expect(tools[0]!.taskSupport).toBe(want);
  });

  it("keeps execution on the wire as written (tools/list serves it)", async () => {
    const { tools } = await toolsOf("{name: t, inputSchema: {type: object}, execution: {taskSupport: optional}}");
    expect(tools[0]!.wire.execution).toEqual({ taskSupport: "optional" });
  });
});

describe("whether a tool's arguments may be omitted", () => {
  const cases: [string, { given: string; want: boolean }][] = [
    ["no properties", { given: "{type: object}", want: true }],
    ["properties, none required", { given: "{type: object, properties: {a: {type: string}}}", want: true }],
    ["an empty required list", { given: "{type: object, properties: {a: {type: string}}, required: []}", want: true }],
    ["a required property", { given: "{type: object, properties: {a: {type: string}, b: {type: string}}, required: [a]}", want: false }],
  ];
  it.each(cases)("%s", async (_, { given, want }) => {
    const { tools } = await toolsOf(`{name: t, inputSchema: ${given}}`);
    expect(tools[0]!.argumentsOptional).toBe(want);
  });
});

describe("a tool's identifiers", () => {
  const cases: [string, { given: string; want: Pick<ToolModel, "methodName" | "handlerName"> & { input: string; output?: string } }][] = [
    ["snake case", { given: "suggest_gifts", want: { methodName: "suggestGifts", handlerName: "suggestGifts", input: "SuggestGiftsInput" } }],
    ["dots and dashes", { given: "export.notes-now", want: { methodName: "exportNotesNow", handlerName: "exportNotesNow", input: "ExportNotesNowInput" } }],
    [
      "a member every object has: `$` on the client method only",
      { given: "toString", want: { methodName: "toString$", handlerName: "toString", input: "ToStringInput" } },
    ],
    ["`then` (the client would be a thenable)", { given: "then", want: { methodName: "then$", handlerName: "then", input: "ThenInput" } }],
    ["a reserved word", { given: "delete", want: { methodName: "delete$", handlerName: "delete$", input: "DeleteInput" } }],
    ["a leading digit", { given: "3d", want: { methodName: "_3d", handlerName: "_3d", input: "_3dInput" } }],
  ];
  it.each(cases)("%s", async (_, { given, want }) => {
    const { tools, diagnostics } = await toolsOf(`{name: '${given}', inputSchema: {type: object}}`);
    const tool = tools[0]!;
    expect({ methodName: tool.methodName, handlerName: tool.handlerName, input: tool.input.typeName, output: tool.output?.typeName }).toEqual(want);
    expect(diagnostics).toEqual([]);
  });

  it("names the output type only for a tool with outputSchema", async () => {
    const { tools } = await toolsOf("{name: a, inputSchema: {type: object}, outputSchema: {type: object}}", "{name: b, inputSchema: {type: object}}");
    expect(tools.map((t) => t.output?.typeName)).toEqual(["AOutput", undefined]);
  });

  it("reports two tools that become the same names at the second, naming the first's line; the first keeps them", async () => {
    const { tools, diagnostics } = await toolsOf("{name: suggest_gifts, inputSchema: {type: object}}", "{name: suggest-gifts, inputSchema: {type: object}}");
    expect(diagnostics).toEqual([
      '4:12 identifier-collision: tool "suggest-gifts" (its input type) and tool "suggest_gifts" (its input type) (line 3) both become the TypeScript type name SuggestGiftsInput; rename one of them',
      '4:12 identifier-collision: tool "suggest-gifts" and tool "suggest_gifts" (line 3) both become the client method name suggestGifts; rename one of them',
    ]);
    expect(tools.map((t) => t.methodName)).toEqual(["suggestGifts", "suggestGifts"]);
  });

  it("reports a tool whose input type a def already has, naming the def (defs claim their names first)", async () => {
    const { model, diagnostics } = await buildOf(`${SERVER}defs:\n  AInput: {type: object}\ntools:\n  - {name: a, inputSchema: {type: object}}\n`);
    expect(model).toBeUndefined();
    expect(diagnostics).toEqual([
      'm.yaml:5:12: error identifier-collision: tool "a" (its input type) and def "AInput" (line 3) both become the TypeScript type name AInput; rename one of them',
    ]);
  });
});

describe("a tool's wire entry and the rest", () => {
  it("leaves mcpgen's keys (examples, widget, visibility, scopes, auth, securitySchemes) off the wire and bundles manifest defs into its schemas", async () => {
    const ctx = await contextOf(
      `${SERVER}defs:\n  Id: {type: string}\ntools:\n  - name: t\n    inputSchema: {type: object, properties: {id: {$ref: '#/defs/Id'}}}\n    examples: [{arguments: {id: x}}]\n    visibility: [app]\n`,
    );
    const [tool] = buildTools(ctx);
    expect(Object.keys(tool!.wire)).toEqual(["name", "inputSchema", "_meta"]);
    expect(tool!.wire.inputSchema).toEqual({ type: "object", properties: { id: { $ref: "#/$defs/Id" } }, $defs: { Id: { type: "string" } } });
    expect(tool!.wire._meta).toEqual({ ui: { visibility: ["app"] } });
    expect(tool!.examples).toEqual([{ arguments: { id: "x" } }]);
    expect(tool!.visibility).toEqual(["app"]);
  });

  it("is visible to the model and views by default, with no _meta added", async () => {
    const { tools } = await toolsOf("{name: t, inputSchema: {type: object}}");
    expect(tools[0]!.visibility).toEqual(["model", "app"]);
    expect(tools[0]!.wire).toEqual({ name: "t", inputSchema: { type: "object" } });
  });
});

describe("the model's tools", () => {
  it("declares the tasks capability when a tool can run as a task", async () => {
    const { model } = await buildOf(`${SERVER}tools:\n  - {name: a, inputSchema: {type: object}, execution: {taskSupport: forbidden}}\n`);
    expect(model!.capabilities.tasks).toBeUndefined();
    const tasks = await buildOf(`${SERVER}tools:\n  - {name: a, inputSchema: {type: object}, execution: {taskSupport: required}}\n`);
    expect(tasks.model!.capabilities.tasks).toEqual({ list: {}, cancel: {}, requests: { tools: { call: {} } } });
  });
});

describe("a tool's ChatGPT access aliases (openai/widgetAccessible, openai/visibility)", () => {
  const WIDGET = "widgets:\n  - {name: w, uri: 'ui://s/w.html', entry: w.ts}\n";
  const CHATGPT = "widgets:\n  - {name: w, uri: 'ui://s/w.html', entry: w.ts, chatgpt: {invoking: Looking}}\n";
  /** The `_meta` of tool `t` (the second tool; the first opens the widget, so it is used). */
  async function metaOf(tool: string, widgets: string | undefined): Promise<unknown> {
    const opener = widgets === undefined ? "" : "  - {name: opens, inputSchema: {type: object}, widget: w}\n";
    const ctx = await contextOf(`${SERVER}tools:\n${opener}  - ${tool}\n${widgets ?? ""}`);
    return buildTools(ctx).find((t) => t.name === "t")!.wire._meta;
  }
  const cases: [string, { tool: string; widgets?: string; want: unknown }][] = [
    [
      "an app-only tool that opens no widget, on a server with widgets: widget-accessible, private",
      {
        tool: "{name: t, inputSchema: {type: object}, visibility: [app]}",
        widgets: WIDGET,
        want: { ui: { visibility: ["app"] }, "openai/widgetAccessible": true, "openai/visibility": "private" },
      },
    ],
    [
      "a model-only tool: not widget-accessible, public",
      {
        tool: "{name: t, inputSchema: {type: object}, visibility: [model]}",
        widgets: WIDGET,
        want: { ui: { visibility: ["model"] }, "openai/widgetAccessible": false, "openai/visibility": "public" },
      },
    ],
    [
      "a tool opening an MCP Apps widget without chatgpt: the access aliases only (default visibility)",
      {
        tool: "{name: t, inputSchema: {type: object}, widget: w}",
        widgets: WIDGET,
        want: { ui: { resourceUri: "ui://s/w.html", visibility: ["model", "app"] }, "openai/widgetAccessible": true, "openai/visibility": "public" },
      },
    ],
    [
      "a tool opening a ChatGPT widget: outputTemplate, the access aliases, the invocation texts",
      {
        tool: "{name: t, inputSchema: {type: object}, widget: w, visibility: [model]}",
        widgets: CHATGPT,
        want: {
          ui: { resourceUri: "ui://s/w.html", visibility: ["model"] },
          "openai/outputTemplate": "ui://s/w.html",
          "openai/widgetAccessible": false,
          "openai/visibility": "public",
          "openai/toolInvocation/invoking": "Looking",
        },
      },
    ],
    [
      "hand-written aliases that contradict the visibility are replaced in place (validation warns: alias-contradiction)",
      {
        tool: "{name: t, inputSchema: {type: object}, visibility: [app], _meta: {openai/visibility: public, x: 1, openai/widgetAccessible: false}}",
        widgets: WIDGET,
        want: { "openai/visibility": "private", x: 1, "openai/widgetAccessible": true, ui: { visibility: ["app"] } },
      },
    ],
    [
      "a server without widgets: no aliases (no view could call the tool)",
      { tool: "{name: t, inputSchema: {type: object}, visibility: [app]}", want: { ui: { visibility: ["app"] } } },
    ],
    ["no visibility and no widget: no _meta at all", { tool: "{name: t, inputSchema: {type: object}}", widgets: WIDGET, want: undefined }],
  ];
  it.each(cases)("%s", async (_, { tool, widgets, want }) => {
    expect(await metaOf(tool, widgets)).toEqual(want);
  });
});
