/**
 * Why a pull failed, in the user's words: the command that did not start, the host that refused,
 * the server that quit (with its exit status and the end of its stderr), the banner a server wrote
 * where JSON-RPC was expected, the protocol version it does not speak.
 */
import { LimitError } from "./limits.js";
import type { FittedStdio } from "./stdio.js";

/** What is known about the server when a step fails. */
interface FailureContext {
  /** The command, when the server runs over stdio. */
  command?: string;
  era: "auto" | "legacy" | "modern";
  /** The era the handshake settled on, once it has. */
  negotiated?: "legacy" | "modern";
  stdio?: FittedStdio;
  /** The server's stderr as captured (the last chunks). */
  stderr: readonly string[];
}

/** The reason, then what the server wrote that explains it (a line on stdout, the end of its stderr). */
export function explainFailure(error: unknown, context: FailureContext): string {
  const stray = context.stdio?.strayLine();
  const said =
    stray === undefined
      ? ""
      : `\nthe server wrote to stdout a line that is not JSON-RPC: ${shownLine(stray)}\n(over stdio, stdout carries JSON-RPC messages only: a banner or log lines belong on stderr; look for a quiet or stdio option of the server)`;
  return `${describe(error, context)}${said}${tail(context.stderr)}`;
}

/** The version --era modern asks for. */
const MODERN = "2026-07-28";

function describe(error: unknown, context: FailureContext): string {
  if (error instanceof LimitError) return error.message;
  const e = error as { code?: unknown; message?: unknown };
  const message = typeof e.message === "string" ? e.message : "";
  // The SDK says "no fallback in pin mode": --era modern takes 2026-07-28 and nothing else.
  const pinned = context.era === "modern" && e.code === "ERA_NEGOTIATION_FAILED" && message.includes("pinned protocol version");
  const instead = `--era modern pulls only servers that speak MCP ${MODERN}: run without --era (2026-07-28 where offered, else the 2025-11-25 handshake) or with --era legacy`;
  const exit = context.stdio?.exit();
  if (pinned) {
    // Closed: the process may have quit at start, or on a request it did not expect before initialize.
    if (!message.includes("connection closed")) return `the server does not offer MCP ${MODERN} (it did not answer server/discover with it); ${instead}`;
    return `${exit === undefined ? "the server closed the connection" : `the server's process ${exit}`} when asked for MCP ${MODERN} (server/discover); ${instead}`;
  }
  if (exit !== undefined) return `the server's process ${exit} before it answered`;
  // Under 2026-07-28 the SDK checks every list against the spec's schemas and has no raw read.
  if (e.code === "INVALID_RESULT" && context.negotiated === "modern")
    return `${issues(message)} (under MCP ${MODERN}, the SDK's client checks each list against the spec and cannot read it as sent: pull with --era legacy, which reads the lists verbatim)`;
  // The system error code, however deep (fetch wraps it: probe error -> TypeError -> cause).
  let code: string | undefined;
  for (let c: unknown = error, depth = 0; c && depth < 8 && code === undefined; depth++) {
    const x = c as { code?: unknown; cause?: unknown; errors?: unknown };
    if (typeof x.code === "string" && /^E[A-Z]+$/.test(x.code)) code = x.code;
    c = x.cause ?? (x as { data?: unknown }).data ?? (Array.isArray(x.errors) ? x.errors[0] : undefined);
  }
  if (code === "ENOENT" && context.command !== undefined) return `the command \`${context.command}\` was not found (check the PATH, or give its full path)`;
  if (code === "EACCES" && context.command !== undefined) return `the command \`${context.command}\` cannot be run (permission denied)`;
  if (code === "ECONNREFUSED") return "the connection was refused (is the server running, on that port?)";
  if (code === "ENOTFOUND") return "the host name does not resolve";
  // Each message down the chain once: "probe failed: fetch failed (bad port)".
  const messages: string[] = [];
  for (let c: unknown = error, depth = 0; c && depth < 8; depth++) {
    const x = c as { message?: unknown; cause?: unknown; data?: unknown };
    const m = typeof x.message === "string" ? x.message : typeof c === "string" ? c : "";
    if (m && !messages.some((seen) => seen.includes(m))) messages.push(m);
    c = x.cause ?? (typeof x.data === "object" ? x.data : undefined);
  }
  const [first = String(error), ...rest] = messages.map(issues);
  return rest.length ? `${first} (${rest.join("; ")})` : first;
}

/** The SDK's schema errors end in a JSON list of issues: said as `path: message` instead. */
function issues(message: string): string {
  const at = message.indexOf(": [");
  if (at === -1) return message;
  try {
    const list = JSON.parse(message.slice(at + 2)) as { path?: unknown[]; message?: unknown }[];
    if (!Array.isArray(list)) return message;
    const said = list.map((i) => `${Array.isArray(i.path) && i.path.length ? `${i.path.join(".")}: ` : ""}${String(i.message)}`);
    return `${message.slice(0, at)}: ${said.join("; ")}`;
  } catch {
    return message;
  }
}

function tail(stderr: readonly string[]): string {
  const text = stderr.join("").trim();
  if (!text) return "";
  const lines = text.split("\n").slice(-8);
  return `\nthe server's stderr ended with:\n${lines.map((l) => `  ${l}`).join("\n")}`;
}

/** At most this many characters of a stray line are shown. */
const SHOWN = 160;

/**
 * A line a server wrote, safe to print: quoted, cut at `SHOWN` characters, and every control,
 * line-separating or bidirectional character escaped (a terminal would act on them).
 */
export function shownLine(line: string): string {
  const chars = [...line];
  const cut = chars.length > SHOWN;
  const text = (cut ? chars.slice(0, SHOWN) : chars).join("");
  const escaped = text.replace(/[\\"]|[\u0000-\u001f\u007f-\u009f\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, (c) => {
    if (c === "\\" || c === '"') return `\\${c}`;
    const named: Record<string, string> = { "\n": "\\n", "\r": "\\r", "\t": "\\t" };
    return named[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`;
  });
  return `"${escaped}"${cut ? " (cut)" : ""}`;
}
