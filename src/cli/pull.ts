/**
 * `mcpgen pull`: a manifest from a live MCP server, for a typed client of a server you do not own.
 * `--check` compares the live server with the manifest and says what changed (exit 1 if anything).
 */
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { hasErrors } from "../common/diagnostics.js";
import { PULLED_MARK } from "../generator/load/loadManifest.js";
import { DEFAULT_MAX_DEPTH, MAX_MAX_DEPTH, tooDeep } from "../commands/pull/depth.js";
import { MAX_ANSWER_BYTES, pullLimits } from "../commands/pull/limits.js";
import { flagSize, parseSize } from "../common/size.js";
import { redactCommand, redactUrl, showCommand } from "../common/redact.js";
import { checkedFileMissing, fileFailed, serverFailed } from "../commands/pull/problems.js";
import { shellWord } from "../common/shell.js";
import { CliUsageError, type CommandLine } from "./args.js";
import { defineCommand } from "./command.js";
import { printDiagnostics } from "../common/report.js";
import { toPosix } from "../common/paths.js";

export const pullCommand = defineCommand({
  name: "pull",
  about: `write a manifest from a live MCP server (its serverInfo, instructions,
tools, resources, resource templates and prompts, every page, each definition verbatim).`,
  summary:
    "Write a manifest from a live MCP server (stdio command or HTTP URL), for a typed client of a server you do not own; --check says what changed upstream.",
  synopsis: ["mcpgen pull [OPTIONS] (URL | -- COMMAND [ARGS...])"],
  usage: [
    "mcpgen pull [options] -- COMMAND [ARGS...]     a server over stdio",
    "mcpgen pull [options] URL                      a server over Streamable HTTP (http:// or https://)",
  ],
  options: {
    out: { type: "string", short: "o", value: "FILE", needs: "a file", help: "Where to write (default: manifests/<server>.yaml)." },
    check: { type: "boolean", help: "Write nothing; exit 1 when the live server differs from FILE, and say how." },
    env: {
      type: "string",
      multiple: true,
      value: "NAME=VALUE",
      needs: "NAME=VALUE",
      help: "(stdio) Set in the server's environment; repeatable. Values are never written: pass secrets this way (the command and its arguments are written in the manifest's header, with values that look like credentials as ...).",
    },
    cwd: { type: "string", value: "DIR", needs: "a folder", help: "(stdio) The server's working directory." },
    header: {
      type: "string",
      multiple: true,
      value: '"NAME: VALUE"',
      needs: '"NAME: VALUE"',
      help: '(HTTP) Send this header; repeatable (e.g. "Authorization: Bearer <token>" for a server that needs authorization: without one, pull names its authorization servers and scopes). Values are never written. User and password in the URL are sent as Basic authentication; query values are written as ...',
    },
    era: {
      type: "string",
      value: "auto|legacy|modern",
      needs: "auto, legacy or modern",
      help: "The handshake: auto (default) probes for 2026-07-28 and falls back to the 2025 initialize; legacy is 2025-11-25 only; modern is 2026-07-28 only.",
    },
    timeout: { type: "string", value: "MS", needs: "milliseconds", help: "For connecting and for each request (default 30000)." },
    "max-bytes": {
      type: "string",
      value: "SIZE",
      needs: "a size",
      help: "The largest answer pull reads (default 32MiB; at most 256MiB); all answers together may be twice that. SIZE in bytes, or with K, M or G: 64MiB, 64M.",
    },
    "max-items": { type: "string", value: "N", needs: "a number", help: "The most definitions pull reads, the four lists together (default 100000)." },
    "max-depth": {
      type: "string",
      value: "N",
      needs: "a number",
      help: "The deepest nesting of objects and arrays pull writes in one definition (default 256; at most 512).",
    },
    force: { type: "boolean", help: "Overwrite FILE even if mcpgen pull did not write it." },
  },
  footer: `Exit codes: 0 written (or up to date with --check), 1 the server differs (--check), cannot be
reached, answers garbage or more than the limits, its definitions cannot be compiled, or the
file cannot be written; 2 usage error; 3 internal error (a bug in mcpgen).`,
  unknownHint: "for pull (put the server's own options after --)",
  positionalsEndOptions: true,
  parse: parsePullArgs,
  run: runPull,
});

