/**
 * What `mcpgen pull` writes about its source (the header of the manifest, its messages): the
 * command or URL with anything that may be a credential replaced by `...`.
 */
import { shellWord } from "./shell.js";

/** Flag and parameter names that carry credentials. */
const SECRET_NAME = /key|token|secret|pass(word)?|auth|credential|cookie|session|bearer|jwt|sig(nature)?/i;
/** Values shaped like API keys: known prefixes, or long runs of letters and digits mixed. */
const SECRET_VALUE = /^(sk|pk|rk|ghp|gho|ghu|ghs|github_pat|xox[abpr]|glpat|AKIA|AIza)[-_A-Za-z0-9]{8,}$|^(?=[A-Za-z0-9_\-+/=]{32,}$)(?=.*\d)(?=.*[A-Za-z]).*$/;

/** The command words, each credential-like value as `...`. */
export function redactCommand(words: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    const inline = /^(--?[A-Za-z][\w-]*)=(.*)$/.exec(word);
    if (inline && SECRET_NAME.test(inline[1]!)) out.push(`${inline[1]}=...`);
    else if (/^--?[A-Za-z][\w-]*$/.test(word) && SECRET_NAME.test(word) && i + 1 < words.length && !words[i + 1]!.startsWith("-")) {
      out.push(word, "...");
      i++;
    } else if (SECRET_VALUE.test(word)) out.push("...");
    else out.push(word);
  }
  return out;
}

/** The URL without user and password, and with every query value as `...`. */
export function redactUrl(url: URL): string {
  const copy = new URL(url.href);
  copy.username = "";
  copy.password = "";
  const keys = [...new Set(copy.searchParams.keys())];
  copy.search = keys.length ? `?${keys.map((k) => `${encodeURIComponent(k)}=...`).join("&")}` : "";
  return copy.href;
}

/** The command as shown: backquoted, each word quoted as a shell needs it. */
export function showCommand(words: readonly string[]): string {
  return `\`${redactCommand(words).map(shellWord).join(" ")}\``;
}
