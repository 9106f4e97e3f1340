/**
 * ChatGPT's `window.openai`, as the harness injects it into the widget's frame: a classic script
 * placed before the widget's Content-Security-Policy (a policy in a meta element governs what
 * comes after it, so the policy is served untouched), run before the widget's own script. The
 * globals are there at once (written into the page by the harness: no round trip); a change
 * from the host arrives as an `openai:set_globals` event carrying only the changed keys. The
 * methods are sent to the host page over postMessage. Names and shapes follow OpenAI's Apps SDK
 * reference.
 */
import type { OpenAiGlobals } from "./openaiHost.js";

type Pending = { resolve: (value: unknown) => void; reject: (error: Error) => void };

declare global {
  var __mcpgenOpenAiGlobals: OpenAiGlobals | undefined;
}

const globals = globalThis.__mcpgenOpenAiGlobals!;
delete globalThis.__mcpgenOpenAiGlobals;

const pending = new Map<number, Pending>();
let next = 1;

function request(method: string, params: unknown): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const id = next++;
    pending.set(id, { resolve, reject });
    window.parent.postMessage({ mcpgenOpenAi: 1, id, method, params }, "*");
  });
}

/** Sets globals and tells the page: `openai:set_globals` with exactly these keys. */
function setGlobals(changed: Partial<OpenAiGlobals>): void {
  Object.assign(openai, changed);
  window.dispatchEvent(new CustomEvent("openai:set_globals", { detail: { globals: changed } }));
}

const openai = {
  ...globals,
  callTool: async (name: string, args: Record<string, unknown> = {}) => {
    const response = await request("callTool", { name, args });
    window.dispatchEvent(new CustomEvent("openai:tool_response", { detail: { tool: { name, args }, response } }));
    return response;
  },
  sendFollowUpMessage: async (args: { prompt: string }) => void (await request("sendFollowUpMessage", args)),
  openExternal: (args: { href: string }) => void request("openExternal", args),
  requestDisplayMode: (args: { mode: OpenAiGlobals["displayMode"] }) => request("requestDisplayMode", args),
  requestModal: (args: { title?: string; params?: Record<string, unknown> }) => request("requestModal", args),
  requestClose: () => void request("requestClose", {}),
  notifyIntrinsicHeight: (height: number) => void request("notifyIntrinsicHeight", { height }),
  setOpenInAppUrl: (args: { href: string }) => void request("setOpenInAppUrl", args),
  uploadFile: (file: File) => request("uploadFile", { file }) as Promise<{ fileId: string }>,
  getFileDownloadUrl: (args: { fileId: string }) => request("getFileDownloadUrl", args) as Promise<{ downloadUrl: string }>,
  setWidgetState: async (state: unknown) => {
    setGlobals({ widgetState: state });
    await request("setWidgetState", { state });
  },
};

window.addEventListener("message", (event: MessageEvent) => {
  if (event.source !== window.parent) return;
  const message = event.data as { mcpgenOpenAi?: number; id?: number; result?: unknown; error?: string; globals?: Partial<OpenAiGlobals> };
  if (message?.mcpgenOpenAi !== 1) return;
  if (message.globals !== undefined) return setGlobals(message.globals);
  const waiting = typeof message.id === "number" ? pending.get(message.id) : undefined;
  if (!waiting) return;
  pending.delete(message.id!);
  if (message.error !== undefined) waiting.reject(new Error(message.error));
  else waiting.resolve(message.result);
});

(window as unknown as { openai: typeof openai }).openai = openai;
