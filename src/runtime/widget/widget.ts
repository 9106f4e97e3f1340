/**
 * The typed widget client's engine: the code inside an MCP Apps view (a widget) talks to its host
 * through the official `App` of @modelcontextprotocol/ext-apps, or, where the host injects
 * ChatGPT's `window.openai`, through that. The generated `widgets/<name>.ts` fixes the types (the
 * arguments of the tools that open the widget, their outputs, the tools the view may call) and
 * hands this engine the output checks, compiled at generate time (no `eval` in the view, whose
 * Content-Security-Policy forbids it).
 *
 * Only generated widget modules import this file; it is written to `<out>/_runtime/` when a
 * manifest has widgets. It uses no DOM type, so it compiles in a Node project too.
 */
import { App, PostMessageTransport } from "@modelcontextprotocol/ext-apps";
import { OutputValidationError, ToolCallError, ToolError } from "../shared/errors.js";
import type { CallToolResult, ContentBlock } from "../shared/mcp.js";

/** A compiled output check: undefined when the value is valid, else the problems in words. */
export type OutputCheck = (value: unknown) => string | undefined;

/** What a generated widget module tells the engine. */
export interface WidgetSpec {
  /** The widget's name, sent to the host as the view's name. */
  name: string;
  /** Tools that open the widget. */
  opens: readonly string[];
  /** Tools the view may call (visibility includes `app`). */
  callable: readonly string[];
  /** The output check of each tool with an outputSchema (opening or callable). */
  checks: { readonly [tool: string]: OutputCheck };
}

/** `{tool, arguments}` for each tool that opens the widget: narrow on `tool`. */
export type ToolInput<Inputs> = { [K in keyof Inputs]: { tool: K; arguments: Inputs[K] } }[keyof Inputs];

/** Arguments still streaming in: any of them may be missing so far. */
export type PartialToolInput<Inputs> = { [K in keyof Inputs]: { tool: K; arguments: { [P in keyof Inputs[K]]?: Inputs[K][P] } } }[keyof Inputs];

/**
 * The result of the tool that opened the widget: its checked output (the typed structuredContent,
 * or the CallToolResult of a tool without outputSchema), or the error it answered.
 */
export type ToolResult<Outputs> =
  | { [K in keyof Outputs]: { ok: true; tool: K; output: Outputs[K]; result: CallToolResult } }[keyof Outputs]
  | { ok: false; tool: keyof Outputs | undefined; error: ToolCallError | OutputValidationError; result: CallToolResult };

/** The tools a view may call, by name: their arguments and what a call resolves to. */
export type CallableTools<C> = { [K in keyof C]: { input: object; output: unknown } };

/** Display modes a view may ask for. */
export type DisplayMode = "inline" | "fullscreen" | "pip";

/** What the host says about where the view runs (theme, locale, display mode...), as the host sends it. */
export type HostContext = { [key: string]: unknown };

/** ChatGPT's `window.openai`, seen through what a view uses; `State` is the widget's own state. */
export interface OpenAiGlobals<State> {
  toolInput?: object;
  toolOutput?: unknown;
  toolResponseMetadata?: { [key: string]: unknown } | null;
  widgetState?: State | null;
  setWidgetState?(state: State): Promise<void> | void;
  callTool?(name: string, args: object): Promise<unknown>;
  sendFollowUpMessage?(args: { prompt: string }): Promise<void>;
  openExternal?(args: { href: string }): void;
  requestDisplayMode?(args: { mode: DisplayMode }): Promise<{ mode: DisplayMode }>;
  requestModal?(args: { title?: string; params?: object }): Promise<void>;
  theme?: string;
  locale?: string;
  displayMode?: DisplayMode;
  maxHeight?: number;
}

/** ChatGPT-only features, when the host is ChatGPT (`window.openai` is there). */
export interface OpenAiView<State> {
  /** The state ChatGPT keeps for this widget instance (and shows the model), or null. */
  readonly widgetState: State | null;
  setWidgetState(state: State): Promise<void>;
  /** `_meta` of the tool's answer, which the model does not see. */
  readonly toolResponseMetadata: { [key: string]: unknown } | null;
  requestModal(args: { title?: string; params?: object }): Promise<void>;
  /** The raw `window.openai`. */
  readonly globals: OpenAiGlobals<State>;
}

export interface WidgetOptions {
  /**
   * How to reach the host: MCP Apps (`App`, over postMessage), ChatGPT's `window.openai`, or
   * `auto` (default): `window.openai` when the host injected it, else MCP Apps.
   */
  bridge?: "auto" | "mcp-apps" | "openai";
  /** The view's version, sent to the host (default "1.0.0"). */
  version?: string;
  /** Resize the frame to the content (MCP Apps; default true). */
  autoResize?: boolean;
}