interface PullArgs {
  out?: string;
  check: boolean;
  env: Record<string, string>;
  headers: Record<string, string>;
  cwd?: string;
  era: "auto" | "legacy" | "modern";
  timeoutMs: number;
  /** --max-bytes and --max-items as given (undefined: the default). */
  maxBytes?: number;
  maxItems?: number;
  maxDepth?: number;
  force: boolean;
  url?: URL;
  command?: string[];
}

function parsePullArgs({ values, positionals: positional }: CommandLine): PullArgs {
  const args: PullArgs = { check: values.check === true, force: values.force === true, env: {}, headers: {}, era: "auto", timeoutMs: 30000 };
  if (typeof values.out === "string") args.out = values.out;
  if (typeof values.cwd === "string") args.cwd = values.cwd;
  for (const v of (values.env as string[] | undefined) ?? []) {
    const at = v.indexOf("=");
    if (at <= 0 || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(v.slice(0, at)))
      throw new CliUsageError(`--env takes NAME=VALUE with NAME of letters, digits and _, not ${JSON.stringify(v)}`);
    args.env[v.slice(0, at)] = v.slice(at + 1);
  }
  for (const v of (values.header as string[] | undefined) ?? []) {
    const at = v.indexOf(":");
    if (at <= 0 || !/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(v.slice(0, at).trim()) || /[\r\n]/.test(v))
      throw new CliUsageError(`--header takes "NAME: VALUE" (NAME an HTTP header name, one line), not ${JSON.stringify(v)}`);
    args.headers[v.slice(0, at).trim()] = v.slice(at + 1).trim();
  }
  const era = values.era;
  if (typeof era === "string") {
    if (era !== "auto" && era !== "legacy" && era !== "modern") throw new CliUsageError(`--era is auto, legacy or modern, not ${JSON.stringify(era)}`);
    args.era = era;
  }
  if (typeof values.timeout === "string") {
    const v = Number(values.timeout);
    if (!Number.isInteger(v) || v <= 0) throw new CliUsageError("--timeout takes a positive whole number of milliseconds");
    args.timeoutMs = v;
  }
  if (typeof values["max-bytes"] === "string") {
    const v = values["max-bytes"];
    const bytes = parseSize(v);
    if (bytes === undefined || bytes <= 0)
      throw new CliUsageError(`--max-bytes takes a size in bytes, or with K, M or G (64MiB, 64M), not ${JSON.stringify(v)}`);
    if (bytes > MAX_ANSWER_BYTES)
      throw new CliUsageError(`--max-bytes is at most ${flagSize(MAX_ANSWER_BYTES)} (a larger answer cannot be parsed in memory), not ${v}`);
    args.maxBytes = bytes;
  }
  if (typeof values["max-items"] === "string") {
    const v = Number(values["max-items"]);
    if (!Number.isInteger(v) || v <= 0) throw new CliUsageError("--max-items takes a positive whole number");
    args.maxItems = v;
  }
  if (typeof values["max-depth"] === "string") {
    const v = Number(values["max-depth"]);
    if (!Number.isInteger(v) || v <= 0 || v > MAX_MAX_DEPTH)
      throw new CliUsageError(
        `--max-depth takes a whole number from 1 to ${MAX_MAX_DEPTH} (deeper cannot be written), not ${JSON.stringify(values["max-depth"])}`,
      );
    args.maxDepth = v;
  }
  if (positional.length === 0) throw new CliUsageError("pull needs a server: a URL, or -- and the command that starts it");
  if (/^https?:\/\//i.test(positional[0]!)) {
    if (positional.length > 1) throw new CliUsageError(`pull takes one URL; got ${positional.map((p) => JSON.stringify(p)).join(" ")}`);
    try {
      args.url = new URL(positional[0]!);
    } catch {
      throw new CliUsageError(`not a URL: ${positional[0]}`);
    }
    if (Object.keys(args.env).length || args.cwd) throw new CliUsageError("--env and --cwd are for a server started over stdio, not a URL");
    if (args.url.protocol !== "http:" && args.url.protocol !== "https:")
      throw new CliUsageError(`pull takes an http:// or https:// URL, not ${args.url.protocol}`);
    // fetch refuses credentials in a URL: they go as Basic authentication instead.
    if (args.url.username || args.url.password) {
      const user = decodeURIComponent(args.url.username);
      const password = decodeURIComponent(args.url.password);
      if (!Object.keys(args.headers).some((h) => h.toLowerCase() === "authorization"))
        args.headers.Authorization = `Basic ${Buffer.from(`${user}:${password}`).toString("base64")}`;
      args.url.username = "";
      args.url.password = "";
    }
  } else {
    args.command = positional;
    if (Object.keys(args.headers).length) throw new CliUsageError("--header is for a server over HTTP, not a command");
  }
  return args;
}

