/** Errors shared by the generated server and client. */
import type { CallToolResult } from "./mcp.js";

/**
 * A tool failed in a way the caller (the model) should see. On the server, throwing it from a
 * handler answers `isError: true` with this message. On the client, a generated tool method
 * rejects with it when the server answered `isError: true`; `result` then holds that answer.
 */
export class ToolError extends Error {
  override readonly name = "ToolError";
  /** The server's `isError` result (client side only). */
  readonly result: CallToolResult | undefined;

  constructor(message: string, options: { result?: CallToolResult; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.result = options.result;
  }
}

/** A tool's structured output did not match its outputSchema (client side). */
export class OutputValidationError extends Error {
  override readonly name = "OutputValidationError";

  constructor(
    readonly tool: string,
    readonly problems: string,
    readonly result: CallToolResult,
  ) {
    super(`Tool '${tool}' returned output that does not match its outputSchema: ${problems}`);
  }
}

/** JSON-RPC error codes the generated server answers with. */
export const ErrorCodes = {
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
  ResourceNotFound: -32002,
  /** 2026-07-28: the request needs a client capability its envelope does not declare. */
  MissingRequiredClientCapability: -32021,
  /** 2026-07-28 Streamable HTTP: a header disagrees with the body. */
  HeaderMismatch: -32020,
  /**
   * A limit of the server (tasks running, sessions): an implementation-defined server error
   * (JSON-RPC reserves -32000 to -32099), the code EIP-1474 gives "limit exceeded".
   */
  LimitExceeded: -32005,
} as const;

/**
 * A handler asked the client for something (elicitation, sampling, roots) that the client did not
 * declare it can do. Uncaught, it answers JSON-RPC -32021 on 2026-07-28 requests (with
 * `data.requiredCapabilities`, as MCP requires) and fails the call like any other error on
 * 2025-era connections; catch it to fall back to something else.
 */
export class MissingClientCapabilityError extends Error {
  override readonly name = "MissingClientCapabilityError";
  readonly code = ErrorCodes.MissingRequiredClientCapability;
  readonly data: { requiredCapabilities: { [capability: string]: unknown } };

  constructor(requiredCapabilities: { [capability: string]: unknown }, message: string) {
    super(message);
    this.data = { requiredCapabilities };
  }
}

/**
 * An error the SDK's protocol layer puts on the wire exactly: `code`, `message` and `data` as
 * given (the SDK's McpError would prefix the message with "MCP error <code>: ").
 */
export function rpcError(code: number, message: string, data?: unknown): Error & { code: number; data?: unknown } {
  const error = new Error(message) as Error & { code: number; data?: unknown };
  error.code = code;
  if (data !== undefined) error.data = data;
  return error;
}

/**
 * A JSON-RPC error a handler wants on the wire as it is: throw `new RpcError(-32602, "...")` from
 * any handler (a tool's included: a task then fails with this error). Codes from -32768 to -32000.
 */
export class RpcError extends Error {
  override readonly name = "RpcError";

  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }
}
