/** What diff compares (a Surface per side) and what it reports (a Difference per change, a Finding per schema change). */
import type { JsonObject } from "../../common/objects.js";

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
 * One classified difference between the two sides (a schema-level one is a `Finding`, below;
 * a file to write or delete is src/generator/plan's `Change`). `mcpgen diff --json` lists these
 * under `changes`, with these field names.
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

/** A JSON Schema as diff reads it. */
export type Schema = boolean | { [key: string]: unknown };

export interface Finding {
  /** Where, as a dotted path in the schema: `properties.budget`, `items`, `` (the root). */
  path: string;
  message: string;
  /** The new schema refuses something the old one accepted. */
  narrows: boolean;
  /** The new schema accepts something the old one refused. */
  widens: boolean;
  /**
   * The change as code written against mcpgen's types sees it, where that differs from
   * `narrows`/`widens` (which speak of every JSON value): `narrows`, code producing the value (a
   * typed call, a handler's result) no longer compiles or is refused; `widens`, code consuming it
   * (a handler reading its arguments, a client reading a result) no longer compiles or gets a value
   * its old schema refused. A removed property is both, whatever additionalProperties says; a
   * change to undeclared properties is neither where the type has no index signature.
   */
  typed?: { narrows: boolean; widens: boolean };
  /** What changed, where it says more than narrowed/widened (the suffix of the change code). */
  change?: "property-added" | "property-removed" | "property-renamed" | "type-closed" | "undeclared-changed";
  /** What the change means for code calling the tool (`input`) or reading its output, said after the message. */
  consequence?: { input?: string; output?: string };
  /** The root `$schema` names another dialect (informative: what changed meaning has its own findings). */
  dialect?: true;
}
