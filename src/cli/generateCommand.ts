/**
 * `mcpgen generate` and `mcpgen validate`: the manifests of the config (or those named) into
 * <out>/<server>/, or only checked.
 */
import * as path from "node:path";
import { loadConfig, type Config } from "../config/loadConfig.js";
import { hasErrors } from "../common/diagnostics.js";
import { runPipeline, type PipelineResult } from "../generator/pipeline.js";
import { conflictDiagnostic, staleDiagnostic } from "../generator/plan/problems.js";
import { writeFailed } from "../generator/write/problems.js";
import { shortDiff } from "../generator/plan/plan.js";
import { CliUsageError, type CommandLine, type OptionTable } from "./args.js";
import { defineCommand, wrap } from "./command.js";
import { printDiagnostics } from "../common/report.js";
import { printRunDiagnostics } from "./report.js";
import { toPosix } from "../common/paths.js";
import { shellWord } from "../common/shell.js";
import type { RuntimeMode } from "../generator/model/modules.js";

export interface GenerateArgs {
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
  runtime?: RuntimeMode;
}

/** The options of generate; validate takes those not marked generate-only. */
const GENERATE_OPTIONS = {
  manifests: {
    type: "string",
    multiple: true,
    value: "PATH...",
    needs: "at least one file or folder",
    help: "Manifest files or folders of *.yaml/*.yml files (default: manifests). Bare paths after generate/validate are manifests too.",
  },
  out: { type: "string", value: "DIR", needs: "a folder", help: "Output folder (default: generated)." },
  stubs: { type: "string", value: "DIR", needs: "a folder", help: "Create and keep user-owned handler files in DIR/<server>/." },
  "client-only": {
    type: "boolean",
    help: "Types, client and fixtures only, for every manifest: no server files, no stubs, and the client's runtime only. A manifest written by mcpgen pull is client-only without it; refused when a manifest you wrote has handler files (name servers with the config's clientOnly instead).",
  },
  runtime: {
    type: "string",
    value: "package|vendor",
    needs: "package or vendor",
    help: "Import mcpgen's runtime from the @mcpgen/runtime package (package, the default), or copy the runtime files the output imports into <out>/_runtime/ (vendor: no runtime dependency).",
  },
  config: {
    type: "string",
    value: "FILE",
    needs: "a file",
    help: 'Read this config instead of mcpgen.config.{json,yaml,yml} or the "mcpgen" key of package.json.',
  },
  check: { type: "boolean", help: "Write nothing; exit 1 and show a short diff for each stale file." },
  watch: { type: "boolean", help: "Regenerate when a manifest or a file under its folder (widget sources), the config or a template changes." },
  quiet: { type: "boolean", help: "Print only errors (and the handler stubs created): no warnings, no summary." },
  "no-cache": {
    type: "boolean",
    help: "Process every manifest afresh. Otherwise unchanged manifests (text, file: resources, options and output as the last run left them) are skipped, using records in node_modules/.cache/mcpgen; their warnings are counted on one line, not repeated (mcpgen lint lists them).",
  },
} satisfies OptionTable;

const GENERATE_ONLY = new Set<string>(["stubs", "client-only", "runtime", "check", "watch"]);
const RUNTIME_MODES: readonly RuntimeMode[] = ["package", "vendor"];

/** Validate's help leaves out generate's own options (and --out, taken but of no use to it). */
const VALIDATE_OPTIONS: OptionTable = Object.fromEntries(
  Object.entries(GENERATE_OPTIONS).map(([name, o]) => [name, GENERATE_ONLY.has(name) || name === "out" ? { ...o, help: "" } : o]),
);

export const WARNING_LEVELS = wrap(
  `Warnings: a config's "diagnostics" key sets warning codes to "off", "warn" or "error", for every manifest or per manifest file or folder ({"unknown-field": "off"}); errors cannot be turned off.`,
  100,
  "",
);

