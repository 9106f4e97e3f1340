/**
 * What `mcpgen pull` writes about its source (the header of the manifest, its messages): the
 * command or URL with anything that may be a credential replaced by `...`, and everything that
 * says what to fill in kept: flag names, header names, variable names, JSON keys, URL host and path.
 * The result is still a command a shell runs, so the header's `Update it with:` line can be
 * copied, its `...` filled in.
 *
 * The rules, in the order they apply to each word:
 * - a flag whose name says credential (`--api-key X`, `--token=X`, `-token X`, `--db-pw X`): its
 *   value is `...`, even when it starts with `-` (`--api-key -Zx9Qw7Lp3Mn`: one random base64url
 *   key in 64 does) unless it is shaped like a flag (`-v`, `--verbose`); a name that says where a
 *   credential is (`--token-file`, `--api-key-env`, `--auth-url`) keeps a harmless value (a path,
 *   a variable name, a URL without credentials);
 * - a user flag (`--user admin:pw`, `--login`, `--basic-auth`): the part after `:` is `...`;
 * - a header flag (`-H`, `--header`, `--headers`, `--add-header`): its value's header name is kept,
 *   the header value is `...` (`Authorization: ...`), whatever the header;
 * - a one-letter flag (`-k X`, `-p X`): its value is kept only when harmless (see `isHarmless`);
 *   `-y` (npx), `-i` (docker run) and `-A` (deno) take no value, and python's `-m` takes a module;
 * - any other word, or a long flag's value: a PEM private key is `...` between its BEGIN and END
 *   lines; a JSON object or array keeps its keys and non-secret values (an array of strings is
 *   read as command words: `["--api-key","X"]`); a URL loses its user and password, its query,
 *   fragment and `;name=` path parameter values (`;jsessionid=`) and any key-shaped path segment;
 *   `user:pw@host` without a scheme loses `user:pw`; `NAME=value` keeps NAME and a harmless value;
 *   `Name: value` keeps Name; a word shaped like a key (`sk-...`, `ghp_...`, a JWT, 32+ mixed
 *   letters and digits) is `...`; and `Bearer X`, `password=X`, `apiKey: 'X'` inside a longer word
 *   (code, a connection string) lose X.
 */
import { shellWord } from "./shell.js";

/** Names (of flags, variables, headers, JSON keys, query parameters) that carry credentials. */
const SECRET_NAME = /key|token|secret|pass(word|wd|phrase)?|auth|credential|cookie|session|bearer|jwt|signature|private|dsn/i;
/** Short name parts that carry credentials, matched whole (`--db-pw`, not `--path`). */
const SECRET_PART = /^(pat|pw|pwd|pin|otp|sig|sid|sas|creds?)$/i;
/** A last name part that says where a credential is, not what it is: `--token-file`, `--api-key-env`. */
const REFERENCE_PART = /^(file|path|dir|env|var|name|url|uri|endpoint|type|mode|method|header)$/i;
/** Values shaped like API keys: known prefixes, JWTs, or long runs of letters and digits mixed. */
const SECRET_VALUE =
  /^(sk|pk|rk|ghp|gho|ghu|ghs|ghr|github_pat|xox[abpr]|glpat|AKIA|ASIA|AIza|hf|npm|pypi)[-_A-Za-z0-9]{8,}$|^eyJ[\w-]{8,}\.[\w-]{8,}\.[\w-]*$|^(?=[A-Za-z0-9_\-+/=]{32,}$)(?=.*\d)(?=.*[A-Za-z]).*$/;
