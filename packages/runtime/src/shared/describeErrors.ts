/**
 * JSON Schema validation errors (ajv's) in words, shared by the server, the client, mcpgen and the
 * widgets' validators compiled at generate time: no import of ajv itself, so a widget's bundle
 * does not carry it.
 */
import type { ErrorObject } from "ajv";

/** At most this many problems are listed in one message. */
const MAX_LISTED = 5;

/** Ajv errors in words: `Missing required property 'budget'; Property 'tags[0]' must be string`. */
export function describeErrors(errors: readonly ErrorObject[] | null | undefined): string {
  const list = (errors ?? []).filter((e) => e.keyword !== "if");
  const messages = [...new Set(list.map(describeError))];
  const shown = messages.slice(0, MAX_LISTED).join("; ");
  return messages.length > MAX_LISTED ? `${shown}; and ${messages.length - MAX_LISTED} more` : shown;
}

function describeError(error: ErrorObject): string {
  const at =
    error.instancePath === ""
      ? []
      : error.instancePath
          .split("/")
          .slice(1)
          .map((s) => s.replace(/~1/g, "/").replace(/~0/g, "~"));
  const params = error.params as Record<string, unknown>;
  if (error.keyword === "required") return `Missing required property '${propertyPath([...at, String(params["missingProperty"])])}'`;
  if (error.keyword === "additionalProperties") return `Unknown property '${propertyPath([...at, String(params["additionalProperty"])])}'`;
  let message = error.message ?? "is invalid";
  if (error.keyword === "enum" && Array.isArray(params["allowedValues"]))
    message = `must be one of ${params["allowedValues"].map((v) => JSON.stringify(v)).join(", ")}`;
  return at.length === 0 ? `Arguments ${message}` : `Property '${propertyPath(at)}' ${message}`;
}

/** `["gifts", "0", "name"]` -> `gifts[0].name`. */
function propertyPath(segments: readonly string[]): string {
  let out = "";
  for (const s of segments) out += /^\d+$/.test(s) ? `[${s}]` : out === "" ? s : `.${s}`;
  return out;
}
