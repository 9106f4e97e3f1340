/**
 * A command of the `mcpgen` binary: its options table, what it makes of them, what it runs, and
 * its `--help`, printed from the same table (so the help lists exactly the options parsed).
 */
import { parseCommandLine, type CommandLine, type OptionTable } from "./args.js";

export interface CommandSpec<T> {
  name: string;
  /** The first line of its help, after "mcpgen NAME: ". */
  about: string;
  /** What `mcpgen --help` says of it (wrapped). */
  summary: string;
  /** Its usage lines in `mcpgen --help`. */
  synopsis: string[];
  /** Its usage lines in its own help (default: the synopsis). */
  usage?: string[];
  /** Text between the usage and the options (a blank line on each side). */
  details?: string;
  options: OptionTable;
  /** Text after the options: notes, then the exit codes. */
  footer: string;
  /** Follows "unknown option X" (`for lint`). */
  unknownHint?: string;
  /** From the first positional on, every word is a positional as it is (pull's server command). */
  positionalsEndOptions?: boolean;
  /** The command's arguments from its command line; a CliUsageError when they do not fit. */
  parse(line: CommandLine): T;
  run(args: T, cwd: string): Promise<number>;
}

export interface Command {
  name: string;
  about: string;
  summary: string;
  synopsis: string[];
  /** Its own usage lines (the synopsis unless the spec gives others). */
  usage: string[];
  details?: string;
  options: OptionTable;
  footer: string;
  help(): string;
  /** Parses argv (a CliUsageError when it does not fit) and gives the run. */
  prepare(argv: readonly string[]): (cwd: string) => Promise<number>;
}

export const HELP_OPTION = { type: "boolean", short: "h", help: "Show this help." } as const;

export function defineCommand<T>(spec: CommandSpec<T>): Command {
  const options: OptionTable = { ...spec.options, help: HELP_OPTION };
  return {
    name: spec.name,
    about: spec.about,
    summary: spec.summary,
    synopsis: spec.synopsis,
    usage: spec.usage ?? spec.synopsis,
    ...(spec.details ? { details: spec.details } : {}),
    options,
    footer: spec.footer,
    help: () =>
      [
        `mcpgen ${spec.name}: ${spec.about}`,
        "",
        "Usage:",
        ...(spec.usage ?? spec.synopsis).map((line) => `  ${line}`),
        ...(spec.details ? ["", spec.details] : []),
        "",
        "Options:",
        optionLines(options),
        "",
        spec.footer,
      ].join("\n"),
    prepare(argv) {
      const args = spec.parse(parseCommandLine(options, argv, spec));
      return (cwd) => spec.run(args, cwd);
    },
  };
}

/** Words before `--` that ask for help: `--help` after `--` belongs to pull's server command. */
export function asksForHelp(argv: readonly string[]): boolean {
  const end = argv.indexOf("--");
  const own = end === -1 ? argv : argv.slice(0, end);
  return own.includes("-h") || own.includes("--help");
}

const COLUMN = 25;
const WIDTH = 100;

/** The options of a table as the help shows them; an option with an empty help is left out. */
export function optionLines(options: OptionTable, prefix: (name: string) => string = () => ""): string {
  const lines: string[] = [];
  for (const [name, o] of Object.entries(options)) {
    if (!o.help) continue;
    const label = `  ${o.short ? `-${o.short}, ` : ""}--${name}${o.value ? ` ${o.value}` : ""}`;
    const text = wrap(`${prefix(name)}${o.help}`, WIDTH, " ".repeat(COLUMN));
    lines.push(label.length < COLUMN ? label.padEnd(COLUMN) + text.slice(COLUMN) : `${label}\n${text}`);
  }
  return lines.join("\n");
}

/** Words of `text` in lines of at most `width` characters, each after `indent`. */
export function wrap(text: string, width: number, indent: string): string {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(" ")) {
    if (line && indent.length + line.length + 1 + word.length > width) {
      lines.push(indent + line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(indent + line);
  return lines.join("\n");
}
