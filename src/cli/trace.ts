/**
 * `mcpgen trace`: records the messages between a client and a server, on stdio (in place of the
 * server's command) or on Streamable HTTP (a reverse proxy), into a JSONL trace (src/commands/trace/record.ts)
 * that `mcpgen check` and `mcpgen explain` read.
 */
import * as path from "node:path";
import { redactCommand, redactUrl } from "../common/redact.js";
import { parseSize } from "../common/size.js";
import { CliUsageError, type CommandLine } from "./args.js";
import { defineCommand } from "./command.js";

interface TraceArgs {
  output?: string;
  print: boolean;
  command?: string[];
  upstream?: URL;
  host: string;
  port: number;
  allowHosts: string[];
  maxBytes?: number;
}

/** Where --http listens unless --listen says otherwise (the MCP Inspector's proxy port). */
const DEFAULT_HOST = "127.0.0.1";
const DEFAULT_PORT = 6277;

export const traceCommand = defineCommand({
  name: "trace",
  about: "record the messages between a client and a server (stdio or Streamable HTTP) into a JSONL trace.",
  summary: "Record the messages between a client and a server into a JSONL trace: in place of a stdio server's command, or as a proxy in front of an HTTP one.",
  synopsis: ["mcpgen trace [-o FILE] [--print] -- COMMAND [ARG...]", "mcpgen trace --http URL [--listen HOST:PORT] [-o FILE] [--print]"],
  details: `stdio: give the client \`mcpgen trace -o FILE -- COMMAND...\` as the server's command. The
recorder starts COMMAND and copies the client's bytes to it and its output back, unchanged, as they
come; each line is recorded as a message (or a note when it is not JSON). The server's stderr goes
to ours. When the client closes our input, the server's is closed; when the server exits, the
recorder exits with its code. If the recorder is stopped, the server (its whole process group) is
stopped too.

HTTP: \`--http URL\` serves a proxy at http://HOST:PORT with the URL's own path (printed on stderr):
every request goes to the URL's origin with the same method, path, query, headers (Host made the
upstream's) and body, and the answer streams back unchanged, event streams included. A request
whose Host does not name the proxy, or whose Origin is another site's, is refused with 403 before
it goes upstream (DNS-rebinding protection); --allow-host names more hosts to answer to.

The trace redacts what it keeps, as pull does: the command's and URL's credentials, query values,
Authorization, Cookie and other credential headers (as "[redacted]"), session ids (as
"[redacted session N]"). What is forwarded is never changed. Message contents are kept as sent.`,
  options: {
    output: {
      type: "string",
      short: "o",
      value: "FILE",
      needs: "a file",
      help: "Write the trace to FILE (default: mcpgen-trace-<time>.jsonl in the current folder, named on stderr).",
    },
    http: { type: "string", value: "URL", needs: "a URL", help: "Record Streamable HTTP: serve a proxy in front of this server URL." },
    listen: {
      type: "string",
      value: "HOST:PORT",
      needs: "HOST:PORT or PORT",
      help: `Where the --http proxy listens (default ${DEFAULT_HOST}:${DEFAULT_PORT}; port 0: a free port).`,
    },
    "max-bytes": {
      type: "string",
      value: "SIZE",
      needs: "a size",
      help: "The trace's size at most (default 1GiB; K, M, G: 512MiB): past it recording stops with a note, and the messages are still forwarded.",
    },
    "allow-host": {
      type: "string",
      value: "NAME[,NAME]",
      needs: "host names",
      help: "Host names the --http proxy also answers to (besides localhost and the address it listens on); any other Host or Origin is refused with 403.",
    },
    print: { type: "boolean", help: "Also show each message on stderr as it passes: direction, method or reply, id, tool, time taken, errors." },
  },
  footer: `Exit codes: on stdio, the server's exit code (128+N when signal N ended it), 127 the command
cannot be started; on HTTP, 0 stopped by SIGINT or SIGTERM, 1 the port cannot be listened on; 1 the
trace file cannot be opened; 2 usage error.`,
  unknownHint: "for trace (put the server's own options after --)",
  positionalsEndOptions: true,
  parse: parseTraceArgs,
  run: runTrace,
});

