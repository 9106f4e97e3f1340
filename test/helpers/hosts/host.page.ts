/**
 * The host page of test/helpers/hosts/server.ts (bundled for the browser): an MCP Apps host
 * written against the official `AppBridge` of @modelcontextprotocol/ext-apps, talking to the view
 * through a sandbox proxy on another origin (./sandbox.page.ts). With `host: "none"` it only hands
 * the sandbox the HTML and answers nothing (a host that offers no MCP Apps, such as ChatGPT's
 * `window.openai` alone).
 */
import { AppBridge, PostMessageTransport } from "@modelcontextprotocol/ext-apps/app-bridge";
import type { HostPageConfig } from "./config.js";

const id = new URLSearchParams(location.search).get("id") ?? "";
const config = (await (await fetch(`/config.json?id=${encodeURIComponent(id)}`)).json()) as HostPageConfig;
const frame = document.getElementById("sandbox") as HTMLIFrameElement;
const target = frame.contentWindow!;

async function post(path: string, body: unknown): Promise<{ result?: unknown; error?: string }> {
  const response = await fetch(path, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ id, ...(body as object) }) });
  return (await response.json()) as { result?: unknown; error?: string };
}
const record = (kind: string, params: unknown) => post("/api/event", { kind, params });

if (config.host === "mcp-apps") {
  const bridge = new AppBridge(
    null,
    { name: "mcpgen-test-host", version: "1.0.0" },
    { serverTools: {}, openLinks: {}, message: { text: {} }, updateModelContext: { text: {} } },
    {
      hostContext: {
        toolInfo: { id: 1, tool: { name: config.tool, inputSchema: { type: "object" } } },
        theme: "light",
        displayMode: "inline",
        availableDisplayModes: ["inline", "fullscreen"],
        locale: "en-US",
        platform: "web",
      },
    },
  );
  bridge.oncalltool = async (params) => {
    const answer = await post("/api/call", { name: params.name, arguments: params.arguments ?? {} });
    if (answer.error !== undefined) throw new Error(answer.error);
    return answer.result as never;
  };
  bridge.onsandboxready = () => void bridge.sendSandboxResourceReady({ html: config.html });
  bridge.onsizechange = (size) => void record("size-changed", size);
  bridge.onmessage = async (params) => (await record("message", params), {});
  bridge.onopenlink = async (params) => (await record("open-link", params), {});
  bridge.oninitialized = () => {
    void record("initialized", {});
    void bridge.sendToolInput({ arguments: config.arguments }).then(() => bridge.sendToolResult(config.result as never));
  };
  await bridge.connect(new PostMessageTransport(target, target));
} else {
  window.addEventListener("message", (event: MessageEvent) => {
    const data = event.data as { method?: unknown } | null;
    if (event.source === target && data?.method === "ui/notifications/sandbox-proxy-ready")
      target.postMessage({ jsonrpc: "2.0", method: "ui/notifications/sandbox-resource-ready", params: { html: config.html } }, "*");
  });
}
frame.src = config.sandboxUrl;
