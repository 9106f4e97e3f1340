/**
 * Finding the one line whose indentation broke a YAML document. An indentation slip (a key one
 * space off, a tab) makes the parser report several errors, often first on a line that is right
 * (the sibling after the slipped key). loadManifest.ts asks here for the single re-indented line
 * that removes the errors around the first one, reports that line, and parses the repaired text
 * again for what else is wrong: one slip, one error.
 */

/** A line whose indentation, changed to `indent` spaces, removes errors near the first one. */
export interface IndentRepair {
  /** 1-based line to change. */
  line: number;
  /** Its indentation in spaces now, or undefined when a tab is in it. */
  was: number | undefined;
  indent: number;
  /** Another indentation as good, when the text cannot tell which was meant. */
  or?: number;
  /** The whole text with that line re-indented (same lines, same line endings). */
  text: string;
  /** A line the repaired one lines up with (its sibling), or the key it now sits under. */
  sibling?: number;
  parent?: { line: number; key: string };
}

/** How many candidate lines above the error are tried: a slip is seldom further up its block. */
const LINES_ABOVE = 6;
/** The largest window parsed per candidate: one list item or one top-level key of a manifest. */
const MAX_WINDOW_LINES = 1500;
/**
 * Bounds on one search, against a text made to be slow (long lines, hundreds of indentations):
 * the window's bytes, the lines tried and the indentations tried per line (the nearest first),
 * so a round parses at most 144 windows of 256 KiB.
 */
const MAX_WINDOW_BYTES = 256 * 1024;
const MAX_CANDIDATE_LINES = 12;
const MAX_INDENTS_PER_LINE = 12;

/**
 * The re-indentation of one line near `errorLine` (and `hintLine`, where the hint points) that
 * leaves fewest errors in the block around it, as counted by `countErrors` on that block's text;
 * undefined when no re-indentation removes any (the error is something else: a quote, a `: `).
 * `onlyLine`: the line a tab was found in, the only one worth changing then. `kindOf`: a key's
 * kind (a JSON Schema keyword, a property name): between two levels equally right for the
 * parser, the one whose keys are of the line's kind wins.
 */
export function findIndentRepair(
  text: string,
  errorLine: number,
  countErrors: (text: string) => number,
  options: { hintLine?: number; onlyLine?: number; kindOf?: (key: string) => string } = {},
): IndentRepair | undefined {
  const lines = text.split("\n");
  const low = Math.min(errorLine, options.hintLine ?? errorLine);
  const high = Math.max(errorLine, options.hintLine ?? errorLine);
  const [start, end] = windowAround(lines, low - 1, high - 1);
  if (end - start > MAX_WINDOW_LINES) return undefined;
  const window = lines.slice(start, end);
  const windowText = window.join("\n");
  if (windowText.length > MAX_WINDOW_BYTES) return undefined;
  const baseline = countErrors(windowText);
  if (baseline === 0) return undefined;
  const unit = indentUnit(lines);

  const text_ = blockScalarText(lines, start, end);
  const candidates: number[] = [];
  if (options.onlyLine !== undefined) candidates.push(options.onlyLine - 1);
  else {
    for (let i = high - 1, above = 0; i >= start && above <= LINES_ABOVE && candidates.length < MAX_CANDIDATE_LINES; i--) {
      if (!isContent(lines[i]!) || text_.has(i)) continue;
      candidates.push(i);
      if (i < low - 1) above++;
    }
  }
  // The indentations the block uses, and one step deeper than each (a tab's line may open a level).
  const used = window
    .filter(isContent)
    .map(spaces)
    .filter((n): n is number => n !== undefined);
  const indents = [...new Set([...used, ...used.map((n) => n + unit)])];

  let best: { index: number; indent: number; errors: number; score: number[]; also: number | undefined } | undefined;
  for (const index of candidates) {
    if (index < start || index >= end) continue;
    const was = spaces(lines[index]!);
    const deepest = deepestAllowed(lines, index, start, text_);
    const tried = indents
      .filter((indent) => indent !== was && indent <= deepest)
      .sort((a, b) => moved(lines[index]!, a) - moved(lines[index]!, b) || a - b)
      .slice(0, MAX_INDENTS_PER_LINE);
    for (const indent of tried) {
      const trial = window.slice();
      trial[index - start] = reindent(lines[index]!, indent);
      const errors = countErrors(trial.join("\n"));
      if (errors >= baseline) continue;
      // Fewest errors; then fewest lines nested by other than the file's step (the line's own
      // children keep their parent); then an indentation on the step; then the smallest move (a
      // tab counted at the widths editors show); then siblings of the line's kind; then one that
      // lines the line up with a sibling at all; then the line nearest the error (a slip is where
      // the parser noticed, unless moving a line above explains it better).
      const siblings = siblingKeys(trial, index - start, indent);
      const key = keyOf(lines[index]!);
      const kind = options.kindOf;
      const strangers = kind && key !== undefined ? siblings.filter((k) => kind(k) !== kind(key)).length : 0;
      const score = [
        errors,
        offStep(trial, unit),
        indent % unit === 0 ? 0 : 1,
        moved(lines[index]!, indent),
        strangers,
        siblings.length > 0 ? 0 : 1,
        Math.abs(index - (errorLine - 1)),
      ];
      if (!best || lessThan(score, best.score)) best = { index, indent, errors, score, also: undefined };
      else if (index === best.index && score.slice(0, 6).every((n, i) => n === best!.score[i])) best.also = indent;
    }
  }
  if (!best) return undefined;
  const repaired = lines.slice();
  repaired[best.index] = reindent(lines[best.index]!, best.indent);
  return {
    line: best.index + 1,
    was: spaces(lines[best.index]!),
    indent: best.indent,
    ...(best.also !== undefined ? { or: best.also } : {}),
    text: repaired.join("\n"),
    ...neighbours(repaired, best.index, best.indent),
  };
}

