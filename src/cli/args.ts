/**
 * The command line of every command: one table of options per command, parsed by node:util's
 * parseArgs, and one usage error, printed on one line with where to find the command's help.
 */
import { parseArgs } from "node:util";
import { didYouMean } from "../common/didYouMean.js";

/** A usage error: printed on one line with where to find the command's help, exit 2. */
export class CliUsageError extends Error {}

export interface OptionSpec {
  type: "string" | "boolean";
  short?: string;
  /** Repeatable (`--env A=1 --env B=2`); otherwise a second one is a usage error. */
  multiple?: boolean;
  /** What the value is, for "--out needs a folder" (string options). */
  needs?: string;
  /** The value's name in the help: `--out DIR`. */
  value?: string;
  /** The help text (wrapped when printed); "" leaves the option out of the help. */
  help: string;
}

export type OptionTable = Record<string, OptionSpec>;

export interface CommandLine {
  /** The options given, by their long name: string, string[] (multiple) or true. */
  values: Record<string, string | string[] | boolean | undefined>;
  positionals: string[];
  /** The name of each option as typed, for messages (`-o` or `--out`). */
  typed: Record<string, string>;
}

/**
 * Parses `argv` with the table. A value is the next word (or `--flag=value`); a next word that
 * looks like an option (`--quiet`, `-x`, not `-3` or `-`) is not taken: the flag lacks its value.
 * `unknownHint` follows "unknown option X". `positionalsEndOptions`: from the first positional on, every word is a positional as it is
 * (the server's command of `pull`).
 */
export function parseCommandLine(
  options: OptionTable,
  argv: readonly string[],
  how: { positionalsEndOptions?: boolean; unknownHint?: string } = {},
): CommandLine {
  const parseOptions = Object.fromEntries(Object.entries(options).map(([name, o]) => [name, { type: o.type, ...(o.short ? { short: o.short } : {}) }]));
  const { tokens } = parseArgs({ args: [...argv], options: parseOptions, strict: false, allowPositionals: true, tokens: true });
  const line: CommandLine = { values: {}, positionals: [], typed: {} };
  for (const token of tokens) {
    if (token.kind === "option-terminator") {
      line.positionals.push(...argv.slice(token.index + 1));
      break;
    }
    if (token.kind === "positional") {
      if (how.positionalsEndOptions) {
        line.positionals.push(...argv.slice(token.index));
        break;
      }
      line.positionals.push(token.value);
      continue;
    }
    const spec = Object.hasOwn(options, token.name) ? options[token.name] : undefined;
    // parseArgs splits an unknown `-abc` into -a -b -c: the word as typed is what the user knows.
    if (!spec) {
      const near = token.rawName.startsWith("--") ? nearOption(token.name, Object.keys(options)) : undefined;
      const hint = [how.unknownHint ?? "", near !== undefined ? `(did you mean --${near}?)` : ""].filter(Boolean).join(" ");
      throw new CliUsageError(`unknown option ${argv[token.index]}${hint ? ` ${hint}` : ""}`);
    }
    if (spec.type === "boolean") {
      if (token.inlineValue) throw new CliUsageError(`${token.rawName} takes no value`);
      line.values[token.name] = true;
    } else {
      const value = token.value;
      if (value === undefined || value === "" || (!token.inlineValue && /^-(-|[^\d])/.test(value)))
        throw new CliUsageError(`${token.rawName} needs ${spec.needs ?? "a value"}`);
      if (spec.multiple) line.values[token.name] = [...((line.values[token.name] as string[] | undefined) ?? []), value];
      else if (line.values[token.name] !== undefined) throw new CliUsageError(`${token.rawName} given twice`);
      else line.values[token.name] = value;
    }
    line.typed[token.name] = token.rawName;
  }
  return line;
}

/**
 * What a usage error prints: the problem on one line, then the command that shows the usage
 * (`command` undefined: the top-level help). Every command says it the same way.
 */
export function explainUsage(message: string, command?: string): string {
  return `mcpgen: ${message}\nRun \`mcpgen ${command ? `${command} ` : ""}--help\` for usage.\n`;
}

/** The option a mistyped `--name` most likely meant: a typo of one, or one it starts with (`--stubs-dir`: `--stubs`). */
function nearOption(typed: string, known: readonly string[]): string | undefined {
  return didYouMean(typed, known) ?? known.find((name) => name.length >= 3 && (typed.startsWith(`${name}-`) || name.startsWith(`${typed}-`)));
}