/** An HTTP header name. */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** Flags whose value is an HTTP header (curl's `-H`, mcp-remote's `--header`). */
const HEADER_FLAG = /^(-H|--?(\w+-)*[Hh]eaders?)$/;
/** Flags whose value is `user:password` (curl's `--user`, `--basic-auth`): the password is `...`, the user kept. */
const USER_FLAG = /^--?(\w+-)*(user|username|login|userpass|basic-?auth)s?$/i;
/** What a flag looks like, as a credential's value would not: `-v`, `-vvv`, `-token`, `--verbose`, `--dry-run`, `--port=3000`. */
const FLAG_SHAPED = /^(-[A-Za-z]|--?[a-z][a-z0-9]*(-[a-z0-9]+)*)(=.*)?$/s;
/** A PEM private key (PKCS#8, RSA, EC, OpenSSH, encrypted, PGP), up to its END line or the end of the word. */
const PEM_PRIVATE_KEY = /-----BEGIN ([A-Z0-9 ]*)PRIVATE KEY( BLOCK)?-----[^]*?(-----END \1PRIVATE KEY\2-----|$)/g;
/** One-letter flags that take no value in the launchers MCP configurations use. */
const NO_VALUE = new Set(["-y", "-i", "-A"]);
/** A package version or tag, after `@`: `1.2.3`, `^1`, `latest`. */
const VERSION = String.raw`([\^~]?\d[\w.+-]*|latest|next|beta|alpha|canary|rc|\*)`;
/** A package: `@scope/pkg`, `@scope/pkg@1.2.3`, `pkg@latest`, `npm:pkg`. */
const PACKAGE = new RegExp(String.raw`^((npm|jsr):)?(@[\w.-]+/[\w.-]+(@${VERSION})?|[a-z0-9][\w.-]*@${VERSION})$|^(npm|jsr):[a-z0-9][\w.-]*$`);
/** Words that are never secrets: transports, log levels, modes, booleans. */
const KNOWN_WORDS = new Set(
  "stdio sse http https streamable-http streamablehttp ws websocket debug info notice warn warning error trace verbose quiet silent true false yes no on off none auto all default production development dev prod test staging local localhost json text yaml bearer basic oauth read-only readonly".split(
    " ",
  ),
);

/** The command words, each credential-like value as `...`. */
export function redactCommand(words: readonly string[]): string[] {
  const out: string[] = [];
  const python = words.findIndex((w) => /^(python[\d.]*|pypy[\d.]*|py)(\.exe)?$/i.test(w.split(/[\\/]/).pop()!));
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    const next = words[i + 1];
    const inline = /^(--?[A-Za-z][\w.-]*)=([^]*)$/.exec(word);
    // A key-shaped word is not a flag, whatever it starts with (`-` + 42 base64url characters).
    const flag = inline ? inline[1]! : /^--?[A-Za-z][\w.-]*$/.test(word) && !SECRET_VALUE.test(word) ? word : undefined;
    if (flag === undefined) {
      out.push(redactWord(word, "loose"));
      continue;
    }
    // A value may start with `-` (`--api-key -Zx9Qw7Lp3Mn`): after a credential flag or a one-letter
    // flag, only a word shaped like a flag is not its value.
    const dashValue = isCredentialFlag(flag) || /^-[A-Za-z]$/.test(flag);
    const takes = next !== undefined && (!next.startsWith("-") || (dashValue && !FLAG_SHAPED.test(next)));
    const valueOf = (value: string) => flagValue(flag, value, python !== -1 && python < i);
    if (inline) out.push(`${flag}=${valueOf(inline[2]!)}`);
    else if (takes && takesValue(flag)) {
      out.push(word, valueOf(next));
      i++;
    } else out.push(word);
  }
  return out;
}

/** The command as shown: backquoted, each word quoted as a shell needs it. */
export function showCommand(words: readonly string[]): string {
  return `\`${redactCommand(words).map(shellWord).join(" ")}\``;
}

/** The URL pull connects to, without user and password (sent as Basic authentication), each query value as `...`. */
export function redactUrl(url: URL): string {
  const copy = new URL(url.href);
  copy.username = "";
  copy.password = "";
  return redactUrlText(copy.href);
}

/** Whether the word after `flag` is its value: a flag whose name says credential, user or header, or a one-letter flag. */
function takesValue(flag: string): boolean {
  if (/^-[A-Za-z]$/.test(flag)) return !NO_VALUE.has(flag);
  if (/^--?no-/i.test(flag)) return false;
  return HEADER_FLAG.test(flag) || USER_FLAG.test(flag) || isSecretName(flag);
}

/** A flag whose value is a credential itself (not where one is). */
function isCredentialFlag(flag: string): boolean {
  return !/^--?no-/i.test(flag) && isSecretName(flag) && !isReference(flag);
}

function flagValue(flag: string, value: string, python: boolean): string {
  if (value === "") return value;
  if (HEADER_FLAG.test(flag)) return redactHeaderValue(value);
  if (USER_FLAG.test(flag) && !isSecretName(flag)) {
    const colon = value.indexOf(":");
    return colon === -1 ? redactWord(value, "loose") : `${value.slice(0, colon)}:...`;
  }
  if (isSecretName(flag)) return isReference(flag) ? redactWord(value, "strict") : "...";
  if (/^-[A-Za-z]$/.test(flag)) return flag === "-m" && python && /^[A-Za-z_]\w*(\.[A-Za-z_]\w*)*$/.test(value) ? value : redactWord(value, "strict");
  return redactWord(value, "loose");
}

