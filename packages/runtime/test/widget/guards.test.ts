/**
 * The widget bridge's shape checks of what a host sends (widget/guards.ts): each accepts the
 * spec's shapes and refuses the near misses a host could send instead.
 */
import { describe, expect, it } from "vitest";
import { isCallToolResult, isCancelledParams, isDisplayModeResult, isInitializeResult, isRecord, isToolInputParams } from "../../src/widget/guards.js";

const cases: [string, (value: unknown) => boolean, { accepts: unknown[]; refuses: unknown[] }][] = [
  ["isRecord", isRecord, { accepts: [{}, { a: 1 }], refuses: [null, undefined, [], "x", 1] }],
  [
    "isToolInputParams",
    isToolInputParams,
    { accepts: [{ arguments: { occasion: "birthday" } }, {}], refuses: [null, { arguments: null }, { arguments: [1] }, { arguments: "x" }, "x"] },
  ],
  [
    "isCallToolResult",
    isCallToolResult,
    {
      accepts: [{ content: [] }, { content: [{ type: "text", text: "hi" }], structuredContent: { gifts: [] } }, { content: [], isError: true }],
      refuses: [
        {},
        { content: "text" },
        { content: [{ text: "no type" }] },
        { content: [null] },
        { content: [], structuredContent: [1] },
        { content: [], structuredContent: null },
        { content: [], isError: "yes" },
        null,
      ],
    },
  ],
  ["isCancelledParams", isCancelledParams, { accepts: [undefined, {}, { reason: "user" }], refuses: [null, { reason: 1 }, "x"] }],
  [
    "isInitializeResult",
    isInitializeResult,
    {
      accepts: [
        { protocolVersion: "2026-01-26", hostInfo: { name: "h", version: "1" }, hostCapabilities: {}, hostContext: { theme: "dark" } },
        { protocolVersion: "2026-01-26", hostInfo: { name: "h", version: "1" }, hostCapabilities: {} },
      ],
      refuses: [
        { hostInfo: { name: "h", version: "1" }, hostCapabilities: {} },
        { protocolVersion: "2026-01-26", hostInfo: { name: "h" }, hostCapabilities: {} },
        { protocolVersion: "2026-01-26", hostInfo: { name: "h", version: "1" } },
        { protocolVersion: "2026-01-26", hostInfo: { name: "h", version: "1" }, hostCapabilities: {}, hostContext: "dark" },
        { protocolVersion: 2026, hostInfo: { name: "h", version: "1" }, hostCapabilities: {} },
      ],
    },
  ],
  ["isDisplayModeResult", isDisplayModeResult, { accepts: [{ mode: "fullscreen" }], refuses: [{}, { mode: 1 }, null] }],
];

describe.each(cases)("%s", (_name, guard, { accepts, refuses }) => {
  it.each(accepts.map((v) => [JSON.stringify(v) ?? "undefined", v]))("accepts %s", (_, value) => expect(guard(value)).toBe(true));
  it.each(refuses.map((v) => [JSON.stringify(v) ?? "undefined", v]))("refuses %s", (_, value) => expect(guard(value)).toBe(false));
});