/** What a repair's error says: how the line is indented now and what it lines up with after. */
export function describeRepair(repair: IndentRepair): string {
  if (repair.was === undefined) {
    const tab = "indent with spaces, not tabs";
    if (repair.sibling !== undefined) return `${tab}: ${repair.indent} spaces, as its siblings (line ${repair.sibling})`;
    if (repair.parent !== undefined) return `${tab}: ${repair.indent} spaces, under \`${repair.parent.key}:\` (line ${repair.parent.line})`;
    return tab;
  }
  const now = `this line is indented ${repair.was} spaces`;
  if (repair.or !== undefined) {
    const [a, b] = [repair.indent, repair.or].sort((x, y) => x - y);
    return `${now}, between two levels: indent it ${a} or ${b} spaces, as the block it belongs to`;
  }
  const to = `indent it ${repair.indent} spaces`;
  if (repair.sibling !== undefined) return `${now}; its siblings are indented ${repair.indent} (line ${repair.sibling}): ${to}`;
  if (repair.parent !== undefined) return `${now}; ${to}, under \`${repair.parent.key}:\` (line ${repair.parent.line})`;
  return `${now}: ${to}`;
}

/** The keys of the lines at `indent` in the same mapping as line `index` (0-based), other than its own. */
function siblingKeys(lines: readonly string[], index: number, indent: number): string[] {
  const keys: string[] = [];
  for (const step of [-1, 1]) {
    for (let i = index + step; i >= 0 && i < lines.length; i += step) {
      if (!isContent(lines[i]!)) continue;
      const d = spaces(lines[i]!);
      if (d === undefined || d < indent) break;
      if (d > indent) continue;
      const key = keyOf(lines[i]!);
      if (key !== undefined) keys.push(key);
    }
  }
  return keys;
}

