/**
 * The typed widget client's engine on the official `App` of @modelcontextprotocol/ext-apps: what
 * the generated `widgets/<name>.ts` of a widget with `sdk: ext-apps` imports. Same API as
 * ./widget.js; `widget.app` is the connected `App`.
 */
import { createWidgetEngine } from "./engine.js";
import { connectExtApps } from "./extAppsBridge.js";
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
  return createWidgetEngine(spec, options, connectExtApps);
}
