/**
 * Wording for YAML syntax errors: the line to change and the usual cause, read from the text
 * around where the parser stopped (loadManifest.ts reports the error itself).
 */

/** Where to fix a syntax error, and why: `kind` says which cause the hint names. */
export interface SyntaxHint {
  line: number;
  col: number;
  hint: string;
  kind: "placeholder" | "tab" | "unclosed" | "list-item" | "under-value" | "misaligned" | "colon" | "none";
}

/**
 * The line a YAML syntax error asks to change, and the usual cause there: an unquoted `: ` in a
 * value, a line indented under a key that already has a value or aligned with no key around it,
 * a tab, an unclosed quote or bracket, an unquoted `{{placeholder}}`. Heuristic: only used to
 * word an error the parser found; no hint rather than a wrong one.
 */
export function syntaxHint(text: string, code: string, line: number, col: number, message = ""): SyntaxHint {
  const lines = text.split(/\r?\n/);
  const at = (n: number) => lines[n - 1] ?? "";
  const indent = (l: string) => /^ */.exec(l)![0].length;
  const content = (l: string) => l.trim() !== "" && !l.trim().startsWith("#");
  const here = at(line);
  if (/\{\{/.test(here) && !/["']\s*$/.test(here.trim()))
    return { line, col, hint: 'a value holding {{placeholders}} must be quoted in YAML: text: "Hello {{name}}"', kind: "placeholder" };
  if (code === "TAB_AS_INDENT") return { line, col, hint: "indent with spaces, not tabs", kind: "tab" };
  const unclosedHint = () => {
    const open = unclosed(lines, line);
    return (
      open && {
        line: open.line,
        col: open.col,
        hint: `the ${open.char === '"' || open.char === "'" ? "quote" : `\`${open.char}\``} opened on line ${open.line} is not closed`,
        kind: "unclosed" as const,
      }
    );
  };
  if (/Sequence item without - indicator/.test(message)) {
    const item = listItemAbove(lines, line);
    if (item)
      return {
        line,
        col: indent(here) + 1,
        hint: `this line is indented ${indent(here)} spaces: the keys of the list item on line ${item.line} are indented ${item.keys}, so align it with them; a new item at ${item.dash} starts with \`- \``,
        kind: "list-item",
      };
  }
  if (/Flow (map|sequence)/.test(message) || code === "MISSING_CHAR" || code === "UNEXPECTED_TOKEN" || code === "BAD_SCALAR_START") {
    const open = unclosedHint();
    if (open) return open;
  }
  if (code === "BLOCK_AS_IMPLICIT_KEY" || code === "MULTILINE_IMPLICIT_KEY" || code === "BAD_INDENT") {
    // `key: value` followed by a line indented deeper: that line is the one to fix.
    const nextIndex = lines.findIndex((l, i) => i >= line && content(l));
    const keyValue = /^(\s*)(-\s+)?([^\s:#][^:#]*?):\s+\S/.exec(here);
    if (keyValue && nextIndex !== -1 && indent(lines[nextIndex]!) > indent(here) + (keyValue[2]?.length ?? 0)) {
      return {
        line: nextIndex + 1,
        col: indent(lines[nextIndex]!) + 1,
        hint: `this line is indented under \`${keyValue[3]!.trim()}:\` (line ${line}), which already has a value; align it with that key, or move the value to its own lines`,
        kind: "under-value",
      };
    }
    // A line aligned with no key around it (from this line down to the end of its block).
    for (let n = line; n <= Math.min(lines.length, line + 1); n++) {
      if (!content(at(n))) continue;
      const misaligned = misalignment(lines, n);
      if (misaligned) return { line: n, col: indent(at(n)) + 1, hint: misaligned, kind: "misaligned" };
    }
    // Two `: ` in a plain value: the value holds a colon and a space.
    const value = /^\s*(-\s+)?([^:"'{[]+):\s+([^\s"'{[|>&*!].*:\s.*)$/.exec(here);
    if (value) return { line, col, hint: `a value holding \`: \` must be quoted: ${value[2]!.trim()}: ${JSON.stringify(value[3]!.trim())}`, kind: "colon" };
  }
  return { line, col, hint: "", kind: "none" };
}

/** The closest `- key: ...` line above line `n` indented less than it: where its dash and its keys are. */
function listItemAbove(lines: readonly string[], n: number): { line: number; dash: number; keys: number } | undefined {
  const mine = /^ */.exec(lines[n - 1] ?? "")![0].length;
  for (let i = n - 2; i >= 0; i--) {
    const dash = /^( *)-\s+(?=[^\s#])/.exec(lines[i]!);
    if (dash && dash[1]!.length < mine) return { line: i + 1, dash: dash[1]!.length, keys: dash[0].length };
    const l = lines[i]!;
    if (l.trim() !== "" && !l.trim().startsWith("#") && /^ */.exec(l)![0].length < mine) return undefined;
  }
  return undefined;
}

/** Why line `n` is aligned with no key of its block, or undefined when it is. */
function misalignment(lines: readonly string[], n: number): string | undefined {
  const indent = (l: string) => /^ */.exec(l)![0].length;
  const mine = indent(lines[n - 1]!);
  // The indents a line may have here: the previous line's (a sibling), deeper when it opens a
  // block (ends with `:` or `-`), or any enclosing key's.
  const allowed = new Set<number>();
  let limit = Infinity;
  let first = true;
  for (let i = n - 2; i >= 0 && limit > 0; i--) {
    const l = lines[i]!;
    if (l.trim() === "" || l.trim().startsWith("#")) continue;
    const d = indent(l);
    if (first && /(:|-)\s*(#.*)?$/.test(l) && mine > d) return undefined;
    first = false;
    if (d < limit) {
      allowed.add(d);
      // A list item's mapping keys sit after its `- `.
      const dash = /^(\s*)-\s+(?=\S)/.exec(l);
      if (dash) allowed.add(dash[0].length);
      limit = d;
    }
  }
  if (allowed.size === 0 || allowed.has(mine)) return undefined;
  const near = [...allowed].sort((a, b) => Math.abs(a - mine) - Math.abs(b - mine))[0]!;
  return `this line is indented ${mine} spaces, which aligns it with no key around it; the nearest are indented ${near}: align it with its siblings`;
}

/** The first quote or bracket opened before line `upTo` and not closed (YAML-aware enough for hints). */
function unclosed(lines: readonly string[], upTo: number): { line: number; col: number; char: string } | undefined {
  let quote: { line: number; col: number; char: string } | undefined;
  const brackets: { line: number; col: number; char: string }[] = [];
  let blockIndent = -1;
  for (let n = 1; n <= Math.min(upTo, lines.length); n++) {
    const l = lines[n - 1]!;
    const d = /^ */.exec(l)![0].length;
    // Inside a block scalar (`|`, `>`), quotes and brackets are text.
    if (blockIndent >= 0 && !quote) {
      if (l.trim() === "" || d > blockIndent) continue;
      blockIndent = -1;
    }
    let lastSignificant = "";
    for (let c = 0; c < l.length; c++) {
      const ch = l[c]!;
      if (quote) {
        if (quote.char === '"' && ch === "\\") c++;
        else if (quote.char === "'" && ch === "'" && l[c + 1] === "'") c++;
        else if (ch === quote.char) quote = undefined;
        continue;
      }
      if (ch === "#" && (c === 0 || /\s/.test(l[c - 1]!))) break;
      // A quote opens a scalar only where a value starts.
      if ((ch === '"' || ch === "'") && (lastSignificant === "" || /[:\-[{,?]/.test(lastSignificant))) quote = { line: n, col: c + 1, char: ch };
      else if ((ch === "{" || ch === "[") && (lastSignificant === "" || /[:\-[{,?]/.test(lastSignificant))) brackets.push({ line: n, col: c + 1, char: ch });
      else if ((ch === "}" || ch === "]") && brackets.length) brackets.pop();
      if (!/\s/.test(ch)) lastSignificant = ch;
    }
    if (!quote && brackets.length === 0 && /:\s*[|>][-+0-9]*\s*(#.*)?$/.test(l)) blockIndent = d;
  }
  return quote ?? brackets[0];
}
