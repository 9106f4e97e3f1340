/**
 * Deterministic synthetic manifests for the benchmark: realistic tool schemas (nested objects,
 * arrays of objects, enums, nullable fields, shared defs, outputSchemas), split across several
 * files (servers) for the large sizes, as a real project would.
 */
import { stringify } from "yaml";

/** A small deterministic PRNG (mulberry32), so every run benchmarks the same manifests. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = [
  "order",
  "customer",
  "invoice",
  "shipment",
  "product",
  "account",
  "ticket",
  "report",
  "payment",
  "address",
  "item",
  "note",
  "label",
  "region",
  "status",
];

export interface SyntheticTool {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
  outputSchema: Record<string, unknown>;
}

/**
 * `withPatterns`: the same tools with `pattern` on their strings, as hand-written and zod-made
 * schemas have them: an id, dates, a Unicode name, an item id (which mcpgen runs on RegExp, proved
 * linear), tags with groups and zod's email pattern with lookaheads (on RE2JS); the arguments and
 * output of bench/patterns.ts match them.
 */
export function tools(count: number, seed: number, withPatterns = false): SyntheticTool[] {
  const p = (pattern: string) => (withPatterns ? { pattern } : {});
  const random = rng(seed);
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)]!;
  const out: SyntheticTool[] = [];
  for (let i = 0; i < count; i++) {
    const noun = pick(WORDS);
    const verb = pick(["get", "list", "create", "update", "delete", "search", "export"]);
    out.push({
      name: `${verb}_${noun}_${i}`,
      description: `${verb} a ${noun} by id, with filters and paging. Tool number ${i}.`,
      inputSchema: {
        type: "object",
        properties: {
          id: { type: "string", description: `The ${noun} id.`, ...p("^[a-z][a-z0-9_-]{0,63}$") },
          limit: { type: "integer", minimum: 1, maximum: 100, default: 20 },
          status: { type: "string", enum: ["open", "closed", "pending", "archived"] },
          note: { type: ["string", "null"] },
          filter: {
            type: "object",
            properties: {
              from: { type: "string", format: "date", ...p("^\\d{4}-\\d{2}-\\d{2}$") },
              to: { type: "string", format: "date", ...p("^\\d{4}-\\d{2}-\\d{2}$") },
              tags: { type: "array", items: { type: "string", ...p("^[a-z]+(-[a-z]+)*$") }, maxItems: 10 },
            },
          },
          address: { $ref: "#/defs/Address" },
        },
        required: ["id"],
        additionalProperties: false,
      },
      outputSchema: {
        type: "object",
        properties: {
          items: {
            type: "array",
            items: {
              type: "object",
              properties: {
                id: { type: "string", ...p("^[a-z0-9]+$") },
                name: { type: "string" },
                amount: { type: "number" },
                status: { type: "string", enum: ["open", "closed"] },
                owner: { $ref: "#/defs/Person" },
              },
              required: ["id", "name"],
            },
          },
          total: { type: "integer" },
          next: { type: ["string", "null"] },
        },
        required: ["items", "total"],
      },
    });
  }
  return out;
}

function defs(withPatterns: boolean) {
  const p = (pattern: string) => (withPatterns ? { pattern } : {});
  return {
    Address: {
      type: "object",
      properties: {
        street: { type: "string" },
        city: { type: "string", ...p("^\\p{L}[\\p{L} .'-]*$") },
        country: { type: "string", enum: ["FR", "DE", "US", "JP"] },
      },
      required: ["city"],
    },
    Person: {
      type: "object",
      properties: {
        name: { type: "string" },
        email: { type: ["string", "null"], ...p("^(?!\\.)(?!.*\\.\\.)([A-Za-z0-9_'+\\-\\.]*)[A-Za-z0-9_+-]@([A-Za-z0-9][A-Za-z0-9\\-]*\\.)+[A-Za-z]{2,}$") },
        address: { $ref: "#/defs/Address" },
      },
      required: ["name"],
    },
  };
}

/** `count` tools as YAML manifests of at most `perFile` tools each: [file name, text][]. */
export function manifests(count: number, perFile = 500, seed = 42, withPatterns = false): [string, string][] {
  const DEFS = defs(withPatterns);
  const all = tools(count, seed, withPatterns);
  const files: [string, string][] = [];
  for (let start = 0, n = 0; start < all.length; start += perFile, n++) {
    const part = all.slice(start, start + perFile);
    files.push([`server-${n}.yaml`, stringify({ server: { name: `bench-${n}`, version: "1.0.0" }, defs: DEFS, tools: part })]);
  }
  return files;
}
