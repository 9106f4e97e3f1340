/**
 * The `mcpgen` command. Exit codes: 0 ok; 1 invalid manifest or config, stale output (--check)
 * or refused write; 2 usage error; 3 internal error (a bug in mcpgen: please report it).
 */
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { loadConfig, type Config } from "../config/loadConfig.js";
import { hasErrors } from "../diagnostics.js";
import { runPipeline, type PipelineResult } from "../generate.js";
import { shortDiff } from "../write/writeOutput.js";
import { explainUsage } from "./args.js";
import { printDiagnostics, printRunDiagnostics } from "./report.js";

const HELP = `mcpgen: compile MCP server manifests (YAML) into a typed server, a typed client and list fixtures.

Usage:
  mcpgen generate [--manifests PATH...] [--out DIR] [--stubs DIR] [--config FILE]
                  [--client-only] [--check | --watch] [--quiet] [--no-cache]
  mcpgen validate [--manifests PATH...] [--config FILE] [--quiet] [--no-cache]
  mcpgen init [DIR] [--name NAME] [--mcpgen SPEC] [--widget] [--force]
  mcpgen pull [OPTIONS] (URL | -- COMMAND [ARGS...])
  mcpgen diff OLD NEW [--format table|json] [--fail-on LEVEL]
  mcpgen lint [PATH...] [--config FILE] [--rule CODE=off|warn|error] [--quiet]
  mcpgen --help | --version
  mcpgen COMMAND --help

Commands:
  generate   Write <out>/<server.name>/ for each manifest (only files whose bytes changed),
             and create missing handler stubs when stubs are on.
  validate   Check the manifests and report every problem; write nothing.
  init       Create a new MCP server project in DIR (default: the current folder).
  pull       Write a manifest from a live MCP server (stdio command or HTTP URL), for a typed
             client of a server you do not own; --check says what changed upstream.
  diff       Classify the changes between two manifests, fixture folders or REF:path, as
             breaking or not for clients and for servers.
  lint       Warn where a valid definition breaks in major clients or model APIs.

Options:
  --manifests PATH...  Manifest files or folders of *.yaml/*.yml files (default: manifests).
                       Bare paths after generate/validate are manifests too.
  --out DIR            Output folder (default: generated).
  --stubs DIR          Create and keep user-owned handler files in DIR/<server>/.
  --client-only        Types, client and fixtures only: no server files, no stubs, and the
                       client's runtime only (for servers you only consume).
  --config FILE        Read this config instead of mcpgen.config.{json,yaml,yml} or the
                       "mcpgen" key of package.json.
  --check              Write nothing; exit 1 and show a short diff for each stale file.
  --watch              Regenerate when a manifest, the config or a template changes.
  --quiet              Print only errors (and the handler stubs created): no warnings, no summary.
  --no-cache           Process every manifest afresh. Otherwise unchanged manifests (text,
                       file: resources, options and output as the last run left them) are
                       skipped, using records in node_modules/.cache/mcpgen; their warnings are
                       counted on one line, not repeated (mcpgen lint lists them).

Warnings: a config's "diagnostics" key sets warning codes to "off", "warn" or "error", for every
manifest or per manifest file or folder ({"unknown-field": "off"}); errors cannot be turned off.
  --name NAME          (init) The server name, [a-z0-9][a-z0-9-]* (default: the folder name).
  --mcpgen SPEC        (init) The project's mcpgen dependency, as npm takes it (file:PATH to a
                       checkout, a tarball, a version). Default: this mcpgen, packed into vendor/.
  --widget             (init) Add a widget (an MCP Apps view) for the starter tool, and a harness to open it.
  --force              (init) Write into a folder that is not empty (never over a file).
  -h, --help           Show this help.
  -v, --version        Show the version.

Exit codes: 0 ok, 1 invalid input or stale output, 2 usage error, 3 internal error.`;

class UsageError extends Error {}

interface GenerateArgs {
  command: "generate" | "validate";
  manifests: string[];
  out?: string;
  stubs?: string;
  config?: string;
  check: boolean;
  watch: boolean;
  quiet: boolean;
  cache: boolean;
  clientOnly: boolean;
}

