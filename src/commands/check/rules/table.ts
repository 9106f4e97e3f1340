/**
 * Every rule of `mcpgen check`: its id, severity, title, what it finds and how to fix it. The one
 * source of the rules reference (docs/reference/check-rules.md, src/reference/docs/checkRulesPage.ts), of
 * SARIF's tool.driver.rules and of JUnit's test cases. Most rules come from the classic mistakes
 * of raw MCP messages (JSON-RPC 2.0, MCP 2025-11-25 and 2026-07-28).
 */
import type { Severity } from "../model.js";

export interface RuleInfo {
  severity: Severity;
  title: string;
  description: string;
  fix: string;
}

export const RULES = {
  "unreadable-line": {
    severity: "error",
    title: "Not a JSON-RPC message",
    description: "A line of the log (or a HAR body) that is not JSON, or JSON that is neither a request, a notification nor a response.",
    fix: "send one JSON-RPC 2.0 object (or a batch array) per message; on stdio, one message per line",
  },
  "jsonrpc-version": {
    severity: "error",
    title: "Missing or wrong jsonrpc",
    description: 'A message without `"jsonrpc": "2.0"`, or with another value: MCP clients and servers reject it.',
    fix: 'add "jsonrpc": "2.0" to every message',
  },
  "response-shape": {
    severity: "error",
    title: "A response with both result and error, or neither, or without an id",
    description: "JSON-RPC 2.0: a response carries `result` or `error`, exactly one of them, and an `id` (null when the request's id could not be read).",
    fix: "answer with `result` when the request was carried out (a business failure too, as `isError: true` on tools/call), else with `error` alone",
  },
  "error-object": {
    severity: "error",
    title: "A malformed error object",
    description: "An `error` that is not an object with an integer `code` and a string `message` (`data` optional).",
    fix: 'send {"code": <integer>, "message": "<text>"} (JSON-RPC codes -32700..-32600, -32601 unknown method, -32602 invalid params, -32603 internal)',
  },
  "duplicate-id": {
    severity: "error",
    title: "A request id reused while pending",
    description:
      "A side sent a request with the id of one of its requests still unanswered, on the same connection, MCP session or (without a session) HTTP exchange: the answers cannot be told apart (mistake n°2 of the course).",
    fix: "give every request an id unique among that side's pending requests (a counter); keep and log the id",
  },
  "unmatched-response": {
    severity: "error",
    title: "A response to no request",
    description: "A response whose id matches no pending request of the other side: a made-up id, a response sent twice, or an answer to a notification.",
    fix: "answer each request once, with its own id; never answer notifications",
  },
  "unanswered-request": {
    severity: "warning",
    title: "A request never answered",
    description:
      "A request still pending at the end of the log: the other side never answered, or the log was cut. A request is not waited for when its sender cancelled it (notifications/cancelled), when its client left (closed its input, or the HTTP exchange), when an HTTP error answered its exchange, or when a message too large to record may be its answer; an answer that still comes is no mistake.",
    fix: "answer every request, with a result or an error (a request that cannot be carried out gets an error)",
  },
  "notification-with-id": {
    severity: "error",
    title: "A notification carrying an id",
    description: "A message with a notification method (`notifications/...`) and an `id`: JSON-RPC makes it a request, which MCP never answers.",
    fix: "drop the `id` of notifications; only requests have one",
  },
  "unknown-method": {
    severity: "error",
    title: "An unknown method",
    description: "A method of neither MCP revision (2025-11-25, 2026-07-28), with the nearest known one (`tools/col`: did you mean `tools/call`?).",
    fix: "use a method of the MCP specification; a server answers an unknown one with -32601",
  },
  "result-as-notification": {
    severity: "error",
    title: "A result sent as a notification",
    description:
      "A notification that carries a tool's output (`content`, `structuredContent`, `result` in its params) or has a made-up method such as `notifications/tool_result`: notifications are events, not a second reply channel (mistake n°5); no client takes them as the answer to a call.",
    fix: "return the output as the result of the request (same id); keep notifications for events: progress, list_changed, log messages",
  },
  "spec-shape": {
    severity: "error",
    title: "Not in the shape MCP's schema gives it",
    description:
      "A request, notification or result that the JSON Schema the MCP specification publishes for its revision rejects (schema/2025-11-25/schema.json, schema/2026-07-28/schema.json): `params` that is an array, tools/call without `name`, a content block or resource contents not in MCP's shape, a tool listed without `inputSchema`, a prompt argument that is not a string, a log level MCP does not have, a 2026-07-28 result without `resultType`... The revision is the one the message names, or the one `initialize` settled on; when the log does not say, either revision's schema may accept it.",
    fix: "give the message the shape of its definition in MCP's schema",
  },
  lifecycle: {
    severity: "error",
    title: "A request out of MCP's lifecycle",
    description:
      "On one connection (stdio, a plain log): `initialize` sent a second time, or a request other than `ping` sent before `initialize`. In 2026-07-28, which has no handshake: `initialize` or `ping` (ask `server/discover`). A 2026-07-28 request without its `_meta` envelope is a spec-shape finding.",
    fix: "initialize once, first, on each connection (2025 revisions); in 2026-07-28 send neither initialize nor ping",
  },
  batch: {
    severity: "error",
    title: "A JSON-RPC batch",
    description: "An array of messages sent as one: MCP removed JSON-RPC batching in 2025-06-18; only 2025-03-26 had it.",
    fix: "send each message on its own (one line on stdio, one POST body over HTTP)",
  },
  "wrong-direction": {
    severity: "error",
    title: "A method sent by the wrong side",
    description:
      "A request or notification that only the other side sends: a client sending `sampling/createMessage`, `elicitation/create`, `roots/list` or `notifications/message`; a server sending `tools/call`, `initialize` or `notifications/initialized`. Logs without sides (plain JSONL) are not judged.",
    fix: "send each method from the side MCP gives it to",
  },
  "missing-capability": {
    severity: "error",
    title: "A feature used without its capability",
    description:
      "On a 2025 connection whose `initialize` the log holds: the server sending `notifications/<kind>/list_changed` without `listChanged`, log messages without `logging`, or `sampling/createMessage`, `elicitation/create`, `roots/list` to a client that did not declare `sampling`, `elicitation`, `roots`; the client asking `resources/subscribe`, `completion/complete` or `logging/setLevel` of a server that did not declare them.",
    fix: "declare the capability in initialize, or do not use the feature",
  },
  progress: {
    severity: "error",
    title: "Progress that follows no request",
    description:
      "A `notifications/progress` whose token no request of the other side carried (`params._meta.progressToken`), one sent after the request was answered (a task's progress may go on), or one whose `progress` does not increase.",
    fix: "send progress only for a token the request carried, before its answer, with a `progress` that grows each time",
  },
  "cancel-unknown": {
    severity: "warning",
    title: "A cancellation of a request never sent",
    description:
      "A `notifications/cancelled` naming a request id its sender never used on this connection (a cancellation of a request already answered is a normal race, and no finding).",
    fix: "cancel only requests you sent, by their id",
  },
  "header-mismatch": {
    severity: "error",
    title: "HTTP headers that disagree with the body (2026-07-28)",
    description:
      "On Streamable HTTP at 2026-07-28, a request whose MCP-Protocol-Version, Mcp-Method, Mcp-Name or Mcp-Param-* header is missing or says otherwise than the body (`_meta` protocol version, `method`, `params.name`/`uri`, the argument); servers answer HTTP 400 (-32020).",
    fix: "set the headers from the body of each request (the SDK's client transport does)",
  },
  "server-request-2026": {
    severity: "error",
    title: "A server request on a 2026-07-28 exchange",
    description:
      "A request from the server (sampling/createMessage, elicitation/create, roots/list, ping) while the client speaks 2026-07-28: that revision has no server-to-client requests; a server asks for input with an input-required result.",
    fix: 'answer the client\'s request with resultType "input_required" and inputRequests, and read the answers when the client retries',
  },
  "result-shape": {
    severity: "error",
    title: "A result not in its method's shape",
    description:
      "A result without the member its method has (tools/list `tools`, tools/call `content`, resources/read `contents`, prompts/get `messages`, initialize `protocolVersion`, `capabilities` and `serverInfo`...), one wrapped in another object (`{prompt: {messages}}`), or prompts/get messages with a role other than user and assistant: clients reject the result.",
    fix: "answer the result as the specification shapes it, its members at the top of `result`",
  },
  "misnamed-param": {
    severity: "error",
    title: "A params field under another name",
    description:
      "tools/call with `tool`, `toolName`, `args`, `input` or `parameters` where MCP has `name` and `arguments`; resources/read with `resourceId` or `url` for `uri`; prompts/get likewise (mistake n°4 and the course's broken example).",
    fix: "rename the field as the specification names it: tools/call {name, arguments}, resources/read {uri}, prompts/get {name, arguments}",
  },
  "unknown-tool": {
    severity: "error",
    title: "A call to a tool the server does not have",
    description: "tools/call naming no tool of the manifest (or of the server's tools/list in the log), with the nearest name.",
    fix: "call a tool by the exact name tools/list gives",
  },
  "unknown-resource": {
    severity: "error",
    title: "A read of a resource the server does not have",
    description: "resources/read of a URI that is no resource and matches no resource template (of the manifest, or of the lists in the log).",
    fix: "read a URI of resources/list, or one a template of resources/templates/list expands to",
  },
  "unknown-prompt": {
    severity: "error",
    title: "A prompt the server does not have",
    description: "prompts/get naming no prompt of the manifest (or of prompts/list in the log), with the nearest name.",
    fix: "ask for a prompt by the exact name prompts/list gives",
  },
  "unknown-name-answer": {
    severity: "error",
    title: "An unknown tool or resource answered the wrong way",
    description:
      "The server's half of a call to a tool or a read of a resource it does not have: MCP answers an unknown tool with the protocol error -32602 (not -32601, which is for unknown methods, nor an `isError` result, which is for a tool that ran and failed), and an unknown resource with -32002 in 2025-11-25, -32602 in 2026-07-28 (not -32603 nor `isError`).",
    fix: "answer an unknown tool with error -32602, an unknown resource with -32002 (2025-11-25) or -32602 (2026-07-28)",
  },
  "unknown-argument": {
    severity: "warning",
    title: "An argument the schema does not name",
    description:
      "A tools/call argument, at any depth, that its inputSchema does not name (even where the schema allows other properties: `tag` for `tags`, `birth` for `born`), with the nearest name; a prompts/get argument the prompt does not declare. A misspelled optional argument is silently ignored by the server.",
    fix: "use the argument names the tool's inputSchema (or the prompt's arguments) gives",
  },
  "invalid-arguments": {
    severity: "error",
    title: "Arguments that break the tool's inputSchema",
    description:
      "tools/call arguments invalid against the tool's inputSchema, checked by the validators of mcpgen's generated servers; the message names the JSON Pointer and keyword of each problem.",
    fix: "send arguments that match the inputSchema (tools/list gives it)",
  },
  "invalid-structured-content": {
    severity: "error",
    title: "structuredContent that breaks the outputSchema",
    description:
      "A tools/call result (not `isError`) without structuredContent, or with one invalid against the tool's outputSchema: clients that validate it reject the result.",
    fix: "return structuredContent that matches the outputSchema (or change the schema to say what the tool returns)",
  },
  "unstable-result-shape": {
    severity: "warning",
    title: "Results of one tool in different shapes",
    description:
      "Successful calls of one tool whose results differ in shape: other top-level keys or value types in structuredContent, or other kinds of content blocks (mistake n°3). Widgets and other clients break on the shape they did not expect.",
    fix: "return one shape per tool (an empty list rather than no key, the same types every time); declare another tool for another shape",
  },
  "business-error-as-protocol-error": {
    severity: "warning",
    title: "A business failure sent as a protocol error",
    description:
      "A JSON-RPC error (-32603 or a server's own code) to tools/call whose message reads like a business failure (not found, no permission, empty, invalid id...): the course's mistake n°1.",
    fix: "answer a result with `isError: true` and the reason in a text block: the channel worked, the operation was refused; the model can read it and try otherwise, while a protocol error says the channel is broken",
  },
  "mixed-argument-errors": {
    severity: "warning",
    title: "Malformed arguments answered two ways",
    description:
      "A tool whose malformed arguments got an `isError` result in one call and a -32602 protocol error in another: clients must handle both for the same mistake.",
    fix: "answer malformed arguments one way for every call: the course treats arguments that break the schema as a protocol error (-32602: the request was malformed), while spec 2025-11-25 prefers an isError result the model can correct; pick one (mcpgen's `invalidArguments` option) and keep to it",
  },
  "trace-limit": {
    severity: "warning",
    title: "More pending requests than check follows",
    description:
      "Over 100,000 requests were pending at once; the oldest were no longer followed, so their answers count as unmatched and unanswered requests are undercounted.",
    fix: "check a shorter log, or find why so many requests go unanswered",
  },
} as const satisfies Record<string, RuleInfo>;

export type RuleId = keyof typeof RULES;

export const RULE_IDS = Object.keys(RULES) as RuleId[];