function parseTraceArgs(line: CommandLine): TraceArgs {
  const v = line.values;
  const args: TraceArgs = { print: v.print === true, host: DEFAULT_HOST, port: DEFAULT_PORT, allowHosts: [] };
  if (typeof v.output === "string") args.output = v.output;
  if (typeof v.http === "string") {
    if (line.positionals.length > 0) throw new CliUsageError(`trace takes --http URL or -- COMMAND, not both`);
    let url: URL;
    try {
      url = new URL(v.http);
    } catch {
      throw new CliUsageError(`${line.typed.http} takes a URL, not ${JSON.stringify(v.http)}`);
    }
    if (url.protocol !== "http:" && url.protocol !== "https:") throw new CliUsageError(`${line.typed.http} takes an http or https URL, not ${url.protocol}`);
    args.upstream = url;
  } else if (typeof v.listen === "string") throw new CliUsageError(`${line.typed.listen} goes with --http`);
  else if (typeof v["allow-host"] === "string") throw new CliUsageError(`${line.typed["allow-host"]} goes with --http`);
  else if (line.positionals.length === 0) throw new CliUsageError("trace needs a server: -- and the command that starts it, or --http URL");
  else args.command = line.positionals;
  if (typeof v.listen === "string") {
    const m = /^(?:(\[[0-9a-fA-F:]+\]|[^:\s]+):)?(\d{1,5})$/.exec(v.listen);
    const port = m ? Number(m[2]) : NaN;
    if (!m || port > 65535) throw new CliUsageError(`${line.typed.listen} takes HOST:PORT or PORT (0: a free port), not ${JSON.stringify(v.listen)}`);
    args.port = port;
    if (m[1]) args.host = m[1].replace(/^\[|\]$/g, "");
  }
  if (typeof v["max-bytes"] === "string") {
    const bytes = parseSize(v["max-bytes"]);
    if (bytes === undefined || bytes < 1024)
      throw new CliUsageError(
        `${line.typed["max-bytes"]} takes a size of 1KiB or more, in bytes or with K, M or G (512MiB, 2G), not ${JSON.stringify(v["max-bytes"])}`,
      );
    args.maxBytes = bytes;
  }
  if (typeof v["allow-host"] === "string") {
    args.allowHosts = v["allow-host"].split(",").map((name) => name.trim());
    const bad = args.allowHosts.find((name) => !/^(\[[0-9a-fA-F:]+\]|[A-Za-z0-9.-]+)$/.test(name));
    if (bad !== undefined) throw new CliUsageError(`${line.typed["allow-host"]} takes host names (a,b), without port or scheme, not ${JSON.stringify(bad)}`);
  }
  return args;
}

async function runTrace(args: TraceArgs, cwd: string): Promise<number> {
  const { openTrace } = await import("../commands/trace/writer.js");
  const { livePrinter } = await import("../commands/trace/print.js");
  const file = path.resolve(cwd, args.output ?? `mcpgen-trace-${new Date().toISOString().replace(/[:.]/g, "-")}.jsonl`);
  const observe = args.print ? livePrinter((line) => process.stderr.write(`${line}\n`)) : undefined;
  let trace;
  try {
    trace = openTrace(
      file,
      args.command ? { transport: "stdio", command: redactCommand(args.command) } : { transport: "http", upstream: redactUrl(args.upstream!) },
      observe,
      args.maxBytes,
    );
  } catch (error) {
    process.stderr.write(`mcpgen: cannot write the trace ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}\n`);
    return 1;
  }
  if (args.command) {
    if (!args.output) process.stderr.write(`mcpgen trace: recording into ${file}\n`);
    const { traceStdio } = await import("../commands/trace/stdio.js");
    const code = await traceStdio({ command: args.command, trace });
    await trace.close();
    // Everything the server said reaches the client before we go.
    await new Promise<void>((resolve) => process.stdout.write("", () => resolve()));
    process.exit(code);
  }
  const { traceHttp } = await import("../commands/trace/http.js");
  let proxy;
  try {
    proxy = await traceHttp({ upstream: args.upstream!, host: args.host, port: args.port, allowHosts: args.allowHosts, trace });
  } catch (error) {
    process.stderr.write(`mcpgen: cannot listen on ${args.host}:${args.port}: ${(error as NodeJS.ErrnoException).code ?? String(error)}\n`);
    trace.note(`the proxy could not listen on ${args.host}:${args.port}`);
    await trace.close();
    return 1;
  }
  // The client sends the upstream URL's query itself (it is forwarded as it comes): shown redacted.
  const { redactPath } = await import("../commands/trace/redactLog.js");
  const shown = `${new URL(proxy.url).origin}${redactPath(args.upstream!.pathname + args.upstream!.search)}`;
  process.stderr.write(`mcpgen trace: serving ${shown} in front of ${redactUrl(args.upstream!)}, recording into ${file}\n`);
  await new Promise<void>((resolve) => {
    process.once("SIGINT", resolve);
    process.once("SIGTERM", resolve);
  });
  trace.note("the recorder stopped");
  await proxy.close();
  await trace.close();
  return 0;
}
