/**
 * mcpgen's one rule for "did you mean": every suggestion, and every decision that a name is a
 * typo of a known one (an unknown field of an MCP object, a JSON Schema key next to a keyword),
 * is made here, so `titel` and `descritpion` are judged alike wherever they are written.
 *
 * The rule: case aside, the typed name is within one edit of the known one (an insertion, a
 * deletion, a substitution, or a swap of two neighbouring characters: `titel` -> `title`), or two
 * edits when both names have 6 characters or more, three at 9 or more. The allowance grows with
 * the shorter name, so a long key never reaches a short keyword by deleting letters (`tsType` is
 * two edits from `type`, no typo). Of several names at the same distance the first one listed wins.
 */

/**
 * Damerau-Levenshtein distance in its optimal string alignment form: the fewest insertions,
 * deletions, substitutions and swaps of two adjacent characters that turn `a` into `b`, no
 * substring edited twice. By UTF-16 code unit (the names compared are ASCII).
 */
export function editDistance(a: string, b: string): number {
  // Three rows: the one before the previous is what a swap reads.
  let before: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, before[j - 2]! + 1);
      current.push(d);
    }
    before = previous;
    previous = current;
  }
  return previous[b.length]!;
}

/** How many edits still make `typed` a typo of `known` (see the rule above). */
function allowance(typed: string, known: string): number {
  return Math.max(1, Math.floor(Math.min(typed.length, known.length) / 3));
}

/**
 * The known names `typed` is a typo of, closest first (names at the same distance in the order
 * given); empty when none is close enough. A name equal to `typed` is no typo and is not returned.
 */
export function nearNames(typed: string, known: Iterable<string>): string[] {
  const lower = typed.toLowerCase();
  const found: { name: string; distance: number }[] = [];
  for (const name of known) {
    if (name === typed) continue;
    // The distance is at least the difference in length: most names are ruled out without it.
    if (Math.abs(name.length - typed.length) > allowance(typed, name)) continue;
    const distance = editDistance(lower, name.toLowerCase());
    // Replacing every character is no typo (`x` is not `y` mistyped).
    if (distance <= allowance(typed, name) && distance < Math.max(typed.length, name.length)) found.push({ name, distance });
  }
  // Array.prototype.sort is stable: equal distances keep the order given.
  return found.sort((x, y) => x.distance - y.distance).map((f) => f.name);
}

/** The known name `typed` is most likely a typo of, or undefined when none is close enough. */
export function didYouMean(typed: string, known: Iterable<string>): string | undefined {
  return nearNames(typed, known)[0];
}
