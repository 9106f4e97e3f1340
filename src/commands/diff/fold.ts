/**
 * Findings that restate a type change, folded into it. A keyword that applies to one kind of value
 * (minItems and items to arrays, minLength to strings, properties to objects...) constrains values
 * of that kind only. When a schema goes from string to array, "minItems 1 added" narrows nothing:
 * no array was valid before. Whenever one version accepts a kind and the other does not, every
 * value of that kind changed validity already, as the type finding says; the findings under that
 * kind's keywords add nothing, and are folded into the type finding ("now accepts array (with its
 * items, minItems)"). Where neither version accepts the kind, they change nothing at all.
 */
import { APPLIES_TO, typeSet, type ValueKind } from "./keywords.js";
import type { Finding } from "./difference.js";

/** The findings of one schema node `at` (x before, y after), with those a type finding explains folded into it. */
export function foldIntoTypes(x: Record<string, unknown>, y: Record<string, unknown>, at: string, findings: Finding[]): Finding[] {
  const typePath = at === "" ? "type" : `${at}.type`;
  const hosts = new Map<Finding, string[]>();
  const out: Finding[] = [];
  for (const f of findings) {
    const kind = kindOf(f.path, at);
    const old = kind === undefined || accepts(x, kind);
    const now = kind === undefined || accepts(y, kind);
    if (old && now) {
      out.push(f);
      continue;
    }
    if (!old && !now) {
      const { typed: _, change: __, consequence: ___, ...rest } = f;
      out.push({ ...rest, narrows: false, widens: false, message: `${f.message} (it applies to ${kind}s, which neither version accepts)` });
      continue;
    }
    // Lost (only the old accepts the kind): the type finding narrows; gained: it widens.
    const host = findings.find((t) => t.path === typePath && (old ? t.narrows : t.widens));
    if (host === undefined) {
      out.push(f);
      continue;
    }
    const keyword = relative(f.path, at)!.split(".")[0]!;
    const folded = hosts.get(host) ?? [];
    if (!folded.includes(keyword)) folded.push(keyword);
    hosts.set(host, folded);
  }
  return out.map((f) => {
    const folded = hosts.get(f);
    return folded === undefined ? f : { ...f, message: `${f.message} (with its ${folded.join(", ")})` };
  });
}

function accepts(schema: Record<string, unknown>, kind: ValueKind): boolean {
  const types = typeSet(schema.type);
  if (types === undefined) return true;
  return kind === "number" ? types.has("number") || types.has("integer") : types.has(kind);
}

/** The kind of value the keyword a finding sits under applies to, if one. */
function kindOf(path: string, at: string): ValueKind | undefined {
  const rel = relative(path, at);
  const keyword = rel?.split(".")[0];
  return keyword !== undefined && Object.hasOwn(APPLIES_TO, keyword) ? APPLIES_TO[keyword] : undefined;
}

function relative(path: string, at: string): string | undefined {
  if (at === "") return path === "" ? undefined : path;
  return path.startsWith(`${at}.`) ? path.slice(at.length + 1) : undefined;
}