const EXIT_CODES = "Exit codes: 0 ok, 1 invalid input or stale output, 2 usage error, 3 internal error.";

function parseGenerateArgs(command: GenerateArgs["command"], line: CommandLine): GenerateArgs {
  const v = line.values;
  if (command === "validate") {
    const misplaced = Object.keys(line.typed).find((name) => GENERATE_ONLY.has(name));
    if (misplaced) throw new CliUsageError(`${line.typed[misplaced]} applies to generate`);
  }
  const args: GenerateArgs = {
    command,
    manifests: [...((v.manifests as string[] | undefined) ?? []), ...line.positionals],
    check: v.check === true,
    watch: v.watch === true,
    quiet: v.quiet === true,
    cache: v["no-cache"] !== true,
    clientOnly: v["client-only"] === true,
    ...(typeof v.out === "string" ? { out: v.out } : {}),
    ...(typeof v.stubs === "string" ? { stubs: v.stubs } : {}),
    ...(typeof v.config === "string" ? { config: v.config } : {}),
  };
  if (args.check && args.watch) throw new CliUsageError("--check and --watch do not go together");
  const runtime = v.runtime;
  if (typeof runtime === "string") {
    if (!RUNTIME_MODES.includes(runtime as RuntimeMode))
      throw new CliUsageError(`${line.typed["runtime"]} takes ${RUNTIME_MODES.join(" or ")}, not ${JSON.stringify(runtime)}`);
    args.runtime = runtime as RuntimeMode;
  }
  return args;
}

export const generateCommand = defineCommand({
  name: "generate",
  about: "write a typed server, a typed client and list fixtures in <out>/<server.name>/.",
  summary: "Write <out>/<server.name>/ for each manifest (only files whose bytes changed), and create missing handler stubs when stubs are on.",
  synopsis: [
    "mcpgen generate [--manifests PATH...] [--out DIR] [--stubs DIR] [--config FILE]",
    "                [--client-only] [--runtime package|vendor] [--check | --watch] [--quiet] [--no-cache]",
  ],
  options: GENERATE_OPTIONS,
  footer: `${WARNING_LEVELS}\n\n${EXIT_CODES}`,
  parse: (line) => parseGenerateArgs("generate", line),
  run: runGenerate,
});

export const validateCommand = defineCommand({
  name: "validate",
  about: "check the manifests and report every problem; write nothing.",
  summary: "Check the manifests and report every problem; write nothing.",
  synopsis: ["mcpgen validate [--manifests PATH...] [--config FILE] [--quiet] [--no-cache]"],
  options: VALIDATE_OPTIONS,
  footer: `${WARNING_LEVELS}\n\n${EXIT_CODES}`,
  parse: (line) => parseGenerateArgs("validate", line),
  run: runGenerate,
});

async function runGenerate(args: GenerateArgs, cwd: string): Promise<number> {
  const loaded = loadConfig(cwd, args.config);
  if (hasErrors(loaded.diagnostics)) {
    printDiagnostics(loaded.diagnostics);
    process.stderr.write("mcpgen: the config has errors; nothing written.\n");
    return 1;
  }
  const config = applyFlags(loaded.config, args, cwd);
  if (args.watch) {
    const { watch } = await import("./watch.js");
    await watch(
      config,
      {
        run: (c) => generateOnce(c, args, cwd),
        reloadConfig: () => {
          const again = loadConfig(cwd, args.config);
          printDiagnostics(again.diagnostics);
          if (hasErrors(again.diagnostics)) {
            process.stderr.write("mcpgen: the config has errors; keeping the previous one.\n");
            return undefined;
          }
          return applyFlags(again.config, args, cwd);
        },
      },
      cwd,
    );
    return 0;
  }
  return (await generateOnce(config, args, cwd)).code;
}

/**
 * The command that regenerates this output, for the headers: `mcpgen generate` with the flags of
 * this run that choose what is generated and where (paths relative to the project, so the output
 * is the same on every machine), without those that only say how to run (--check, --quiet, ...).
 */
