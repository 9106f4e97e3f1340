/** Errors shared by the generated server and client. */
import type { CallToolResult } from "./mcp.js";
import type { ToolTaskState } from "./taskState.js";

/**
 * A tool failed in a way the caller (the model) should see: throw it from a handler, and the
 * server answers `isError: true` with this message. A client rejects with its subclass
 * ToolCallError, which holds the server's answer.
 */
export class ToolError extends Error {
  override readonly name: string = "ToolError";

  constructor(message: string, options: { cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
  }
}

/**
 * The server answered a tool call with `isError: true` (client side): a generated tool method,
 * a task's result and a widget's call reject with it. `result` is that answer; the message is
 * its text.
 */
export class ToolCallError extends ToolError {
  override readonly name: string = "ToolCallError";

  constructor(
    readonly tool: string,
    readonly result: CallToolResult,
  ) {
    super(
      result.content
        .filter((block): block is { type: "text"; text: string } => block.type === "text")
        .map((block) => block.text)
        .join("\n") || `Tool ${tool} failed`,
    );
  }
}

/**
 * A task ended without a result (client side): `cancelled`, or `failed` with a JSON-RPC error
 * (`code`, `data` and the message are that error's).
 */
export class TaskEndedError extends Error {
  override readonly name = "TaskEndedError";

  constructor(
    readonly taskId: string,
    readonly status: "failed" | "cancelled",
    message: string,
    readonly code?: number,
    readonly data?: unknown,
  ) {
    super(message);
  }
}

/** A 2026-07-28 task waits for answers and the wait was given no `onInputRequests`. */
export class TaskInputRequiredError extends Error {
  override readonly name = "TaskInputRequiredError";

  constructor(readonly task: ToolTaskState) {
    super(
      `Task ${task.taskId ?? ""} is waiting for input (${Object.keys(task.inputRequests ?? {}).join(", ")}): pass onInputRequests, or answer with update()`,
    );
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
