/**
 * mcpgen's own MCP Apps bridge (widget/appsBridge.ts) and the engine over it, against a host
 * played by the test through the window globals the bridge uses (`parent.postMessage`,
 * `message` events): the handshake and its version negotiation, the host's notifications and
 * requests (shapes checked), the view's requests, and the time limit of the handshake.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { connectAppsBridge, PROTOCOL_VERSION } from "../../src/widget/appsBridge.js";
import { createWidget } from "../../src/widget/widget.js";
import type { BridgeEvents } from "../../src/widget/types.js";
import { sleep, until } from "../../../../test/helpers/wait.js";

type Message = { jsonrpc: "2.0"; id?: number; method?: string; params?: unknown; result?: unknown };
const scope = globalThis as unknown as { [key: string]: unknown };
let listeners: ((event: { source?: unknown; data?: unknown }) => void)[];
/** The view's `openai:set_globals` listeners. */
let globalsListeners: ((event: { detail?: unknown }) => void)[];
/** What the view posted to its host. */
let posted: Message[];
/** How the host answers a request (undefined: it does not). */
let answer: (message: Message) => unknown;
const host = {
  postMessage(message: Message) {
    posted.push(message);
    if (message.id === undefined || message.method === undefined) return;
    const result = answer(message);
    if (result !== undefined) queueMicrotask(() => send({ jsonrpc: "2.0", id: message.id, result }));
  },
};
const send = (data: unknown, source: unknown = host) => {
  for (const l of [...listeners]) l({ source, data });
};
const initialized = (context: object = { theme: "dark" }, protocolVersion = PROTOCOL_VERSION) => ({
  protocolVersion,
  hostInfo: { name: "test-host", version: "1" },
  hostCapabilities: {},
  hostContext: context,
});
const settings = { name: "gifts", version: "1.0.0", autoResize: false, timeoutMs: 1000, handshakeTimeoutMs: 200 };

function recorder(): { events: BridgeEvents; seen: [string, unknown][] } {
  const seen: [string, unknown][] = [];
  return {
    seen,
    events: {
      input: (args, partial) => void seen.push([partial ? "partial" : "input", args]),
      result: (result) => void seen.push(["result", result]),
      cancelled: (reason) => void seen.push(["cancelled", reason]),
      context: (context) => void seen.push(["context", context]),
    },
  };
}

beforeEach(() => {
  listeners = [];
  globalsListeners = [];
  posted = [];
  answer = (m) => (m.method === "ui/initialize" ? initialized() : {});
  scope["parent"] = host;
  scope["addEventListener"] = (type: string, l: (typeof listeners)[number]) => {
    if (type === "message") listeners.push(l);
    else if (type === "openai:set_globals") globalsListeners.push(l as (typeof globalsListeners)[number]);
  };
  scope["removeEventListener"] = (_: string, l: (typeof listeners)[number]) => void (listeners = listeners.filter((x) => x !== l));
});
afterEach(() => {
  for (const key of ["parent", "addEventListener", "removeEventListener", "openai"]) delete scope[key];
});

