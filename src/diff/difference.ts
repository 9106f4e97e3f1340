/** What diff compares (a Surface per side) and what it reports (a Difference per change). */
import type { JsonObject } from "../model/types.js";

/** One side of a diff: the four lists as served (manifest defs bundled into each schema). */
export interface Surface {
  /** What it was read from, for messages. */
  source: string;
  tools: JsonObject[];
  resources: JsonObject[];
  resourceTemplates: JsonObject[];
  prompts: JsonObject[];
  /** serverInfo and instructions, when the side has them. */
  server?: { info: JsonObject; instructions?: string };
  /** From a manifest: resources served from its text/blob/file, prompts with messages (no handler to write). */
  staticResources?: Set<string>;
  staticPrompts?: Set<string>;
  /** From a manifest: the entries written `enabled: false` (off at start), by kind; names, resources by URI. */
  disabled?: { [K in "tools" | "resources" | "resourceTemplates" | "prompts"]: Set<string> };
}

/** What a difference is about. */
export type DifferenceKind = "server" | "tool" | "resource" | "resourceTemplate" | "prompt";

/**
 * One classified difference between the two sides (a schema-level one is a schemaDiff `Finding`;
 * a file to write or delete is src/write's `Change`). `mcpgen diff --json` lists these under
 * `changes`, with these field names.
 */
export interface Difference {
  kind: DifferenceKind;
  /** The tool, resource (URI), template (uriTemplate) or prompt name. */
  name: string;
  /** Where in its definition: `inputSchema.properties.budget`, `arguments.tone`, or "". */
  path: string;
  /** A stable code: tool-removed, input-narrowed, output-widened, argument-now-required, ... */
  change: string;
  message: string;
  /** Breaking for code that calls the server. */
  clients: boolean;
  /** Breaking for the server's handlers. */
  servers: boolean;
  /** Breaks no call, but clients act on it on their own (approval, retries): annotation hints. */
  behaviour?: boolean;
}

/**
 * A name or URI as a key and in messages. From a manifest it is a string; a fixtures folder is read
 * as it is, so an object or a list is shown as its JSON (two such names must not both be "[object Object]").
 */
export function nameText(value: unknown): string {
  return typeof value === "object" && value !== null ? JSON.stringify(value) : String(value);
}
