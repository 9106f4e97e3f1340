/**
 * Each rule of `mcpgen check` fires where it should and nowhere else: a crafted log per case, its
 * findings' rules compared whole; and the clean example trace has none.
 */
import { describe, expect, it } from "vitest";
import type { ServerDefinition } from "@mcpgen/runtime/shared";
import { checkLog } from "../../../../src/commands/check/run.js";
import { RULE_IDS } from "../../../../src/commands/check/rules/table.js";
import { client, LISTS, rawFile, server, traceFile, type Entry } from "./logs.js";

/** What a 2026-07-28 request carries in `_meta`: its revision and the client's capabilities. */
const MODERN_META = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} };
const modernCall = (id: unknown, name: string, args: unknown) => client({ id, method: "tools/call", params: { name, arguments: args, _meta: MODERN_META } });
const call = (id: unknown, name: string, args: unknown, extra: Record<string, unknown> = {}) =>
  client({ id, method: "tools/call", params: { name, arguments: args } }, extra);
const gifts = (id: unknown, sc: unknown = { gifts: [] }) => server({ id, result: { content: [{ type: "text", text: "ok" }], structuredContent: sc } });

const CASES: [string, Entry[], string[]][] = [
  ["a clean exchange", [call(1, "suggest_gifts", { occasion: "birthday", budget: 10 }), gifts(1)], []],
  ["a line that is not a message", [{ from: "client", message: 42 }], ["unreadable-line"]],
  ["a note of text that is not JSON", [{ note: "not JSON", text: "hello" }], []],
  ["no jsonrpc", [{ from: "client", message: { id: 1, method: "ping" } }, server({ id: 1, result: {} })], ["jsonrpc-version"]],
  ["jsonrpc 1.0", [client({ id: 1, method: "ping" }), { from: "server", message: { jsonrpc: "1.0", id: 1, result: {} } }], ["jsonrpc-version"]],
  ["result and error", [client({ id: 1, method: "ping" }), server({ id: 1, result: {}, error: { code: 1, message: "x" } })], ["response-shape"]],
  ["neither result nor error", [client({ id: 1, method: "ping" }), server({ id: 1 })], ["response-shape"]],
  ["an error without an id (not even null)", [server({ error: { code: -32000, message: "Bad Request" } })], ["response-shape"]],
  ["an error without code", [client({ id: 1, method: "ping" }), server({ id: 1, error: { message: "x" } })], ["error-object"]],
  ["an error with a string code", [client({ id: 1, method: "ping" }), server({ id: 1, error: { code: "E1", message: "x" } })], ["error-object"]],
  [
    "an id reused while pending",
    [client({ id: 1, method: "ping" }), client({ id: 1, method: "tools/list" }), server({ id: 1, result: {} }), server({ id: 1, result: { tools: [] } })],
    ["duplicate-id"],
  ],
  [
    "an id reused after its answer",
    [client({ id: 1, method: "ping" }), server({ id: 1, result: {} }), client({ id: 1, method: "ping" }), server({ id: 1, result: {} })],
    [],
  ],
  [
    "the same id on both sides",
    [client({ id: 1, method: "ping" }), server({ id: 1, method: "ping" }), server({ id: 1, result: {} }), client({ id: 1, result: {} })],
    [],
  ],
  ["a response to no request", [server({ id: 9, result: {} })], ["unmatched-response"]],
  ["an answer twice", [client({ id: 1, method: "ping" }), server({ id: 1, result: {} }), server({ id: 1, result: {} })], ["unmatched-response"]],
  ["a parse error with id null", [server({ id: null, error: { code: -32700, message: "Parse error" } })], []],
  ["a request never answered", [client({ id: 1, method: "ping" })], ["unanswered-request"]],
  [
    "a request cancelled and left unanswered",
    [call(1, "gift_details", { name: "a" }), client({ method: "notifications/cancelled", params: { requestId: 1 } })],
    [],
  ],
  [
    "a request cancelled, answered anyway",
    [
      call(1, "gift_details", { name: "a" }),
      client({ method: "notifications/cancelled", params: { requestId: 1 } }),
      server({ id: 1, result: { content: [] } }),
    ],
    [],
  ],
  ["a notification with an id", [client({ id: 3, method: "notifications/initialized" })], ["notification-with-id"]],
  ["an unknown method", [client({ id: 1, method: "tools/col" }), server({ id: 1, error: { code: -32601, message: "Method not found" } })], ["unknown-method"]],
  ["a notification without its prefix", [server({ method: "tools/list_changed" })], ["unknown-method"]],
  ["a result as a notification", [server({ method: "notifications/tool_result", params: { result: {} } })], ["result-as-notification"]],
  [
    "structuredContent in a progress notification",
    [
      client({ id: 1, method: "tools/call", params: { name: "gift_details", arguments: { name: "a" }, _meta: { progressToken: 1 } } }),
      server({ method: "notifications/progress", params: { progressToken: 1, progress: 1, structuredContent: {} } }),
      server({ id: 1, result: { content: [] } }),
    ],
    ["result-as-notification"],
  ],
  ["a made-up notifications/ method", [server({ method: "notifications/gift_response" })], ["result-as-notification"]],
  [
    "known notifications",
    [server({ method: "notifications/message", params: { level: "info", data: "x" } }), server({ method: "notifications/tools/list_changed" })],
    [],
  ],
  [
    "tool and args",
    [client({ id: 1, method: "tools/call", params: { tool: "suggest_gifts", args: {} } }), server({ id: 1, error: { code: -32602, message: "x" } })],
    ["misnamed-param", "misnamed-param"],
  ],
  [
    "resourceId",
    [client({ id: 1, method: "resources/read", params: { resourceId: "x" } }), server({ id: 1, error: { code: -32602, message: "x" } })],
    ["misnamed-param"],
  ],
  ["an unknown tool", [call(1, "suggest_gift", {}), server({ id: 1, error: { code: -32602, message: "Unknown tool" } })], ["unknown-tool"]],
  [
    "an unknown resource",
    [client({ id: 1, method: "resources/read", params: { uri: "mcp://nope" } }), server({ id: 1, error: { code: -32002, message: "x" } })],
    ["unknown-resource"],
  ],
  ["a resource by template", [client({ id: 1, method: "resources/read", params: { uri: "gift://42" } }), server({ id: 1, result: { contents: [] } })], []],
  [
    "an unknown prompt",
    [client({ id: 1, method: "prompts/get", params: { name: "gift_congrats" } }), server({ id: 1, error: { code: -32602, message: "x" } })],
    ["unknown-prompt"],
  ],
  ["invalid arguments", [call(1, "suggest_gifts", { occasion: "x", budget: "ten" }), gifts(1)], ["invalid-arguments"]],
  [
    "structuredContent missing",
    [call(1, "suggest_gifts", { occasion: "x", budget: 1 }), server({ id: 1, result: { content: [] } })],
    ["invalid-structured-content"],
  ],
  ["structuredContent invalid", [call(1, "suggest_gifts", { occasion: "x", budget: 1 }), gifts(1, { gifts: "none" })], ["invalid-structured-content"]],
  [
    "an isError result skips the output check",
    [call(1, "suggest_gifts", { occasion: "x", budget: 1 }), server({ id: 1, result: { content: [{ type: "text", text: "Out of stock" }], isError: true } })],
    [],
  ],
  [
    "results in two shapes",
    [
      call(1, "gift_details", { name: "a" }),
      server({ id: 1, result: { content: [], structuredContent: { a: 1 } } }),
      call(2, "gift_details", { name: "b" }),
      server({ id: 2, result: { content: [], structuredContent: { a: "1" } } }),
    ],
    ["unstable-result-shape"],
  ],
  [
    "results in one shape",
    [
      call(1, "gift_details", { name: "a" }),
      server({ id: 1, result: { content: [{ type: "text", text: "a" }], structuredContent: { a: 1 } } }),
      call(2, "gift_details", { name: "b" }),
      server({ id: 2, result: { content: [{ type: "text", text: "b" }], structuredContent: { a: 2 } } }),
    ],
    [],
  ],
  [
    "a business failure as -32603",
    [call(1, "gift_details", { name: "Kite" }), server({ id: 1, error: { code: -32603, message: "No gift named Kite" } })],
    ["business-error-as-protocol-error"],
  ],
  ["a real internal error", [call(1, "gift_details", { name: "Kite" }), server({ id: 1, error: { code: -32603, message: "database connection lost" } })], []],
  [
    "malformed arguments answered two ways",
    [
      call(1, "gift_details", { name: "" }),
      server({ id: 1, error: { code: -32602, message: "name must NOT have fewer than 1 characters" } }),
      call(2, "gift_details", {}),
      server({ id: 2, result: { content: [{ type: "text", text: "Missing required property 'name'" }], isError: true } }),
    ],
    ["invalid-arguments", "invalid-arguments", "mixed-argument-errors"],
  ],
  [
    "a prompt wrapped, with a system role",
    [
      client({ id: 1, method: "prompts/get", params: { name: "gift_congrats_style" } }),
      server({ id: 1, result: { prompt: { name: "gift_congrats_style", messages: [{ role: "system", content: { type: "text", text: "x" } }] } } }),
      client({ id: 2, method: "prompts/get", params: { name: "gift_congrats_style" } }),
      server({ id: 2, result: { messages: [{ role: "system", content: { type: "text", text: "x" } }] } }),
    ],
    ["result-shape", "result-shape"],
  ],
  ["a tools/call result without content", [call(1, "gift_details", { name: "a" }), server({ id: 1, result: { structuredContent: {} } })], ["result-shape"]],
  [
    "an input-required result (2026-07-28)",
    [call(1, "gift_details", { name: "a" }), server({ id: 1, result: { resultType: "input_required", inputRequests: {} } })],
    [],
  ],
  ["a server request on a 2025-11-25 session", [server({ id: 1, method: "roots/list" }), client({ id: 1, result: { roots: [] } })], []],
  [
    "a server request on a 2026-07-28 session",
    [
      client({
        id: 1,
        method: "tools/call",
        params: { name: "gift_details", arguments: { name: "a" }, _meta: MODERN_META },
      }),
      server({ id: 2, method: "elicitation/create", params: { mode: "form", message: "?", requestedSchema: { type: "object", properties: {} } } }),
      client({ id: 2, result: { action: "accept" } }),
      server({ id: 1, result: { resultType: "complete", content: [] } }),
    ],
    ["server-request-2026"],
  ],
];

