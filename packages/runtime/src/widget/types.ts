/**
 * The widget client's public types (what generated `widgets/<name>.ts` modules and views name),
 * and the seam between the engine and the bridges it drives (MCP Apps, `window.openai`).
 */
import type { App } from "@modelcontextprotocol/ext-apps";
import type { OutputValidationError, ToolCallError } from "../shared/errors.js";
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

/**
 * ChatGPT's `window.openai`, seen through what a view uses; `State` is the widget's own state.
 * `toolInput` and `toolOutput` are null until the host has them (an approval-gated tool's input
 * comes later, with `openai:set_globals`).
 */
export interface OpenAiGlobals<State> {
  toolInput?: object | null;
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
   * How to reach the host: MCP Apps (postMessage JSON-RPC), ChatGPT's `window.openai`, or `auto`
   * (default): MCP Apps when the host answers the handshake in time, else `window.openai` when
   * the host injected it.
   */
  bridge?: "auto" | "mcp-apps" | "openai";
  /** The view's version, sent to the host (default "1.0.0"). */
  version?: string;
  /** Resize the frame to the content (MCP Apps; default true). */
  autoResize?: boolean;
  /** How long a request to the host may take, in ms (MCP Apps; default 60,000). */
  timeoutMs?: number;
  /** How long the MCP Apps handshake may take, in ms, before `auto` falls back to `window.openai` (default 1,000). */
  handshakeTimeoutMs?: number;
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
  /** The official `App`, when the widget is built with `sdk: ext-apps` (undefined with mcpgen's own bridge). */
  readonly app: App | undefined;
}

/** What a bridge tells the engine, as the host sends it. */
export interface BridgeEvents {
  input(args: object, partial: boolean): void;
  result(result: CallToolResult): void;
  cancelled(reason: string | undefined): void;
  context(context: HostContext): void;
}

/** A connected bridge to the host: the engine's calls, spelled in the host's protocol. */
export interface HostBridge {
  readonly kind: "mcp-apps" | "openai";
  callTool(name: string, args: object): Promise<CallToolResult>;
  sendMessage(text: string): Promise<void>;
  openLink(url: string): Promise<void>;
  updateModelContext(content: readonly ContentBlock[]): Promise<void>;
  requestDisplayMode(mode: DisplayMode): Promise<DisplayMode>;
  hostContext(): HostContext | undefined;
  readonly app?: App;
}

/** Settings a bridge is opened with, defaults applied. */
export interface BridgeSettings {
  name: string;
  version: string;
  autoResize: boolean;
  timeoutMs: number;
  handshakeTimeoutMs: number;
}

/** Opens the MCP Apps bridge (mcpgen's own, or the official App's). */
export type AppsConnector = (events: BridgeEvents, settings: BridgeSettings) => Promise<HostBridge>;
