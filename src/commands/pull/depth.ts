/**
 * How deep pull writes: a definition nested deeper than `--max-depth` (objects and arrays inside
 * one another) is refused before anything is written, named by where it passes the limit, instead
 * of overflowing the stack of the YAML writer (a schema 350 levels deep did) and printing a trace.
 * The walk itself keeps its own stack, so any depth the server sends is measured safely.
 */
import type { Diagnostic } from "../../common/diagnostics.js";
import type { JsonObject } from "../../common/objects.js";
import type { PulledServer } from "./fetch.js";

/** Levels of nesting in one definition (the tool object is level 1): far above real servers (a few dozen). */
export const DEFAULT_MAX_DEPTH = 256;
/** The most `--max-depth` takes: the YAML writer, the YAML parser and the validator all handle it (they overflow past about 600). */
export const MAX_MAX_DEPTH = 512;

/** Segments of the path shown before the rest is counted. */
const SHOWN = 6;

/** One error per definition (or server block) nested deeper than `maxDepth`, at its path. */
export function tooDeep(server: PulledServer, maxDepth: number): Diagnostic[] {
  const roots: [string, unknown][] = [
    ["server", server.serverInfo],
    ["capabilities", server.capabilities],
  ];
  for (const kind of ["tools", "resources", "resourceTemplates", "prompts"] as const) server[kind].forEach((item, i) => roots.push([`${kind}[${i}]`, item]));
  const found: Diagnostic[] = [];
  for (const [at, root] of roots) {
    const deep = deepestPath(root, maxDepth);
    if (deep === undefined) continue;
    const path = deep.length > SHOWN ? `${join(deep.slice(0, SHOWN))} (and ${deep.length - SHOWN} levels more)` : join(deep);
    found.push({
      severity: "error",
      code: "too-deep",
      message: `nested deeper than ${maxDepth} levels (objects and arrays inside one another), the most pull writes (--max-depth ${maxDepth})`,
      fix:
        maxDepth < MAX_MAX_DEPTH
          ? `if the server really serves this, pull again with --max-depth ${Math.min(2 * maxDepth, MAX_MAX_DEPTH)} (at most ${MAX_MAX_DEPTH})`
          : `mcpgen cannot write definitions deeper than ${MAX_MAX_DEPTH} levels; please report it with the server`,
      file: "",
      line: 1,
      col: 1,
      path: path === "" ? at : `${at}.${path}`,
    });
  }
  return found;
}

/** The keys down to the first value nested deeper than `max` below `root` (level 1), or undefined. */
function deepestPath(root: unknown, max: number): (string | number)[] | undefined {
  // Each entry: a value, its level, and the entry it was reached from (to rebuild the path).
  const stack: { value: unknown; level: number; key: string | number | undefined; parent: number }[] = [{ value: root, level: 1, key: undefined, parent: -1 }];
  const seen: typeof stack = [];
  while (stack.length > 0) {
    const entry = stack.pop()!;
    if (typeof entry.value !== "object" || entry.value === null) continue;
    const index = seen.push(entry) - 1;
    if (entry.level > max) {
      const path: (string | number)[] = [];
      for (let at = index; seen[at]!.parent !== -1; at = seen[at]!.parent) path.unshift(seen[at]!.key!);
      return path;
    }
    const children: [string | number, unknown][] = Array.isArray(entry.value) ? entry.value.map((v, i) => [i, v]) : Object.entries(entry.value as JsonObject);
    for (const [key, value] of children) if (typeof value === "object" && value !== null) stack.push({ value, level: entry.level + 1, key, parent: index });
  }
  return undefined;
}

/** `["properties", "x", 0]` -> `properties.x[0]`. */
function join(path: readonly (string | number)[]): string {
  return path
    .map((key, i) => (typeof key === "number" ? `[${key}]` : /^[A-Za-z_$][\w$-]*$/.test(key) ? `${i === 0 ? "" : "."}${key}` : `[${JSON.stringify(key)}]`))
    .join("");
}