const modern = (headers: Record<string, string>, params: Record<string, unknown> = { name: "gift_details", arguments: { name: "a" } }) => [
  client({ id: 1, method: "tools/call", params: { ...params, _meta: MODERN_META } }, { http: { exchange: 1, method: "POST", path: "/mcp", headers } }),
  server({ id: 1, result: { resultType: "complete", content: [] } }, { http: { exchange: 1, method: "POST", path: "/mcp", status: 200, headers: {} } }),
];
const HEADERS = { "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/call", "mcp-name": "gift_details" };
CASES.push(
  ["2026-07-28 headers that agree", modern(HEADERS), []],
  ["Mcp-Name in base64", modern({ ...HEADERS, "mcp-name": `=?base64?${btoa("gift_details")}?=` }), []],
  ["Mcp-Method that disagrees", modern({ ...HEADERS, "mcp-method": "tools/list" }), ["header-mismatch"]],
  ["Mcp-Name that disagrees", modern({ ...HEADERS, "mcp-name": "suggest_gifts" }), ["header-mismatch"]],
  ["MCP-Protocol-Version missing", modern({ "mcp-method": "tools/call", "mcp-name": "gift_details" }), ["header-mismatch"]],
  [
    "a 2025-11-25 request without the headers",
    [
      client({ id: 1, method: "ping" }, { http: { exchange: 1, method: "POST", path: "/mcp", headers: {} } }),
      server({ id: 1, result: {} }, { http: { exchange: 1, method: "POST", path: "/mcp", status: 200, headers: {} } }),
    ],
    [],
  ],
);