/** The key a `key: ...` line (or a list item's first key) starts with. */
function keyOf(line: string): string | undefined {
  const key = /^\s*(?:-\s+)?("[^"]*"|'[^']*'|[^\s:#"'][^:#]*?)\s*:(?:\s|$)/.exec(line)?.[1];
  return key?.replace(/^["']|["']$/g, "");
}

/**
 * The lines [start, end) of the block holding lines `low`..`high` (0-based): the list item or
 * top-level key they belong to, so a trial parse costs the block's size, not the file's.
 */
function windowAround(lines: readonly string[], low: number, high: number): [number, number] {
  // The top-level key (a line at column 0) above, and the next one below.
  let start = low;
  while (start > 0 && !(isContent(lines[start]!) && spaces(lines[start]!) === 0)) start--;
  let end = high + 1;
  while (end < lines.length && !(isContent(lines[end]!) && spaces(lines[end]!) === 0)) end++;
  if (end - start <= MAX_WINDOW_LINES) return [start, end];
  // A long section (hundreds of tools): the list item of that section around the lines.
  const item = /^( *)- /.exec(lines.slice(start + 1).find(isContent) ?? "");
  if (!item) return [start, end];
  const dash = item[1]!.length;
  const isItem = (l: string) => l.startsWith(`${" ".repeat(dash)}- `);
  let itemStart = low;
  while (itemStart > start && !isItem(lines[itemStart]!)) itemStart--;
  let itemEnd = high + 1;
  while (itemEnd < end && !isItem(lines[itemEnd]!)) itemEnd++;
  return [itemStart, itemEnd];
}

/** The sibling the repaired line lines up with, else the key it sits under. */
function neighbours(lines: readonly string[], index: number, indent: number): { sibling?: number; parent?: { line: number; key: string } } {
  const look = (from: number, step: number): number | undefined => {
    for (let i = from; i >= 0 && i < lines.length; i += step) {
      if (!isContent(lines[i]!)) continue;
      const d = spaces(lines[i]!);
      if (d === undefined || d < indent) return undefined;
      if (d === indent) return i;
    }
    return undefined;
  };
  const [above, below] = [look(index - 1, -1), look(index + 1, 1)];
  const sibling = above === undefined ? below : below === undefined || index - above <= below - index ? above : below;
  if (sibling !== undefined) return { sibling: sibling + 1 };
  for (let i = index - 1; i >= 0; i--) {
    const d = spaces(lines[i]!);
    if (!isContent(lines[i]!) || d === undefined || d >= indent) continue;
    const key = /^\s*(?:-\s+)?([^\s:#][^:#]*?):\s*(#.*)?\r?$/.exec(lines[i]!)?.[1];
    return key === undefined ? {} : { parent: { line: i + 1, key: key.trim() } };
  }
  return {};
}

/**
 * The file's indentation step: the most frequent difference between a line's indentation and
 * that of the line it nests under (list items' keys, two past their dash, not counted).
 */
function indentUnit(lines: readonly string[]): number {
  const counts = new Map<number, number>();
  const open: { indent: number; dash: boolean }[] = [];
  for (const line of lines) {
    const indent = spaces(line);
    if (!isContent(line) || indent === undefined) continue;
    while (open.length > 0 && open[open.length - 1]!.indent >= indent) open.pop();
    const parent = open[open.length - 1];
    if (parent && !(parent.dash && indent - parent.indent === 2)) counts.set(indent - parent.indent, (counts.get(indent - parent.indent) ?? 0) + 1);
    open.push({ indent, dash: /^\s*-\s/.test(line) });
  }
  // Ties (a short file) go to the usual steps: 2, then 4, then 3.
  const usual = (step: number) => ([2, 4, 3].includes(step) ? [2, 4, 3].indexOf(step) : 3 + step);
  let unit = 2;
  let most = 0;
  for (const [step, n] of counts) if (n > most || (n === most && usual(step) < usual(unit))) [unit, most] = [step, n];
  return unit;
}

/**
 * The lines (0-based, in [start, end)) that are the text of a block scalar (`key: |`): moving
 * one is changing text, and moving a line into one would hide it as text.
 */
function blockScalarText(lines: readonly string[], start: number, end: number): Set<number> {
  const text = new Set<number>();
  // The header's indentation, then (from the first non-empty line) the text's.
  let header = -1;
  let body = -1;
  for (let i = start; i < end; i++) {
    const line = lines[i]!;
    if (header >= 0) {
      const d = spaces(line) ?? Infinity;
      if (line.trim() === "") continue;
      if (body < 0 && d > header) body = d;
      if (body >= 0 && d >= body) {
        text.add(i);
        continue;
      }
      header = body = -1;
    }
    if (/(^|:\s+|^-\s+)[|>][-+0-9]*\s*(#.*)?\r?$/.test(line.trimStart())) header = spaces(line) ?? 0;
  }
  return text;
}

/**
 * The deepest indentation line `index` may take and stay a key of its own: no deeper than the
 * line above it (deeper would continue that line's value), unless that line opens a block
 * (`key:` with nothing after, or a `- `), and never into a block scalar's text.
 */
function deepestAllowed(lines: readonly string[], index: number, start: number, text: ReadonlySet<number>): number {
  for (let i = index - 1; i >= start; i--) {
    if (!isContent(lines[i]!) || text.has(i)) continue;
    const code = lines[i]!.replace(/\s+#.*$/, "").trimEnd();
    if (/:$/.test(code) || /^\s*-$/.test(code)) return Infinity;
    // `- key: value`: the item's other keys line up with `key`.
    const item = /^\s*-\s+(?=[^\s:#][^:#]*:\s*\S)/.exec(code);
    if (item) return item[0].length;
    return spaces(lines[i]!) ?? 0;
  }
  return Infinity;
}

function isContent(line: string): boolean {
  const t = line.trim();
  return t !== "" && !t.startsWith("#");
}

/** A line's indentation in spaces, or undefined when a tab is in it. */
function spaces(line: string): number | undefined {
  const lead = /^[ \t]*/.exec(line)![0];
  return lead.includes("\t") ? undefined : lead.length;
}

/**
 * How many lines sit deeper than the line they nest under by other than `unit` (or two past a
 * list item's dash, where its keys start).
 */
function offStep(lines: readonly string[], unit: number): number {
  const open: { indent: number; dash: boolean }[] = [];
  let off = 0;
  for (const line of lines) {
    const indent = spaces(line);
    if (!isContent(line) || indent === undefined) continue;
    while (open.length > 0 && open[open.length - 1]!.indent >= indent) open.pop();
    const parent = open[open.length - 1];
    if (parent && indent - parent.indent !== unit && !(parent.dash && indent - parent.indent === 2)) off++;
    open.push({ indent, dash: /^\s*-\s/.test(line) });
  }
  return off;
}

/**
 * How far `indent` is from the line's own: for a line with a tab, from the nearest of its widths
 * with a tab as 2, 4 or 8 columns (the widths editors show).
 */
function moved(line: string, indent: number): number {
  const lead = /^[ \t]*/.exec(line)![0];
  const widths = lead.includes("\t") ? [2, 4, 8].map((tab) => [...lead].reduce((c, ch) => (ch === "\t" ? c + tab - (c % tab) : c + 1), 0)) : [lead.length];
  return Math.min(...widths.map((w) => Math.abs(w - indent)));
}

function reindent(line: string, indent: number): string {
  return " ".repeat(indent) + line.replace(/^[ \t]*/, "");
}

function lessThan(a: readonly number[], b: readonly number[]): boolean {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i]! < b[i]!;
  return false;
}
