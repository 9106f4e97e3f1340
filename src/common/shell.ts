/** A command word as a shell would need it, on one line (it is shown in messages and in a YAML comment). */
export function shellWord(word: string): string {
  if (/^[\w@%+=:,./-]+$/.test(word)) return word;
  return `'${word.replace(/'/g, "'\\''").replace(/\r/g, "\\r").replace(/\n/g, "\\n")}'`;
}

/** A whole command line, each word quoted as needed. */
export function shellLine(words: readonly string[]): string {
  return words.map(shellWord).join(" ");
}
