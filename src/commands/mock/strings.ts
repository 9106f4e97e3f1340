/**
 * Strings for the mock: plain words of a given length, the formats clients look at (date-time,
 * date, time, email, uri, uuid, hostname, ipv4), and strings that match a `pattern`, built by
 * walking the pattern's syntax tree (regexpp, the parser mcpgen checks patterns with).
 */
import { RegExpParser, type AST } from "@eslint-community/regexpp";
import type { Random } from "./random.js";

/** A pattern the generator cannot build a match for (a lookaround, a backreference): the caller falls back. */
export class UnmockablePattern extends Error {}

const WORDS = ["alpha", "bravo", "cedar", "delta", "ember", "fjord", "grove", "harbor", "indigo", "juniper", "kite", "lumen", "maple", "nova", "orbit"];
const LETTERS = "abcdefghijklmnopqrstuvwxyz";

/** A readable string of `min` to `max` characters (words, then letters to fill). */
export function plainString(random: Random, min: number, max: number): string {
  const length = random.int(min, Math.max(min, Math.min(max, min + 12)));
  let out = "";
  while (out.length < length) out += (out ? " " : "") + random.pick(WORDS);
  if (out.length > length) out = out.slice(0, length).trimEnd();
  while (out.length < length) out += random.pick([...LETTERS]);
  return out;
}

const pad = (n: number, width = 2) => String(n).padStart(width, "0");

/** A value of a format mcpgen knows, or undefined for any other format. */
export function formatString(format: string, random: Random): string | undefined {
  const date = () => `${random.int(2020, 2030)}-${pad(random.int(1, 12))}-${pad(random.int(1, 28))}`;
  const time = () => `${pad(random.int(0, 23))}:${pad(random.int(0, 59))}:${pad(random.int(0, 59))}Z`;
  const word = () => random.pick(WORDS);
  const hex = (n: number) => Array.from({ length: n }, () => random.int(0, 15).toString(16)).join("");
  switch (format) {
    case "date-time":
      return `${date()}T${time()}`;
    case "date":
      return date();
    case "time":
      return time();
    case "email":
    case "idn-email":
      return `${word()}${random.int(1, 99)}@example.com`;
    case "uri":
    case "iri":
    case "url":
      return `https://example.com/${word()}/${random.int(1, 999)}`;
    case "uri-reference":
    case "iri-reference":
      return `/${word()}/${random.int(1, 999)}`;
    case "uuid":
      return `${hex(8)}-${hex(4)}-4${hex(3)}-${random.pick(["8", "9", "a", "b"])}${hex(3)}-${hex(12)}`;
    case "hostname":
    case "idn-hostname":
      return `${word()}.example.com`;
    case "ipv4":
      return `192.0.2.${random.int(1, 254)}`;
    case "ipv6":
      return `2001:db8::${random.int(1, 65535).toString(16)}`;
    default:
      return undefined;
  }
}

/** Characters a class or set may stand for: printable ASCII first, then a few beyond it. */
const CANDIDATES = [...Array.from({ length: 95 }, (_, i) => String.fromCharCode(32 + i)), "é", "ß", "Ж", "中", "😀", "\t", "\n"];
const classMembers = new Map<string, string[]>();

/** The candidates one character class, set or character matches (tested by the JS engine itself). */
function membersOf(raw: string): string[] {
  let found = classMembers.get(raw);
  if (found === undefined) {
    const test = new RegExp(`^(?:${raw})$`, "u");
    found = CANDIDATES.filter((c) => test.test(c));
    classMembers.set(raw, found);
  }
  return found;
}

const parser = new RegExpParser({ ecmaVersion: 2025 });
const parsed = new Map<string, AST.Pattern | UnmockablePattern>();

/**
 * A string the pattern matches (JSON Schema patterns are unanchored and Unicode-aware): open
 * repetitions are capped at `maxRepeat` beyond their minimum. Throws UnmockablePattern for a
 * pattern it cannot build (lookarounds, backreferences, a class nothing printable matches).
 */
export function patternString(source: string, random: Random, maxRepeat: number): string {
  let pattern = parsed.get(source);
  if (pattern === undefined) {
    try {
      pattern = parser.parsePattern(source, 0, source.length, { unicode: true });
    } catch (error) {
      pattern = new UnmockablePattern(`not a valid regular expression (${(error as Error).message})`);
    }
    parsed.set(source, pattern);
  }
  if (pattern instanceof UnmockablePattern) throw pattern;
  return alternatives(pattern.alternatives, random, maxRepeat);
}

function alternatives(list: readonly AST.Alternative[], random: Random, maxRepeat: number): string {
  const chosen = random.pick(list);
  return chosen.elements.map((e) => element(e, random, maxRepeat)).join("");
}

function element(node: AST.Element, random: Random, maxRepeat: number): string {
  switch (node.type) {
    case "Assertion":
      // ^, $ and \b hold for the string as built (or the validator says otherwise); lookarounds cannot be built.
      if (node.kind === "lookahead" || node.kind === "lookbehind") throw new UnmockablePattern(`a ${node.kind} (${node.raw})`);
      return "";
    case "Quantifier": {
      const max = Number.isFinite(node.max) ? Math.min(node.max, node.min + maxRepeat) : node.min + maxRepeat;
      const count = random.int(node.min, max);
      let out = "";
      for (let i = 0; i < count; i++) out += element(node.element, random, maxRepeat);
      return out;
    }
    case "Group":
    case "CapturingGroup":
      return alternatives(node.alternatives, random, maxRepeat);
    case "Character":
      return String.fromCodePoint(node.value);
    case "CharacterClass":
    case "CharacterSet":
    case "ExpressionCharacterClass": {
      const members = membersOf(node.raw);
      if (members.length === 0) throw new UnmockablePattern(`no printable character matches ${node.raw}`);
      // Plain letters and digits first: `.` and `\S` read better as "k" than as "~".
      const readable = members.filter((c) => /^[A-Za-z0-9]$/.test(c));
      return random.pick(readable.length > 0 && random.chance(0.9) ? readable : members);
    }
    case "Backreference":
      throw new UnmockablePattern(`a backreference (${node.raw})`);
  }
}