async function runPull(args: PullArgs, cwd: string): Promise<number> {
  const { fetchServer, PullError } = await import("../commands/pull/fetch.js");
  const { manifestText, folderName } = await import("../commands/pull/manifestText.js");
  const target = args.url
    ? { kind: "http" as const, url: args.url, headers: args.headers }
    : {
        kind: "stdio" as const,
        command: args.command![0]!,
        args: args.command!.slice(1),
        env: args.env,
        ...(args.cwd ? { cwd: path.resolve(cwd, args.cwd) } : {}),
      };
  if (target.kind === "stdio" && target.cwd !== undefined && !isFolder(target.cwd)) {
    printDiagnostics([
      {
        severity: "error",
        code: "invalid-argument",
        argument: `--cwd ${args.cwd}`,
        message: "no such folder",
        fix: "give the folder the server runs in (relative to the current one)",
      },
    ]);
    return 1;
  }
  let server;
  try {
    server = await fetchServer(target, {
      era: args.era,
      timeoutMs: args.timeoutMs,
      shown: describeSource(args),
      limits: pullLimits(args.maxBytes, args.maxItems),
    });
  } catch (error) {
    if (!(error instanceof PullError)) throw error;
    printDiagnostics([serverFailed(serverArgument(args), error.message, error.fix)]);
    return 1;
  }
  const name = server.serverInfo.name;
  const out = path.resolve(cwd, args.out ?? path.join("manifests", `${folderName(name)}.yaml`));
  const shownOut = path.relative(cwd, out) || out;
  const { describePulledProblems } = await import("../commands/pull/report.js");
  for (const warning of server.warnings) process.stderr.write(`mcpgen: warning: ${warning}\n`);
  // Deeper than the YAML writer (and what reads the file back) can go: said before writing anything.
  const deep = tooDeep(server, args.maxDepth ?? DEFAULT_MAX_DEPTH);
  if (deep.length > 0) {
    printDiagnostics(describePulledProblems(deep, server, name, serverArgument(args)));
    process.stderr.write(`mcpgen: ${shownOut} not written.\n`);
    return 1;
  }
  const text = manifestText(server, describeSource(args), again(args, shownOut));

  // The definitions must compile: the manifest goes through the whole validator before it is written.
  const { compile } = await import("../generator/compile.js");
  const checked = await compile({ absPath: out, file: shownOut, text });
  // Fields mcpgen does not know are expected in pulled definitions; the rest is worth saying, by
  // what the server serves (the file is not written yet, and may never be).
  const notable = checked.diagnostics.filter((d) => d.severity === "error" || d.code !== "unknown-field");
  printDiagnostics(describePulledProblems(notable, server, name, serverArgument(args)));
  if (hasErrors(checked.diagnostics)) {
    process.stderr.write(
      `mcpgen: what ${name} serves cannot be compiled as it is (above); ${shownOut} not written. Please report it: mcpgen should take any definition a server sends.\n`,
    );
    return 1;
  }
  const n = (count: number, what: string) => `${count} ${what}${count === 1 ? "" : "s"}`;
  const counts = `${n(server.tools.length, "tool")}, ${n(server.resources.length, "resource")}, ${n(server.resourceTemplates.length, "template")}, ${n(server.prompts.length, "prompt")}, MCP ${server.protocolVersion}`;

  let before: string | undefined;
  try {
    before = existsSync(out) ? readFileSync(out, "utf8") : undefined;
  } catch (error) {
    printDiagnostics([fileFailed(shownOut, true, fsMessage(error))]);
    return 1;
  }
  if (args.check) {
    if (before === undefined) {
      printDiagnostics([checkedFileMissing(shownOut)]);
      return 1;
    }
    // The header names how it was pulled (flags, folder): only the manifest below it counts.
    if (body(before) === body(text)) {
      process.stdout.write(`mcpgen: ${shownOut} is up to date with ${name} (${counts}).\n`);
      return 0;
    }
    const { diffManifestTexts, formatDifferences } = await import("../commands/diff/report.js");
    const changes = await diffManifestTexts(before, text, out, cwd);
    process.stderr.write(`mcpgen: ${name} differs from ${shownOut}:\n${formatDifferences(changes, "table")}`);
    if (changes.length === 0) process.stderr.write("  (nothing a client or a server would see: capabilities or formatting)\n");
    process.stderr.write(`mcpgen: run the same command without --check to update ${shownOut}.\n`);
    return 1;
  }
  if (before !== undefined && !before.startsWith(PULLED_MARK) && !args.force) {
    printDiagnostics([
      {
        severity: "error",
        code: "not-generated",
        message: "this file was not written by mcpgen pull; refusing to overwrite it",
        fix: "use -o for another file, or --force",
        file: toPosix(shownOut),
        line: 1,
        col: 1,
        path: "",
      },
    ]);
    return 1;
  }
  if (before === text) {
    process.stdout.write(`mcpgen: ${shownOut} is up to date with ${name} (${counts}).\n`);
    return 0;
  }
  const temp = `${out}.mcpgen-${process.pid}.tmp`;
  try {
    mkdirSync(path.dirname(out), { recursive: true });
    writeFileSync(temp, text, "utf8");
    renameSync(temp, out);
  } catch (error) {
    try {
      rmSync(temp, { force: true });
    } catch {
      // The folder itself could not be made: no temporary file either.
    }
    printDiagnostics([fileFailed(shownOut, false, fsMessage(error))]);
    return 1;
  }
  process.stdout.write(
    `mcpgen: wrote ${shownOut} from ${name} (${counts}). It is client-only (its header says so): \`mcpgen generate\` writes its types, client and fixtures, no server and no handler stubs.\n`,
  );
  return 0;
}

