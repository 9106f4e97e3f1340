/**
 * The harness's host page (runs in the browser; bundled by src/harness/index.ts when the harness
 * starts): mounts the widget in a sandboxed iframe and speaks MCP Apps to it through the official
 * AppBridge, or answers ChatGPT's `window.openai` (injected into the frame by the harness) over
 * postMessage. Tool calls go to the harness, which forwards them to the server.
 */
import { AppBridge, PostMessageTransport } from "@modelcontextprotocol/ext-apps/app-bridge";

interface Config {
  index: number;
  bridge: "mcp-apps" | "openai";
  /** This run's token: the harness answers /api/ requests that carry it only. */
  token: string;
  tool: { name: string; [key: string]: unknown };
  arguments: Record<string, unknown>;
  result: { content: unknown[]; structuredContent?: Record<string, unknown>; isError?: boolean; _meta?: Record<string, unknown> };
}

const config = JSON.parse(document.getElementById("config")!.textContent!) as Config;
const frame = document.createElement("iframe");
frame.setAttribute("sandbox", "allow-scripts");
frame.title = "widget";
document.body.append(frame);
const target = frame.contentWindow!;

async function post(path: string, body: unknown): Promise<{ result?: unknown; error?: string }> {
  const response = await fetch(path, {
    method: "POST",
    headers: { "content-type": "application/json", "x-mcpgen-harness-token": config.token },
    body: JSON.stringify(body),
  });
  return (await response.json()) as { result?: unknown; error?: string };
}

async function callTool(name: string, args: unknown): Promise<unknown> {
  const answer = await post("/api/call", { name, arguments: args });
  if (answer.error !== undefined) throw new Error(answer.error);
  return answer.result;
}

const record = (kind: string, params: unknown) => post("/api/event", { kind, params });

if (config.bridge === "mcp-apps") {
  const bridge = new AppBridge(
    null,
    { name: "mcpgen-harness", version: "1.0.0" },
    { serverTools: {}, openLinks: {}, message: { text: {} }, updateModelContext: { text: {} } },
    {
      hostContext: {
        toolInfo: { id: 1, tool: config.tool as never },
        theme: "light",
        displayMode: "inline",
        availableDisplayModes: ["inline", "fullscreen"],
        locale: "en-US",
        platform: "web",
      },
    },
  );
  bridge.oncalltool = async (params) => (await callTool(params.name, params.arguments ?? {})) as never;
  // The view's autoResize: the frame follows its content.
  bridge.onsizechange = ({ height }) => {
    if (typeof height === "number") frame.style.height = `${Math.ceil(height)}px`;
  };
  bridge.onmessage = async (params) => {
    await record("message", params);
    return {};
  };
  bridge.onopenlink = async (params) => {
    await record("open-link", params);
    return {};
  };
  bridge.onrequestdisplaymode = async (params) => {
    await record("display-mode", params);
    return { mode: params.mode };
  };
  bridge.oninitialized = () => {
    document.body.dataset.initialized = "true";
    void bridge.sendToolInput({ arguments: config.arguments }).then(() => bridge.sendToolResult(config.result as never));
  };
  // Listening before the frame loads: the view sends ui/initialize as soon as it runs.
  await bridge.connect(new PostMessageTransport(target, target));
} else {
  const globals = {
    toolInput: config.arguments,
    toolOutput: config.result.structuredContent ?? null,
    toolResponseMetadata: config.result._meta ?? null,
    theme: "light",
    locale: "en-US",
    displayMode: "inline",
    maxHeight: 480,
  };
  const handle = async (method: string, params: Record<string, unknown>): Promise<unknown> => {
    switch (method) {
      case "ready":
        document.body.dataset.initialized = "true";
        return globals;
      case "callTool":
        return callTool(String(params.name), params.args ?? {});
      case "requestDisplayMode":
        await record("display-mode", params);
        return { mode: params.mode };
      default:
        await record(method, params);
        return null;
    }
  };
  window.addEventListener("message", (event: MessageEvent) => {
    const message = event.data as { mcpgenOpenAi?: number; id?: number; method?: string; params?: Record<string, unknown> };
    if (event.source !== target || message?.mcpgenOpenAi !== 1 || typeof message.method !== "string") return;
    handle(message.method, message.params ?? {}).then(
      (result) => target.postMessage({ mcpgenOpenAi: 1, id: message.id, result }, "*"),
      (error: unknown) => target.postMessage({ mcpgenOpenAi: 1, id: message.id, error: error instanceof Error ? error.message : String(error) }, "*"),
    );
  });
}
frame.src = `/frame/${config.index}?bridge=${config.bridge}`;
