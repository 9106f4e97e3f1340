/**
 * The widget client's facade, over whichever bridge reaches the host: handlers for what the host
 * sends, calls checked against the tools' output schemas (checks compiled at generate time: no
 * `eval` in the view, whose Content-Security-Policy forbids it), and the bridge choice.
 */
import { OutputValidationError, ToolCallError, ToolError } from "../shared/errors.js";
import type { CallToolResult } from "../shared/mcp.js";
import { isRecord } from "./guards.js";
import { connectOpenAi, openAiGlobals } from "./openai.js";
import type { AppsConnector, BridgeEvents, CallableTools, HostBridge, HostContext, OpenAiGlobals, Widget, WidgetOptions, WidgetSpec } from "./types.js";

type Handlers = {
  input: ((input: { tool: string; arguments: object }) => void)[];
  partial: ((input: { tool: string; arguments: object }) => void)[];
  result: ((result: { ok: boolean; tool: string | undefined }) => void)[];
  cancelled: ((reason: string | undefined) => void)[];
  context: ((context: HostContext) => void)[];
};

/** Makes the widget client for one widget over the MCP Apps bridge `apps` (or `window.openai`). */
export function createWidgetEngine<Inputs, Outputs, Callable extends CallableTools<Callable>, State>(
  spec: WidgetSpec,
  options: WidgetOptions,
  apps: AppsConnector,
): Widget<Inputs, Outputs, Callable, State> {
  const handlers: Handlers = { input: [], partial: [], result: [], cancelled: [], context: [] };
  let bridge: HostBridge | undefined;
  let connecting: Promise<void> | undefined;
  /** The tool that opened the widget, when the host said (MCP Apps host context) or it is the only one. */
  let openedBy: string | undefined = spec.opens.length === 1 ? spec.opens[0] : undefined;

  const noteTool = () => {
    const info = bridge?.hostContext()?.["toolInfo"];
    const tool = isRecord(info) ? info["tool"] : undefined;
    const name = isRecord(tool) ? tool["name"] : undefined;
    if (typeof name === "string" && spec.opens.includes(name)) openedBy = name;
  };
  const events: BridgeEvents = {
    input(args, partial) {
      noteTool();
      const tool = openedBy ?? spec.opens[0];
      if (tool === undefined) return;
      for (const h of partial ? handlers.partial : handlers.input) h({ tool, arguments: args });
    },
    result(result) {
      noteTool();
      const settled = settle(spec, result, openedBy);
      for (const h of handlers.result) h(settled);
    },
    cancelled(reason) {
      for (const h of handlers.cancelled) h(reason);
    },
    context(context) {
      noteTool();
      for (const h of handlers.context) h(context);
    },
  };
  const settings = {
    name: spec.name,
    version: options.version ?? "1.0.0",
    autoResize: options.autoResize ?? true,
    timeoutMs: options.timeoutMs ?? 60_000,
    handshakeTimeoutMs: options.handshakeTimeoutMs ?? 1_000,
  };

  async function open(): Promise<HostBridge> {
    const wanted = options.bridge ?? "auto";
    if (wanted === "mcp-apps") return apps(events, settings);
    const globals = openAiGlobals();
    if (wanted === "openai") {
      if (!globals) throw new Error("bridge: openai needs window.openai, which this host did not inject");
      return connectOpenAi(events, globals);
    }
    // auto: a window.openai that already holds the input is ChatGPT's (MCP Apps hosts that inject one
    // leave toolInput null): no handshake to wait for. Otherwise MCP Apps first, window.openai when
    // no MCP Apps host answers in time (ChatGPT with a call awaiting approval).
    if (globals && typeof globals.toolInput === "object" && globals.toolInput !== null) return connectOpenAi(events, globals);
    try {
      return await apps(events, settings);
    } catch (error) {
      if (!globals) throw error;
      return connectOpenAi(events, globals);
    }
  }

  const need = (): HostBridge => {
    if (!bridge) throw new Error("the widget is not connected: call connect() first");
    return bridge;
  };
  const globals = () => openAiGlobals() as OpenAiGlobals<State> | undefined;

  const widget: Widget<Inputs, Outputs, Callable, State> = {
    onToolInput(h) {
      handlers.input.push(h as Handlers["input"][number]);
      return widget;
    },
    onToolInputPartial(h) {
      handlers.partial.push(h as Handlers["partial"][number]);
      return widget;
    },
    onToolResult(h) {
      // Stored untyped beside the others; `settle` makes each result from the tool's checked output,
      // which is the ToolResult<Outputs> the handler was typed with.
      handlers.result.push(h as unknown as Handlers["result"][number]);
      return widget;
    },
    onToolCancelled(h) {
      handlers.cancelled.push(h);
      return widget;
    },
    onHostContextChanged(h) {
      handlers.context.push(h);
      return widget;
    },
    connect() {
      connecting ??= open().then(
        (opened) => {
          bridge = opened;
          noteTool();
        },
        (error: unknown) => {
          connecting = undefined;
          throw error;
        },
      );
      return connecting;
    },
    async call(name, args) {
      if (!spec.callable.includes(name)) throw new ToolError(`Tool ${name} is not callable from this widget (its visibility does not include "app")`);
      const settled = settle(spec, await need().callTool(name, args), name);
      if (!settled.ok) throw settled.error;
      return settled.output as Callable[typeof name]["output"];
    },
    sendMessage: (text) => need().sendMessage(text),
    openLink: (url) => need().openLink(url),
    updateModelContext: (content) => need().updateModelContext(typeof content === "string" ? [{ type: "text", text: content }] : content),
    requestDisplayMode: (mode) => need().requestDisplayMode(mode),
    get hostContext() {
      return bridge?.hostContext();
    },
    get openai() {
      const g = globals();
      if (!g) return undefined;
      return {
        get widgetState() {
          return (g.widgetState ?? null) as State | null;
        },
        setWidgetState: async (state: State) => {
          await g.setWidgetState?.(state);
        },
        get toolResponseMetadata() {
          return g.toolResponseMetadata ?? null;
        },
        requestModal: async (args: { title?: string; params?: object }) => {
          await g.requestModal?.(args);
        },
        globals: g,
      };
    },
    get bridge() {
      return bridge?.kind;
    },
    get app() {
      return bridge?.app;
    },
  };
  return widget;
}

/** A tool's answer as the facade hands it on: checked output, or the error. */
function settle(
  spec: WidgetSpec,
  result: CallToolResult,
  tool: string | undefined,
):
  | { ok: true; tool: string | undefined; output: unknown; result: CallToolResult }
  | { ok: false; tool: string | undefined; error: ToolCallError | OutputValidationError; result: CallToolResult } {
  if (result.isError) return { ok: false, tool, error: new ToolCallError(tool ?? "call", result), result };
  // Which tool, when the host did not say: the one whose output check the answer passes.
  const candidates = tool !== undefined ? [tool] : spec.opens;
  let problems: string | undefined;
  for (const name of candidates) {
    const check = spec.checks[name];
    if (!check) return { ok: true, tool: name, output: result, result };
    const output = result.structuredContent;
    problems = output === undefined ? "the result has no structuredContent" : check(output);
    if (problems === undefined) return { ok: true, tool: name, output, result };
  }
  const name = candidates[0];
  return { ok: false, tool, error: new OutputValidationError(name ?? "(unknown)", problems ?? "no tool matched", result), result };
}