/** The manifest without its header comment lines. */
function body(text: string): string {
  return text.replace(/^(#[^\n]*\n)+/, "");
}

function isFolder(dir: string): boolean {
  try {
    return statSync(dir).isDirectory();
  } catch {
    return false;
  }
}

function fsMessage(error: unknown): string {
  const e = error as { code?: unknown; message?: unknown };
  if (e.code === "EISDIR") return "it is a folder (give a file with -o)";
  if (e.code === "ENOTDIR" || e.code === "EEXIST") return "a part of the path is a file, not a folder";
  if (e.code === "EACCES" || e.code === "EPERM") return "permission denied";
  return typeof e.message === "string" ? e.message : String(error);
}

/** The source as the header and messages show it: no credential (see common/redact.ts). */
function describeSource(args: PullArgs): string {
  return args.url ? redactUrl(args.url) : showCommand(args.command!);
}

/** The server argument as typed (credentials left out): the URL, or `-- COMMAND ARGS`. */
function serverArgument(args: PullArgs): string {
  return args.url ? redactUrl(args.url) : `-- ${redactCommand(args.command!).map(shellWord).join(" ")}`;
}

/** The command that pulls the same server again (header and env values left out), as a shell runs it. */
function again(args: PullArgs, out: string): string {
  const parts = ["mcpgen pull", "-o", shellWord(out)];
  if (args.era !== "auto") parts.push("--era", args.era);
  if (args.maxBytes !== undefined) parts.push("--max-bytes", flagSize(args.maxBytes));
  if (args.maxItems !== undefined) parts.push("--max-items", String(args.maxItems));
  if (args.maxDepth !== undefined) parts.push("--max-depth", String(args.maxDepth));
  for (const name of Object.keys(args.env)) parts.push(`--env ${name}=...`);
  for (const name of Object.keys(args.headers)) parts.push(`--header "${name}: ..."`);
  if (args.cwd) parts.push("--cwd", shellWord(args.cwd));
  if (args.url) parts.push(shellWord(describeSource(args)));
  else parts.push("--", ...redactCommand(args.command!).map(shellWord));
  return parts.join(" ");
}
