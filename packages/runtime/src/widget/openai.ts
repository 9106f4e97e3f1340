/**
 * ChatGPT's `window.openai` as a bridge (OpenAI's Apps SDK reference): the globals are there
 * before the view's script runs, `toolInput` and `toolOutput` null until the host has them, and
 * `openai:set_globals` events carry the keys that changed.
 */
import type { CallToolResult } from "../shared/mcp.js";
import { isCallToolResult, isDisplayModeResult, isRecord } from "./guards.js";
import type { BridgeEvents, DisplayMode, HostBridge, OpenAiGlobals } from "./types.js";

const view = globalThis as unknown as {
  openai?: OpenAiGlobals<unknown>;
  addEventListener?(type: "openai:set_globals", listener: (event: { detail?: unknown }) => void): void;
};

/** The injected globals, or undefined on a host without them. */
export function openAiGlobals(): OpenAiGlobals<unknown> | undefined {
  return isRecord(view.openai) ? view.openai : undefined;
}

/** Bridges to `window.openai`: the input and the result are delivered once each, when the host has them. */
export function connectOpenAi(events: BridgeEvents, g: OpenAiGlobals<unknown>): HostBridge {
  let sentInput = false;
  let sentOutput = false;
  /** `changed`: the event's `detail.globals` (the keys that changed), read before `window.openai` in case the host updates it after. */
  const deliver = (changed: { [key: string]: unknown } = {}) => {
    const read = (key: "toolInput" | "toolOutput" | "toolResponseMetadata"): unknown => (key in changed ? changed[key] : g[key]);
    // null is "not yet" (an approval-gated tool's input arrives with a later openai:set_globals).
    const input = read("toolInput");
    if (!sentInput && isRecord(input)) {
      sentInput = true;
      events.input(input, false);
    }
    const output = read("toolOutput");
    if (!sentOutput && isRecord(output)) {
      sentOutput = true;
      const meta = read("toolResponseMetadata");
      events.result({ content: [], structuredContent: output, ...(isRecord(meta) ? { _meta: meta } : {}) });
    }
  };
  const context = () => ({ theme: g.theme, locale: g.locale, displayMode: g.displayMode, maxHeight: g.maxHeight });
  view.addEventListener?.("openai:set_globals", (event) => {
    const detail = event.detail;
    deliver(isRecord(detail) && isRecord(detail["globals"]) ? detail["globals"] : {});
    events.context(context());
  });
  // After the caller's own code has run (it may register more handlers after connect resolves).
  void Promise.resolve().then(() => deliver());

  const need = <K extends keyof OpenAiGlobals<unknown>>(member: K): NonNullable<OpenAiGlobals<unknown>[K]> => {
    const f = g[member];
    if (typeof f !== "function") throw new Error(`window.openai.${member} is not available on this host`);
    return f.bind(g) as NonNullable<OpenAiGlobals<unknown>[K]>;
  };
  return {
    kind: "openai",
    callTool: async (name, args) => toCallToolResult(await need("callTool")(name, args)),
    sendMessage: (text) => need("sendFollowUpMessage")({ prompt: text }),
    openLink: async (url) => need("openExternal")({ href: url }),
    // ChatGPT keeps widgetState for the model instead.
    updateModelContext: async () => undefined,
    async requestDisplayMode(mode) {
      const answer = await need("requestDisplayMode")({ mode });
      return isDisplayModeResult(answer) ? (answer.mode as DisplayMode) : mode;
    },
    hostContext: context,
  };
}

/**
 * What `window.openai.callTool` answers, as a CallToolResult: the tool's result (`content`,
 * `structuredContent`, `isError`), or ChatGPT's `{result: "<text>"}` form, whose JSON text is
 * taken as the structured output.
 */
export function toCallToolResult(answer: unknown): CallToolResult {
  const given = isRecord(answer) ? answer : {};
  // ChatGPT's hosts send `structuredContent: null` for a result without one.
  const { structuredContent: none, ...rest } = given;
  const value = none === null ? rest : given;
  if (isCallToolResult(value)) return value;
  const failed = value["isError"] === true ? { isError: true } : {};
  if (typeof value["result"] === "string") {
    const text = value["result"];
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    // A tool error's text is its message, not output.
    return { content: [{ type: "text", text }], ...(isRecord(parsed) && !failed.isError ? { structuredContent: parsed } : {}), ...failed };
  }
  const structured = value["structuredContent"];
  return { content: [], ...(isRecord(structured) ? { structuredContent: structured } : {}), ...failed };
}
