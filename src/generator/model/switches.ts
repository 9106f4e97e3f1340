/** `enabled` and `tags` of a tool, resource, template or prompt: what the runtime's lists start from and switch by. */
import type { ListSwitchModel } from "./types.js";

/** mcpgen's keys of an entry that are never served. */
export const SWITCH_KEYS = ["enabled", "tags"] as const;

/** The entry's switch as written; undefined when it writes neither `enabled` nor `tags` (enabled, untagged). */
function switchOf(entry: { enabled?: boolean; tags?: readonly string[] }): ListSwitchModel | undefined {
  if (entry.enabled === undefined && entry.tags === undefined) return undefined;
  return { enabled: entry.enabled !== false, tags: [...new Set(entry.tags ?? [])] };
}

/** `{ switch }` to spread into an entity's model, or nothing. */
export function switchField(entry: { enabled?: boolean; tags?: readonly string[] }): { switch?: ListSwitchModel } {
  const found = switchOf(entry);
  return found === undefined ? {} : { switch: found };
}
