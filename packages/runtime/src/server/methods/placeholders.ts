/**
 * Prompt message placeholders (`{{name}}`): filled by the server, checked by mcpgen's validator
 * against the prompt's arguments. No dependency, so the validator loads it without the SDK.
 */
import type { JsonObject } from "../../shared/definition.js";

/** `{{name}}`, spaces allowed inside the braces; the name is group 1. */
export const PLACEHOLDER = /\{\{\s*([^{}\s]+)\s*\}\}/g;

/**
 * Fills `{{name}}` in a prompt message: the text of text blocks, the uri and text of embedded
 * resources, and the uri of resource links. A name without a value becomes empty.
 */
export function fillPlaceholders(message: JsonObject, values: Record<string, string>): JsonObject {
  const fill = (text: unknown) =>
    typeof text === "string" ? text.replace(PLACEHOLDER, (_, name: string) => (Object.hasOwn(values, name) ? values[name]! : "")) : text;
  const content = message["content"] as JsonObject;
  const set = (target: JsonObject, keys: string[]) => {
    const out = { ...target };
    for (const k of keys) if (typeof target[k] === "string") out[k] = fill(target[k]);
    return out;
  };
  if (content["type"] === "text") return { ...message, content: set(content, ["text"]) };
  if (content["type"] === "resource_link") return { ...message, content: set(content, ["uri"]) };
  const resource = content["resource"];
  if (content["type"] === "resource" && typeof resource === "object" && resource !== null && !Array.isArray(resource))
    return { ...message, content: { ...content, resource: set(resource as JsonObject, ["uri", "text"]) } };
  return message;
}
