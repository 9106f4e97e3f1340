/**
 * The widget bridge's JSON-RPC over postMessage (widget/wire.ts), between a view's wire
 * and a host played by the test: requests answered, errors and time limits, notifications,
 * answers to the host's requests (unknown methods included), and messages from other windows or
 * that are no JSON-RPC ignored.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { RpcError } from "../../src/shared/errors.js";
import { openWire, parseMessage, type JsonRpcMessage, type Wire } from "../../src/widget/wire.js";
import { until } from "../../../../test/helpers/wait.js";

/** A host window: what the view posted to it, and a way to post to the view as some source. */
function channel() {
  const host = { name: "host" };
  const sent: JsonRpcMessage[] = [];
  const listeners = new Set<(event: { source?: unknown; data?: unknown }) => void>();
  const wire = openWire(
    {
      peer: host,
      post: (message) => void sent.push(message),
      listen: (listener) => {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
    },
    50,
  );
  const deliver = (data: unknown, source: unknown = host) => {
    for (const l of listeners) l({ source, data });
  };
  return { host, sent, wire, deliver, listeners };
}

let open: Wire | undefined;
afterEach(() => {
  open?.close();
  open = undefined;
});

describe("parseMessage", () => {
  it.each([
    ["request", { jsonrpc: "2.0", id: 1, method: "ping" }, { kind: "request", id: 1, method: "ping", params: undefined }],
    [
      "notification",
      { jsonrpc: "2.0", method: "ui/notifications/tool-input", params: { arguments: {} } },
      { kind: "notification", method: "ui/notifications/tool-input", params: { arguments: {} } },
    ],
    ["response", { jsonrpc: "2.0", id: "a", result: { mode: "pip" } }, { kind: "response", id: "a", result: { mode: "pip" } }],
    ["error", { jsonrpc: "2.0", id: 2, error: { code: -32601, message: "no" } }, { kind: "error", id: 2, error: { code: -32601, message: "no" } }],
    ["not JSON-RPC 2.0", { jsonrpc: "1.0", id: 1, method: "ping" }, undefined],
    ["a string", "hello", undefined],
    ["a request with an object id", { jsonrpc: "2.0", id: {}, method: "ping" }, undefined],
    ["an error without a code", { jsonrpc: "2.0", id: 2, error: { message: "no" } }, undefined],
    ["neither result nor error", { jsonrpc: "2.0", id: 2 }, undefined],
  ])("%s", (_, data, want) => expect(parseMessage(data)).toEqual(want));
});

describe("openWire", () => {
  it("sends a request and resolves with the host's result", async () => {
    const { sent, wire, deliver } = channel();
    open = wire;
    const answer = wire.request("ui/request-display-mode", { mode: "pip" });
    expect(sent).toEqual([{ jsonrpc: "2.0", id: 1, method: "ui/request-display-mode", params: { mode: "pip" } }]);
    deliver({ jsonrpc: "2.0", id: 1, result: { mode: "inline" } });
    await expect(answer).resolves.toEqual({ mode: "inline" });
  });

  it("rejects with an RpcError carrying the host's code, message and data", async () => {
    const { wire, deliver } = channel();
    open = wire;
    const answer = wire.request("tools/call", { name: "x" });
    deliver({ jsonrpc: "2.0", id: 1, error: { code: -32602, message: "Unknown tool", data: { tool: "x" } } });
    const error = await answer.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RpcError);
    expect(error).toMatchObject({ code: -32602, message: "Unknown tool", data: { tool: "x" } });
  });

  it("rejects a request the host does not answer in time, and ignores a late answer", async () => {
    vi.useFakeTimers();
    try {
      const { wire, deliver } = channel();
      open = wire;
      const answer = wire.request("ui/initialize", {}, 1000);
      const settled = answer.catch((e: unknown) => e);
      vi.advanceTimersByTime(999);
      deliver({ jsonrpc: "2.0", id: 2, result: {} });
      vi.advanceTimersByTime(1);
      expect(await settled).toEqual(new Error("ui/initialize: the host did not answer within 1000 ms"));
      deliver({ jsonrpc: "2.0", id: 1, result: {} });
    } finally {
      vi.useRealTimers();
    }
  });

  it("ignores messages from another window than the host's", async () => {
    const { wire, deliver } = channel();
    open = wire;
    const seen: unknown[] = [];
    wire.onNotification("ui/notifications/tool-input", (p) => void seen.push(p));
    const answer = wire.request("ping", undefined);
    deliver({ jsonrpc: "2.0", id: 1, result: { forged: true } }, { name: "other frame" });
    deliver({ jsonrpc: "2.0", method: "ui/notifications/tool-input", params: { arguments: { forged: true } } }, null);
    deliver({ jsonrpc: "2.0", method: "ui/notifications/tool-input", params: { arguments: { a: 1 } } });
    deliver({ jsonrpc: "2.0", id: 1, result: {} });
    await expect(answer).resolves.toEqual({});
    expect(seen).toEqual([{ arguments: { a: 1 } }]);
  });

  it("answers the host's requests: a result, {} for undefined, -32601 for an unknown method, the code of an RpcError", async () => {
    const { sent, wire, deliver } = channel();
    open = wire;
    wire.onRequest("ping", () => undefined);
    wire.onRequest("ui/resource-teardown", async () => ({ done: true }));
    wire.onRequest("fails", () => {
      throw new RpcError(-32000, "nope");
    });
    wire.onRequest("crashes", () => {
      throw new Error("bug");
    });
    deliver({ jsonrpc: "2.0", id: 7, method: "ping" });
    deliver({ jsonrpc: "2.0", id: 8, method: "ui/resource-teardown", params: {} });
    deliver({ jsonrpc: "2.0", id: 9, method: "tools/list" });
    deliver({ jsonrpc: "2.0", id: 10, method: "fails" });
    deliver({ jsonrpc: "2.0", id: 11, method: "crashes" });
    await until(() => sent.length === 5, "answers to the five requests", { timeout: 1000 });
    expect(sent).toEqual(
      expect.arrayContaining([
        { jsonrpc: "2.0", id: 7, result: {} },
        { jsonrpc: "2.0", id: 8, result: { done: true } },
        { jsonrpc: "2.0", id: 9, error: { code: -32601, message: "Method not found: tools/list" } },
        { jsonrpc: "2.0", id: 10, error: { code: -32000, message: "nope" } },
        { jsonrpc: "2.0", id: 11, error: { code: -32603, message: "bug" } },
      ]),
    );
  });

  it("sends notifications without an id, params left out when there are none", () => {
    const { sent, wire } = channel();
    open = wire;
    wire.notify("ui/notifications/initialized", {});
    wire.notify("ui/notifications/size-changed", { width: 10, height: 20 });
    wire.notify("bare");
    expect(sent).toEqual([
      { jsonrpc: "2.0", method: "ui/notifications/initialized", params: {} },
      { jsonrpc: "2.0", method: "ui/notifications/size-changed", params: { width: 10, height: 20 } },
      { jsonrpc: "2.0", method: "bare" },
    ]);
  });

  it("close stops listening and rejects what is pending", async () => {
    const { wire, listeners } = channel();
    const answer = wire.request("ping", undefined).catch((e: unknown) => e);
    wire.close();
    expect(listeners.size).toBe(0);
    expect(await answer).toEqual(new Error("the connection to the host is closed"));
  });
});
