/**
 * The MCP Apps bridge on the official `App` of @modelcontextprotocol/ext-apps, for widgets built
 * with `sdk: ext-apps` (what mcpgen's own bridge lacks, such as tools the view offers the host,
 * is then at hand through `widget.app`). zod, which `App` validates with, runs jitless (./zodJitless.ts):
 * its probe of `new Function` would break the view's Content-Security-Policy on every load.
 */
// First: zod must be jitless before the modules below build their schemas.
import "./zodJitless.js";
import { App, PostMessageTransport } from "@modelcontextprotocol/ext-apps";
import type { CallToolResult, ContentBlock } from "../shared/mcp.js";
import { isCallToolResult, isRecord } from "./guards.js";
import type { AppsConnector, DisplayMode, HostContext } from "./types.js";

/** The host frame, whatever type library the project compiles with. */
const view = globalThis as unknown as { parent?: unknown };

export const connectExtApps: AppsConnector = async (events, settings) => {
  if (view.parent === undefined || view.parent === (globalThis as unknown)) throw new Error("no host frame: the view is not inside an MCP Apps host's iframe");
  const app = new App({ name: settings.name, version: settings.version }, {}, { autoResize: settings.autoResize });
  const context = (): HostContext | undefined => {
    const c: unknown = app.getHostContext();
    return isRecord(c) ? c : undefined;
  };
  app.addEventListener("hostcontextchanged", () => events.context(context() ?? {}));
  app.addEventListener("toolinput", (params) => events.input(params.arguments ?? {}, false));
  app.addEventListener("toolinputpartial", (params) => events.input(params.arguments ?? {}, true));
  app.addEventListener("toolresult", (params) => {
    const result: unknown = params;
    if (isCallToolResult(result)) events.result(result);
  });
  app.addEventListener("toolcancelled", (params) => events.cancelled(params.reason));
  // Window-typed in ext-apps; the host frame, whatever the type library says.
  type Ends = ConstructorParameters<typeof PostMessageTransport>;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`ui/initialize: the host did not answer within ${settings.handshakeTimeoutMs} ms`)), settings.handshakeTimeoutMs);
  });
  try {
    await Promise.race([app.connect(new PostMessageTransport(view.parent as Ends[0], view.parent as Ends[1]), { timeout: settings.timeoutMs }), late]);
  } catch (error) {
    await app.close().catch(() => undefined);
    throw error;
  } finally {
    clearTimeout(timer);
  }
  const options = { timeout: settings.timeoutMs };
  return {
    kind: "mcp-apps",
    app,
    async callTool(name, args) {
      const result: unknown = await app.callServerTool({ name, arguments: { ...args } }, options);
      if (!isCallToolResult(result)) throw new Error(`the host answered tools/call ${name} with no CallToolResult`);
      return result satisfies CallToolResult;
    },
    async sendMessage(text) {
      const result = await app.sendMessage({ role: "user", content: [{ type: "text", text }] }, options);
      if (result.isError) throw new Error("the host refused ui/message");
    },
    async openLink(url) {
      const result = await app.openLink({ url }, options);
      if (result.isError) throw new Error("the host refused ui/open-link");
    },
    async updateModelContext(content: readonly ContentBlock[]) {
      // MCP's ContentBlock as shared/mcp.ts states it; the App's own (zod-inferred) type is the same wire shape.
      await app.updateModelContext({ content: content as never }, options);
    },
    async requestDisplayMode(mode) {
      return (await app.requestDisplayMode({ mode }, options)).mode as DisplayMode;
    },
    hostContext: context,
  };
};
