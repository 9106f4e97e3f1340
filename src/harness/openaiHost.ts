/**
 * The host side of the harness's ChatGPT stand-in (`window.openai`, injected by pageOpenAi.ts):
 * what the globals are at load, which of them a change touches (an `openai:set_globals` event
 * carries only those), what `callTool` answers, and which tool calls a view may make. Plain
 * functions, used by the host page (page.ts) and by the harness's server (index.ts), as OpenAI's
 * Apps SDK reference describes the API.
 */

/** `window.openai`'s globals (the reference's OpenAiGlobals). */
export interface OpenAiGlobals {
  theme: "light" | "dark";
  userAgent: { device: { type: "mobile" | "tablet" | "desktop" | "unknown" }; capabilities: { hover: boolean; touch: boolean } };
  locale: string;
  maxHeight: number;
  displayMode: "pip" | "inline" | "fullscreen";
  safeArea: { insets: { top: number; bottom: number; left: number; right: number } };
  /** The tool's arguments; null until the user approves an approval-gated call. */
  toolInput: Record<string, unknown> | null;
  /** The tool's structured output; null until it is known. */
  toolOutput: Record<string, unknown> | null;
  toolResponseMetadata: Record<string, unknown> | null;
  widgetState: unknown;
}

/** The keys of the globals, in the reference's order. */
export const GLOBAL_KEYS = [
  "theme",
  "userAgent",
  "locale",
  "maxHeight",
  "displayMode",
  "safeArea",
  "toolInput",
  "toolOutput",
  "toolResponseMetadata",
  "widgetState",
] as const satisfies readonly (keyof OpenAiGlobals)[];

/** A CallToolResult as the server answers it. */
export interface ToolResult {
  content: unknown[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
  _meta?: Record<string, unknown>;
}

/**
 * The globals a widget finds at load: the harness's display (light, en-US, inline, 480 px, a
 * desktop with a pointer) and the call. With `approval`, the call waits for the user: toolInput
 * and toolOutput are null until the host page's Approve button sends them.
 */
export function initialGlobals(call: { arguments: Record<string, unknown>; result: ToolResult }, approval: boolean): OpenAiGlobals {
  return {
    theme: "light",
    userAgent: { device: { type: "desktop" }, capabilities: { hover: true, touch: false } },
    locale: "en-US",
    maxHeight: 480,
    displayMode: "inline",
    safeArea: { insets: { top: 0, bottom: 0, left: 0, right: 0 } },
    toolInput: approval ? null : call.arguments,
    toolOutput: approval ? null : (call.result.structuredContent ?? null),
    toolResponseMetadata: approval ? null : (call.result._meta ?? null),
    widgetState: null,
  };
}

/** The keys of `next` whose value differs from `current` (as JSON), with their new values: what one `openai:set_globals` carries. */
export function changedGlobals(current: OpenAiGlobals, next: Partial<OpenAiGlobals>): Partial<OpenAiGlobals> {
  const changed: Partial<Record<keyof OpenAiGlobals, unknown>> = {};
  for (const key of GLOBAL_KEYS) {
    if (!Object.hasOwn(next, key)) continue;
    if (JSON.stringify(next[key]) !== JSON.stringify(current[key])) changed[key] = next[key];
  }
  return changed as Partial<OpenAiGlobals>;
}

/**
 * What `window.openai.callTool` resolves to. The reference's type is `{result: string}`; the
 * string is the result's text content (an mcpgen server's text block is the JSON of its
 * structured output), or that JSON when there is no text. ChatGPT also sends the result's
 * `structuredContent`, `content`, `isError` and `_meta` beside it, and so does the harness: a
 * view reads the structured output from there, without parsing text.
 */
export function callToolResponse(result: ToolResult): {
  result: string;
  structuredContent: Record<string, unknown> | null;
  content: unknown[];
  isError: boolean;
  _meta?: Record<string, unknown>;
} {
  const texts = result.content.flatMap((block) =>
    typeof block === "object" && block !== null && (block as { type?: unknown }).type === "text" && typeof (block as { text?: unknown }).text === "string"
      ? [(block as { text: string }).text]
      : [],
  );
  return {
    result: texts.length > 0 ? texts.join("\n") : JSON.stringify(result.structuredContent ?? {}),
    structuredContent: result.structuredContent ?? null,
    content: result.content,
    isError: result.isError === true,
    ...(result._meta === undefined ? {} : { _meta: result._meta }),
  };
}

/** A tool as tools/list describes it: what the refusal reads. */
export interface ListedTool {
  name: string;
  _meta?: { ui?: { visibility?: unknown }; [key: string]: unknown };
}

/**
 * Why a host refuses a view's call to `tool`, or undefined. An MCP Apps host reads
 * `_meta.ui.visibility` (a list without `app`); ChatGPT reads `openai/widgetAccessible`, which is
 * false when absent.
 */
export function callRefusal(tool: ListedTool | undefined, name: string, bridge: "mcp-apps" | "openai"): string | undefined {
  if (!tool) return `Unknown tool: ${name}`;
  if (bridge === "openai") {
    const accessible = tool._meta?.["openai/widgetAccessible"];
    return accessible === true ? undefined : `Tool ${name} is not widget-accessible (its openai/widgetAccessible is ${JSON.stringify(accessible) ?? "absent"})`;
  }
  const visibility = tool._meta?.ui?.visibility;
  return Array.isArray(visibility) && !visibility.includes("app")
    ? `Tool ${name} is not visible to apps (its visibility is ${JSON.stringify(visibility)})`
    : undefined;
}
