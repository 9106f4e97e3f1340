/**
 * The `mcpgen` command. Exit codes: 0 ok; 1 invalid manifest or config, stale output (--check)
 * or refused write; 2 usage error; 3 internal error (a bug in mcpgen: please report it).
 */
import { CliUsageError, explainUsage } from "./args.js";
import { authCommand } from "./auth.js";
import { asksForHelp, HELP_OPTION, optionLines, wrap, type Command } from "./command.js";
import { devCommand } from "./dev.js";
import { diffCommand } from "./diff.js";
import { generateCommand, validateCommand, WARNING_LEVELS } from "./generateCommand.js";
import { initCommand } from "./initCommand.js";
import { lintCommand } from "./lint.js";
import { mockCommand } from "./mock.js";
import { checkCommand } from "./check.js";
import { explainCommand } from "./explain.js";
import { pullCommand } from "./pull.js";
import { traceCommand } from "./trace.js";
import { version } from "../common/version.js";
import { didYouMean } from "../common/didYouMean.js";

/** Every command, in the order the help (and the CLI reference, src/reference/docs/cliPage.ts) lists them. */
export const COMMANDS: readonly Command[] = [
  generateCommand,
  validateCommand,
  initCommand,
  pullCommand,
  diffCommand,
  lintCommand,
  mockCommand,
  traceCommand,
  checkCommand,
  explainCommand,
  devCommand,
  authCommand,
];

const NAMES = `${COMMANDS.slice(0, -1)
  .map((c) => c.name)
  .join(", ")} or ${COMMANDS[COMMANDS.length - 1]!.name}`;

/** `mcpgen --help`: every command's usage and summary, and the options of generate, validate and init. */
function topHelp(): string {
  const commands = COMMANDS.map((c) => `  ${c.name.padEnd(11)}${wrap(c.summary, 100, " ".repeat(13)).slice(13)}`);
  const init = Object.fromEntries(Object.entries(initCommand.options).filter(([name]) => name !== "help"));
  const own = { help: HELP_OPTION, version: { type: "boolean", short: "v", help: "Show the version." } } as const;
  return [
    "mcpgen: compile MCP server manifests (YAML) into a typed server, a typed client and list fixtures.",
    "",
    "Usage:",
    ...COMMANDS.flatMap((c) => c.synopsis.map((line) => `  ${line}`)),
    "  mcpgen --help | --version",
    "  mcpgen COMMAND --help | mcpgen help [COMMAND]",
    "",
    "Commands:",
    ...commands,
    "",
    "Options:",
    optionLines(Object.fromEntries(Object.entries(generateCommand.options).filter(([name]) => name !== "help"))),
    optionLines(init, () => "(init) "),
    optionLines(own),
    "",
    WARNING_LEVELS,
    "",
    "Exit codes: 0 ok, 1 invalid input or stale output, 2 usage error, 3 internal error.",
  ].join("\n");
}

export async function main(argv: string[], cwd = process.cwd()): Promise<number> {
  const [first, ...given] = argv;
  // `mcpgen help [COMMAND]`, as git and npm take it.
  if (first === "help") {
    const [topic, ...more] = given;
    if (topic === undefined) return print(topHelp());
    const about = COMMANDS.find((c) => c.name === topic);
    if (about && more.length === 0) return print(about.help());
    process.stderr.write(
      explainUsage(about ? `help takes one command, not ${more.length + 1} words` : `unknown command ${JSON.stringify(topic)}: ${meant(topic)}`),
    );
    return 2;
  }
  const command = COMMANDS.find((c) => c.name === first);
  // `mcpgen explain -32602`: a negative number there is an error code, not an option.
  const rest = command === explainCommand && given.length === 1 && /^-\d{1,6}$/.test(given[0]!) ? ["--", given[0]!] : given;
  if (!command) {
    if (argv.includes("-h") || argv.includes("--help")) return print(topHelp());
    if (argv.includes("-v") || argv.includes("--version")) return print(version());
    const message = first === undefined ? `missing command: ${NAMES}` : `unknown command ${JSON.stringify(first)}: ${meant(first)}`;
    process.stderr.write(explainUsage(message));
    return 2;
  }
  if (asksForHelp(rest)) return print(command.help());
  let run: (cwd: string) => Promise<number>;
  try {
    run = command.prepare(rest);
  } catch (error) {
    if (!(error instanceof CliUsageError)) throw error;
    process.stderr.write(explainUsage(error.message, command.name));
    return 2;
  }
  return run(cwd);
}

/** What a user typing another tool's word, or a typo, most likely meant: `watch` is `generate --watch`. */
const OTHER_WORDS: Readonly<Record<string, string>> = {
  watch: "generate --watch",
  build: "generate",
  gen: "generate",
  new: "init",
  create: "init",
  scaffold: "init",
  fetch: "pull",
  introspect: "pull",
  compare: "diff",
  verify: "validate",
  fake: "mock",
  serve: "dev",
  preview: "dev",
  harness: "dev",
};

function meant(word: string): string {
  const near = Object.hasOwn(OTHER_WORDS, word)
    ? OTHER_WORDS[word]
    : didYouMean(
        word,
        COMMANDS.map((c) => c.name),
      );
  return near === undefined ? `use ${NAMES}` : `did you mean \`mcpgen ${near}\`? (commands: ${NAMES})`;
}

function print(text: string): number {
  process.stdout.write(`${text}\n`);
  return 0;
}