function regenerateCommand(args: GenerateArgs, cwd: string): string {
  const rel = (p: string) => shellWord(toPosix(path.relative(cwd, path.resolve(cwd, p))) || ".");
  return [
    "mcpgen generate",
    ...args.manifests.map(rel),
    ...(args.config ? ["--config", rel(args.config)] : []),
    ...(args.out ? ["--out", rel(args.out)] : []),
    ...(args.stubs ? ["--stubs", rel(args.stubs)] : []),
    ...(args.clientOnly ? ["--client-only"] : []),
    ...(args.runtime ? ["--runtime", args.runtime] : []),
  ].join(" ");
}

function applyFlags(config: Config, args: GenerateArgs, cwd: string): Config {
  return {
    ...config,
    ...(args.manifests.length ? { manifests: args.manifests.map((m) => path.resolve(cwd, m)) } : {}),
    ...(args.out ? { out: path.resolve(cwd, args.out) } : {}),
    ...(args.stubs ? { stubs: path.resolve(cwd, args.stubs) } : {}),
    ...(args.clientOnly ? { clientOnly: true } : {}),
    ...(args.runtime ? { runtime: args.runtime } : {}),
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
    ...(args.clientOnly ? { clientOnlyFlag: true } : {}),
    ...(config.runtime ? { runtime: config.runtime } : {}),
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
  const where = config.manifests.map((m) => `${path.relative(cwd, m) || "."}/`).join(", ");
  const servers =
    count === 0 ? `0 servers (no .yaml manifest in ${where}: add one, or run \`mcpgen init\` to start a project)` : `${count} server${count === 1 ? "" : "s"}`;
  if (mode === "validate") {
    if (!args.quiet) process.stdout.write(`mcpgen: ${servers} valid.\n`);
    return { code: 0, result };
  }
  const plan = result.plan!;
  printDiagnostics(plan.conflicts.map((file) => conflictDiagnostic(file, out)));
  if (plan.conflicts.length > 0) {
    process.stderr.write("mcpgen: nothing written.\n");
    return { code: 1, result };
  }
  if (result.writeError) {
    printDiagnostics([writeFailed(result.writeError, out)]);
    return { code: 1, result };
  }
  if (mode === "check") {
    const command = regenerateCommand(args, cwd);
    for (const change of plan.changes) {
      printDiagnostics([staleDiagnostic(change, command)]);
      const diff = shortDiff(change.kind === "create" ? undefined : change.before, change.kind === "delete" ? undefined : change.after);
      process.stderr.write(`${diff.replace(/^/gm, "    ")}\n`);
    }
    if (plan.changes.length > 0) {
      process.stderr.write(`mcpgen: ${plan.changes.length} stale file${plan.changes.length === 1 ? "" : "s"}; run ${command}.\n`);
      return { code: 1, result };
    }
    if (!args.quiet) process.stdout.write(`mcpgen: ${out} is up to date (${servers}, ${plan.unchanged} files).\n`);
    return { code: 0, result };
  }
  // Handler stubs are the user's code: each one created or appended to is named, so a new
  // not-implemented handler never ships unnoticed (quiet or not).
  for (const change of plan.changes) {
    if (change.kind === "delete" || !change.stub) continue;
    process.stdout.write(
      change.kind === "create"
        ? `mcpgen: created ${change.display}: a handler to write (it throws "not implemented" until you do)\n`
        : `mcpgen: added a handler to ${change.display} (its export was renamed or removed): write it, or move your code into it\n`,
    );
  }
  if (!args.quiet) {
    const written = plan.changes.filter((c) => c.kind !== "delete").length;
    const deleted = plan.changes.length - written;
    process.stdout.write(`mcpgen: ${servers} -> ${out}: ${written} written, ${plan.unchanged} unchanged${deleted ? `, ${deleted} removed` : ""}.\n`);
  }
  return { code: 0, result };
}
