/**
 * `mcpgen/react`: React hooks over a generated widget client. The view connects once, at module
 * level, and every component reads what the host sent through hooks typed by the manifest:
 *
 *     const view = connectView(createGiftsWidget());
 *     function Gifts() {
 *       const input = useToolInput(view);        // ToolInput<...> | undefined
 *       const result = useToolResult(view);      // ToolResult<...> | undefined
 *       const details = useCall(view, "gift_details");
 *       ...
 *     }
 *
 * The store below holds the latest of each event (a component mounted late still sees the input
 * that came first) and hands React immutable snapshots through useSyncExternalStore.
 */
import { useCallback, useRef, useState, useSyncExternalStore } from "react";
import type { CallableTools, HostContext, PartialToolInput, ToolInput, ToolResult } from "@mcpgen/runtime/widget";

/** What the hooks use of a generated widget client (`createXWidget()`): any of them fits. */
export interface ViewClient<Inputs, Outputs, Callable extends CallableTools<Callable>, State> {
  onToolInput(handler: (input: ToolInput<Inputs>) => void): unknown;
  onToolInputPartial(handler: (input: PartialToolInput<Inputs>) => void): unknown;
  onToolResult(handler: (result: ToolResult<Outputs>) => void): unknown;
  onToolCancelled(handler: (reason: string | undefined) => void): unknown;
  onHostContextChanged(handler: (context: HostContext) => void): unknown;
  connect(): Promise<void>;
  call<K extends keyof Callable & string>(name: K, args: Callable[K]["input"]): Promise<Callable[K]["output"]>;
  readonly hostContext: HostContext | undefined;
  readonly openai: { readonly widgetState: State | null; setWidgetState(state: State): Promise<void> } | undefined;
}

/** Everything the host has said so far. A new object on each change. */
export interface ViewSnapshot<Inputs, Outputs, State> {
  /** The connection: pending until the host answered, then open, or failed (see `error`). */
  readonly status: "connecting" | "connected" | "failed";
  readonly error: Error | undefined;
  readonly input: ToolInput<Inputs> | undefined;
  /** Arguments as the model streams them, until the whole input arrives. */
  readonly partialInput: PartialToolInput<Inputs> | undefined;
  readonly result: ToolResult<Outputs> | undefined;
  /** Set when the host cancelled the tool call (its reason, when it gave one). */
  readonly cancelled: { reason: string | undefined } | undefined;
  readonly hostContext: HostContext | undefined;
  /** The widget's state: ChatGPT's widgetState, or kept in the page on other hosts. */
  readonly widgetState: State | null;
}

/** A connected view: the widget client and its store. Make one per widget, at module level. */
export interface View<Inputs, Outputs, Callable extends CallableTools<Callable>, State> {
  readonly client: ViewClient<Inputs, Outputs, Callable, State>;
  getSnapshot(): ViewSnapshot<Inputs, Outputs, State>;
  subscribe(listener: () => void): () => void;
  /** Sets the widget state (ChatGPT keeps it, and shows it to the model); resolves once the host has it. */
  setWidgetState(state: State): Promise<void>;
}

/**
 * Registers a handler for every event of `client`, then connects it (handlers first, as hosts
 * require). Call it once per widget, outside components.
 */
export function connectView<Inputs, Outputs, Callable extends CallableTools<Callable>, State>(
  client: ViewClient<Inputs, Outputs, Callable, State>,
): View<Inputs, Outputs, Callable, State> {
  let snapshot: ViewSnapshot<Inputs, Outputs, State> = {
    status: "connecting",
    error: undefined,
    input: undefined,
    partialInput: undefined,
    result: undefined,
    cancelled: undefined,
    hostContext: undefined,
    widgetState: null,
  };
  const listeners = new Set<() => void>();
  const update = (change: Partial<ViewSnapshot<Inputs, Outputs, State>>) => {
    snapshot = { ...snapshot, ...change };
    for (const listener of [...listeners]) listener();
  };
  client.onToolInput((input) => update({ input, partialInput: undefined }));
  client.onToolInputPartial((partialInput) => update({ partialInput }));
  client.onToolResult((result) => update({ result }));
  client.onToolCancelled((reason) => update({ cancelled: { reason } }));
  client.onHostContextChanged((hostContext) => update({ hostContext }));
  client.connect().then(
    () =>
      update({ status: "connected", hostContext: client.hostContext ?? snapshot.hostContext, widgetState: client.openai?.widgetState ?? snapshot.widgetState }),
    (error: unknown) => update({ status: "failed", error: error instanceof Error ? error : new Error(String(error)) }),
  );
  return {
    client,
    getSnapshot: () => snapshot,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async setWidgetState(state) {
      update({ widgetState: state });
      await client.openai?.setWidgetState(state);
    },
  };
}

