/**
 * A tool's annotation hints (MCP ToolAnnotations) compared by what clients do with them. They
 * break no call, but clients act on them without asking anyone: many run read-only tools without
 * asking for approval, ask twice before destructive ones, retry idempotent ones. A change of one
 * is a `behaviour` change, its own class; the other annotation fields (title) are informative.
 */
import type { Json, JsonObject } from "../../common/objects.js";
import type { Difference } from "./difference.js";
import { jsonEqual } from "../../common/objects.js";

/** Each hint with its default (what an absent hint means) and what clients do when it becomes true or false. */
const HINTS: readonly { hint: string; fallback: boolean; becomesTrue: string; becomesFalse: string }[] = [
  {
    hint: "readOnlyHint",
    fallback: false,
    becomesTrue: "clients that auto-approve read-only tools now run it without asking",
    becomesFalse: "clients that auto-approved it as read-only now ask before running it",
  },
  {
    hint: "destructiveHint",
    fallback: true,
    becomesTrue: "clients may now ask for confirmation before running it",
    becomesFalse: "clients may now run it with less confirmation",
  },
  { hint: "idempotentHint", fallback: false, becomesTrue: "clients may now retry it", becomesFalse: "clients should no longer retry it" },
  {
    hint: "openWorldHint",
    fallback: true,
    becomesTrue: "it now reaches outside systems, as clients are told",
    becomesFalse: "it no longer reaches outside systems, as clients are told",
  },
];

/** The hint changes (behaviour) and other annotation changes (informative) of one tool. */
export function hintDifferences(name: string, before: Json | undefined, after: Json | undefined): Difference[] {
  const a = asObject(before);
  const b = asObject(after);
  const out: Difference[] = [];
  for (const { hint, fallback, becomesTrue, becomesFalse } of HINTS) {
    const was = typeof a[hint] === "boolean" ? a[hint] : fallback;
    const now = typeof b[hint] === "boolean" ? b[hint] : fallback;
    if (was === now) continue;
    const shown = (v: Json | undefined, effective: boolean) => (typeof v === "boolean" ? String(v) : `unset (${String(effective)})`);
    out.push({
      kind: "tool",
      name,
      path: `annotations.${hint}`,
      change: "hint-changed",
      message: `${hint} ${shown(a[hint], was)} -> ${shown(b[hint], now)}: ${now ? becomesTrue : becomesFalse}`,
      clients: false,
      servers: false,
      behaviour: true,
    });
  }
  const rest = (o: JsonObject) => Object.fromEntries(Object.entries(o).filter(([k]) => !HINTS.some((h) => h.hint === k)));
  if (!jsonEqual(rest(a), rest(b)))
    out.push({ kind: "tool", name, path: "annotations", change: "annotations-changed", message: "annotations changed", clients: false, servers: false });
  return out;
}

function asObject(value: Json | undefined): JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? value : {};
}