export interface Widget<Inputs, Outputs, Callable extends CallableTools<Callable>, State> {
  /** The arguments the tool was called with. Register handlers before `connect()`. */
  onToolInput(handler: (input: ToolInput<Inputs>) => void): this;
  /** Arguments as the model streams them (MCP Apps hosts that stream). */
  onToolInputPartial(handler: (input: PartialToolInput<Inputs>) => void): this;
  /** The tool's result, checked against its outputSchema. */
  onToolResult(handler: (result: ToolResult<Outputs>) => void): this;
  onToolCancelled(handler: (reason: string | undefined) => void): this;
  onHostContextChanged(handler: (context: HostContext) => void): this;
  /** Connects to the host (after the handlers are registered, as hosts require). */
  connect(): Promise<void>;
  /**
   * Calls a tool of the server that the view may call (its visibility includes `app`): resolves
   * to its checked output, rejects with ToolCallError (an `isError` answer) or OutputValidationError.
   */
  call<K extends keyof Callable & string>(name: K, args: Callable[K]["input"]): Promise<Callable[K]["output"]>;
  /** Sends a message to the conversation, as the user. */
  sendMessage(text: string): Promise<void>;
  openLink(url: string): Promise<void>;
  /** Tells the model what the view shows, for its next turn (MCP Apps; ChatGPT keeps widgetState instead). */
  updateModelContext(content: string | readonly ContentBlock[]): Promise<void>;
  /** Asks for another display mode; resolves to the one the host chose. */
  requestDisplayMode(mode: DisplayMode): Promise<DisplayMode>;
  /** What the host says about the view's surroundings. */
  readonly hostContext: HostContext | undefined;
  /** ChatGPT-only features, or undefined on other hosts. */
  readonly openai: OpenAiView<State> | undefined;
  /** Which bridge is in use, once connected. */
  readonly bridge: "mcp-apps" | "openai" | undefined;
  /** The official `App` (MCP Apps bridge), for what this facade does not cover. */
  readonly app: App | undefined;
}

type Handlers = {
  input: ((input: { tool: string; arguments: object }) => void)[];
  partial: ((input: { tool: string; arguments: object }) => void)[];
  result: ((result: { ok: boolean; tool: string | undefined }) => void)[];
  cancelled: ((reason: string | undefined) => void)[];
  context: ((context: HostContext) => void)[];
};

/** The host's globals: `window` in a browser (seen through the members used: this file compiles without the DOM library). */
const host = globalThis as unknown as {
  openai?: OpenAiGlobals<unknown>;
  parent?: unknown;
  addEventListener?: (type: string, listener: (event: unknown) => void) => void;
};

