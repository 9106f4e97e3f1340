/**
 * `mcpgen diff OLD NEW`: what changed between two versions of a server, classified for the code
 * that calls it (clients) and for the code that implements it (servers).
 */
import { parseFailOn, type FailLevel, type FailOn } from "../commands/diff/format.js";
import { CliUsageError, type CommandLine } from "./args.js";
import { defineCommand } from "./command.js";
import { printDiagnostics } from "../common/report.js";

type Format = "table" | "json";

const LEVELS = "breaking, clients, servers, either, behaviour, any or none";

interface DiffArgs {
  before: string;
  after: string;
  format: Format;
  failOn: FailOn;
}

function parseDiffArgs({ values, positionals: sides }: CommandLine): DiffArgs {
  let format: Format = "table";
  let failOn: FailOn = ["breaking"];
  if (typeof values.format === "string") {
    const v = values.format;
    if (v !== "table" && v !== "json") throw new CliUsageError(`--format is table or json, not ${JSON.stringify(v)}`);
    format = v;
  }
  if (typeof values["fail-on"] === "string") {
    const parsed = parseFailOn(values["fail-on"]);
    if ("unknown" in parsed) throw new CliUsageError(`--fail-on is ${LEVELS} (or several, comma-separated), not ${JSON.stringify(parsed.unknown)}`);
    failOn = parsed;
  }
  if (sides.length !== 2) throw new CliUsageError(`diff takes two sides, OLD and NEW; got ${sides.length}`);
  return { before: sides[0]!, after: sides[1]!, format, failOn };
}

export const diffCommand = defineCommand({
  name: "diff",
  about: "what changed between two versions of a server, and whom it breaks.",
  summary: "Classify the changes between two manifests, fixture folders or REF:path, as breaking or not for clients and for servers.",
  synopsis: ["mcpgen diff OLD NEW [--format table|json] [--fail-on LEVEL]"],
  details: `OLD and NEW are each one of:
  a manifest             manifests/gifts.yaml
  a fixtures folder      generated/gifts/fixtures (or generated/gifts), as mcpgen writes them
  a manifest in git      main:manifests/gifts.yaml, HEAD~1:manifests/gifts.yaml (REF:path)

Every change is classified twice:
  clients   BREAKING when a call that worked may now fail or a typed client stops compiling
            (a tool or a property removed or renamed, a new required argument, an input
            narrowed, an output widened...);
            BEHAVIOUR when no call breaks but clients act differently on their own: a tool's
            annotation hint changed (readOnlyHint decides whether many clients ask first)
  servers   BREAKING when the handlers must change (a new tool, an input widened, an output
            narrowed...)
Schemas in different JSON Schema dialects (draft-07, 2020-12...) are compared by meaning.`,
  options: {
    format: { type: "string", value: "table|json", needs: "table or json", help: "A table for people (default) or JSON for tools." },
    "fail-on": {
      type: "string",
      value: "LEVEL[,LEVEL...]",
      needs: LEVELS,
      help: "When to exit 1: breaking (default; the same as clients: breaking for the code that calls the server), servers (breaking for the handlers), either, behaviour (annotation hints), any (any change at all), none. Several fail when any does: --fail-on breaking,behaviour.",
    },
  },
  footer: `Exit codes: 0 nothing to fail on, 1 changes to fail on, 2 usage error or a side that cannot be
read or is not a valid manifest.`,
  unknownHint: "for diff",
  parse: parseDiffArgs,
  run: runDiff,
});

const WHY: Record<FailLevel, string> = {
  breaking: "changes breaking for clients",
  clients: "changes breaking for clients",
  servers: "changes breaking for servers",
  either: "breaking changes",
  behaviour: "changes of client behaviour (annotation hints)",
  any: "the two differ",
  none: "",
};

async function runDiff(args: DiffArgs, cwd: string): Promise<number> {
  const { loadSurface, DiffInputError, formatDifferences, fails } = await import("../commands/diff/report.js");
  const { classify } = await import("../commands/diff/classify.js");
  let differences;
  try {
    const before = await loadSurface(args.before, cwd);
    const after = await loadSurface(args.after, cwd);
    differences = classify(before, after);
  } catch (error) {
    if (!(error instanceof DiffInputError)) throw error;
    printDiagnostics([
      { severity: "error", code: "diff-input", argument: error.at, message: error.message, ...(error.detail ? { detail: error.detail } : {}) },
    ]);
    return 2;
  }
  const failed = fails(differences, args.failOn);
  if (args.format === "json") process.stdout.write(formatDifferences(differences, "json", { before: args.before, after: args.after }));
  else {
    process.stdout.write(`mcpgen: ${args.before} -> ${args.after}\n${formatDifferences(differences, "table")}`);
    const what = [...new Set(args.failOn.filter((level) => level !== "none" && fails(differences, [level])).map((level) => WHY[level]))].join(" and ");
    if (failed) process.stderr.write(`mcpgen: failing: ${what} (--fail-on ${args.failOn.join(",")}).\n`);
  }
  return failed ? 1 : 0;
}