interface InitArgs {
  command: "init";
  dir: string;
  name?: string;
  mcpgen?: string;
  force: boolean;
  widget?: boolean;
}

type Args = GenerateArgs | InitArgs;

function parseArgs(argv: string[]): Args | "help" | "version" {
  if (argv.includes("-h") || argv.includes("--help")) return "help";
  if (argv.includes("-v") || argv.includes("--version")) return "version";
  const [command, ...rest] = argv;
  if (command === undefined) throw new UsageError("missing command: generate, validate, init, pull, diff or lint");
  if (command === "init") return parseInit(rest);
  if (command !== "generate" && command !== "validate") throw new UsageError(`unknown command ${JSON.stringify(command)}: use generate, validate, init, pull, diff or lint`);
  const args: GenerateArgs = { command, manifests: [], check: false, watch: false, quiet: false, cache: true, clientOnly: false };
  const seen = new Set<string>();
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i]!;
    const [flag, inline] = splitFlag(arg);
    const value = (what: string) => {
      if (seen.has(flag)) throw new UsageError(`${flag} given twice`);
      seen.add(flag);
      const v = inline ?? rest[++i];
      if (v === undefined || v === "" || (inline === undefined && v.startsWith("-"))) throw new UsageError(`${flag} needs ${what}`);
      return v;
    };
    const only = (cmd: string) => {
      if (command !== cmd) throw new UsageError(`${flag} applies to ${cmd}`);
    };
    switch (flag) {
      case "--manifests": {
        if (inline !== undefined) args.manifests.push(inline);
        let taken = inline === undefined ? 0 : 1;
        while (rest[i + 1] !== undefined && !rest[i + 1]!.startsWith("-")) {
          args.manifests.push(rest[++i]!);
          taken++;
        }
        if (taken === 0) throw new UsageError("--manifests needs at least one file or folder");
        break;
      }
      case "--out":
        args.out = value("a folder");
        break;
      case "--stubs":
        only("generate");
        args.stubs = value("a folder");
        break;
      case "--config":
        args.config = value("a file");
        break;
      case "--check":
        only("generate");
        args.check = true;
        break;
      case "--watch":
        only("generate");
        args.watch = true;
        break;
      case "--quiet":
        args.quiet = true;
        break;
      case "--no-cache":
        args.cache = false;
        break;
      case "--client-only":
        only("generate");
        args.clientOnly = true;
        break;
      default:
        if (arg.startsWith("-")) throw new UsageError(`unknown option ${arg}`);
        args.manifests.push(arg);
    }
  }
  if (args.check && args.watch) throw new UsageError("--check and --watch do not go together");
  return args;
}

function parseInit(rest: string[]): InitArgs {
  const args: InitArgs = { command: "init", dir: ".", force: false };
  let dirSeen = false;
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i]!;
    const [flag, inline] = splitFlag(arg);
    if (flag === "--name") {
      const v = inline ?? rest[++i];
      if (v === undefined || v === "" || (inline === undefined && v.startsWith("-"))) throw new UsageError("--name needs a name");
      args.name = v;
    } else if (flag === "--mcpgen") {
      const v = inline ?? rest[++i];
      if (v === undefined || v === "" || (inline === undefined && v.startsWith("-"))) throw new UsageError("--mcpgen needs a dependency spec (file:PATH, a tarball, a version)");
      args.mcpgen = v;
    } else if (flag === "--force") args.force = true;
    else if (flag === "--widget") args.widget = true;
    else if (arg.startsWith("-")) throw new UsageError(`unknown option ${arg} for init`);
    else if (dirSeen) throw new UsageError(`init takes one folder; got ${JSON.stringify(args.dir)} and ${JSON.stringify(arg)}`);
    else {
      args.dir = arg;
      dirSeen = true;
    }
  }
  return args;
}

/**
 * The command that regenerates this output, for the headers: `mcpgen generate` with the flags of
 * this run that choose what is generated and where (paths relative to the project, so the output
 * is the same on every machine), without those that only say how to run (--check, --quiet, ...).
 */
