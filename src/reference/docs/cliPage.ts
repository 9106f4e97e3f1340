/**
 * docs/reference/cli.md, from the command tables (cli/main.ts COMMANDS, each made by
 * defineCommand): the same usage lines, options and exit codes `mcpgen COMMAND --help` prints.
 */
import { COMMANDS } from "../../cli/main.js";
import { block, code, generatedNote, prose, table, unwrap } from "./markdown.js";

export function cliPage(): string {
  const out = [
    generatedNote(["the command tables in src/cli/ (defineCommand)"]),
    "# CLI reference",
    block([...COMMANDS.flatMap((c) => c.synopsis), "mcpgen --help | --version | COMMAND --help"].join("\n"), "text"),
    [
      "`mcpgen COMMAND --help` prints the command's options and exit codes from the table its command line is parsed with, which is also where this page comes from (for `pull`, what follows `--` is the server's command, `--help` included).",
      "Through npm in a project: `npm run generate -- --check`.",
    ].join(" "),
    [
      "A usage error (an unknown option, a missing value, an option that takes one value given twice, a value on a flag that takes none) is one line and where to find the usage, exit 2, the same for every command:",
    ].join(" "),
    block("mcpgen: unknown option --nope for lint\nRun `mcpgen lint --help` for usage."),
    [
      "A value mcpgen cannot use is a diagnostic located at the argument as typed: `mcpgen: --name \"Bad_Name\": error invalid-argument: not a server name; use lowercase letters, digits and '-' (e.g. --name my-server)`.",
      "Exit codes: **0** ok, **1** invalid manifest, stale output (`--check`) or a refused overwrite, **2** usage error, **3** internal error (a bug in mcpgen; only then is a stack trace printed).",
    ].join(" "),
  ];
  for (const command of COMMANDS) {
    out.push(`## mcpgen ${command.name}`, prose(upperFirst(unwrap(command.about))), block(command.usage.join("\n")));
    if (command.details) out.push(block(command.details));
    const rows = Object.entries(command.options)
      .filter(([, o]) => o.help)
      .map(([name, o]) => [
        code(`${o.short ? `-${o.short}, ` : ""}--${name}${o.value ? ` ${o.value}` : ""}`),
        `${o.help}${o.multiple && !/repeatable/i.test(o.help) ? " Repeatable." : ""}`,
      ]);
    out.push(table(["option", "what it does"], rows), prose(unwrap(command.footer)));
  }
  return `${out.join("\n\n")}\n`;
}

function upperFirst(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
