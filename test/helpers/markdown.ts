/**
 * The Markdown the repository publishes (README.md, CONTRIBUTING.md, docs/**), read the way the
 * docs tests need it: headings and their GitHub anchors, links, and fenced code blocks, each with
 * its line. Fenced blocks are skipped when looking for headings and links.
 */
import { readdirSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { slug } from "../../src/reference/docs/markdown.js";

export interface MarkdownLink {
  target: string;
  line: number;
}

export interface CodeBlock {
  /** The info string after the fence: `ts`, `ts not-compiled: why`, `yaml`. */
  info: string;
  code: string;
  /** The line of the opening fence (1-based). */
  line: number;
}

export interface MarkdownDoc {
  /** The anchors a link may name: every heading's slug (duplicates numbered as GitHub does) and explicit `<a id>`/`<a name>`. */
  anchors: Set<string>;
  links: MarkdownLink[];
  blocks: CodeBlock[];
}

/** README.md, CONTRIBUTING.md and every .md under docs/, relative to the root, sorted. */
export function markdownFiles(root: string): string[] {
  const found = ["README.md", "CONTRIBUTING.md"];
  const walk = (dir: string) => {
    for (const entry of readdirSync(path.join(root, dir), { withFileTypes: true })) {
      const rel = `${dir}/${entry.name}`;
      if (entry.isDirectory()) walk(rel);
      else if (entry.name.endsWith(".md")) found.push(rel);
    }
  };
  walk("docs");
  return found.sort();
}

export function readMarkdown(file: string): MarkdownDoc {
  return parseMarkdown(readFileSync(file, "utf8"));
}

export function parseMarkdown(text: string): MarkdownDoc {
  const lines = text.split("\n");
  const anchors = new Set<string>();
  const counts = new Map<string, number>();
  const links: MarkdownLink[] = [];
  const blocks: CodeBlock[] = [];
  let fence: { marker: string; info: string; line: number; body: string[] } | undefined;
  lines.forEach((raw, i) => {
    const line = i + 1;
    if (fence) {
      if (raw.trim().startsWith(fence.marker) && raw.trim().replace(/[`~]/g, "") === "" && raw.trim().length >= fence.marker.length) {
        blocks.push({ info: fence.info, code: fence.body.join("\n"), line: fence.line });
        fence = undefined;
      } else fence.body.push(raw);
      return;
    }
    const open = /^\s{0,3}(`{3,}|~{3,})\s*(.*)$/.exec(raw);
    if (open) {
      fence = { marker: open[1]!, info: open[2]!.trim(), line, body: [] };
      return;
    }
    const heading = /^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(raw);
    if (heading) {
      const base = slug(heading[1]!);
      const seen = counts.get(base) ?? 0;
      counts.set(base, seen + 1);
      anchors.add(seen === 0 ? base : `${base}-${seen}`);
    }
    for (const m of raw.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) anchors.add(m[1]!);
    // Links inside code spans are text, not links.
    const prose = raw.replace(/(`+)[^`]*?\1/g, "");
    for (const m of prose.matchAll(/!?\[[^\]]*\]\(\s*(<[^>]*>|[^()\s]*(?:\([^()\s]*\)[^()\s]*)*)(?:\s+"[^"]*")?\s*\)/g)) {
      links.push({ target: m[1]!.replace(/^<|>$/g, ""), line });
    }
    const definition = /^\s{0,3}\[[^\]]+\]:\s*(\S+)/.exec(prose);
    if (definition) links.push({ target: definition[1]!, line });
    for (const m of prose.matchAll(/<(?:a|img)\s[^>]*(?:href|src)="([^"]+)"/g)) links.push({ target: m[1]!, line });
  });
  return { anchors, links, blocks };
}
