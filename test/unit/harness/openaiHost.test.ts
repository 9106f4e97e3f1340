/**
 * harness/openaiHost.ts: the globals a widget finds at load (every key of OpenAI's reference;
 * null input and output while a call awaits approval), the keys a change touches, callTool's
 * answer, and which calls the host refuses: by `openai/widgetAccessible` under window.openai, by
 * `_meta.ui.visibility` under MCP Apps.
 */
import { describe, expect, it } from "vitest";
import { callRefusal, callToolResponse, changedGlobals, GLOBAL_KEYS, initialGlobals, type ListedTool } from "../../../src/harness/openaiHost.js";

const CALL = {
  arguments: { occasion: "birthday" },
  result: { content: [{ type: "text", text: '{"gifts":[]}' }], structuredContent: { gifts: [] }, _meta: { trace: "t1" } },
};

describe("the globals at load", () => {
  it("holds every global of the reference, with the call's input, output and metadata", () => {
    const globals = initialGlobals(CALL, false);
    expect(Object.keys(globals)).toEqual([...GLOBAL_KEYS]);
    expect(globals).toEqual({
      theme: "light",
      userAgent: { device: { type: "desktop" }, capabilities: { hover: true, touch: false } },
      locale: "en-US",
      maxHeight: 480,
      displayMode: "inline",
      safeArea: { insets: { top: 0, bottom: 0, left: 0, right: 0 } },
      toolInput: { occasion: "birthday" },
      toolOutput: { gifts: [] },
      toolResponseMetadata: { trace: "t1" },
      widgetState: null,
    });
  });

  it("an approval-gated call: toolInput, toolOutput and toolResponseMetadata are null until approved", () => {
    expect(initialGlobals(CALL, true)).toMatchObject({ toolInput: null, toolOutput: null, toolResponseMetadata: null, theme: "light" });
  });

  it("a result without structured output or metadata: null", () => {
    expect(initialGlobals({ arguments: {}, result: { content: [] } }, false)).toMatchObject({ toolOutput: null, toolResponseMetadata: null });
  });
});

describe("a change of globals", () => {
  const globals = initialGlobals(CALL, false);
  const cases: [string, { next: Parameters<typeof changedGlobals>[1]; want: object }][] = [
    ["one key changed", { next: { displayMode: "fullscreen" }, want: { displayMode: "fullscreen" } }],
    ["a key set to the value it has: nothing", { next: { displayMode: "inline", theme: "light" }, want: {} }],
    ["an equal object, another instance: nothing", { next: { toolInput: { occasion: "birthday" } }, want: {} }],
    ["two keys, one of them unchanged", { next: { toolOutput: { gifts: [1] }, locale: "en-US" }, want: { toolOutput: { gifts: [1] } } }],
    ["to null", { next: { toolResponseMetadata: null }, want: { toolResponseMetadata: null } }],
  ];
  it.each(cases)("%s", (_, { next, want }) => {
    expect(changedGlobals(globals, next)).toEqual(want);
  });
});

describe("callTool's answer", () => {
  it("is {result: string} with the text content, and the result's structuredContent, content, isError and _meta beside it", () => {
    expect(callToolResponse(CALL.result)).toEqual({
      result: '{"gifts":[]}',
      structuredContent: { gifts: [] },
      content: [{ type: "text", text: '{"gifts":[]}' }],
      isError: false,
      _meta: { trace: "t1" },
    });
  });

  it("joins several text blocks; without any, the JSON of the structured output; an error stays one", () => {
    expect(
      callToolResponse({
        content: [
          { type: "text", text: "a" },
          { type: "image", data: "", mimeType: "image/png" },
          { type: "text", text: "b" },
        ],
      }).result,
    ).toBe("a\nb");
    expect(callToolResponse({ content: [], structuredContent: { n: 1 } }).result).toBe('{"n":1}');
    expect(callToolResponse({ content: [{ type: "text", text: "boom" }], isError: true })).toMatchObject({
      result: "boom",
      isError: true,
      structuredContent: null,
    });
  });
});

describe("which calls of a view the host refuses", () => {
  const tool = (meta: ListedTool["_meta"]): ListedTool => ({ name: "t", ...(meta ? { _meta: meta } : {}) });
  const cases: [string, { given: ListedTool | undefined; bridge: "mcp-apps" | "openai"; want: string | undefined }][] = [
    ["openai: widget-accessible", { given: tool({ "openai/widgetAccessible": true }), bridge: "openai", want: undefined }],
    [
      "openai: no alias (false by default), even with a visibility that includes app",
      {
        given: tool({ ui: { visibility: ["model", "app"] } }),
        bridge: "openai",
        want: "Tool t is not widget-accessible (its openai/widgetAccessible is absent)",
      },
    ],
    [
      "openai: widgetAccessible false",
      { given: tool({ "openai/widgetAccessible": false }), bridge: "openai", want: "Tool t is not widget-accessible (its openai/widgetAccessible is false)" },
    ],
    [
      "openai: widget-accessible though its visibility leaves out app (ChatGPT reads the alias)",
      { given: tool({ ui: { visibility: ["model"] }, "openai/widgetAccessible": true }), bridge: "openai", want: undefined },
    ],
    ["mcp-apps: no visibility (both by default)", { given: tool(undefined), bridge: "mcp-apps", want: undefined }],
    [
      "mcp-apps: a visibility without app, whatever the alias says",
      {
        given: tool({ ui: { visibility: ["model"] }, "openai/widgetAccessible": true }),
        bridge: "mcp-apps",
        want: 'Tool t is not visible to apps (its visibility is ["model"])',
      },
    ],
    ["either: a tool the server does not list", { given: undefined, bridge: "openai", want: "Unknown tool: t" }],
  ];
  it.each(cases)("%s", (_, { given, bridge, want }) => {
    expect(callRefusal(given, "t", bridge)).toBe(want);
  });
});