/** A 2025-11-25 Task, as a task-augmented tools/call answers it. */
const TASK = { taskId: "t1", status: "working", createdAt: "2025-12-05T16:00:00Z", lastUpdatedAt: "2025-12-05T16:00:00Z", ttl: 60000 };

/** An HTTP exchange: `n`, its request headers (the session's, when given) and, on answers, a status. */
const post = (exchange: number, session?: string, status?: number) => ({
  http: {
    exchange,
    method: "POST",
    path: "/mcp",
    ...(status === undefined ? {} : { status }),
    headers: session === undefined ? {} : { "mcp-session-id": session },
  },
});
const get = (exchange: number, session: string) => ({ http: { exchange, method: "GET", path: "/mcp", headers: { "mcp-session-id": session } } });

const REGION_TOOL = { name: "forecast", inputSchema: { type: "object", properties: { region: { type: "string", "x-mcp-header": "Region" } } } };
const forecast = (headers: Record<string, string>) =>
  [
    client({ id: "l5", method: "tools/list" }),
    server({ id: "l5", result: { tools: [REGION_TOOL] } }),
    client(
      {
        id: 1,
        method: "tools/call",
        params: { name: "forecast", arguments: { region: "eu" }, _meta: MODERN_META },
      },
      post(1),
    ),
    server({ id: 1, result: { resultType: "complete", content: [] } }, post(1, undefined, 200)),
  ].map((e, i) => (i === 2 ? { ...e, http: { ...(e as { http: object }).http, headers } } : e)) as Entry[];
CASES.push(
  ["an Mcp-Param header, as a trace keeps it (lower-cased)", forecast({ ...HEADERS, "mcp-name": "forecast", "mcp-param-region": "eu" }), []],
  ["an Mcp-Param header missing", forecast({ ...HEADERS, "mcp-name": "forecast" }), ["header-mismatch"]],
);

