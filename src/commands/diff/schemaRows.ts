/**
 * A tool schema's findings (schemaDiff.ts) as rows of the diff, each judged for clients and for
 * servers on the side it is on (input or output), one row per place in the schema.
 */
import type { Difference } from "./difference.js";
import type { Finding, Schema } from "./difference.js";
import { diffSchemas } from "./schemaDiff.js";

export function schemaDifferences(
  name: string,
  field: "inputSchema" | "outputSchema",
  a: Schema,
  b: Schema,
  side: "input" | "output",
  out: Difference[],
): void {
  for (const f of onePerPath(diffSchemas(a, b))) {
    const path = f.path === "" ? field : `${field}.${f.path}`;
    if (f.dialect) {
      out.push({ kind: "tool", name, path, change: `${side}-dialect-changed`, message: f.message, clients: false, servers: false });
      continue;
    }
    // Judged as code written against the generated types sees it (f.typed), where that differs
    // from the wire. Inputs: clients break when the server accepts less or a typed call no longer
    // compiles; servers when handlers must take more. Outputs: clients break when they may get
    // more or their reading code no longer compiles; servers when handlers must return less.
    const effect = f.typed ?? f;
    const kind = f.change ?? (f.narrows && f.widens ? "changed" : f.narrows ? "narrowed" : f.widens ? "widened" : "annotation");
    const consequence = f.consequence?.[side];
    out.push({
      kind: "tool",
      name,
      path,
      change: `${side}-${kind}`,
      message: consequence ? `${f.message}: ${consequence}` : f.message,
      clients: side === "input" ? effect.narrows : effect.widens,
      servers: side === "input" ? effect.widens : effect.narrows,
    });
  }
}

/**
 * One finding per path: a change that both narrows and widens one keyword (`string -> boolean`:
 * no longer accepts string, now accepts boolean; enum values removed and added) is one change,
 * in one row that says both.
 */
function onePerPath(findings: Finding[]): Finding[] {
  const byPath = new Map<string, Finding[]>();
  for (const f of findings) byPath.set(f.path, [...(byPath.get(f.path) ?? []), f]);
  return [...byPath.values()].map((group) => {
    if (group.length === 1) return group[0]!;
    const any = (pick: (f: Finding) => boolean) => group.some(pick);
    const change = group.find((f) => f.change !== undefined)?.change;
    const consequence = group.find((f) => f.consequence !== undefined)?.consequence;
    return {
      path: group[0]!.path,
      message: group.map((f) => f.message).join("; "),
      narrows: any((f) => f.narrows),
      widens: any((f) => f.widens),
      ...(any((f) => f.typed !== undefined) ? { typed: { narrows: any((f) => (f.typed ?? f).narrows), widens: any((f) => (f.typed ?? f).widens) } } : {}),
      ...(change === undefined ? {} : { change }),
      ...(consequence === undefined ? {} : { consequence }),
      ...(any((f) => f.dialect === true) ? { dialect: true as const } : {}),
    };
  });
}
