/**
 * Keys YAML made from text. In a flow mapping `{description: ISO date, YYYY-MM-DD.}` the comma
 * ends the description and `YYYY-MM-DD.` becomes a key whose value is null, served as it is.
 */

/** Whether `key` (with its value) looks like the tail of a text rather than a field or keyword. */
export function looksLikeText(key: string, value: unknown): boolean {
  return value === null || /\s/.test(key.trim()) || /[.,;!?]$/.test(key);
}

/** How to fix it: quote the text the key was cut from (the string just before it), or any text. */
export function quoteHint(node: Record<string, unknown>, key: string): string {
  const keys = Object.keys(node);
  const previous = keys[keys.indexOf(key) - 1];
  if (previous !== undefined && typeof node[previous] === "string") {
    return `if it is the end of the text before it, cut at a comma in a flow mapping \`{...}\`, quote that text: ${previous}: ${JSON.stringify(`${node[previous] as string}, ${key}`)}`;
  }
  return "in a flow mapping `{...}`, a comma or `: ` inside a text ends it: quote the text";
}