type AnyView<Inputs, Outputs, State> = Pick<View<Inputs, Outputs, never, State>, "getSnapshot" | "subscribe">;

/** Everything the host has said so far; the component renders again on each change. */
export function useView<Inputs, Outputs, State>(view: AnyView<Inputs, Outputs, State>): ViewSnapshot<Inputs, Outputs, State> {
  return useSyncExternalStore(view.subscribe, view.getSnapshot, view.getSnapshot);
}

/** The arguments of the tool that opened the widget (narrow on `tool`), or undefined until the host sends them. */
export function useToolInput<Inputs, Outputs, State>(view: AnyView<Inputs, Outputs, State>): ToolInput<Inputs> | undefined {
  return useView(view).input;
}

/** The checked result of the tool that opened the widget, or undefined until it comes. */
export function useToolResult<Inputs, Outputs, State>(view: AnyView<Inputs, Outputs, State>): ToolResult<Outputs> | undefined {
  return useView(view).result;
}

/** What the host says about the view's surroundings (theme, locale, display mode...). */
export function useHostContext<Inputs, Outputs, State>(view: AnyView<Inputs, Outputs, State>): HostContext | undefined {
  return useView(view).hostContext;
}

/** The widget's state and its setter: `initial` until the host or a set gives one. */
export function useWidgetState<Inputs, Outputs, Callable extends CallableTools<Callable>, State>(
  view: View<Inputs, Outputs, Callable, State>,
  initial: State,
): [State, (state: State) => Promise<void>] {
  const state = useView(view).widgetState;
  const set = useCallback((next: State) => view.setWidgetState(next), [view]);
  return [state ?? initial, set];
}

/** One tool the view calls: the last call's state, and `call` to make one. */
export interface CallState<Input, Output> {
  /** Calls the tool; resolves to its checked output (also kept in `output`), rejects as the client does. */
  call(args: Input): Promise<Output>;
  /** A call is under way. */
  readonly pending: boolean;
  /** The last call's output, until the next call starts. */
  readonly output: Output | undefined;
  /** The last call's error (ToolCallError, OutputValidationError, a host refusal), until the next call starts. */
  readonly error: Error | undefined;
}

/** Calls `name`, a tool the view may call (its visibility includes `app`), with pending and error state. */
export function useCall<Inputs, Outputs, Callable extends CallableTools<Callable>, State, K extends keyof Callable & string>(
  view: View<Inputs, Outputs, Callable, State>,
  name: K,
): CallState<Callable[K]["input"], Callable[K]["output"]> {
  const [state, setState] = useState<{ pending: boolean; output: Callable[K]["output"] | undefined; error: Error | undefined }>({
    pending: false,
    output: undefined,
    error: undefined,
  });
  // Only the latest call's answer is kept: an earlier one that settles later is dropped.
  const latest = useRef(0);
  const call = useCallback(
    async (args: Callable[K]["input"]) => {
      const id = ++latest.current;
      setState({ pending: true, output: undefined, error: undefined });
      try {
        const output = await view.client.call(name, args);
        if (id === latest.current) setState({ pending: false, output, error: undefined });
        return output;
      } catch (error) {
        if (id === latest.current) setState({ pending: false, output: undefined, error: error instanceof Error ? error : new Error(String(error)) });
        throw error;
      }
    },
    [view, name],
  );
  return { call, ...state };
}