function regenerateCommand(args: GenerateArgs, cwd: string): string {
  const rel = (p: string) => shellWord(path.relative(cwd, path.resolve(cwd, p)).split(path.sep).join("/") || ".");
  return [
    "mcpgen generate",
    ...args.manifests.map(rel),
    ...(args.config ? ["--config", rel(args.config)] : []),
    ...(args.out ? ["--out", rel(args.out)] : []),
    ...(args.stubs ? ["--stubs", rel(args.stubs)] : []),
    ...(args.clientOnly ? ["--client-only"] : []),
  ].join(" ");
}

/** A word as a POSIX shell reads it back: bare when it is plain, else single-quoted. */
function shellWord(word: string): string {
  return /^[\w./@+=:,-]+$/.test(word) ? word : `'${word.replace(/'/g, "'\\''")}'`;
}

function splitFlag(arg: string): [string, string | undefined] {
  if (!arg.startsWith("--") || !arg.includes("=")) return [arg, undefined];
  const at = arg.indexOf("=");
  return [arg.slice(0, at), arg.slice(at + 1)];
}

function version(): string {
  const pkg = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version: string };
  return pkg.version;
}

/** The commands with their own parser and help (`mcpgen pull --help`). */
const SUBCOMMANDS = {
  pull: async () => {
    const m = await import("./pull.js");
    return { help: m.PULL_HELP, run: m.runPull, helpArgs: (rest: string[]) => rest.slice(0, rest.includes("--") ? rest.indexOf("--") : rest.length) };
  },
  diff: async () => {
    const m = await import("./diff.js");
    return { help: m.DIFF_HELP, run: m.runDiff, helpArgs: (rest: string[]) => rest };
  },
  lint: async () => {
    const m = await import("./lint.js");
    return { help: m.LINT_HELP, run: m.runLint, helpArgs: (rest: string[]) => rest };
  },
} as const;