// Shapes judged by MCP's own schema (vendor/mcp-spec/): the course's mistakes no hand-written rule caught.
CASES.push(
  [
    "params as an array",
    [client({ id: 1, method: "tools/call", params: ["suggest_gifts", {}] }), server({ id: 1, error: { code: -32602, message: "x" } })],
    ["spec-shape"],
  ],
  [
    "tools/call without name",
    [client({ id: 1, method: "tools/call", params: { arguments: {} } }), server({ id: 1, error: { code: -32602, message: "x" } })],
    ["spec-shape"],
  ],
  [
    "resources/read by name",
    [client({ id: 1, method: "resources/read", params: { name: "gift_catalog" } }), server({ id: 1, error: { code: -32602, message: "x" } })],
    ["spec-shape"],
  ],
  ["a request with id null", [client({ id: null, method: "ping" })], ["spec-shape", "unanswered-request"]],
  [
    "a content block not in MCP's shape",
    [call(1, "gift_details", { name: "a" }), server({ id: 1, result: { content: [{ type: "text", value: "Kite" }] } })],
    ["spec-shape"],
  ],
  [
    "resource contents without uri",
    [
      client({ id: 1, method: "resources/read", params: { uri: "gift://1" } }),
      server({ id: 1, result: { contents: [{ mimeType: "text/plain", text: "x" }] } }),
    ],
    ["spec-shape"],
  ],
  ["a tool listed without inputSchema", [client({ id: 9, method: "tools/list" }), server({ id: 9, result: { tools: [{ name: "x" }] } })], ["spec-shape"]],
  [
    "a prompt argument that is not a string",
    [
      client({ id: 1, method: "prompts/get", params: { name: "gift_congrats_style", arguments: { age: 7 } } }),
      server({ id: 1, result: { messages: [{ role: "user", content: { type: "text", text: "x" } }] } }),
    ],
    ["spec-shape", "unknown-argument"],
  ],
  ["a log level MCP does not have", [server({ method: "notifications/message", params: { level: "verbose", data: "x" } })], ["spec-shape"]],
  [
    "a 2026-07-28 result without resultType",
    modern(HEADERS).map((e, i) => (i === 1 ? server({ id: 1, result: { content: [] } }, { http: (e as { http: unknown }).http }) : e)),
    ["spec-shape"],
  ],
  [
    "a result in two wrong ways, said once",
    [client({ id: 1, method: "prompts/get", params: { name: "gift_congrats_style" } }), server({ id: 1, result: { prompt: { messages: [] } } })],
    ["result-shape"],
  ],
);

const PLAN_TOOL = {
  name: "plan",
  inputSchema: {
    type: "object",
    properties: { who: { $ref: "#/$defs/person" }, tags: { type: "array" } },
    $defs: { person: { type: "object", properties: { born: { type: "string" } } } },
  },
};
const listPlan = [client({ id: "l6", method: "tools/list" }), server({ id: "l6", result: { tools: [PLAN_TOOL] } })];

