/**
 * Types for the schemas' own definitions (`$defs`, `definitions`), decided once per server: which
 * entries each schema's types use, and the name of each entry's type.
 *
 * Servers built from an OpenAPI document repeat the same `$defs` in every tool schema (Notion's
 * 24 tools each carry the same nine); one type per schema per entry multiplied types.ts, and gave
 * a tool without arguments rich-text types. So:
 * - An entry gets a type only when its schema's types use it: a `$ref` to it from the schema
 *   (outside its `$defs`/`definitions`), or from another entry that is used.
 * - An entry that several schemas carry alike is one type, whether each of them uses it or not (so
 *   its name does not change when a tool starts using an entry it already carries). Alike means:
 *   under the same key (`$defs/richText`), with the same canonical JSON (object keys sorted, each
 *   `$ref` spelled one way), and alike again for every entry it reaches. An entry that reaches `#`
 *   is never shared: the root is another type in each schema.
 * - A shared type is named after its entry (`richTextRequest` -> `RichTextRequest`) when that
 *   identifier is free (the first such entry in manifest order wins); otherwise it is named as an
 *   entry of the first schema that uses it.
 * - An entry of one schema only is `<Schema type><Entry>` (`CreatePageInputRichText`), as it
 *   always was: these names are claimed before the shared ones, so sharing never takes them.
 * A shared type is declared next to the first schema that uses it. Only types are shared: every
 * schema goes on the wire (and to ajv) as written, `$defs` included.
 */
import { createHash } from "node:crypto";
import type { DocPath } from "../../common/diagnostics.js";
import { toIdentifier } from "./identifiers.js";
import { classifyRef, forEachSchema, mapRefs, refToken, type JsonSchema } from "../../jsonSchema/refs.js";
import type { SchemaModel } from "./types.js";
import { isPlainObject } from "../../common/objects.js";

/** A schema that may have `$defs`: a tool's input or output, with who it is for messages. */
export interface LocalDefsOwner {
  model: SchemaModel;
  /** `tool "create-page"`. */
  owner: string;
  /** Where the schema is in the manifest. */
  at: DocPath;
}

/** The model's one TypeScript namespace. */
interface TypeClaims {
  /** Claims `id` if it is free: true when it now belongs to `owner`; false, and nothing reported, when taken. */
  tryClaim(id: string, owner: string, at: DocPath): boolean;
  /** Claims `id`, reporting a collision when it is taken. */
  claim(id: string, owner: string, at: DocPath): void;
}

const CONTAINERS = ["$defs", "definitions"] as const;

interface Entry {
  container: (typeof CONTAINERS)[number];
  name: string;
  /** Canonical JSON of the entry, refs normalized. */
  canonical: string;
  /** Keys (`$defs/x`) of the entries it refers to. */
  refs: Set<string>;
  /** It refers to `#`, its schema's root. */
  rootRef: boolean;
}

interface UsedDefs {
  entries: Map<string, Entry>;
  /** Keys of the used entries, in declaration order. */
  keys: string[];
}

/** Fills each owner's `localTypeNames` and `declares`, claiming every name in `claims`. */
export function nameLocalDefs(all: readonly LocalDefsOwner[], claims: TypeClaims): void {
  // Most schemas have no entries: nothing is kept for them (a pulled server may list 100,000 tools).
  const owners: LocalDefsOwner[] = [];
  const used: UsedDefs[] = [];
  for (const owner of all) {
    const defs = usedLocalDefs(owner.model.schema);
    if (defs.entries.size === 0) continue;
    owners.push(owner);
    used.push(defs);
  }
  /** Entries by identity, in manifest order: how many schemas declare each, which ones (indexes) use it. */
  const groups = new Map<string, { key: string; declared: number; users: number[] }>();
  const identities = used.map(({ entries, keys }, i) => {
    const byKey = identitiesOf(entries);
    const usedKeys = new Set(keys);
    for (const [key, identity] of byKey) {
      if (identity === undefined) continue;
      const group = groups.get(identity) ?? { key, declared: 0, users: [] };
      group.declared++;
      if (usedKeys.has(key)) group.users.push(i);
      groups.set(identity, group);
    }
    return byKey;
  });
  const shared = (identity: string | undefined) => identity !== undefined && groups.get(identity)!.declared > 1;
  const names = owners.map(() => new Map<string, string>());
  const entry = (i: number, key: string): Entry => used[i]!.entries.get(key)!;
  const at = (i: number, key: string): DocPath => [...owners[i]!.at, entry(i, key).container, entry(i, key).name];
  const ownerText = (i: number, key: string) => `${owners[i]!.owner} local ${entry(i, key).container} entry "${entry(i, key).name}"`;
  const ownName = (i: number, key: string) => owners[i]!.model.typeName + toIdentifier(entry(i, key).name, "pascal").replace(/\$$/, "");

  // Entries of one schema first: their names are the ones they always had.
  used.forEach(({ keys }, i) =>
    keys.forEach((key) => {
      if (shared(identities[i]!.get(key))) return;
      const id = ownName(i, key);
      claims.claim(id, ownerText(i, key), at(i, key));
      names[i]!.set(key, id);
    }),
  );
  const declaredBy = new Map<string, number>();
  for (const [identity, { key, declared, users }] of groups) {
    if (declared < 2 || users.length === 0) continue;
    const first = users[0]!;
    const owner = `${ownerText(first, key)} (the same in ${declared} schemas)`;
    let id = toIdentifier(entry(first, key).name, "pascal");
    if (!claims.tryClaim(id, owner, at(first, key))) {
      id = ownName(first, key);
      claims.claim(id, owner, at(first, key));
    }
    for (const user of users) names[user]!.set(key, id);
    declaredBy.set(identity, first);
  }

  owners.forEach(({ model }, i) => {
    for (const key of used[i]!.keys) {
      model.localTypeNames.set(key, names[i]!.get(key)!);
      const identity = identities[i]!.get(key);
      if (!shared(identity) || declaredBy.get(identity!) === i) model.declares.push(key);
    }
  });
}

