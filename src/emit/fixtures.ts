/**
 * Emits the fixtures: what the generated server answers to each list method, byte for byte (one
 * page, no nextCursor).
 *
 * - `fixtures/*.json`: the answers to 2025-era clients (MCP 2025-11-25, initialize handshake);
 * - `fixtures/2026-07-28/*.json`: the answers to 2026-07-28 requests, which differ: `resultType`,
 *   the cache hint (`ttlMs`, `cacheScope`), the server's identity in `_meta`, and no
 *   `execution` on tools (the tasks extension replaced it); plus `server-discover.json`.
 */
import type { Json, JsonObject, ServerModel } from "../model/types.js";
import { jsonFile } from "../print/literal.js";
import type { OutputFile } from "./common.js";

/** The folder of the 2026-07-28 fixtures, named after the protocol revision they show. */
const MODERN_FIXTURES = "fixtures/2026-07-28";
const TASKS_EXTENSION = "io.modelcontextprotocol/tasks";

export function emitFixtures(model: ServerModel): OutputFile[] {
  const files: OutputFile[] = [];
  const lists: [string, string, string, Json[]][] = [];
  if (model.capabilities.tools) lists.push(["tools-list.json", "tools/list", "tools", model.tools.map((t) => t.wire)]);
  if (model.capabilities.resources) {
    lists.push(["resources-list.json", "resources/list", "resources", model.resources.map((r) => r.wire)]);
    lists.push(["resource-templates-list.json", "resources/templates/list", "resourceTemplates", model.resourceTemplates.map((t) => t.wire)]);
  }
  if (model.capabilities.prompts) lists.push(["prompts-list.json", "prompts/list", "prompts", model.prompts.map((p) => p.wire)]);

  const meta = { "io.modelcontextprotocol/serverInfo": model.serverInfo };
  const hint = (method: string) => (model.cache[method] ?? {}) as JsonObject;
  for (const [file, method, key, items] of lists) {
    files.push({ path: `fixtures/${file}`, content: jsonFile({ [key]: items }) });
    const modern = key === "tools" ? items.map((t) => withoutKey(t as JsonObject, "execution")) : items;
    files.push({ path: `${MODERN_FIXTURES}/${file}`, content: jsonFile({ [key]: modern, ...hint(method), resultType: "complete", _meta: meta }) });
  }
  const { tasks, ...capabilities } = model.capabilities;
  const discover = {
    supportedVersions: ["2026-07-28"],
    capabilities:
      tasks === undefined
        ? capabilities
        : { ...capabilities, extensions: { ...((capabilities.extensions as JsonObject | undefined) ?? {}), [TASKS_EXTENSION]: {} } },
    ...(model.instructions === undefined ? {} : { instructions: model.instructions }),
    resultType: "complete",
    ...hint("server/discover"),
    _meta: meta,
  };
  files.push({ path: `${MODERN_FIXTURES}/server-discover.json`, content: jsonFile(discover as Json) });
  return files;
}

function withoutKey(value: JsonObject, key: string): JsonObject {
  if (!Object.hasOwn(value, key)) return value;
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(value)) if (k !== key) Object.defineProperty(out, k, { value: v, enumerable: true, writable: true, configurable: true });
  return out;
}
