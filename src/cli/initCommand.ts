/** `mcpgen init [DIR]`: a new MCP server project (src/commands/init.ts). */
import * as path from "node:path";
import { CliUsageError } from "./args.js";
import { defineCommand } from "./command.js";
import { version } from "../common/version.js";
import type { InitTarget } from "../commands/init.js";

/** Each target of --target, in words (typed against init's own list, so neither misses one). */
const TARGETS = {
  node: "node (default)",
  deno: "deno or bun (the fetch handler behind Deno.serve / Bun.serve)",
  bun: "",
  lambda: "lambda (an AWS Lambda handler besides the Node entry)",
  workers: "workers (a Cloudflare Worker and its wrangler.jsonc besides the Node entry)",
} satisfies Record<InitTarget, string>;
const INIT_TARGETS = Object.keys(TARGETS) as InitTarget[];

interface InitArgs {
  dir: string;
  name?: string;
  mcpgen?: string;
  force: boolean;
  widget: boolean;
  auth: boolean;
  target?: InitTarget;
}

export const initCommand = defineCommand<InitArgs>({
  name: "init",
  about: "create a new MCP server project in DIR (default: the current folder).",
  summary: "Create a new MCP server project in DIR (default: the current folder).",
  synopsis: ["mcpgen init [DIR] [--name NAME] [--target node|deno|bun|lambda|workers] [--mcpgen SPEC] [--widget] [--auth] [--force]"],
  options: {
    name: { type: "string", value: "NAME", needs: "a name", help: "The server name, [a-z0-9][a-z0-9-]* (default: the folder name)." },
    mcpgen: {
      type: "string",
      value: "SPEC",
      needs: "a dependency spec (file:PATH, a tarball, a version)",
      help: "The project's mcpgen dependency, as npm takes it (file:PATH to a checkout, a tarball, a version). Default: this mcpgen, packed into vendor/.",
    },
    widget: { type: "boolean", help: "Add a widget (an MCP Apps view) for the starter tool, and a harness to open it." },
    auth: {
      type: "boolean",
      help: "Protect it with OAuth over Streamable HTTP: an auth block (JWT access tokens, a scope on the starter tool) to point at your authorization server.",
    },
    target: {
      type: "string",
      value: "TARGET",
      needs: `a target (${INIT_TARGETS.join(", ")})`,
      help: `Where it runs: ${Object.values(TARGETS)
        .filter((words) => words !== "")
        .join(", ")}.`,
    },
    force: { type: "boolean", help: "Write into a folder that is not empty (never over a file)." },
  },
  footer:
    "Exit codes: 0 ok, 1 the folder is not empty (without --force), mcpgen cannot be packed for it or its\nfirst generate failed, 2 usage error (a --name that is not a server name too), 3 internal error.",
  unknownHint: "for init",
  parse({ values, positionals }) {
    if (positionals.length > 1) throw new CliUsageError(`init takes one folder; got ${JSON.stringify(positionals[0])} and ${JSON.stringify(positionals[1])}`);
    const target = values.target;
    if (typeof target === "string" && !(INIT_TARGETS as readonly string[]).includes(target))
      throw new CliUsageError(`--target takes ${INIT_TARGETS.join(", ")}, not ${JSON.stringify(target)}`);
    return {
      ...(typeof target === "string" ? { target: target as InitTarget } : {}),
      dir: positionals[0] ?? ".",
      force: values.force === true,
      widget: values.widget === true,
      auth: values.auth === true,
      ...(typeof values.name === "string" ? { name: values.name } : {}),
      ...(typeof values.mcpgen === "string" ? { mcpgen: values.mcpgen } : {}),
    };
  },
  async run(args, cwd) {
    const { runInit } = await import("../commands/init.js");
    const { dir, widget, auth, ...rest } = args;
    return runInit({ ...rest, dir: path.resolve(cwd, dir), cwd, ...(widget ? { widget: true } : {}), ...(auth ? { auth: true } : {}), version: version() });
  },
});
