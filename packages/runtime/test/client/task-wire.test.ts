/** The layer that lets an SDK v2 Client read a 2026-07-28 CreateTaskResult for the requests the client marks. */
import { describe, expect, it } from "vitest";
import { acceptTaskAnswers, CARRIED_TASK, TASK_MARK, type WireTransport } from "../../src/client/taskWire.js";

const CAPS = "io.modelcontextprotocol/clientCapabilities";
const TASK = {
  resultType: "task",
  taskId: "t1",
  status: "working",
  ttlMs: 1000,
  pollIntervalMs: 50,
  _meta: { "io.modelcontextprotocol/serverInfo": { name: "s" } },
};

function fakeTransport() {
  const sent: unknown[] = [];
  const received: unknown[] = [];
  const transport: WireTransport = {
    send: async (message) => void sent.push(message),
    onmessage: (message) => void received.push(message),
  };
  return { transport, sent, received, deliver: (message: unknown) => transport.onmessage?.(message) };
}

const call = (id: number, meta: Record<string, unknown>) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: { name: "t", arguments: {}, _meta: { [CAPS]: { elicitation: {} }, ...meta } },
});

describe("taskWire", () => {
  it("drops the mark, declares the tasks extension when asked, and turns the CreateTaskResult into a result carrying the task", async () => {
    const t = fakeTransport();
    acceptTaskAnswers(t.transport);
    await t.transport.send(call(1, { [TASK_MARK]: { declare: true } }));
    expect(t.sent).toEqual([
      { ...call(1, {}), params: { name: "t", arguments: {}, _meta: { [CAPS]: { elicitation: {}, extensions: { "io.modelcontextprotocol/tasks": {} } } } } },
    ]);
    t.deliver({ jsonrpc: "2.0", id: 1, result: TASK });
    const { resultType: _, _meta, ...task } = TASK;
    expect(t.received).toEqual([{ jsonrpc: "2.0", id: 1, result: { resultType: "complete", content: [], _meta: { ..._meta, [CARRIED_TASK]: task } } }]);
  });

  it("leaves unmarked traffic, complete answers and other ids untouched; declare: false declares nothing", async () => {
    const t = fakeTransport();
    acceptTaskAnswers(t.transport);
    await t.transport.send(call(1, {}));
    await t.transport.send(call(2, { [TASK_MARK]: { declare: false } }));
    expect(t.sent).toEqual([call(1, {}), call(2, {})]);
    const answers = [
      { jsonrpc: "2.0", id: 1, result: TASK },
      { jsonrpc: "2.0", id: 2, result: { resultType: "complete", content: [] } },
      { jsonrpc: "2.0", id: 3, result: TASK },
      { jsonrpc: "2.0", method: "notifications/progress", params: {} },
    ];
    for (const a of answers) t.deliver(a);
    expect(t.received).toEqual(answers);
  });

  it("forgets a marked request the client cancelled, and is installed once (again after a new onmessage)", async () => {
    const t = fakeTransport();
    acceptTaskAnswers(t.transport);
    acceptTaskAnswers(t.transport);
    await t.transport.send(call(7, { [TASK_MARK]: { declare: true } }));
    await t.transport.send({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 7 } });
    expect(t.sent).toHaveLength(2);
    t.deliver({ jsonrpc: "2.0", id: 7, result: TASK });
    expect(t.received).toEqual([{ jsonrpc: "2.0", id: 7, result: TASK }]);
    // A reconnect sets a new onmessage: the layer wraps it on next use.
    const after: unknown[] = [];
    t.transport.onmessage = (m) => void after.push(m);
    acceptTaskAnswers(t.transport);
    await t.transport.send(call(8, { [TASK_MARK]: { declare: true } }));
    t.deliver({ jsonrpc: "2.0", id: 8, result: TASK });
    expect(after).toEqual([{ jsonrpc: "2.0", id: 8, result: expect.objectContaining({ resultType: "complete" }) }]);
  });
});