/** The schema's own entries, and which of them its types use. */
export function usedLocalDefs(schema: JsonSchema): UsedDefs {
  const entries = new Map<string, Entry>();
  if (typeof schema !== "object") return { entries, keys: [] };
  for (const container of CONTAINERS) {
    const local = schema[container];
    if (!isPlainObject(local)) continue;
    for (const name of Object.keys(local)) entries.set(`${container}/${name}`, entryOf(container, name, local[name]));
  }
  if (entries.size === 0) return { entries, keys: [] };
  // Refs from the schema itself: every keyword but its own entries.
  const body: Record<string, unknown> = {};
  for (const key of Object.keys(schema))
    if (key !== "$defs" && key !== "definitions") Object.defineProperty(body, key, { value: schema[key], enumerable: true });
  const start: string[] = [];
  forEachSchema(body, (node) => {
    if (typeof node.$ref !== "string") return;
    const target = classifyRef(node.$ref);
    if (target.kind === "local") start.push(`${target.container}/${target.name}`);
  });
  const reached = reach(start, entries);
  return { entries, keys: [...entries.keys()].filter((key) => reached.has(key)) };
}

function entryOf(container: Entry["container"], name: string, schema: unknown): Entry {
  const entry: Entry = { container, name, canonical: "", refs: new Set(), rootRef: false };
  const normalized = mapRefs(schema, (ref) => {
    const target = classifyRef(ref);
    if (target.kind === "def") return `#/defs/${refToken(target.name)}`;
    if (target.kind === "local") {
      entry.refs.add(`${target.container}/${target.name}`);
      return `#/${target.container}/${refToken(target.name)}`;
    }
    if (target.kind === "root") {
      entry.rootRef = true;
      return "#";
    }
    return ref;
  });
  entry.canonical = canonicalJson(normalized);
  return entry;
}

/** The declared entries reachable from `start` (themselves included). */
function reach(start: readonly string[], entries: ReadonlyMap<string, Entry>): Set<string> {
  const seen = new Set<string>();
  const stack = start.filter((key) => entries.has(key));
  while (stack.length > 0) {
    const key = stack.pop()!;
    if (seen.has(key)) continue;
    seen.add(key);
    for (const next of entries.get(key)!.refs) if (entries.has(next) && !seen.has(next)) stack.push(next);
  }
  return seen;
}

/**
 * What makes each entry of one schema the same as an entry of another: its key and a hash of
 * every entry it reaches (key and canonical JSON); undefined when it reaches `#` and cannot be
 * shared. Hashed per strongly connected component (Tarjan's algorithm, which completes a component
 * after every component it reaches), so each entry is hashed once however much it reaches.
 */
function identitiesOf(entries: ReadonlyMap<string, Entry>): Map<string, string | undefined> {
  const component = new Map<string, { hash: string; rootRef: boolean }>();
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const visit = (key: string, work: [string, Iterator<string>][]) => {
    index.set(key, index.size);
    low.set(key, index.get(key)!);
    stack.push(key);
    onStack.add(key);
    work.push([key, [...entries.get(key)!.refs].filter((r) => entries.has(r))[Symbol.iterator]()]);
  };
  for (const start of entries.keys()) {
    if (index.has(start)) continue;
    const work: [string, Iterator<string>][] = [];
    visit(start, work);
    while (work.length > 0) {
      const [key, refs] = work[work.length - 1]!;
      const next = refs.next();
      if (!next.done) {
        if (!index.has(next.value)) visit(next.value, work);
        else if (onStack.has(next.value)) low.set(key, Math.min(low.get(key)!, index.get(next.value)!));
        continue;
      }
      work.pop();
      if (work.length > 0) {
        const parent = work[work.length - 1]![0];
        low.set(parent, Math.min(low.get(parent)!, low.get(key)!));
      }
      if (low.get(key) !== index.get(key)) continue;
      const members: string[] = [];
      for (let member = ""; member !== key;) {
        member = stack.pop()!;
        onStack.delete(member);
        members.push(member);
      }
      // The components it refers to are complete: their hashes stand for all they reach.
      const reached = new Set<string>();
      let rootRef = false;
      for (const member of members) {
        rootRef ||= entries.get(member)!.rootRef;
        for (const ref of entries.get(member)!.refs) {
          const done = component.get(ref);
          if (!done) continue;
          reached.add(done.hash);
          rootRef ||= done.rootRef;
        }
      }
      const own = members.sort().map((m) => [m, entries.get(m)!.canonical]);
      const hash = createHash("sha256")
        .update(JSON.stringify([own, [...reached].sort()]))
        .digest("hex");
      for (const member of members) component.set(member, { hash, rootRef });
    }
  }
  return new Map(
    [...entries.keys()].map((key) => {
      const { hash, rootRef } = component.get(key)!;
      return [key, rootRef ? undefined : `${hash} ${JSON.stringify(key)}`];
    }),
  );
}

/** JSON with object keys sorted, so that key order makes no difference. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (isPlainObject(value))
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson(value[k])}`)
      .join(",")}}`;
  return JSON.stringify(value) ?? "null";
}
