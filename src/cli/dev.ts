/**
 * `mcpgen dev`: the widgets in the harness, rebuilt and reloaded in the open page on every edit,
 * against the project's handlers (else the mock). The loop is src/commands/dev/dev.ts; the watching is
 * generate --watch's.
 */
import * as path from "node:path";
import { loadConfig, type Config } from "../config/loadConfig.js";
import { hasErrors } from "../common/diagnostics.js";
import { projectRoot } from "../generator/load/manifestPaths.js";
import { CliUsageError, type CommandLine } from "./args.js";
import { defineCommand } from "./command.js";
import { generateOnce } from "./generateCommand.js";
import { printDiagnostics } from "../common/report.js";

interface DevArgs {
  manifests: string[];
  config?: string;
  server?: string;
  port: number;
  mock: boolean;
  typecheck: boolean;
}

/** The harness's port when none is given. */
const DEFAULT_PORT = 6280;

export const devCommand = defineCommand({
  name: "dev",
  about: "the widgets in the harness, rebuilt and reloaded on every edit.",
  summary:
    "Generate, then serve the widgets in the harness against the handlers (else the mock); rebuild and reload the open page on every edit of a manifest, widget or handler.",
  synopsis: ["mcpgen dev [PATH...] [--server NAME] [--port PORT] [--mock] [--no-typecheck] [--config FILE]"],
  usage: ["mcpgen dev [MANIFEST|FOLDER...] [--server NAME] [--port PORT] [--mock] [--no-typecheck] [--config FILE]"],
  details: `Runs generate (as configured, every manifest afresh), then serves the harness at
http://127.0.0.1:PORT/: one page per example of a tool that opens a widget, with the MCP Apps
bridge or ChatGPT's window.openai. Behind it, the project's handlers (the generated server and the
handler files, bundled and run in a child process) when the config has stubs; else, or with
--mock, \`mcpgen mock\` answers. On every edit of a manifest, the config, a template, a widget's
source folder or the handlers, it generates again, restarts the server and the harness on the same
port, and the open pages reload themselves. Each build is type checked by the project's own
TypeScript (tsc --noEmit on tsconfig.json and on each widget folder's tsconfig.json), as the server
starts. An edit that does not generate, has type errors, or a server that does not start, is
reported (type errors in the terminal and over the open pages) and leaves the last good build
serving. Loopback only; Ctrl-C stops.`,
  options: {
    manifests: { type: "string", multiple: true, value: "PATH", needs: "a file or folder", help: "" },
    server: { type: "string", value: "NAME", needs: "a server name", help: "Serve this server's widgets (needed when several servers have widgets)." },
    port: { type: "string", value: "PORT", needs: "a port", help: `The harness's port (default ${DEFAULT_PORT}; 0: a free one, kept across rebuilds).` },
    mock: { type: "boolean", help: "Answer with mcpgen mock even when handlers exist." },
    "no-typecheck": { type: "boolean", help: "Do not type check each build (the project's tsc)." },
    config: { type: "string", value: "FILE", needs: "a file", help: "Read this config instead of looking for one." },
  },
  footer: "Exit codes: 0 stopped (SIGINT/SIGTERM), 1 the config has errors, 2 usage error.",
  unknownHint: "for dev",
  parse: parseDevArgs,
  run: runDev,
});

function parseDevArgs(line: CommandLine): DevArgs {
  const v = line.values;
  let port = DEFAULT_PORT;
  if (typeof v.port === "string") {
    port = /^\d+$/.test(v.port) ? Number(v.port) : NaN;
    if (!(port >= 0 && port <= 65535)) throw new CliUsageError(`${line.typed.port} takes a port from 0 to 65535, not ${JSON.stringify(v.port)}`);
  }
  return {
    manifests: [...((v.manifests as string[] | undefined) ?? []), ...line.positionals],
    port,
    mock: v.mock === true,
    typecheck: v["no-typecheck"] !== true,
    ...(typeof v.config === "string" ? { config: v.config } : {}),
    ...(typeof v.server === "string" ? { server: v.server } : {}),
  };
}

async function runDev(args: DevArgs, cwd: string): Promise<number> {
  const read = (): Config | undefined => {
    const loaded = loadConfig(cwd, args.config);
    printDiagnostics(loaded.diagnostics);
    if (hasErrors(loaded.diagnostics)) return undefined;
    const manifests = args.manifests.map((m) => path.resolve(cwd, m));
    return manifests.length ? { ...loaded.config, manifests } : loaded.config;
  };
  const config = read();
  if (!config) {
    process.stderr.write("mcpgen: the config has errors.\n");
    return 1;
  }
  const generateArgs = { command: "generate", manifests: args.manifests, check: false, watch: true, quiet: false, cache: false, clientOnly: false } as const;
  const [{ DevSession }, { watch }] = await Promise.all([import("../commands/dev/dev.js"), import("./watch.js")]);
  const session = new DevSession({
    cwd,
    root: projectRoot(cwd),
    port: args.port,
    mock: args.mock,
    typecheck: args.typecheck,
    generate: (c) => generateOnce(c, { ...generateArgs, manifests: [...generateArgs.manifests] }, cwd),
    ...(args.server ? { server: args.server } : {}),
  });
  try {
    await watch(
      config,
      {
        run: (c) => session.rebuild(c),
        folders: () => session.watchFolders(),
        reloadConfig: () => {
          const again = read();
          if (!again) process.stderr.write("mcpgen: the config has errors; keeping the previous one.\n");
          return again;
        },
      },
      cwd,
    );
  } finally {
    await session.close();
  }
  return 0;
}
