/**
 * `mcpgen diff`, the printing half: the changes as a table for people or JSON for tools, the
 * summary, and whether they fail the run under `--fail-on`.
 */
import type { Difference } from "./difference.js";

/**
 * What fails the run: `breaking` (= `clients`, as buf and oasdiff mean it: breaking for the code
 * that calls the server), `servers`, `either`, `behaviour` (annotation hints), `any` change, `none`.
 */
export type FailLevel = "breaking" | "clients" | "servers" | "either" | "behaviour" | "any" | "none";
/** One level or several (`breaking,behaviour`): the run fails when any of them does. */
export type FailOn = readonly FailLevel[];

const FAIL_LEVELS: readonly FailLevel[] = ["breaking", "clients", "servers", "either", "behaviour", "any", "none"];

/** `--fail-on`'s value, or the word that is not a level. */
export function parseFailOn(text: string): FailOn | { unknown: string } {
  const levels = text.split(",").map((s) => s.trim());
  const unknown = levels.find((l) => !(FAIL_LEVELS as readonly string[]).includes(l));
  return unknown === undefined ? (levels as FailLevel[]) : { unknown };
}

/** Whether these changes fail the run under `--fail-on`. */
export function fails(differences: readonly Difference[], failOn: FailOn): boolean {
  return failOn.some((level) => differences.some((c) => failsAt(c, level)));
}

function failsAt(c: Difference, level: FailLevel): boolean {
  switch (level) {
    case "none":
      return false;
    case "any":
      return true;
    case "servers":
      return c.servers;
    case "either":
      return c.clients || c.servers;
    case "behaviour":
      return c.behaviour === true;
    default:
      return c.clients;
  }
}

/** The counts of `mcpgen diff --json`'s summary (its field names are a public contract). */
function summary(differences: readonly Difference[]): {
  changes: number;
  breakingClients: number;
  breakingServers: number;
  behaviour: number;
  compatible: number;
} {
  return {
    changes: differences.length,
    breakingClients: differences.filter((c) => c.clients).length,
    breakingServers: differences.filter((c) => c.servers).length,
    behaviour: differences.filter((c) => c.behaviour === true).length,
    compatible: differences.filter((c) => !c.clients && !c.servers && c.behaviour !== true).length,
  };
}

/** The widest a column gets; longer cells are elided in the middle (the JSON has them whole). */
const CAPS = [9, 9, 40, 64, 28];

/** The changes as a table (one line each, breaking first) or as JSON. */
export function formatDifferences(differences: readonly Difference[], format: "table" | "json", sides?: { before: string; after: string }): string {
  const sorted = sortDifferences(differences);
  if (format === "json") {
    const listed = sorted.map((c) => ({ ...c, behaviour: c.behaviour === true }));
    // `changes`, not `differences`: the JSON's field names are a public contract.
    return `${JSON.stringify({ ...(sides ? { before: sides.before, after: sides.after } : {}), summary: summary(sorted), changes: listed }, null, 2)}\n`;
  }
  if (sorted.length === 0) return "  no changes\n";
  const rows = sorted.map((c) => [
    c.clients ? "BREAKING" : c.behaviour ? "BEHAVIOUR" : "ok",
    c.servers ? "BREAKING" : "ok",
    `${KIND[c.kind]} ${c.name}`,
    c.path || "-",
    c.change,
    oneLine(c.message),
  ]);
  const head = ["CLIENTS", "SERVERS", "WHAT", "WHERE", "CHANGE", "DETAIL"];
  const widths = CAPS.map((cap, i) => Math.min(cap, Math.max(head[i]!.length, ...rows.map((r) => length(r[i]!)))));
  // The last column is not padded, and not cut: it is read, not aligned with anything.
  const line = (cells: string[]) =>
    `  ${cells.map((cell, i) => (i === cells.length - 1 ? cell : pad(elide(cell, widths[i]!), widths[i]!))).join("  ")}`.trimEnd();
  const s = summary(sorted);
  const total = `  ${s.changes} change${s.changes === 1 ? "" : "s"}: ${s.breakingClients} breaking for clients, ${s.breakingServers} breaking for servers, ${s.behaviour} changing client behaviour, ${s.compatible} compatible`;
  return `${[line(head), ...rows.map(line), "", total].join("\n")}\n`;
}

/** A cell cut to `width` characters by an ellipsis in the middle: both ends of a path tell most. */
export function elide(cell: string, width: number): string {
  const chars = [...cell];
  if (chars.length <= width) return cell;
  const tail = Math.floor((width - 1) / 2);
  return `${chars.slice(0, width - 1 - tail).join("")}…${chars.slice(chars.length - tail).join("")}`;
}

/** Characters, not UTF-16 units: a name with an emoji still lines up. */
function length(cell: string): number {
  return [...cell].length;
}

function pad(cell: string, width: number): string {
  return cell + " ".repeat(Math.max(0, width - length(cell)));
}

const KIND: Record<Difference["kind"], string> = { server: "server", tool: "tool", resource: "resource", resourceTemplate: "template", prompt: "prompt" };
const KIND_ORDER: Difference["kind"][] = ["server", "tool", "resource", "resourceTemplate", "prompt"];

/** Breaking for clients, then for servers, then behaviour, then the rest; then by kind, name and path. */
function sortDifferences(differences: readonly Difference[]): Difference[] {
  const rank = (c: Difference) => (c.clients ? 0 : c.servers ? 1 : c.behaviour ? 2 : 3);
  const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  return [...differences].sort(
    (a, b) =>
      rank(a) - rank(b) || KIND_ORDER.indexOf(a.kind) - KIND_ORDER.indexOf(b.kind) || cmp(a.name, b.name) || cmp(a.path, b.path) || cmp(a.change, b.change),
  );
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, " ");
}
