/**
 * `mcpgen pull`, part 2: a manifest from what a server answered. Every definition goes in as it
 * came (key order included); the text is deterministic (no date), so pulling an unchanged server
 * again gives the same bytes.
 */
import { Document } from "yaml";
import type { JsonObject } from "../../common/objects.js";
import { SERVER_NAME } from "../../generator/validate/fields.js";
import { PULL_CLIENT_CAPABILITIES, type PulledServer } from "./fetch.js";
import { PULLED_CAPABILITIES_MARK, PULLED_CLIENT_ONLY_MARK, PULLED_MARK } from "../../generator/load/loadManifest.js";
import { isPlainObject, setOwn } from "../../common/objects.js";

/** The manifest text for `server`, whose source is described as `source` (a command or a URL). */
export function manifestText(server: PulledServer, source: string, again: string): string {
  const { instructions, serverInfo } = server;
  const name = serverInfo.name;
  const block: JsonObject = {};
  const folder = SERVER_NAME.test(name) ? undefined : folderName(name);
  block.name = name;
  if (folder !== undefined) block.folder = folder;
  for (const [key, value] of Object.entries(serverInfo)) if (key !== "name") setOwn(block, key, value);
  if (instructions !== undefined) block.instructions = instructions;

  const value: JsonObject = { server: block };
  // The capabilities a manifest opts into; the others follow from its lists.
  const caps = server.capabilities;
  const optIn: JsonObject = {};
  if (isPlainObject(caps.logging)) optIn.logging = {};
  // listChanged is kept as the manifest's opt-in (capabilities.<kind>.listChanged), so a pulled
  // manifest declares the lists that change as the server does.
  for (const kind of ["tools", "resources", "prompts"] as const) {
    const declared = caps[kind];
    if (!isPlainObject(declared)) continue;
    const kept: JsonObject = {};
    if (kind === "resources" && declared.subscribe === true) kept.subscribe = true;
    if (declared.listChanged === true) kept.listChanged = true;
    if (Object.keys(kept).length > 0) optIn[kind] = kept;
  }
  if (isPlainObject(caps.experimental)) optIn.experimental = caps.experimental;
  if (Object.keys(optIn).length > 0) value.capabilities = optIn;
  for (const key of ["tools", "resources", "resourceTemplates", "prompts"] as const)
    if (server[key].length > 0) value[key] = server[key] as unknown as JsonObject[];

  const doc = new Document(value);
  const body = doc.toString({ lineWidth: 0, minContentWidth: 0 });
  const header = [
    `${PULLED_MARK}${source} (MCP ${server.protocolVersion || "2025-11-25"}).`,
    `# Update it with: ${again}`,
    `${PULLED_CAPABILITIES_MARK}${JSON.stringify(PULL_CLIENT_CAPABILITIES)} (a server may list more to a client that declares more).`,
    "# Written by mcpgen pull: edit the server, not this file (mcpgen pull --check tells when they differ).",
    `${PULLED_CLIENT_ONLY_MARK}generate writes a typed client for this server, no server code and no handler stubs (delete this line to generate a server too).`,
  ];
  // Comment lines stay comment lines, whatever the source text holds.
  return `${header.map((line) => line.replace(/[\r\n\u2028\u2029\u0085]/g, " ")).join("\n")}\n${body}`;
}

/** A folder name for a server whose name is not one: `mcp-servers/everything` -> `mcp-servers-everything`. */
export function folderName(name: string): string {
  const folder = name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
  return folder === "" ? "server" : folder;
}