export async function main(argv: string[], cwd = process.cwd()): Promise<number> {
  const [first, ...rest] = argv;
  if (first !== undefined && Object.hasOwn(SUBCOMMANDS, first)) {
    const sub = await SUBCOMMANDS[first as keyof typeof SUBCOMMANDS]();
    // For pull, what follows `--` belongs to the server's command, --help included.
    const own = sub.helpArgs(rest);
    if (own.includes("-h") || own.includes("--help")) {
      process.stdout.write(`${sub.help}\n`);
      return 0;
    }
    return sub.run(rest, cwd);
  }
  let args: ReturnType<typeof parseArgs>;
  try {
    args = parseArgs(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(explainUsage(error.message, first === "generate" || first === "validate" || first === "init" ? first : undefined));
    return 2;
  }
  if (args === "help") {
    process.stdout.write(`${HELP}\n`);
    return 0;
  }
  if (args === "version") {
    process.stdout.write(`${version()}\n`);
    return 0;
  }
  if (args.command === "init") return (await import("../init/init.js")).runInit({ dir: path.resolve(cwd, args.dir), cwd, force: args.force, ...(args.name ? { name: args.name } : {}), ...(args.mcpgen ? { mcpgen: args.mcpgen } : {}), ...(args.widget ? { widget: true } : {}), version: version() });

  const loaded = loadConfig(cwd, args.config);
  if (hasErrors(loaded.diagnostics)) {
    printDiagnostics(loaded.diagnostics);
    process.stderr.write("mcpgen: the config has errors; nothing written.\n");
    return 1;
  }
  const generateArgs = args;
  const config = applyFlags(loaded.config, generateArgs, cwd);
  if (args.watch) {
    const { watch } = await import("./watch.js");
    await watch(config, {
      run: (c) => generateOnce(c, generateArgs, cwd),
      reloadConfig: () => {
        const again = loadConfig(cwd, generateArgs.config);
        printDiagnostics(again.diagnostics);
        if (hasErrors(again.diagnostics)) {
          process.stderr.write("mcpgen: the config has errors; keeping the previous one.\n");
          return undefined;
        }
        return applyFlags(again.config, generateArgs, cwd);
      },
    }, cwd);
    return 0;
  }
  return (await generateOnce(config, generateArgs, cwd)).code;
}

function applyFlags(config: Config, args: GenerateArgs, cwd: string): Config {
  return {
    ...config,
    ...(args.manifests.length ? { manifests: args.manifests.map((m) => path.resolve(cwd, m)) } : {}),
    ...(args.out ? { out: path.resolve(cwd, args.out) } : {}),
    ...(args.stubs ? { stubs: path.resolve(cwd, args.stubs) } : {}),
    ...(args.clientOnly ? { clientOnly: true } : {}),
  };
}

/** One run of generate/validate with the config; prints what happened. */
export async function generateOnce(config: Config, args: GenerateArgs, cwd: string): Promise<{ code: number; result: PipelineResult }> {
  const mode = args.command === "validate" ? "validate" : args.check ? "check" : "write";
  const result = await runPipeline({
    manifests: config.manifests,
    out: config.out,
    cwd,
    mode,
    cache: args.cache,
    header: config.header,
    ...(config.stubs && mode !== "validate" ? { stubs: config.stubs } : {}),
    ...(config.templates ? { templates: config.templates } : {}),
    ...(config.invalidArguments ? { invalidArguments: config.invalidArguments } : {}),
    ...(config.clientOnly ? { clientOnly: config.clientOnly } : {}),
    levels: config.levels,
    command: regenerateCommand(args, cwd),
  });
  printRunDiagnostics(result, args.quiet, cwd);
  const out = `${path.relative(cwd, config.out) || "."}/`;
  const errors = result.diagnostics.filter((d) => d.severity === "error").length;
  if (errors > 0) {
    process.stderr.write(`mcpgen: ${errors} error${errors === 1 ? "" : "s"}; nothing written.\n`);
    return { code: 1, result };
  }
  const count = result.models.length + result.reused.length;
  const servers = `${count} server${count === 1 ? "" : "s"}`;
  if (mode === "validate") {
    if (!args.quiet) process.stdout.write(`mcpgen: ${servers} valid.\n`);
    return { code: 0, result };
  }
  const plan = result.plan!;
  for (const conflict of plan.conflicts) {
    process.stderr.write(`${conflict}: error not-generated: this file was not written by mcpgen (no "// Generated by mcpgen" header); refusing to overwrite it. Move it out of ${out} or pick another --out.\n`);
  }
  if (plan.conflicts.length > 0) {
    process.stderr.write("mcpgen: nothing written.\n");
    return { code: 1, result };
  }
  if (result.writeError) {
    process.stderr.write(`mcpgen: ${result.writeError}\n`);
    return { code: 1, result };
  }
  if (mode === "check") {
    for (const change of plan.changes) {
      process.stderr.write(`${change.display}: stale (${change.kind === "create" ? "missing" : change.kind === "delete" ? "no longer generated" : "out of date"})\n`);
      const diff = shortDiff(change.kind === "create" ? undefined : change.before, change.kind === "delete" ? undefined : change.after);
      process.stderr.write(`${diff.replace(/^/gm, "    ")}\n`);
    }
    if (plan.changes.length > 0) {
      process.stderr.write(`mcpgen: ${plan.changes.length} stale file${plan.changes.length === 1 ? "" : "s"}; run ${regenerateCommand(args, cwd)}.\n`);
      return { code: 1, result };
    }
    if (!args.quiet) process.stdout.write(`mcpgen: ${out} is up to date (${servers}, ${plan.unchanged} files).\n`);
    return { code: 0, result };
  }
  // Handler stubs are the user's code: each one created or appended to is named, so a new
  // not-implemented handler never ships unnoticed (quiet or not).
  for (const change of plan.changes) {
    if (change.kind === "delete" || !change.stub) continue;
    process.stdout.write(change.kind === "create" ? `mcpgen: created ${change.display}: a handler to write (it throws "not implemented" until you do)\n` : `mcpgen: added a handler to ${change.display} (its function was renamed or removed): write it, or move your code into it\n`);
  }
  if (!args.quiet) {
    const written = plan.changes.filter((c) => c.kind !== "delete").length;
    const deleted = plan.changes.length - written;
    process.stdout.write(`mcpgen: ${servers} -> ${out}: ${written} written, ${plan.unchanged} unchanged${deleted ? `, ${deleted} removed` : ""}.\n`);
  }
  return { code: 0, result };
}
