/**
 * Which removed tool became which added one. A tool renamed and changed in the same commit (a
 * property more, a reworded description) is a rename with changes, not a removal and an addition:
 * each removed tool is paired with the added tool it resembles most (its name's words or letters,
 * its properties, its description), when the resemblance is more than a shared word or property.
 */
import type { JsonObject } from "../../common/objects.js";
import { jsonEqual } from "../../common/objects.js";
import { nameText } from "./difference.js";

/** A removed tool paired with an added one: `same` when their schemas are equal. */
export interface Rename {
  from: string;
  to: string;
  same: boolean;
  /** What resembles, for the message: "name", "input properties", "output properties", "description". */
  alike: string[];
}

/** How alike two tools must be to be paired (0 to 1, the weighted mean of the parts below). */
const THRESHOLD = 0.6;

/**
 * The renames among `removed` and `added` tools, best pairs first, each tool in one pair at most.
 * Equal schemas that say something (properties, an output) or an equal description make a pair
 * whatever the names, as before; otherwise the pair needs a resembling name or description, and
 * resembling properties or description besides.
 */
export function pairRenames(removed: readonly JsonObject[], added: readonly JsonObject[]): Rename[] {
  const scored: { from: JsonObject; to: JsonObject; score: number; same: boolean; alike: string[] }[] = [];
  const features = new Map([...removed, ...added].map((tool) => [tool, featuresOf(tool)]));
  // Letter distances cost a table per pair: between thousands of tools, names compare by words only.
  const spell = removed.length * added.length <= 250_000;
  for (const from of removed) {
    for (const to of added) {
      const same = jsonEqual(from.inputSchema, to.inputSchema) && jsonEqual(from.outputSchema, to.outputSchema);
      if (same && (telling(from) || (from.description !== undefined && jsonEqual(from.description, to.description)))) {
        scored.push({ from, to, score: 2, same, alike: [] });
        continue;
      }
      const parts = resemblance(features.get(from)!, features.get(to)!, spell);
      const name = parts.name;
      const { input, output, description } = parts;
      const byName = name >= 0.4 || (description ?? 0) >= 0.5;
      const byContent = (input ?? 0) >= 0.5 || (output ?? 0) >= 0.5 || (description ?? 0) >= 0.5 || name === 1;
      const weighted: [number | undefined, number][] = [
        [name, 1],
        [input, 2],
        [output, 1],
        [description, 1],
      ];
      const present = weighted.filter((p): p is [number, number] => p[0] !== undefined);
      const score = present.reduce((s, [v, w]) => s + v * w, 0) / present.reduce((s, [, w]) => s + w, 0);
      if (!byName || !byContent || score < THRESHOLD) continue;
      const alike = (
        [
          ["name", name],
          ["input properties", input],
          ["output properties", output],
          ["description", description],
        ] as const
      )
        .filter(([, v]) => v !== undefined && v >= 0.5)
        .map(([label]) => label);
      scored.push({ from, to, score, same, alike });
    }
  }
  // Best first; ties in the order the tools are listed, so the result does not depend on a sort's whims.
  scored.sort((a, b) => b.score - a.score);
  const taken = new Set<JsonObject>();
  const renames: Rename[] = [];
  for (const pair of scored) {
    if (taken.has(pair.from) || taken.has(pair.to)) continue;
    taken.add(pair.from);
    taken.add(pair.to);
    renames.push({ from: nameText(pair.from.name), to: nameText(pair.to.name), same: pair.same, alike: pair.alike });
  }
  return renames;
}

/** Schemas with no property (`{type: object}`) and no output say nothing of a tool. */
function telling(tool: JsonObject): boolean {
  return JSON.stringify(tool.inputSchema ?? {}).includes('"properties":{"') || tool.outputSchema !== undefined;
}

interface Features {
  name: string;
  nameWords: Set<string>;
  input: Set<string>;
  output?: Set<string>;
  description?: Set<string>;
}

function featuresOf(tool: JsonObject): Features {
  const name = nameText(tool.name);
  return {
    name: name.toLowerCase(),
    nameWords: words(name),
    input: propertyNames(tool.inputSchema),
    ...(tool.outputSchema === undefined ? {} : { output: propertyNames(tool.outputSchema) }),
    ...(typeof tool.description === "string" ? { description: words(tool.description, 3) } : {}),
  };
}

/** Each part's likeness from 0 to 1; undefined where neither tool has the part. */
function resemblance(a: Features, b: Features, spell: boolean): { name: number; input?: number; output?: number; description?: number } {
  const name = Math.max(overlap(a.nameWords, b.nameWords), spell ? letters(a.name, b.name) : 0);
  const input = sets(a.input, b.input);
  const output = a.output === undefined && b.output === undefined ? undefined : (sets(a.output ?? new Set(), b.output ?? new Set()) ?? 0);
  const description = a.description && b.description ? overlap(a.description, b.description) : undefined;
  return {
    name,
    ...(input === undefined ? {} : { input }),
    ...(output === undefined ? {} : { output }),
    ...(description === undefined ? {} : { description }),
  };
}

/**
 * Two property sets' likeness: the mean of their Jaccard index and their overlap coefficient, so
 * one property added to three counts as close, and one shared among many does not.
 */
function sets(a: Set<string>, b: Set<string>): number | undefined {
  if (a.size === 0 && b.size === 0) return undefined;
  return (overlap(a, b) + shared(a, b) / Math.max(1, Math.min(a.size, b.size))) / 2;
}

/** Jaccard index. */
function overlap(a: Set<string>, b: Set<string>): number {
  const union = new Set([...a, ...b]).size;
  return union === 0 ? 0 : shared(a, b) / union;
}

function shared(a: Set<string>, b: Set<string>): number {
  let n = 0;
  for (const x of a) if (b.has(x)) n++;
  return n;
}

/** The words of a name (camelCase, snake_case, kebab-case, dotted) or of a text, lowercased, plurals as singulars. */
function words(text: string, minLength = 1): Set<string> {
  const split = text
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u);
  // A plural is the same word: `getBooks` and `getBook`.
  return new Set(split.filter((w) => w.length >= minLength).map((w) => (w.length > 3 && w.endsWith("s") && !w.endsWith("ss") ? w.slice(0, -1) : w)));
}

/** 1 - the Levenshtein distance over the longer length: `getBooks` and `getBook` are close. */
function letters(a: string, b: string): number {
  if (a === b) return 1;
  const longest = Math.max(a.length, b.length);
  // Names are short (128 characters at most in a manifest; a fixtures file may hold anything).
  if (longest > 128) return 0;
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) row.push(Math.min(previous[j]! + 1, row[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1)));
    previous = row;
  }
  return 1 - previous[b.length]! / longest;
}

function propertyNames(schema: unknown): Set<string> {
  const properties = typeof schema === "object" && schema !== null ? (schema as JsonObject).properties : undefined;
  return new Set(typeof properties === "object" && properties !== null && !Array.isArray(properties) ? Object.keys(properties) : []);
}