// Who may send what, and when (issue 38: the course's mistakes no rule caught).
CASES.push(
  ["ping on 2026-07-28", [client({ id: 1, method: "ping", params: { _meta: MODERN_META } }), server({ id: 1, result: {} })], ["lifecycle"]],
  [
    "a batch",
    [
      {
        from: "client",
        message: [
          { jsonrpc: "2.0", id: 1, method: "ping" },
          { jsonrpc: "2.0", id: 2, method: "ping" },
        ],
      },
      server({ id: 1, result: {} }),
      server({ id: 2, result: {} }),
    ],
    ["batch"],
  ],
  [
    "a client sending a server's request",
    [client({ id: 1, method: "roots/list" }), server({ id: 1, error: { code: -32601, message: "Method not found" } })],
    ["wrong-direction"],
  ],
  ["a server sending a client's notification", [server({ method: "notifications/initialized" })], ["wrong-direction"]],
  ["progress for a token no request carried", [server({ method: "notifications/progress", params: { progressToken: "zz", progress: 1 } })], ["progress"]],
  [
    "progress after the answer, and progress going down",
    [
      client({ id: 1, method: "tools/call", params: { name: "gift_details", arguments: { name: "a" }, _meta: { progressToken: "t" } } }),
      server({ method: "notifications/progress", params: { progressToken: "t", progress: 2 } }),
      server({ method: "notifications/progress", params: { progressToken: "t", progress: 1 } }),
      server({ id: 1, result: { content: [] } }),
      server({ method: "notifications/progress", params: { progressToken: "t", progress: 3 } }),
    ],
    ["progress", "progress"],
  ],
  [
    "progress of a task after the call answered with it",
    [
      client({ id: 1, method: "tools/call", params: { name: "gift_details", arguments: { name: "a" }, task: {}, _meta: { progressToken: "t" } } }),
      server({ id: 1, result: { task: TASK } }),
      server({ method: "notifications/progress", params: { progressToken: "t", progress: 1 } }),
    ],
    [],
  ],
  ["a cancellation of a request never sent", [client({ method: "notifications/cancelled", params: { requestId: 99 } })], ["cancel-unknown"]],
  [
    "a cancellation that crosses its answer",
    [client({ id: 1, method: "ping" }), server({ id: 1, result: {} }), client({ method: "notifications/cancelled", params: { requestId: 1 } })],
    [],
  ],
  [
    "an unknown tool answered with isError",
    [call(1, "suggest_gift", {}), server({ id: 1, result: { content: [{ type: "text", text: "Unknown tool" }], isError: true } })],
    ["unknown-tool", "unknown-name-answer"],
  ],
  [
    "an unknown tool answered -32601",
    [call(1, "suggest_gift", {}), server({ id: 1, error: { code: -32601, message: "Method not found" } })],
    ["unknown-tool", "unknown-name-answer"],
  ],
  [
    "an unknown resource answered -32603",
    [client({ id: 1, method: "resources/read", params: { uri: "mcp://nope" } }), server({ id: 1, error: { code: -32603, message: "Internal error" } })],
    ["unknown-resource", "unknown-name-answer"],
  ],
  [
    "an unknown resource answered -32002 on 2026-07-28",
    [
      client({ id: 1, method: "resources/read", params: { uri: "mcp://nope", _meta: MODERN_META } }),
      server({ id: 1, error: { code: -32002, message: "Resource not found" } }),
    ],
    ["unknown-resource", "unknown-name-answer"],
  ],
  ["a misspelled optional argument", [call(1, "suggest_gifts", { occasion: "x", budget: 1, recipent: "Ada" }), gifts(1)], ["unknown-argument"]],
  [
    "a misspelled argument in a nested object, through $ref",
    [...listPlan, call(1, "plan", { who: { birth: "1990" }, tags: [] }), server({ id: 1, result: { content: [] } })],
    ["unknown-argument"],
  ],
  [
    "a misspelled required argument: missing, and did you mean",
    [call(1, "gift_details", { nmae: "Kite" }), server({ id: 1, error: { code: -32602, message: "x" } })],
    ["invalid-arguments", "unknown-argument"],
  ],
  [
    "an argument the prompt does not declare",
    [
      client({ id: 1, method: "prompts/get", params: { name: "gift_congrats_style", arguments: { tone: "warm" } } }),
      server({ id: 1, result: { messages: [{ role: "user", content: { type: "text", text: "x" } }] } }),
    ],
    ["unknown-argument"],
  ],
);

