/**
 * What pull says about the definitions it read. They are checked before the manifest is written
 * (and with --check, or when they cannot be compiled, it never is), so a line and column would
 * point into a file that does not exist or says something else: each problem is named by what the
 * server serves instead (`inputSchema of tool browser_click`), and a problem that many
 * definitions share is said once, with the list of them.
 */
import type { ArgumentDiagnostic, Diagnostic } from "../../common/diagnostics.js";
import type { JsonObject } from "../../common/objects.js";
import { shownLine } from "./explain.js";

type Kind = "tools" | "resources" | "resourceTemplates" | "prompts";

/** What one item of each list is called, and several. */
const NOUNS: Record<Kind, [string, string]> = {
  tools: ["tool", "tools"],
  resources: ["resource", "resources"],
  resourceTemplates: ["resource template", "resource templates"],
  prompts: ["prompt", "prompts"],
};

/** Definitions named before "and N more". */
const NAMED = 5;

/** The lists as the server sent them, to name items by their `name`. */
export type PulledLists = Record<Kind, readonly JsonObject[]>;

/**
 * One diagnostic per distinct problem (severity, code, message), located at `argument` (the
 * server as typed) and naming every definition it is in.
 */
export function describePulledProblems(diagnostics: readonly Diagnostic[], lists: PulledLists, server: string, argument: string): ArgumentDiagnostic[] {
  const groups = new Map<string, { first: Diagnostic; places: Map<string, Place & { names: string[] }> }>();
  for (const d of diagnostics) {
    const key = `${d.severity}\0${d.code}\0${d.message}`;
    const group = groups.get(key) ?? { first: d, places: new Map() };
    groups.set(key, group);
    // Definitions with the problem at the same place are listed together: "inputSchema of 25 tools".
    const place = locate(d.path, lists);
    const at = `${place.kind ?? ""}\0${place.at}`;
    const seen = group.places.get(at);
    if (seen) seen.names.push(place.name);
    else group.places.set(at, { ...place, names: [place.name] });
  }
  return [...groups.values()].map(({ first, places }) => {
    const said = [...places.values()].map(({ kind, at, names }) => {
      if (kind === undefined) return at;
      const listed = `${names.slice(0, NAMED).join(", ")}${names.length > NAMED ? ` and ${names.length - NAMED} more` : ""}`;
      const which = names.length === 1 ? `${NOUNS[kind][0]} ${listed}` : `${names.length} ${NOUNS[kind][1]}: ${listed}`;
      return at ? `${at} of ${which}` : which;
    });
    return {
      severity: first.severity,
      code: first.code,
      argument,
      message: first.message,
      ...(first.fix ? { fix: first.fix } : {}),
      detail: `in what ${server} serves: ${said.join("; ")}`,
    };
  });
}

interface Place {
  /** The list the problem is in (none: the server block, capabilities). */
  kind?: Kind;
  /** The path inside the item (or the whole path, outside the lists). */
  at: string;
  /** The item's name, quoted. */
  name: string;
}

/** `tools[3].inputSchema.type` -> tools, "inputSchema.type", "`browser_click`". */
function locate(path: string, lists: PulledLists): Place {
  const match = /^(tools|resources|resourceTemplates|prompts)\[(\d+)\]\.?(.*)$/.exec(path);
  if (!match) return { at: path === "" ? "the manifest" : path, name: "" };
  const kind = match[1] as Kind;
  const item = lists[kind][Number(match[2])];
  const name = item && typeof item.name === "string" ? (/^[\w./:-]+$/.test(item.name) ? `\`${item.name}\`` : shownLine(item.name)) : `#${Number(match[2]) + 1}`;
  return { kind, at: match[3] ?? "", name };
}
