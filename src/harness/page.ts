/**
 * The harness's host page (runs in the browser; bundled by src/harness/index.ts when the harness
 * starts): mounts the widget in a sandboxed iframe and speaks MCP Apps to it through the official
 * AppBridge, or answers ChatGPT's `window.openai` (injected into the frame by the harness) over
 * postMessage. Tool calls go to the harness, which forwards them to the server.
 */
import { AppBridge, PostMessageTransport } from "@modelcontextprotocol/ext-apps/app-bridge";
import { callToolResponse, changedGlobals, initialGlobals, type OpenAiGlobals, type ToolResult } from "./openaiHost.js";

interface Config {
  index: number;
  bridge: "mcp-apps" | "openai";
  /** This run's token: the harness answers /api/ requests that carry it only. */
  token: string;
  tool: { name: string; [key: string]: unknown };
  arguments: Record<string, unknown>;
  result: ToolResult;
  /** openai: the call is approval-gated (input and output held back until #approve is pressed). */
  approval: boolean;
  /** openai: the key of the globals the harness wrote into the frame. */
  load?: string;
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
  const answer = await post("/api/call", { name, arguments: args, bridge: config.bridge });
  if (answer.error !== undefined) throw new Error(answer.error);
  return answer.result;
}

/**
 * Records what the view asked, one POST after the other: requests the view does not wait for
 * (notifyIntrinsicHeight) and the next one would otherwise race, and `harness.events` must keep
 * the order the view asked in.
 */
let recorded: Promise<unknown> = Promise.resolve();
const record = (kind: string, params: unknown): Promise<unknown> =>
  (recorded = recorded.catch(() => undefined).then(() => post("/api/event", { kind, params })));

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
  // The frame starts with the same globals (the harness wrote them into it); changes are sent as set_globals.
  let globals: OpenAiGlobals = initialGlobals({ arguments: config.arguments, result: config.result }, config.approval);
  const send = (message: object) => target.postMessage({ mcpgenOpenAi: 1, ...message }, "*");
  const update = (next: Partial<OpenAiGlobals>) => {
    const changed = changedGlobals(globals, next);
    globals = { ...globals, ...changed };
    if (Object.keys(changed).length > 0) send({ globals: changed });
  };
  const files = new Map<string, string>();
  const approve = document.getElementById("approve");
  approve?.addEventListener("click", () => {
    approve.setAttribute("disabled", "");
    void record("approve", {});
    // As ChatGPT: the input once the user approves, then the output once the tool has answered.
    update({ toolInput: config.arguments });
    update({ toolOutput: config.result.structuredContent ?? null, toolResponseMetadata: config.result._meta ?? null });
  });
  const handle = async (method: string, params: Record<string, unknown>): Promise<unknown> => {
    switch (method) {
      case "callTool":
        return callToolResponse((await callTool(String(params.name), params.args ?? {})) as ToolResult);
      case "requestDisplayMode": {
        await record("display-mode", params);
        const mode = params.mode === "fullscreen" || params.mode === "pip" ? params.mode : "inline";
        update({ displayMode: mode });
        return { mode };
      }
      case "notifyIntrinsicHeight":
        if (typeof params.height === "number") frame.style.height = `${Math.ceil(params.height)}px`;
        await record(method, params);
        return null;
      case "setWidgetState":
        // The frame has set it and told its page; the host keeps it (ChatGPT shows it to the model).
        globals = { ...globals, widgetState: params.state };
        await record(method, params);
        return null;
      case "uploadFile": {
        const file = params.file;
        if (!(file instanceof File)) throw new Error("uploadFile takes a File");
        const fileId = `file_${files.size + 1}`;
        files.set(
          fileId,
          await new Promise<string>((resolve, reject) => {
            const reader = new FileReader();
            reader.onload = () => resolve(typeof reader.result === "string" ? reader.result : "");
            reader.onerror = () => reject(new Error(`cannot read ${file.name}`));
            reader.readAsDataURL(file);
          }),
        );
        await record(method, { name: file.name, size: file.size, type: file.type, fileId });
        return { fileId };
      }
      case "getFileDownloadUrl": {
        const downloadUrl = files.get(String(params.fileId));
        if (downloadUrl === undefined) throw new Error(`no file ${String(params.fileId)}`);
        return { downloadUrl };
      }
      default:
        await record(method, params);
        return null;
    }
  };
  window.addEventListener("message", (event: MessageEvent) => {
    const message = event.data as { mcpgenOpenAi?: number; id?: number; method?: string; params?: Record<string, unknown> };
    if (event.source !== target || message?.mcpgenOpenAi !== 1 || typeof message.method !== "string") return;
    handle(message.method, message.params ?? {}).then(
      (result) => send({ id: message.id, result }),
      (error: unknown) => send({ id: message.id, error: error instanceof Error ? error.message : String(error) }),
    );
  });
  frame.addEventListener("load", () => (document.body.dataset.initialized = "true"));
}
frame.src = `/frame/${config.index}?bridge=${config.bridge}${config.load === undefined ? "" : `&load=${encodeURIComponent(config.load)}`}`;