/** Makes the widget client for one widget; the generated module types it. */
export function createWidget<Inputs, Outputs, Callable extends CallableTools<Callable>, State>(
  spec: WidgetSpec,
  options: WidgetOptions = {},
): Widget<Inputs, Outputs, Callable, State> {
  const handlers: Handlers = { input: [], partial: [], result: [], cancelled: [], context: [] };
  let connected: "mcp-apps" | "openai" | undefined;
  let app: App | undefined;
  /** The tool that opened the widget, when the host said (MCP Apps host context) or it is the only one. */
  let openedBy: string | undefined = spec.opens.length === 1 ? spec.opens[0] : undefined;

  const emitInput = (list: Handlers["input"], args: object | undefined) => {
    const tool = openedBy ?? spec.opens[0];
    if (tool === undefined || args === undefined) return;
    for (const h of list) h({ tool, arguments: args });
  };
  const emitResult = (result: CallToolResult) => {
    const settled = settle(spec, result, openedBy);
    for (const h of handlers.result) h(settled);
  };

  const openai = (): OpenAiGlobals<State> | undefined => host.openai as OpenAiGlobals<State> | undefined;

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
    async connect() {
      if (connected) return;
      const wanted = options.bridge ?? "auto";
      const globals = openai();
      if (wanted === "openai" || (wanted === "auto" && globals !== undefined)) {
        if (!globals) throw new Error("bridge: openai needs window.openai, which this host did not inject");
        connected = "openai";
        connectOpenAi(globals);
        return;
      }
      app = new App({ name: spec.name, version: options.version ?? "1.0.0" }, {}, { autoResize: options.autoResize ?? true });
      app.addEventListener("hostcontextchanged", (context) => {
        noteTool(context as HostContext);
        for (const h of handlers.context) h(context as HostContext);
      });
      // The host context (with the opening tool) arrives in the handshake: read it at each event.
      const current = () => noteTool(app?.getHostContext() as HostContext | undefined);
      app.addEventListener("toolinput", (params) => (current(), emitInput(handlers.input, params.arguments)));
      app.addEventListener("toolinputpartial", (params) => (current(), emitInput(handlers.partial, params.arguments)));
      app.addEventListener("toolresult", (params) => (current(), emitResult(params as CallToolResult)));
      app.addEventListener("toolcancelled", (params) => {
        for (const h of handlers.cancelled) h(params.reason);
      });
      // Window-typed in ext-apps; the host frame, whatever the type library says.
      type Ends = ConstructorParameters<typeof PostMessageTransport>;
      await app.connect(new PostMessageTransport(host.parent as Ends[0], host.parent as Ends[1]));
      noteTool(app.getHostContext() as HostContext | undefined);
      connected = "mcp-apps";
    },
    async call(name, args) {
      if (!spec.callable.includes(name)) throw new ToolError(`Tool ${name} is not callable from this widget (its visibility does not include "app")`);
      const result =
        connected === "openai"
          ? toCallToolResult(await requireOpenAi("callTool").callTool!(name, args))
          : ((await requireApp().callServerTool({ name, arguments: args as Record<string, unknown> })) as CallToolResult);
      const settled = settle(spec, result, name);
      if (!settled.ok) throw settled.error;
      return settled.output as Callable[typeof name]["output"];
    },
    async sendMessage(text) {
      if (connected === "openai") return requireOpenAi("sendFollowUpMessage").sendFollowUpMessage!({ prompt: text });
      await requireApp().sendMessage({ role: "user", content: [{ type: "text", text }] });
    },
    async openLink(url) {
      if (connected === "openai") return requireOpenAi("openExternal").openExternal!({ href: url });
      await requireApp().openLink({ url });
    },
    async updateModelContext(content) {
      const blocks = typeof content === "string" ? [{ type: "text" as const, text: content }] : content;
      if (connected === "openai") return;
      // MCP's ContentBlock as mcp.ts states it; the App's own (zod-inferred) type is the same wire shape.
      await requireApp().updateModelContext({ content: blocks as never });
    },
    async requestDisplayMode(mode) {
      if (connected === "openai") return (await requireOpenAi("requestDisplayMode").requestDisplayMode!({ mode })).mode;
      return (await requireApp().requestDisplayMode({ mode })).mode as DisplayMode;
    },
    get hostContext() {
      if (connected === "openai") {
        const g = openai();
        return g ? { theme: g.theme, locale: g.locale, displayMode: g.displayMode, maxHeight: g.maxHeight } : undefined;
      }
      return app?.getHostContext() as HostContext | undefined;
    },
    get openai() {
      const g = openai();
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
      return connected;
    },
    get app() {
      return app;
    },
  };

  function noteTool(context: HostContext | undefined): void {
    const info = context?.["toolInfo"] as { tool?: { name?: unknown } } | undefined;
    const name = info?.tool?.name;
    if (typeof name === "string" && spec.opens.includes(name)) openedBy = name;
  }

  function requireApp(): App {
    if (!app) throw new Error("the widget is not connected: call connect() first");
    return app;
  }

  function requireOpenAi(member: keyof OpenAiGlobals<State>): OpenAiGlobals<State> {
    const g = openai();
    if (!g || typeof g[member] !== "function") throw new Error(`window.openai.${String(member)} is not available on this host`);
    return g;
  }

  /** ChatGPT's globals: input and output are there at once or arrive with `openai:set_globals`. */
  function connectOpenAi(g: OpenAiGlobals<State>): void {
    let sentInput = false;
    let sentOutput = false;
    const deliver = () => {
      if (!sentInput && g.toolInput !== undefined) {
        sentInput = true;
        emitInput(handlers.input, g.toolInput);
      }
      if (!sentOutput && g.toolOutput !== undefined && g.toolOutput !== null) {
        sentOutput = true;
        const meta = g.toolResponseMetadata;
        emitResult({ content: [], structuredContent: g.toolOutput as { [key: string]: unknown }, ...(meta ? { _meta: meta } : {}) });
      }
    };
    host.addEventListener?.("openai:set_globals", () => {
      deliver();
      for (const h of handlers.context) h(widget.hostContext ?? {});
    });
    // After the caller's own code has run (it may register more handlers after connect resolves).
    void Promise.resolve().then(deliver);
  }

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

/**
 * What `window.openai.callTool` answers, as a CallToolResult: the tool's result (`content`,
 * `structuredContent`, `isError`), or the older `{result: "<text>"}` form, whose JSON text is
 * taken as the structured output.
 */
function toCallToolResult(answer: unknown): CallToolResult {
  const value = (typeof answer === "object" && answer !== null ? answer : {}) as Partial<CallToolResult> & { result?: unknown };
  if (value.content === undefined && value.structuredContent === undefined && typeof value.result === "string") {
    let parsed: unknown;
    try {
      parsed = JSON.parse(value.result);
    } catch {
      parsed = undefined;
    }
    const structured =
      typeof parsed === "object" && parsed !== null && !Array.isArray(parsed) ? { structuredContent: parsed as { [key: string]: unknown } } : {};
    return { content: [{ type: "text", text: value.result }], ...structured };
  }
  return { ...value, content: Array.isArray(value.content) ? value.content : [] } as CallToolResult;
}
