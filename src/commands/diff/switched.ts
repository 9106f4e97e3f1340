/** diff's rows for `enabled: false` written or dropped (docs/guides/lists.md): off at start is, for clients, removed. */
import { nameText, type Difference, type DifferenceKind, type Surface } from "./difference.js";

const SWITCHED: { list: "tools" | "resources" | "resourceTemplates" | "prompts"; kind: DifferenceKind; key: string; what: string; fails: string }[] = [
  { list: "tools", kind: "tool", key: "name", what: "tool", fails: "calls to it fail" },
  { list: "resources", kind: "resource", key: "uri", what: "resource", fails: "reads of it fail" },
  { list: "resourceTemplates", kind: "resourceTemplate", key: "name", what: "template", fails: "reads of its URIs fail" },
  { list: "prompts", kind: "prompt", key: "name", what: "prompt", fails: "gets of it fail" },
];

/**
 * `enabled: false` written or dropped on an entry both sides have (manifests only: fixtures are
 * the full lists). Off at start is, for clients, removed until the server switches it on.
 */
export function switched(before: Surface, after: Surface, out: Difference[]): void {
  if (!before.disabled || !after.disabled) return;
  for (const { list, kind, key, what, fails } of SWITCHED) {
    const both = new Set(before[list].map((e) => nameText(e[key])));
    for (const entry of after[list]) {
      const name = nameText(entry[key]);
      // A template is named by its name in the manifest; the difference names it as the other rows do.
      const shown = list === "resourceTemplates" ? nameText(entry.uriTemplate) : name;
      if (!both.has(name)) continue;
      const was = before.disabled[list].has(name);
      const is = after.disabled[list].has(name);
      if (!was && is)
        out.push({
          kind,
          name: shown,
          path: "enabled",
          change: `${what}-disabled`,
          message: `now enabled: false: left out of the list at start, ${fails} until the server enables it`,
          clients: true,
          servers: false,
        });
      else if (was && !is)
        out.push({ kind, name: shown, path: "enabled", change: `${what}-enabled`, message: "now enabled at start", clients: false, servers: false });
    }
  }
}
