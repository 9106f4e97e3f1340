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
} as const;

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
