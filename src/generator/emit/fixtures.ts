/**
 * Emits the fixtures: what the generated server answers to each list method, byte for byte (one
 * page, no nextCursor).
 *
 * - `fixtures/*.json`: the answers to 2025-era clients (MCP 2025-11-25, initialize handshake);
 * - `fixtures/2026-07-28/*.json`: the answers to 2026-07-28 requests, which differ: `resultType`,
 *   the cache hint (`ttlMs`, `cacheScope`), the server's identity in `_meta`, and no
 *   `execution` on tools (the tasks extension replaced it); plus `server-discover.json`.
 *
 * Both are the manifest's full lists. Where an entry is `enabled: false`, `<list>.enabled.json`
 * next to it is what the server answers at start (docs/guides/lists.md).
 */
import type { ServerModel } from "../model/types.js";
import { jsonFile } from "../print/literal.js";
import type { OutputFile } from "./common.js";
import type { Json, JsonObject } from "../../common/objects.js";

/** The folder of the 2026-07-28 fixtures, named after the protocol revision they show. */
const MODERN_FIXTURES = "fixtures/2026-07-28";
const TASKS_EXTENSION = "io.modelcontextprotocol/tasks";

export function emitFixtures(model: ServerModel): OutputFile[] {
  const files: OutputFile[] = [];
  const lists: [string, string, string, Json[]][] = [];
  const list = (file: string, method: string, key: string, entries: readonly { wire: JsonObject; switch?: { enabled: boolean } }[]) => {
    lists.push([`${file}.json`, method, key, entries.map((e) => e.wire)]);
    const enabled = entries.filter((e) => e.switch?.enabled !== false);
    if (enabled.length < entries.length) lists.push([`${file}.enabled.json`, method, key, enabled.map((e) => e.wire)]);
  };
  if (model.capabilities.tools) list("tools-list", "tools/list", "tools", model.tools);
  if (model.capabilities.resources) {
    list("resources-list", "resources/list", "resources", model.resources);
    list("resource-templates-list", "resources/templates/list", "resourceTemplates", model.resourceTemplates);
  }
  if (model.capabilities.prompts) list("prompts-list", "prompts/list", "prompts", model.prompts);

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
