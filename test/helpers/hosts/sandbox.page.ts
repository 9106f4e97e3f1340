/**
 * The sandbox proxy of test/helpers/hosts/server.ts (bundled for the browser), on its own origin
 * and under the Content-Security-Policy the server built from the resource's `_meta.ui.csp`: it
 * tells the host it is ready, mounts the view's HTML it is sent in an inner frame (by `srcdoc`, or
 * by `document.write` into a blank frame of its own origin), and relays messages both ways. With
 * `openai=null` it injects ChatGPT's `window.openai` with a null `toolInput` first, as hosts do for
 * a tool awaiting approval (and as mcp-use's inspector does in MCP Apps frames).
 */
const query = new URLSearchParams(location.search);
const mode = query.get("mode") === "write" ? "write" : "srcdoc";
let inner: HTMLIFrameElement | undefined;

window.addEventListener("message", (event: MessageEvent) => {
  const data = event.data as { method?: unknown; params?: { html?: unknown } } | null;
  if (event.source === window.parent) {
    if (data?.method === "ui/notifications/sandbox-resource-ready") {
      if (typeof data.params?.html === "string") mount(data.params.html);
      return;
    }
    inner?.contentWindow?.postMessage(event.data, "*");
  } else if (inner && event.source === inner.contentWindow) {
    window.parent.postMessage(event.data, "*");
  }
});

function mount(html: string): void {
  inner = document.createElement("iframe");
  inner.title = "view";
  inner.style.cssText = "border: 0; width: 100%; height: 600px";
  if (mode === "srcdoc") {
    inner.setAttribute("sandbox", "allow-scripts");
    inner.srcdoc = html;
    document.body.append(inner);
    return;
  }
  document.body.append(inner);
  const view = inner.contentWindow as (Window & { openai?: unknown }) | null;
  if (!view) throw new Error("sandbox: the inner frame has no window");
  if (query.get("openai") === "null")
    view.openai = {
      toolInput: null,
      toolOutput: null,
      toolResponseMetadata: null,
      widgetState: null,
      theme: "light",
      locale: "en-US",
      displayMode: "inline",
      maxHeight: 600,
    };
  view.document.open();
  view.document.write(html);
  view.document.close();
}

window.parent.postMessage({ jsonrpc: "2.0", method: "ui/notifications/sandbox-proxy-ready", params: {} }, "*");