// Pairing as the transport does, and what the recorder's notes say (issue 38: false alarms on clean traffic).
CASES.push(
  [
    "the same id in two sessions at once",
    [
      client({ id: 1, method: "ping" }, post(1, "A")),
      client({ id: 1, method: "ping" }, post(2, "B")),
      server({ id: 1, result: {} }, post(2, "B", 200)),
      server({ id: 1, result: {} }, post(1, "A", 200)),
    ],
    [],
  ],
  [
    "the same id on two exchanges of stateless HTTP",
    [
      client({ id: 0, method: "ping" }, post(1)),
      client({ id: 0, method: "ping" }, post(2)),
      server({ id: 0, result: {} }, post(1, undefined, 200)),
      server({ id: 0, result: {} }, post(2, undefined, 200)),
    ],
    [],
  ],
  [
    "an id reused while pending in one session",
    [
      client({ id: 1, method: "ping" }, post(1, "A")),
      client({ id: 1, method: "ping" }, post(2, "A")),
      server({ id: 1, result: {} }, post(1, "A", 200)),
      server({ id: 1, result: {} }, post(2, "A", 200)),
    ],
    ["duplicate-id"],
  ],
  [
    "the answer to initialize, which names the session",
    [
      client({ id: 0, method: "ping" }, post(1)),
      server({ id: 0, result: {} }, { http: { exchange: 1, method: "POST", path: "/mcp", status: 200, headers: { "mcp-session-id": "A" } } }),
    ],
    [],
  ],
  [
    "a server request on the GET stream, answered on a POST of the session",
    [{ note: "GET request", ...get(3, "A") }, server({ id: 7, method: "roots/list" }, get(3, "A")), client({ id: 7, result: { roots: [] } }, post(4, "A"))],
    [],
  ],
  [
    "a server request in a POST's stream without a session, answered on another POST",
    [
      client({ id: 1, method: "tools/call", params: { name: "gift_details", arguments: { name: "a" } } }, post(1)),
      server({ id: 9, method: "elicitation/create", params: { message: "?", requestedSchema: { type: "object", properties: {} } } }, post(1, undefined, 200)),
      client({ id: 9, result: { action: "decline" } }, post(2)),
      server({ id: 1, result: { content: [] } }, post(1, undefined, 200)),
    ],
    [],
  ],
  [
    "the same progress token in two sessions, one answered before the other's progress",
    [
      client({ id: 0, method: "tools/call", params: { name: "gift_details", arguments: { name: "a" }, _meta: { progressToken: 0 } } }, post(1, "A")),
      client({ id: 0, method: "tools/call", params: { name: "gift_details", arguments: { name: "b" }, _meta: { progressToken: 0 } } }, post(2, "B")),
      server({ id: 0, result: { content: [] } }, post(1, "A", 200)),
      server({ method: "notifications/progress", params: { progressToken: 0, progress: 1 } }, post(2, undefined, 200)),
      server({ id: 0, result: { content: [] } }, post(2, "B", 200)),
    ],
    [],
  ],
  [
    "a cancellation on an exchange of its own, without a session",
    [
      client({ id: 3, method: "ping" }, post(1)),
      client({ method: "notifications/cancelled", params: { requestId: 3 } }, post(2)),
      server({ id: 3, result: {} }, post(1, undefined, 200)),
    ],
    [],
  ],
  [
    "an HTTP error with id null answers its exchange's request",
    [client({ id: 1, method: "ping" }, post(1)), server({ id: null, error: { code: -32600, message: "Bad Request" } }, post(1, undefined, 400))],
    [],
  ],
  [
    "an HTTP error without a message answers its exchange's request",
    [client({ id: 1, method: "ping" }, post(1)), { note: "HTTP 404 without a message (text/plain)", from: "server", ...post(1, undefined, 404) }],
    [],
  ],
  [
    "an HTTP 202 without a body does not answer a request",
    [client({ id: 1, method: "ping" }, post(1)), { note: "HTTP 202 without a body", from: "server", ...post(1, undefined, 202) }],
    ["unanswered-request"],
  ],
  [
    "a reply too large to record",
    [
      client({ id: 1, method: "ping" }),
      { note: "a line longer than 67108864 bytes (67108865 so far): forwarded, not recorded", from: "server", event: "not-recorded" },
    ],
    [],
  ],
  [
    "a reply too large to record, in a trace written before notes had an event",
    [
      client({ id: 1, method: "ping" }),
      client({ id: 2, method: "ping" }),
      { note: "a line longer than 67108864 bytes (67108865 so far): forwarded, not recorded", from: "server" },
    ],
    ["unanswered-request"],
  ],
  [
    "a server request after the client closed its input",
    [
      client({ id: 1, method: "ping" }),
      server({ id: 1, result: {} }),
      { note: "the client closed its input: closing the server's", from: "client", event: "client-closed" },
      server({ id: 5, method: "roots/list" }),
    ],
    [],
  ],
  [
    "a request the client stopped waiting for over HTTP",
    [
      client({ id: 1, method: "ping" }, post(1)),
      { note: "the client closed the connection before any response", from: "client", event: "client-closed", ...post(1) },
    ],
    [],
  ],
  [
    "a 2025-11-25 task answer and its result",
    [
      call(1, "suggest_gifts", { occasion: "x", budget: 1 }),
      server({ id: 1, result: { task: TASK } }),
      client({ id: 2, method: "tasks/result", params: { taskId: "t1" } }),
      gifts(2),
    ],
    [],
  ],
  [
    "a 2025-11-25 task result that breaks the tool's outputSchema",
    [
      call(1, "suggest_gifts", { occasion: "x", budget: 1 }),
      server({ id: 1, result: { task: TASK } }),
      client({ id: 2, method: "tasks/result", params: { taskId: "t1" } }),
      server({ id: 2, result: { structuredContent: { gifts: 3 } } }),
    ],
    ["invalid-structured-content", "result-shape"],
  ],
  [
    "a 2026-07-28 task answer, then tasks/get with its result",
    [
      modernCall(1, "suggest_gifts", { occasion: "x", budget: 1 }),
      server({ id: 1, result: { resultType: "task", taskId: "t2", status: "working" } }),
      client({ id: 2, method: "tasks/get", params: { taskId: "t2", _meta: MODERN_META } }),
      server({ id: 2, result: { resultType: "complete", taskId: "t2", status: "working" } }),
      client({ id: 3, method: "tasks/get", params: { taskId: "t2", _meta: MODERN_META } }),
      server({ id: 3, result: { resultType: "complete", taskId: "t2", status: "completed", result: { content: [], structuredContent: { gifts: [] } } } }),
    ],
    [],
  ],
  [
    "a 2026-07-28 completed task whose result breaks the outputSchema",
    [
      modernCall(1, "suggest_gifts", { occasion: "x", budget: 1 }),
      server({ id: 1, result: { resultType: "task", taskId: "t2", status: "working" } }),
      client({ id: 3, method: "tasks/get", params: { taskId: "t2", _meta: MODERN_META } }),
      server({ id: 3, result: { resultType: "complete", taskId: "t2", status: "completed", result: { content: [], structuredContent: {} } } }),
    ],
    ["invalid-structured-content"],
  ],
  [
    "input_required, then the result: one shape",
    [
      call(1, "gift_details", { name: "a" }),
      server({ id: 1, result: { resultType: "input_required", inputRequests: {} } }),
      call(2, "gift_details", { name: "a" }),
      server({ id: 2, result: { resultType: "complete", content: [{ type: "text", text: "a" }] } }),
      call(3, "gift_details", { name: "b" }),
      server({ id: 3, result: { resultType: "complete", content: [{ type: "text", text: "b" }] } }),
    ],
    [],
  ],
);

