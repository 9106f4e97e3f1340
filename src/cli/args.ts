/**
 * The argument walk the pull, diff and lint commands share: `--flag value`, `--flag=value`, and
 * bare words, with one message for a flag that lacks its value.
 */

/** A usage error: printed on one line with where to find the command's help, exit 2. */
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

/**
 * What a usage error prints: the problem on one line, then the command that shows the usage
 * (`command` undefined: the top-level help). Every command says it the same way.
 */
export function explainUsage(message: string, command?: string): string {
  return `mcpgen: ${message}\nRun \`mcpgen ${command ? `${command} ` : ""}--help\` for usage.\n`;
}

/** Parses with `parse`; on a usage error prints it (see explainUsage) and gives undefined (exit 2). */
export function parseOrExplain<T>(parse: () => T, command: string): T | undefined {
  try {
    return parse();
  } catch (error) {
    if (!(error instanceof CliUsageError)) throw error;
    process.stderr.write(explainUsage(error.message, command));
    return undefined;
  }
}
