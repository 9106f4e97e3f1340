/**
 * The typed widget client's engine, with mcpgen's own MCP Apps bridge (a few KB, no zod): the code
 * inside an MCP Apps view (a widget) talks to its host over the MCP Apps postMessage protocol, or,
 * where only ChatGPT's `window.openai` answers, through that. The generated `widgets/<name>.ts`
 * fixes the types and hands this engine the output checks, compiled at generate time.
 * A widget built with `sdk: ext-apps` imports ./extApps.js instead (the official `App`).
 *
 * Only generated widget modules import this folder; in `runtime: vendor` mode it is copied to
 * `<out>/_runtime/widget/` only when a manifest has widgets. It uses no DOM type, so it compiles
 * in a Node project too.
 */
import { connectAppsBridge } from "./appsBridge.js";
import { createWidgetEngine } from "./engine.js";
import type { CallableTools, Widget, WidgetOptions, WidgetSpec } from "./types.js";

export type {
  CallableTools,
  DisplayMode,
  HostContext,
  OpenAiGlobals,
  OpenAiView,
  OutputCheck,
  PartialToolInput,
  ToolInput,
  ToolResult,
  Widget,
  WidgetOptions,
  WidgetSpec,
} from "./types.js";

/** Makes the widget client for one widget; the generated module types it. */
export function createWidget<Inputs, Outputs, Callable extends CallableTools<Callable>, State>(
  spec: WidgetSpec,
  options: WidgetOptions = {},
): Widget<Inputs, Outputs, Callable, State> {
  return createWidgetEngine(spec, options, connectAppsBridge);
}