describe("check rules", () => {
  it.each(CASES)("%s", async (_name, entries, rules) => {
    const { findings } = await checkLog(traceFile([...LISTS, ...entries]));
    expect(findings.map((f) => f.rule).sort()).toEqual([...rules].sort());
  });

  it("every rule has a case that fires it", () => {
    const fired = new Set(CASES.flatMap(([, , rules]) => rules));
    // trace-limit needs 100,000 pending requests: bench/check.ts reaches it. missing-capability needs
    // a connection's initialize first: "follows one connection's lifecycle and capabilities" fires it.
    expect(RULE_IDS.filter((r) => !fired.has(r) && r !== "trace-limit" && r !== "missing-capability")).toEqual([]);
  });

  it("locates findings at the message's line, with its id, and gives a fix", async () => {
    const { findings } = await checkLog(traceFile([...LISTS, client({ id: 7, method: "tools/col" })]));
    const unknown = findings.find((f) => f.rule === "unknown-method")!;
    expect(unknown).toMatchObject({ line: LISTS.length + 2, id: 7, severity: "error", fix: "use `tools/call`" });
    expect(unknown.message).toBe('unknown method "tools/col" (did you mean `tools/call`?)');
  });

  it("follows one connection's lifecycle and capabilities", async () => {
    const init = (id: number, capabilities: object) =>
      client({ id, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities, clientInfo: { name: "c", version: "1" } } });
    const ready = (id: number, capabilities: object) =>
      server({ id, result: { protocolVersion: "2025-11-25", capabilities, serverInfo: { name: "s", version: "1" } } });
    const rules = async (entries: Entry[]) => (await checkLog(traceFile(entries))).findings.map((f) => [f.rule, f.line]);
    // A request before initialize (ping may come first), and initialize twice.
    expect(
      await rules([
        client({ id: 1, method: "ping" }),
        server({ id: 1, result: {} }),
        client({ id: 2, method: "tools/list" }),
        server({ id: 2, result: { tools: [] } }),
        init(3, {}),
        ready(3, {}),
        init(4, {}),
        ready(4, {}),
      ]),
    ).toEqual([
      ["lifecycle", 4],
      ["lifecycle", 8],
    ]);
    // Features used without the capability each needs.
    expect(
      await rules([
        init(1, {}),
        ready(1, { tools: {} }),
        server({ id: 9, method: "sampling/createMessage", params: { messages: [], maxTokens: 5 } }),
        client({ id: 9, error: { code: -32601, message: "no" } }),
        server({ method: "notifications/tools/list_changed" }),
        client({ id: 2, method: "resources/subscribe", params: { uri: "gift://1" } }),
        server({ id: 2, error: { code: -32601, message: "no" } }),
      ]),
    ).toEqual([
      ["missing-capability", 4],
      ["missing-capability", 6],
      ["missing-capability", 7],
    ]);
    // Declared: no finding.
    expect(
      await rules([
        init(1, { sampling: {} }),
        ready(1, { tools: { listChanged: true }, resources: { subscribe: true } }),
        server({ id: 9, method: "sampling/createMessage", params: { messages: [], maxTokens: 5 } }),
        client({ id: 9, result: { model: "m", role: "assistant", content: { type: "text", text: "x" } } }),
        server({ method: "notifications/tools/list_changed" }),
        client({ id: 2, method: "resources/subscribe", params: { uri: "gift://1" } }),
        server({ id: 2, result: {} }),
      ]),
    ).toEqual([]);
  });

  it("says an initialize result without serverInfo", async () => {
    const { findings } = await checkLog(
      traceFile([
        client({ id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "c", version: "1" } } }),
        server({ id: 1, result: { protocolVersion: "2025-11-25", capabilities: {} } }),
      ]),
    );
    expect(findings.map((f) => [f.rule, f.line, f.message])).toEqual([["result-shape", 3, "the initialize result has no serverInfo"]]);
  });

  it("judges a resource URI only once both resources/list and resources/templates/list are known", async () => {
    const read = [
      client({ id: 1, method: "resources/read", params: { uri: "doc://42" } }),
      server({ id: 1, result: { contents: [{ uri: "doc://42", text: "x" }] } }),
    ];
    const resources = [client({ id: "r0", method: "resources/list" }), server({ id: "r0", result: { resources: [] } })];
    const templates = [
      client({ id: "t0", method: "resources/templates/list" }),
      server({ id: "t0", result: { resourceTemplates: [{ uriTemplate: "doc://{id}", name: "doc" }] } }),
    ];
    const noTemplates = [client({ id: "t0", method: "resources/templates/list" }), server({ id: "t0", result: { resourceTemplates: [] } })];
    expect((await checkLog(traceFile([...resources, ...read, ...templates]))).findings).toEqual([]);
    expect((await checkLog(traceFile([...resources, ...templates, ...read]))).findings).toEqual([]);
    const unknown = (await checkLog(traceFile([...resources, ...noTemplates, ...read]))).findings;
    // The server read it anyway: its answer is wrong too.
    expect(unknown.map((f) => [f.rule, f.line])).toEqual([
      ["unknown-resource", 6],
      ["unknown-name-answer", 7],
    ]);
  });

  it("judges names only once the server listed them", async () => {
    const { findings } = await checkLog(traceFile([call(1, "anything", {}), server({ id: 1, result: { content: [] } })]));
    expect(findings).toEqual([]);
  });

  it("takes a pulled manifest's tools as the server's only for a client declaring what pull declared", async () => {
    const pulled = {
      tools: [{ name: "echo", inputSchema: { type: "object" } }],
      resources: [],
      resourceTemplates: [],
      prompts: [],
    } as unknown as ServerDefinition;
    const init = (capabilities: Record<string, unknown>) => [
      client({ id: 0, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities, clientInfo: { name: "c", version: "1" } } }),
      server({ id: 0, result: { protocolVersion: "2025-11-25", capabilities: { tools: {} }, serverInfo: { name: "s", version: "1" } } }),
      client({ method: "notifications/initialized" }),
    ];
    const callHidden = [call(1, "sampleLLM", {}), server({ id: 1, result: { content: [{ type: "text", text: "ok" }] } })];
    const rules = async (entries: Entry[], pulledWith?: Record<string, unknown>) =>
      (await checkLog(traceFile(entries), { definitions: [pulled], ...(pulledWith ? { pulledWith } : {}) })).findings.map((f) => f.rule);
    // A client declaring what pull declared: the manifest is what it is shown.
    expect(await rules([...init({}), ...callHidden], {})).toEqual(["unknown-tool", "unknown-name-answer"]);
    // One declaring sampling may be shown tools pull was not: not judged from the manifest...
    expect(await rules([...init({ sampling: {} }), ...callHidden], {})).toEqual([]);
    // ... nor on 2026-07-28, where each request declares the client's capabilities.
    const modernHidden = [
      client({
        id: 1,
        method: "tools/call",
        params: { name: "sampleLLM", arguments: {}, _meta: { ...MODERN_META, "io.modelcontextprotocol/clientCapabilities": { elicitation: {} } } },
      }),
      server({ id: 1, result: { resultType: "complete", content: [{ type: "text", text: "ok" }] } }),
    ];
    expect(await rules(modernHidden, {})).toEqual([]);
    // ... but by its own tools/list, when the log has it.
    const listed = [client({ id: 5, method: "tools/list" }), server({ id: 5, result: { tools: [{ name: "echo", inputSchema: { type: "object" } }] } })];
    expect(await rules([...init({ sampling: {} }), ...listed, ...callHidden], {})).toEqual(["unknown-tool", "unknown-name-answer"]);
    // A manifest written by hand is the server's truth whatever the client declares.
    expect(await rules([...init({ sampling: {} }), ...callHidden])).toEqual(["unknown-tool", "unknown-name-answer"]);
  });

  it("says a line of plain JSONL is not JSON", async () => {
    const { findings } = await checkLog(rawFile(['{"jsonrpc":"2.0","id":1,"method":"ping"}', "{oops", '{"jsonrpc":"2.0","id":1,"result":{}}'], "raw.jsonl"));
    expect(findings.map((f) => [f.rule, f.line])).toEqual([["unreadable-line", 2]]);
  });

  it("finds nothing in the clean example trace", async () => {
    const { findings, messages } = await checkLog(new URL("../../../../examples/traces/clean.jsonl", import.meta.url).pathname);
    expect(findings).toEqual([]);
    expect(messages).toBeGreaterThan(20);
  });
});
