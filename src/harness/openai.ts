/**
 * ChatGPT's `window.openai`, as the harness injects it into the widget's frame (bundled as a
 * classic script by src/harness/index.ts, allowed by the frame's CSP by its hash): the globals a
 * view reads, set when the host answers, and the calls, sent to the host page over postMessage.
 */
type Pending = { resolve: (value: unknown) => void; reject: (error: Error) => void };

const pending = new Map<number, Pending>();
let next = 1;

function request(method: string, params: unknown): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const id = next++;
    pending.set(id, { resolve, reject });
    window.parent.postMessage({ mcpgenOpenAi: 1, id, method, params }, "*");
  });
}

const openai: Record<string, unknown> = {
  toolInput: undefined,
  toolOutput: undefined,
  toolResponseMetadata: null,
  widgetState: null,
  callTool: (name: string, args: object) => request("callTool", { name, args }),
  sendFollowUpMessage: (args: { prompt: string }) => request("sendFollowUpMessage", args),
  openExternal: (args: { href: string }) => void request("openExternal", args),
  requestDisplayMode: (args: { mode: string }) => request("requestDisplayMode", args),
  requestModal: (args: object) => request("requestModal", args),
  setWidgetState: (state: unknown) => {
    openai.widgetState = state;
    return request("setWidgetState", state);
  },
};

window.addEventListener("message", (event: MessageEvent) => {
  const message = event.data as { mcpgenOpenAi?: number; id?: number; result?: unknown; error?: string };
  if (event.source !== window.parent || message?.mcpgenOpenAi !== 1 || typeof message.id !== "number") return;
  const waiting = pending.get(message.id);
  if (!waiting) return;
  pending.delete(message.id);
  if (message.error !== undefined) waiting.reject(new Error(message.error));
  else waiting.resolve(message.result);
});

(window as unknown as { openai: typeof openai }).openai = openai;

void request("ready", {}).then((globals) => {
  Object.assign(openai, globals);
  window.dispatchEvent(new CustomEvent("openai:set_globals", { detail: { globals } }));
});
