/** What `window.openai.callTool` answers, read as a CallToolResult (widget/openai.ts). */
import { describe, expect, it } from "vitest";
import { toCallToolResult } from "../../src/widget/openai.js";

describe("toCallToolResult", () => {
  it.each([
    [
      "a CallToolResult, as it is",
      { content: [{ type: "text", text: "x" }], structuredContent: { a: 1 } },
      { content: [{ type: "text", text: "x" }], structuredContent: { a: 1 } },
    ],
    [
      "ChatGPT's {result} with JSON text: the text, and the object as structuredContent",
      { result: '{"a":1}' },
      { content: [{ type: "text", text: '{"a":1}' }], structuredContent: { a: 1 } },
    ],
    ["{result} with plain text: the text only", { result: "done" }, { content: [{ type: "text", text: "done" }] }],
    ["{result} with a JSON array: no structuredContent", { result: "[1]" }, { content: [{ type: "text", text: "[1]" }] }],
    ["structuredContent without content", { structuredContent: { a: 1 } }, { content: [], structuredContent: { a: 1 } }],
    ["an error without content", { isError: true }, { content: [], isError: true }],
    ["nothing usable", null, { content: [] }],
    [
      "a tool error as ChatGPT sends it (structuredContent null, the result's text beside): the error, its text as the message",
      { result: "No gift named Kite", structuredContent: null, content: [{ type: "text", text: "No gift named Kite" }], isError: true },
      { result: "No gift named Kite", content: [{ type: "text", text: "No gift named Kite" }], isError: true },
    ],
    [
      "{result} of an error whose text is JSON: still an error, no output",
      { result: '{"a":1}', isError: true },
      { content: [{ type: "text", text: '{"a":1}' }], isError: true },
    ],
    [
      "structuredContent null on a success: as absent",
      { result: "ok", structuredContent: null, content: [{ type: "text", text: "ok" }], isError: false },
      { result: "ok", content: [{ type: "text", text: "ok" }], isError: false },
    ],
  ])("%s", (_, answer, want) => expect(toCallToolResult(answer)).toEqual(want));
});
