/**
 * The argument walk the pull, diff and lint commands share: `--flag value`, `--flag=value`, and
 * bare words, with one message for a flag that lacks its value.
 */

/** A usage error: printed with the command's help, exit 2. */
export class CliUsageError extends Error {}

export interface Arg {
  /** The word as typed. */
  arg: string;
  /** The flag without its `=value`. */
  flag: string;
  /** The flag's value (inline or the next word); a usage error when missing. */
  value(what: string): string;
  /** The words after this one, which the visitor takes (the walk ends). */
  rest(): string[];
}

export function walkArgs(argv: readonly string[], visit: (arg: Arg) => void): void {
  let stop = false;
  for (let i = 0; i < argv.length && !stop; i++) {
    const arg = argv[i]!;
    const eq = arg.startsWith("--") ? arg.indexOf("=") : -1;
    const flag = eq === -1 ? arg : arg.slice(0, eq);
    visit({
      arg,
      flag,
      value(what) {
        const v = eq === -1 ? argv[++i] : arg.slice(eq + 1);
        if (v === undefined || v === "") throw new CliUsageError(`${flag} needs ${what}`);
        return v;
      },
      rest() {
        stop = true;
        return argv.slice(i + 1);
      },
    });
  }
}

/** Parses with `parse`; on a usage error prints it with the command's help and gives undefined (exit 2). */
export function parseOrExplain<T>(parse: () => T, help: string): T | undefined {
  try {
    return parse();
  } catch (error) {
    if (!(error instanceof CliUsageError)) throw error;
    process.stderr.write(`mcpgen: ${error.message}\n\n${help}\n`);
    return undefined;
  }
}
