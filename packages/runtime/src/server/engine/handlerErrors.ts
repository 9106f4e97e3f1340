/**
 * What becomes of an error a user's handler throws: one rule for every method. An error that
 * carries a JSON-RPC error code (-32768 to -32000, e.g. -32002 Resource not found) goes out as it
 * is, and so does a missing client capability on a 2026-07-28 request (-32021; 2025-11-25 has no
 * such error). Anything else is the method's to answer (logged and -32603, or an isError result).
 */
import type { JsonObject } from "../../shared/definition.js";
import { ErrorCodes, MissingClientCapabilityError, rpcError } from "../../shared/errors.js";
import type { ProtocolEra } from "./sdk.js";

/** The JSON-RPC error code an error carries (-32768 to -32000), if any. */
export function jsonRpcCode(error: unknown): number | undefined {
  const code = typeof error === "object" && error !== null && !Array.isArray(error) ? (error as JsonObject)["code"] : undefined;
  return typeof code === "number" && Number.isInteger(code) && code >= -32768 && code <= -32000 && typeof (error as JsonObject)["message"] === "string"
    ? code
    : undefined;
}

/** Whether a handler's error goes to the client as it is, on a request of `era`. */
export function passesThrough(error: unknown, era: ProtocolEra): error is Error {
  return jsonRpcCode(error) !== undefined && (era === "modern" || !(error instanceof MissingClientCapabilityError));
}

/** A handler's error as the method answers it: passed through, or logged and -32603. */
export function handlerFailure(
  error: unknown,
  method: string,
  name: string,
  era: ProtocolEra,
  onError: (error: unknown, context: { method: string; name?: string }) => void,
): Error {
  if (passesThrough(error, era)) return error;
  onError(error, { method, name });
  return rpcError(ErrorCodes.InternalError, `${method} ${name} failed: ${error instanceof Error ? error.message : String(error)}`);
}
