/**
 * `mcpgen mock`: serves manifests without handlers (answers from examples and generated data), for
 * widget work, client tests and CI before the handlers exist.
 */
import * as path from "node:path";
import { loadConfig } from "../config/loadConfig.js";
import { hasErrors } from "../common/diagnostics.js";
import { CliUsageError, type CommandLine } from "./args.js";
import { defineCommand } from "./command.js";
import { printDiagnostics } from "../common/report.js";

interface MockArgs {
  manifests: string[];
  config?: string;
  server?: string;
  http?: number;
  host?: string;
  seed: number;
  latencyMs: number;
  failRate: number;
  quiet: boolean;
}

export const mockCommand = defineCommand({
  name: "mock",
  about: "serve manifests without handlers: examples and generated data that match the schemas.",
  summary: "Serve manifests without handlers (stdio or Streamable HTTP): tool examples, else seeded data valid by each outputSchema.",
  synopsis: [
    "mcpgen mock [PATH...] [--server NAME] [--http PORT [--host HOST]] [--seed N] [--latency MS]",
    "            [--fail-rate R] [--config FILE] [--quiet]",
  ],
  usage: ["mcpgen mock [MANIFEST|FOLDER...] [--server NAME] [--http PORT [--host HOST]] [--seed N] [--latency MS] [--fail-rate R] [--config FILE] [--quiet]"],
  details: `Serves each manifest through the generated servers' own runtime, to 2025-11-25 and 2026-07-28
clients: arguments are checked by the server's validators. A tool answers the result of its example
whose arguments equal the call's, else data generated from its outputSchema (deterministic for the
seed, the tool and the arguments), else the schema's examples, default or const; a tool without
outputSchema answers a text block. Resources answer their text, blob or file (others a text naming
the URI), prompts their messages with the arguments filled in. No token is asked for (auth: is not
enforced). The manifests default to the config's, as for generate.`,
  options: {
    manifests: { type: "string", multiple: true, value: "PATH", needs: "a file or folder", help: "" },
    server: {
      type: "string",
      value: "NAME",
      needs: "a server name",
      help: "Serve only this server (server.name); needed on stdio when the manifests hold several.",
    },
    http: {
      type: "string",
      value: "PORT",
      needs: "a port",
      help: "Serve Streamable HTTP at http://127.0.0.1:PORT/mcp instead of stdio (0: a free port; several servers: PORT, PORT+1, ...).",
    },
    host: { type: "string", value: "HOST", needs: "an interface", help: "Interface to bind with --http (default 127.0.0.1, loopback only)." },
    seed: {
      type: "string",
      value: "N",
      needs: "an integer",
      help: "Seed of the generated data and of --fail-rate (default 1): the same seed, the same answers.",
    },
    latency: { type: "string", value: "MS", needs: "milliseconds", help: "Delay each tool call, read, prompt and completion by MS milliseconds (default 0)." },
    "fail-rate": {
      type: "string",
      value: "R",
      needs: "a fraction from 0 to 1",
      help: "Answer this fraction of tool calls (0 to 1, drawn from the seed) with a tool error (isError: true) that says it is mocked.",
    },
    config: { type: "string", value: "FILE", needs: "a file", help: "Read this config instead of looking for one." },
    quiet: { type: "boolean", help: "Print only errors (no warnings, no line saying where it serves)." },
  },
  footer: `Exit codes: 0 stopped (stdin closed, or SIGINT/SIGTERM), 1 an invalid manifest or config, 2 usage
error (a bad option value, several servers on stdio).`,
  unknownHint: "for mock",
  parse: parseMockArgs,
  run: runMock,
});

/** A whole number from `min` to `max`, or a usage error naming the option. */
function integer(line: CommandLine, name: string, min: number, max: number, what: string): number | undefined {
  const value = line.values[name];
  if (typeof value !== "string") return undefined;
  const n = /^-?\d+$/.test(value) ? Number(value) : NaN;
  if (!Number.isSafeInteger(n) || n < min || n > max) throw new CliUsageError(`${line.typed[name]} takes ${what}, not ${JSON.stringify(value)}`);
  return n;
}

function parseMockArgs(line: CommandLine): MockArgs {
  const v = line.values;
  const http = integer(line, "http", 0, 65535, "a port from 0 to 65535");
  const seed = integer(line, "seed", -(2 ** 31), 2 ** 31 - 1, "an integer");
  const latency = integer(line, "latency", 0, 600_000, "milliseconds from 0 to 600000");
  let failRate = 0;
  if (typeof v["fail-rate"] === "string") {
    const text = v["fail-rate"];
    failRate = /^(\d+(\.\d*)?|\.\d+)$/.test(text) ? Number(text) : NaN;
    if (!(failRate >= 0 && failRate <= 1))
      throw new CliUsageError(`${line.typed["fail-rate"]} takes a fraction from 0 to 1 (0.25 fails one call in four), not ${JSON.stringify(text)}`);
  }
  if (typeof v.host === "string" && http === undefined) throw new CliUsageError(`${line.typed.host} goes with --http`);
  return {
    manifests: [...((v.manifests as string[] | undefined) ?? []), ...line.positionals],
    seed: seed ?? 1,
    latencyMs: latency ?? 0,
    failRate,
    quiet: v.quiet === true,
    ...(typeof v.config === "string" ? { config: v.config } : {}),
    ...(typeof v.server === "string" ? { server: v.server } : {}),
    ...(http === undefined ? {} : { http }),
    ...(typeof v.host === "string" ? { host: v.host } : {}),
  };
}

async function runMock(args: MockArgs, cwd: string): Promise<number> {
  const loaded = loadConfig(cwd, args.config);
  printDiagnostics(loaded.diagnostics);
  if (hasErrors(loaded.diagnostics)) {
    process.stderr.write("mcpgen: the config has errors.\n");
    return 1;
  }
  const config = loaded.config;
  const { startMock } = await import("../commands/mock/server.js");
  const result = await startMock({
    manifests: args.manifests.length ? args.manifests.map((m) => path.resolve(cwd, m)) : config.manifests,
    cwd,
    out: config.out,
    seed: args.seed,
    latencyMs: args.latencyMs,
    failRate: args.failRate,
    levels: config.levels,
    transport: args.http === undefined ? { kind: "stdio" } : { kind: "http", port: args.http, ...(args.host ? { host: args.host } : {}) },
    ...(args.server ? { server: args.server } : {}),
    ...(config.invalidArguments ? { invalidArguments: config.invalidArguments } : {}),
  });
  printDiagnostics(args.quiet ? result.diagnostics.filter((d) => d.severity === "error") : result.diagnostics);
  if (!result.ok) {
    const errors = result.diagnostics.filter((d) => d.severity === "error").length;
    if (result.problem) {
      process.stderr.write(`mcpgen: ${result.problem}\nRun \`mcpgen mock --help\` for usage.\n`);
      return 2;
    }
    process.stderr.write(`mcpgen: ${errors} error${errors === 1 ? "" : "s"}; nothing served.\n`);
    return 1;
  }
  // stdout is the stdio transport's: what the mock says goes to stderr.
  if (!args.quiet)
    for (const s of result.servers) process.stderr.write(`mcpgen: mocking ${s.name} ${s.url ? `at ${s.url}` : "on stdio"} (seed ${args.seed})\n`);
  await new Promise<void>((resolve) => {
    const stop = () => resolve();
    process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
    if (args.http === undefined) process.stdin.once("end", stop);
  });
  await result.close();
  return 0;
}
