/**
 * `mcpgen explain RULE` and `mcpgen explain CODE`: what a rule of `check` finds and how to fix it,
 * or what a JSON-RPC error code means in MCP and when a server answers it. The codes are those of
 * JSON-RPC 2.0 and of MCP's schema.ts (2025-11-25 and 2026-07-28).
 */
import { RULES, type RuleId } from "../rules/table.js";
import { DIAGNOSTICS, WARNING_CODES, type DiagnosticCode } from "../../../common/diagnostics.js";

/** Per code: its name, what it means, and when MCP uses it. */
const CODES: Readonly<Record<number, { name: string; means: string; when: string }>> = {
  [-32700]: { name: "Parse error", means: "the message was not JSON", when: "The receiver could not parse the bytes it got; the answer's id is null." },
  [-32600]: {
    name: "Invalid Request",
    means: "the JSON is not a JSON-RPC request",
    when: 'No `jsonrpc: "2.0"`, no string `method`, or an id that is neither a string nor a number. Over HTTP, a request the transport refuses (no session, a bad header) is often answered so, with id null.',
  },
  [-32601]: {
    name: "Method not found",
    means: "the receiver has no such method",
    when: "An unknown method, or one the receiver does not offer (a list method without its capability). Not for an unknown tool: that is -32602.",
  },
  [-32602]: {
    name: "Invalid params",
    means: "the request's params are wrong",
    when: "An unknown tool or prompt, arguments that break the schema, a bad cursor, an invalid log level; in 2026-07-28 also an unknown resource. A tool that ran and failed answers a result with isError: true instead.",
  },
  [-32603]: {
    name: "Internal error",
    means: "the receiver failed",
    when: "Something broke on the receiver's side. Not for a business failure (`no gift named Kite`): a tool answers that as a result with isError: true.",
  },
  [-32002]: {
    name: "Resource not found",
    means: "resources/read of a URI the server does not have (2025-11-25 and earlier)",
    when: "2025-11-25 answers an unknown resource with it; 2026-07-28 replaced it with -32602, and the code is never reused.",
  },
  [-32020]: {
    name: "Header mismatch",
    means: "the HTTP headers disagree with the body (2026-07-28)",
    when: "MCP-Protocol-Version, Mcp-Method, Mcp-Name or an Mcp-Param-* header missing, malformed, or naming something else than the body; the HTTP status is 400.",
  },
  [-32021]: {
    name: "Missing required client capability",
    means: "the server needs a client capability the request did not declare (2026-07-28)",
    when: "The request's `io.modelcontextprotocol/clientCapabilities` lacks what the server must use to answer it (elicitation, sampling...).",
  },
  [-32022]: {
    name: "Unsupported protocol version",
    means: "the server does not speak the revision the request names (2026-07-28)",
    when: "The request's `io.modelcontextprotocol/protocolVersion` is one the server does not support; the error says which it does.",
  },
  [-32042]: {
    name: "URL elicitation required",
    means: "the user must visit a URL before the request can go on (2025-11-25 only)",
    when: "A server that needs an out-of-band step (an authorization, a payment) answers with the URL to open; 2026-07-28 asks through an input-required result instead.",
  },
};

/** What `topic` explains, when it is a rule id or an integer error code; undefined otherwise. */
export function explainTopic(topic: string, rulesPage: (rule: string) => string): string | undefined {
  if (Object.hasOwn(RULES, topic)) {
    const rule = RULES[topic as RuleId];
    return [`${topic} (${rule.severity}): ${rule.title}`, "", rule.description, "", `Fix: ${rule.fix}`, "", `More: ${rulesPage(topic)}`, ""].join("\n");
  }
  if (Object.hasOwn(DIAGNOSTICS, topic)) {
    const level = (WARNING_CODES as readonly string[]).includes(topic) ? "a config's diagnostics key sets the level of its warnings" : "always an error";
    return [
      `${topic} (a diagnostic of generate, validate and lint; ${level})`,
      "",
      DIAGNOSTICS[topic as DiagnosticCode],
      "",
      "More: docs/reference/diagnostics.md",
      "",
    ].join("\n");
  }
  if (!/^-?\d{1,6}$/.test(topic)) return undefined;
  const code = Number(topic);
  const known = CODES[code];
  if (known) return [`${code} ${known.name}: ${known.means}.`, "", known.when, ""].join("\n");
  if (code >= -32099 && code <= -32000)
    return `${code}: ${code >= -32019 ? "an implementation's own error (JSON-RPC's server-error range; MCP never defines codes from -32000 to -32019)" : "reserved for codes the MCP specification defines; this one it does not (yet)"}.\n`;
  if (code >= -32768 && code <= -32000) return `${code}: reserved by JSON-RPC 2.0 for its own errors; this one it does not define.\n`;
  return `${code}: an application's own error code (outside the range JSON-RPC reserves): what it means is the server's to say.\n`;
}
