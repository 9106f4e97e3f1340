/**
 * `mcpgen diff OLD NEW`: what changed between two versions of a server, classified for the code
 * that calls it (clients) and for the code that implements it (servers).
 */
import { parseFailOn, type FailLevel, type FailOn } from "../diff/format.js";
import { CliUsageError, parseOrExplain, walkArgs } from "./args.js";

export const DIFF_HELP = `mcpgen diff: what changed between two versions of a server, and whom it breaks.

Usage:
  mcpgen diff OLD NEW [--format table|json] [--fail-on LEVEL]

OLD and NEW are each one of:
  a manifest             manifests/gifts.yaml
  a fixtures folder      generated/gifts/fixtures (or generated/gifts), as mcpgen writes them
  a manifest in git      main:manifests/gifts.yaml, HEAD~1:manifests/gifts.yaml (REF:path)

Every change is classified twice:
  clients   BREAKING when a call that worked may now fail or a typed client stops compiling
            (removed or renamed, a new required argument, an input narrowed, an output widened...);
            BEHAVIOUR when no call breaks but clients act differently on their own: a tool's
            annotation hint changed (readOnlyHint decides whether many clients ask first)
  servers   BREAKING when the handlers must change (a new tool, an input widened, an output
            narrowed...)
Schemas in different JSON Schema dialects (draft-07, 2020-12...) are compared by meaning.

Options:
  --format table|json    A table for people (default) or JSON for tools.
  --fail-on LEVEL[,LEVEL...]
                         When to exit 1: breaking (default; the same as clients: breaking for the
                         code that calls the server), servers (breaking for the handlers), either,
                         behaviour (annotation hints), any (any change at all), none. Several
                         fail when any does: --fail-on breaking,behaviour.

Exit codes: 0 nothing to fail on, 1 changes to fail on, 2 usage error or a side that cannot be
read or is not a valid manifest.`;

type Format = "table" | "json";

const LEVELS = "breaking, clients, servers, either, behaviour, any or none";

export function parseDiffArgs(argv: string[]): { before: string; after: string; format: Format; failOn: FailOn } {
  const sides: string[] = [];
  let format: Format = "table";
  let failOn: FailOn = ["breaking"];
  walkArgs(argv, ({ arg, flag, value }) => {
    if (flag === "--format") {
      const v = value("table or json");
      if (v !== "table" && v !== "json") throw new CliUsageError(`--format is table or json, not ${JSON.stringify(v)}`);
      format = v;
    } else if (flag === "--fail-on") {
      const v = value(LEVELS);
      const parsed = parseFailOn(v);
      if ("unknown" in parsed) throw new CliUsageError(`--fail-on is ${LEVELS} (or several, comma-separated), not ${JSON.stringify(parsed.unknown)}`);
      failOn = parsed;
    } else if (arg.startsWith("-") && arg !== "-") throw new CliUsageError(`unknown option ${arg} for diff`);
    else sides.push(arg);
  });
  if (sides.length !== 2) throw new CliUsageError(`diff takes two sides, OLD and NEW; got ${sides.length}`);
  return { before: sides[0]!, after: sides[1]!, format, failOn };
}

const WHY: Record<FailLevel, string> = {
  breaking: "changes breaking for clients",
  clients: "changes breaking for clients",
  servers: "changes breaking for servers",
  either: "breaking changes",
  behaviour: "changes of client behaviour (annotation hints)",
  any: "the two differ",
  none: "",
};

export async function runDiff(argv: string[], cwd: string): Promise<number> {
  const args = parseOrExplain(() => parseDiffArgs(argv), "diff");
  if (!args) return 2;
  const { loadSurface, DiffInputError, formatChanges, fails } = await import("../diff/report.js");
  const { classify } = await import("../diff/classify.js");
  let changes;
  try {
    const before = await loadSurface(args.before, cwd);
    const after = await loadSurface(args.after, cwd);
    changes = classify(before, after);
  } catch (error) {
    if (!(error instanceof DiffInputError)) throw error;
    process.stderr.write(`mcpgen: ${error.message}\n`);
    return 2;
  }
  const failed = fails(changes, args.failOn);
  if (args.format === "json") process.stdout.write(formatChanges(changes, "json", { before: args.before, after: args.after }));
  else {
    process.stdout.write(`mcpgen: ${args.before} -> ${args.after}\n${formatChanges(changes, "table")}`);
    const what = [...new Set(args.failOn.filter((level) => level !== "none" && fails(changes, [level])).map((level) => WHY[level]))].join(" and ");
    if (failed) process.stderr.write(`mcpgen: failing: ${what} (--fail-on ${args.failOn.join(",")}).\n`);
  }
  return failed ? 1 : 0;
}