describe("connectAppsBridge", () => {
  it("asks ui/initialize with its name, version and protocol, then says initialized", async () => {
    const bridge = await connectAppsBridge(recorder().events, settings);
    expect(posted).toEqual([
      {
        jsonrpc: "2.0",
        id: 1,
        method: "ui/initialize",
        params: { appInfo: { name: "gifts", version: "1.0.0" }, appCapabilities: {}, protocolVersion: "2026-01-26" },
      },
      { jsonrpc: "2.0", method: "ui/notifications/initialized", params: {} },
    ]);
    expect(bridge.hostContext()).toEqual({ theme: "dark" });
  });

  it("refuses a host that answers a protocol version it does not speak, and stops listening", async () => {
    answer = (m) => (m.method === "ui/initialize" ? initialized({}, "1999-01-01") : {});
    await expect(connectAppsBridge(recorder().events, settings)).rejects.toThrow("the host speaks MCP Apps 1999-01-01");
    expect(listeners).toEqual([]);
    expect(posted.map((m) => m.method)).toEqual(["ui/initialize"]);
  });

  it("refuses an initialize result of the wrong shape", async () => {
    answer = (m) => (m.method === "ui/initialize" ? { protocolVersion: PROTOCOL_VERSION } : {});
    await expect(connectAppsBridge(recorder().events, settings)).rejects.toThrow("no initialize result");
  });

  it("gives up when no host answers within the handshake's time limit", async () => {
    answer = () => undefined;
    await expect(connectAppsBridge(recorder().events, settings)).rejects.toThrow("ui/initialize: the host did not answer within 200 ms");
  });

  it("hands on the host's notifications whose shapes hold, merges context changes, answers teardown and ping", async () => {
    const { events, seen } = recorder();
    const bridge = await connectAppsBridge(events, settings);
    send({ jsonrpc: "2.0", method: "ui/notifications/tool-input-partial", params: { arguments: { occasion: "bir" } } });
    send({ jsonrpc: "2.0", method: "ui/notifications/tool-input", params: { arguments: { occasion: "birthday" } } });
    send({ jsonrpc: "2.0", method: "ui/notifications/tool-input", params: { arguments: null } });
    send({ jsonrpc: "2.0", method: "ui/notifications/tool-result", params: { content: [], structuredContent: { gifts: [] } } });
    send({ jsonrpc: "2.0", method: "ui/notifications/tool-result", params: { structuredContent: { gifts: [] } } });
    send({ jsonrpc: "2.0", method: "ui/notifications/tool-cancelled", params: { reason: "user" } });
    send({ jsonrpc: "2.0", method: "ui/notifications/host-context-changed", params: { displayMode: "fullscreen" } });
    // From another window: ignored.
    send({ jsonrpc: "2.0", method: "ui/notifications/tool-input", params: { arguments: { forged: true } } }, {});
    expect(seen).toEqual([
      ["partial", { occasion: "bir" }],
      ["input", { occasion: "birthday" }],
      ["result", { content: [], structuredContent: { gifts: [] } }],
      ["cancelled", "user"],
      ["context", { theme: "dark", displayMode: "fullscreen" }],
    ]);
    expect(bridge.hostContext()).toEqual({ theme: "dark", displayMode: "fullscreen" });
    send({ jsonrpc: "2.0", id: 50, method: "ui/resource-teardown", params: {} });
    send({ jsonrpc: "2.0", id: 51, method: "ping" });
    await until(() => posted.filter((m) => m.id === 50 || m.id === 51).length >= 2, "the answers to ui/resource-teardown and ping");
    expect(posted.filter((m) => m.id === 50 || m.id === 51)).toEqual([
      { jsonrpc: "2.0", id: 50, result: {} },
      { jsonrpc: "2.0", id: 51, result: {} },
    ]);
  });

  it("sends the view's requests in MCP Apps' form", async () => {
    answer = (m) => {
      if (m.method === "ui/initialize") return initialized();
      if (m.method === "tools/call") return { content: [{ type: "text", text: "ok" }], structuredContent: { ok: true } };
      if (m.method === "ui/request-display-mode") return { mode: "inline" };
      if (m.method === "ui/open-link") return { isError: true };
      return {};
    };
    const bridge = await connectAppsBridge(recorder().events, settings);
    await expect(bridge.callTool("gift_details", { name: "Dice set" })).resolves.toEqual({
      content: [{ type: "text", text: "ok" }],
      structuredContent: { ok: true },
    });
    await bridge.sendMessage("hello");
    await bridge.updateModelContext([{ type: "text", text: "shown" }]);
    await expect(bridge.requestDisplayMode("fullscreen")).resolves.toBe("inline");
    await expect(bridge.openLink("https://example.com")).rejects.toThrow("the host refused ui/open-link");
    expect(posted.slice(2).map((m) => [m.method, m.params])).toEqual([
      ["tools/call", { name: "gift_details", arguments: { name: "Dice set" } }],
      ["ui/message", { role: "user", content: [{ type: "text", text: "hello" }] }],
      ["ui/update-model-context", { content: [{ type: "text", text: "shown" }] }],
      ["ui/request-display-mode", { mode: "fullscreen" }],
      ["ui/open-link", { url: "https://example.com" }],
    ]);
  });
});

describe("createWidget, bridge auto", () => {
  const spec = { name: "gifts", opens: ["suggest_gifts"], callable: [], checks: {} };

  it("uses MCP Apps when the host answers, even with window.openai injected (toolInput null)", async () => {
    scope["openai"] = { toolInput: null, toolOutput: null };
    const widget = createWidget(spec, { autoResize: false });
    await widget.connect();
    expect(widget.bridge).toBe("mcp-apps");
  });

  it("falls back to window.openai when no MCP Apps host answers in time, and waits for a non-null toolInput", async () => {
    answer = () => undefined;
    const openai: { [key: string]: unknown } = { toolInput: null, toolOutput: null };
    scope["openai"] = openai;
    const inputs: unknown[] = [];
    const widget = createWidget<{ suggest_gifts: { occasion: string } }, object, Record<never, never>, unknown>(spec, {
      autoResize: false,
      handshakeTimeoutMs: 50,
    });
    widget.onToolInput((input) => void inputs.push(input));
    await widget.connect();
    expect(widget.bridge).toBe("openai");
    // A macrotask later, an input would have been delivered (a microtask): none is.
    await sleep(0);
    expect(inputs).toEqual([]);
    // The host has the input now: the event names the changed keys (read even before window.openai is updated), once.
    const changed = { detail: { globals: { toolInput: { occasion: "birthday" } } } };
    for (const l of globalsListeners) l(changed);
    openai["toolInput"] = { occasion: "birthday" };
    for (const l of globalsListeners) l(changed);
    expect(inputs).toEqual([{ tool: "suggest_gifts", arguments: { occasion: "birthday" } }]);
  });

  it("uses window.openai at once when it already holds the input (ChatGPT): no handshake, no wait", async () => {
    answer = () => undefined;
    scope["openai"] = { toolInput: { occasion: "birthday" }, toolOutput: null };
    const inputs: unknown[] = [];
    const widget = createWidget<{ suggest_gifts: { occasion: string } }, object, Record<never, never>, unknown>(spec, {
      autoResize: false,
      handshakeTimeoutMs: 10_000,
    });
    widget.onToolInput((input) => void inputs.push(input));
    await widget.connect();
    expect(widget.bridge).toBe("openai");
    expect(posted.filter((m) => m.method === "ui/initialize")).toEqual([]);
    await until(() => inputs.length > 0, "the input window.openai holds");
    expect(inputs).toEqual([{ tool: "suggest_gifts", arguments: { occasion: "birthday" } }]);
  });

  it("rejects when neither answers", async () => {
    answer = () => undefined;
    await expect(createWidget(spec, { autoResize: false, handshakeTimeoutMs: 50 }).connect()).rejects.toThrow("the host did not answer within 50 ms");
  });
});
