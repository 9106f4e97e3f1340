/**
 * The `mcpgen` command. Exit codes: 0 ok; 1 invalid manifest, stale output (--check) or refused
 * write; 2 usage error; 3 internal error (a bug in mcpgen: please report it).
 */
import { readFileSync } from "node:fs";
import { formatDiagnostic } from "../diagnostics.js";
import { runPipeline } from "../generate.js";
import { shortDiff } from "../write/writeOutput.js";

const HELP = `mcpgen: compile MCP server manifests (YAML) into a typed server, a typed client and list fixtures.

Usage:
  mcpgen generate [--manifests PATH...] [--out DIR] [--check] [--quiet] [--no-cache]
  mcpgen validate [--manifests PATH...] [--no-cache]
  mcpgen --help | --version

Commands:
  generate   Write <out>/<server.name>/ for each manifest (only files whose bytes changed).
  validate   Check the manifests and report every problem; write nothing.

Options:
  --manifests PATH...  Manifest files or folders of *.yaml/*.yml files (default: manifests).
                       Bare paths after the command are manifests too.
  --out DIR            Output folder (default: generated).
  --check              Write nothing; exit 1 and show a short diff for each stale file.
  --quiet              Print only problems.
  --no-cache           Parse every manifest afresh (parsed manifests are otherwise
                       reused from node_modules/.cache/mcpgen when their text is unchanged).
  -h, --help           Show this help.
  -v, --version        Show the version.

Exit codes: 0 ok, 1 invalid manifest or stale output, 2 usage error, 3 internal error.`;

class UsageError extends Error {}

interface Args {
  command: "generate" | "validate";
  manifests: string[];
  out: string;
  check: boolean;
  quiet: boolean;
  cache: boolean;
}

function parseArgs(argv: string[]): Args | "help" | "version" {
  if (argv.includes("-h") || argv.includes("--help")) return "help";
  if (argv.includes("-v") || argv.includes("--version")) return "version";
  const [command, ...rest] = argv;
  if (command === undefined) throw new UsageError("missing command: generate or validate");
  if (command !== "generate" && command !== "validate") throw new UsageError(`unknown command ${JSON.stringify(command)}: use generate or validate`);
  const args: Args = { command, manifests: [], out: "generated", check: false, quiet: false, cache: true };
  let outSeen = false;
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i]!;
    const [flag, inline] = arg.startsWith("--") && arg.includes("=") ? [arg.slice(0, arg.indexOf("=")), arg.slice(arg.indexOf("=") + 1)] : [arg, undefined];
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
      case "--out": {
        const value = inline ?? rest[++i];
        if (value === undefined || value === "" || (inline === undefined && value.startsWith("-"))) throw new UsageError("--out needs a folder");
        if (outSeen) throw new UsageError("--out given twice");
        outSeen = true;
        args.out = value;
        break;
      }
      case "--check":
        if (command !== "generate") throw new UsageError("--check applies to generate");
        args.check = true;
        break;
      case "--quiet":
        args.quiet = true;
        break;
      case "--no-cache":
        args.cache = false;
        break;
      default:
        if (arg.startsWith("-")) throw new UsageError(`unknown option ${arg}`);
        args.manifests.push(arg);
    }
  }
  if (args.manifests.length === 0) args.manifests.push("manifests");
  return args;
}

function version(): string {
  const pkg = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version: string };
  return pkg.version;
}

export async function main(argv: string[]): Promise<number> {
  let args: ReturnType<typeof parseArgs>;
  try {
    args = parseArgs(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`mcpgen: ${error.message}\n\n${HELP}\n`);
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

  const mode = args.command === "validate" ? "validate" : args.check ? "check" : "write";
  const result = await runPipeline({ manifests: args.manifests, out: args.out, mode, cache: args.cache });
  for (const d of result.diagnostics) process.stderr.write(`${formatDiagnostic(d)}\n`);
  const errors = result.diagnostics.filter((d) => d.severity === "error").length;
  if (errors > 0) {
    process.stderr.write(`mcpgen: ${errors} error${errors === 1 ? "" : "s"}; nothing written.\n`);
    return 1;
  }
  const servers = `${result.models.length} server${result.models.length === 1 ? "" : "s"}`;
  if (mode === "validate") {
    if (!args.quiet) process.stdout.write(`mcpgen: ${servers} valid.\n`);
    return 0;
  }
  const plan = result.plan!;
  for (const conflict of plan.conflicts) {
    process.stderr.write(`${conflict}: error not-generated: this file was not written by mcpgen (no "// Generated by mcpgen" header); refusing to overwrite it. Move it out of ${args.out}/ or pick another --out.\n`);
  }
  if (plan.conflicts.length > 0) {
    process.stderr.write("mcpgen: nothing written.\n");
    return 1;
  }
  if (mode === "check") {
    for (const change of plan.changes) {
      process.stderr.write(`${change.file}: stale (${change.kind === "create" ? "missing" : change.kind === "delete" ? "no longer generated" : "out of date"})\n`);
      const diff = shortDiff(change.kind === "create" ? undefined : change.before, change.kind === "delete" ? undefined : change.after);
      process.stderr.write(`${diff.replace(/^/gm, "    ")}\n`);
    }
    if (plan.changes.length > 0) {
      process.stderr.write(`mcpgen: ${plan.changes.length} stale file${plan.changes.length === 1 ? "" : "s"}; run npm run generate.\n`);
      return 1;
    }
    if (!args.quiet) process.stdout.write(`mcpgen: ${args.out}/ is up to date (${servers}, ${plan.unchanged} files).\n`);
    return 0;
  }
  if (!args.quiet) {
    const written = plan.changes.filter((c) => c.kind !== "delete").length;
    const deleted = plan.changes.length - written;
    process.stdout.write(`mcpgen: ${servers} -> ${args.out}/: ${written} written, ${plan.unchanged} unchanged${deleted ? `, ${deleted} removed` : ""}.\n`);
  }
  return 0;
}