/**
 * One word with its credentials as `...`. `strict` (a one-letter flag's value, a variable's
 * value) keeps only what `isHarmless`; `loose` (a positional word, a named flag's value) keeps
 * whatever is not shaped like a credential.
 */
function redactWord(word: string, mode: "strict" | "loose"): string {
  if (word.includes("PRIVATE KEY")) {
    const without = word.replace(
      PEM_PRIVATE_KEY,
      (_all: string, kind: string, block = "") => `-----BEGIN ${kind}PRIVATE KEY${block}-----...-----END ${kind}PRIVATE KEY${block}-----`,
    );
    if (without !== word) return without;
  }
  const json = parseJson(word);
  if (json !== undefined) return jsonText(json, "names");
  if (/^[A-Za-z][A-Za-z0-9+.-]*:\/\//.test(word)) return redactUrlText(word);
  const header = /^([^:\s]+):(\s+)\S/.exec(word);
  if (header && HEADER_NAME.test(header[1]!)) return `${header[1]}:${header[2]}...`;
  const assignment = /^([A-Za-z_][\w.-]*)=([^]*)$/.exec(word);
  if (assignment) {
    const [, name, value] = assignment as unknown as [string, string, string];
    if (value === "") return word;
    return `${name}=${isSecretName(name) && !isReference(name) ? "..." : redactWord(value, "strict")}`;
  }
  // `user:password@host` without a scheme (a database, an SSH-style target); not `image:tag@sha256:...`.
  const userinfo = /^[^\s:@/]+:[^\s@/]+@([^\s@/:][^\s@]*)$/.exec(word);
  if (userinfo && !/^sha\d+:/i.test(userinfo[1]!)) return `...:...@${userinfo[1]}`;
  if (SECRET_VALUE.test(word)) return "...";
  if (mode === "strict") return isHarmless(word) ? word : "...";
  return redactEmbedded(word);
}

/**
 * A header flag's value: `Name: value` (or `Name:value`, as mcp-remote takes it) keeps the name,
 * a JSON object of headers keeps its keys; every header value is `...`, whatever the header.
 */
function redactHeaderValue(value: string): string {
  const json = parseJson(value);
  if (json !== undefined) return jsonText(json, "all");
  const header = /^([^:\s]+):(\s*)/.exec(value);
  return header && HEADER_NAME.test(header[1]!) ? `${header[1]}:${header[2]}...` : "...";
}

/** A JSON object or array (the only JSON a word is taken as), or undefined. */
function parseJson(word: string): unknown {
  if (!/^\s*[[{]/.test(word)) return undefined;
  try {
    const value: unknown = JSON.parse(word);
    return typeof value === "object" && value !== null ? value : undefined;
  } catch {
    return undefined;
  }
}

/** The JSON text of `value` redacted; `...` for JSON nested too deep to walk. */
function jsonText(value: unknown, mode: "names" | "all"): string {
  try {
    return JSON.stringify(redactJson(value, mode));
  } catch {
    return "...";
  }
}

/** A JSON value with its keys kept: `names` redacts what secret-named keys hold, `all` every string and number. */
function redactJson(value: unknown, mode: "names" | "all"): unknown {
  // A list of strings is most often command words (`"args": ["--api-key", "X"]`): read as such.
  if (Array.isArray(value) && mode === "names" && value.length > 0 && value.every((item) => typeof item === "string")) return redactCommand(value);
  if (Array.isArray(value)) return value.map((item) => redactJson(item, mode));
  if (typeof value === "object" && value !== null) {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      const hidden = mode === "all" || (isSecretName(key) && !isReference(key));
      const shown = hidden && (typeof item === "string" || typeof item === "number") ? "..." : redactJson(item, hidden ? "all" : mode);
      Object.defineProperty(out, key, { value: shown, enumerable: true, writable: true, configurable: true });
    }
    return out;
  }
  if (typeof value === "string") return mode === "all" ? "..." : redactWord(value, "loose");
  if (typeof value === "number" && mode === "all") return "...";
  return value;
}

/**
 * A URL as typed, host and path kept: user and password as `...:...`, each query (and fragment)
 * value as `...`, a path segment shaped like a key (`/mcp/sk-...`) as `...`.
 */
function redactUrlText(url: string): string {
  const m = /^([A-Za-z][A-Za-z0-9+.-]*:\/\/)([^/?#]*)([^?#]*)(\?[^#]*)?(#[^]*)?$/.exec(url);
  if (!m) return "...";
  const [, scheme, authority, pathPart, query, fragment] = m as unknown as [string, string, string, string, string | undefined, string | undefined];
  const at = authority.lastIndexOf("@");
  const host = at === -1 ? authority : `${authority.slice(0, at).includes(":") ? "...:..." : "..."}@${authority.slice(at + 1)}`;
  // Each segment: `...` when key-shaped; its `;name=value` parameters (`;jsessionid=`) keep the name only.
  const segments = pathPart.split("/").map((segment) => {
    const semicolon = segment.indexOf(";");
    const head = semicolon === -1 ? segment : segment.slice(0, semicolon);
    const parameters = semicolon === -1 ? "" : segment.slice(semicolon).replace(/;([^;=]*)=[^;]*/g, ";$1=...");
    return `${SECRET_VALUE.test(safeDecode(head)) ? "..." : head}${parameters}`;
  });
  const params = (text: string) =>
    text
      .split("&")
      .map((part) => {
        const eq = part.indexOf("=");
        if (eq === -1) return part === "" || isHarmless(safeDecode(part)) ? part : "...";
        return eq === part.length - 1 ? part : `${part.slice(0, eq)}=...`;
      })
      .join("&");
  const hash =
    fragment === undefined ? "" : fragment.includes("=") ? `#${params(fragment.slice(1))}` : SECRET_VALUE.test(fragment.slice(1)) ? "#..." : fragment;
  return `${scheme}${host}${segments.join("/")}${query === undefined ? "" : `?${params(query.slice(1))}`}${hash}`;
}

/**
 * Credentials inside a longer word (inline code, a connection string): `Bearer X`, `Basic X`,
 * `password=X`, `apiKey: 'X'`, `"token":"X"` lose X.
 */
function redactEmbedded(word: string): string {
  return (
    word
      .replace(/\b(Bearer|Basic|Token)(\s+)[^\s"'`,;)}\]]+/gi, "$1$2...")
      // The lookbehind tries each name once, from its start (else a long word takes quadratic time).
      .replace(
        /(?<![A-Za-z0-9_-])([A-Za-z0-9_-]+)(["']?\s*[:=]\s*)(["'`]?)([^"'`\s,;&)}\]]+)/g,
        (all: string, name: string, sep: string, quote: string, value: string) =>
          isSecretName(name) && !isReference(name) && value !== "..." && !/^(Bearer|Basic|Token)$/i.test(value) && !/^\/\//.test(value)
            ? `${name}${sep}${quote}...`
            : all,
      )
  );
}

/**
 * Values that are not secrets, kept after a one-letter flag or in `NAME=value`: numbers, ports and
 * versions (`3000`, `8080:80`, `1.2.3`, `30s`), paths (`/x`, `./x`, `~/x`, `C:\x`, `name.ext`,
 * `dir/sub`, `ghcr.io/org/image:tag`), packages (`@scope/pkg@1.2.3`, `pkg@1`, `npm:pkg`), variable
 * names (`GITHUB_TOKEN`), and a few known words (`stdio`, `debug`, `true`, `production`...).
 */
function isHarmless(value: string): boolean {
  if (SECRET_VALUE.test(value)) return false;
  return (
    value === "" ||
    /^[+-]?\d{1,10}([.:,_-]\d{1,10})*[a-z]{0,2}$/i.test(value) ||
    /^(\.{0,2}[\\/]|~([\\/]|$)|\.{1,2}$|[A-Za-z]:[\\/])/.test(value) ||
    /^[\w.-]{1,64}\.[A-Za-z][A-Za-z0-9]{0,5}$/.test(value) ||
    /^[a-z0-9][a-z0-9._-]*(\/[a-z0-9._-]+)+(:[\w.-]+)?$/.test(value) ||
    PACKAGE.test(value) ||
    (/^[A-Z_][A-Z0-9_]*$/.test(value) && (value.includes("_") || !/\d/.test(value))) ||
    KNOWN_WORDS.has(value.toLowerCase())
  );
}

/** A name (flag, variable, header, key) that says it holds a credential. */
export function isSecretName(name: string): boolean {
  return SECRET_NAME.test(name) || nameParts(name).some((part) => SECRET_PART.test(part));
}

/** A credential name that says where the credential is (`--token-file`, `API_KEY_ENV`), not what it is. */
function isReference(name: string): boolean {
  const parts = nameParts(name);
  return parts.length > 1 && REFERENCE_PART.test(parts[parts.length - 1]!);
}

/** `--api-key-file` -> api, key, file; `apiKeyFile` -> api, Key, File. */
function nameParts(name: string): string[] {
  return name.split(/[^A-Za-z0-9]+|(?<=[a-z0-9])(?=[A-Z])/).filter(Boolean);
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
