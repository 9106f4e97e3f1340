/**
 * How guessable a key typed by a person is: a rough count of the bits a guesser must search,
 * and what made it guessable. Random keys (32 random bytes, their base64url or hex text, a UUID)
 * come out far above the bar; typed ones (`passwordpassword12345678901234567`) far below it.
 *
 * The key is read left to right; at each place the longest of these is taken, at its cost:
 * - a common password or word (`password`, `secret`, `qwerty`; case and l33t spelling ignored):
 *   which word, from the list;
 * - a repeat of 4 characters or more earlier in the key (`passwordpassword`): where it was, and how long;
 * - a run of 4 consecutive characters or more (`123456789`, `abcdef`, `98765`) or one character repeated:
 *   its start, length and direction;
 * - else one character: log2 of the alphabet the key draws from (digits 10, lower and upper case
 *   letters 26 each, printable symbols 33; any other byte makes it 256).
 * This is a floor against keys a person made up, not a proof that a key is random: make keys with
 * a random generator.
 */

/** Bits a key must be estimated to hold (as many as a random 16-byte key; HMAC-SHA256 keys are 32 bytes). */
export const MIN_KEY_BITS = 128;

/** Only the start of a very long key is read (the repeat search is quadratic in it). */
const READ_BYTES = 256;

/** The most common passwords and the words keys are made of, as compared (lower case, l33t undone). */
const COMMON = [
  "password",
  "passwd",
  "secret",
  "changeme",
  "change",
  "default",
  "example",
  "sample",
  "admin",
  "administrator",
  "root",
  "user",
  "login",
  "letmein",
  "welcome",
  "qwerty",
  "qwertyuiop",
  "asdfgh",
  "asdfghjkl",
  "zxcvbn",
  "zxcvbnm",
  "azerty",
  "iloveyou",
  "monkey",
  "dragon",
  "master",
  "shadow",
  "sunshine",
  "princess",
  "football",
  "baseball",
  "superman",
  "batman",
  "trustno",
  "whatever",
  "freedom",
  "hello",
  "test",
  "testing",
  "token",
  "signing",
  "server",
  "state",
  "request",
  "production",
  "staging",
  "development",
  "local",
  "private",
  "mysecret",
  "topsecret",
  "key",
].map(normalize);

/** A guessability estimate: the bits, and up to three reasons in words. */
export interface KeyStrength {
  bits: number;
  reasons: string[];
}

/** Estimates how many bits a guesser must search for `key`. */
export function keyStrength(key: Uint8Array): KeyStrength {
  const bytes = key.subarray(0, READ_BYTES);
  const alphabet = alphabetOf(bytes);
  const perByte = Math.log2(alphabet.size);
  const folded = Array.from(bytes, (b) => normalize(String.fromCharCode(b)));
  const reasons: string[] = [];
  let bits = 0;
  for (let i = 0; i < bytes.length;) {
    const word = commonWordAt(folded, i);
    const repeat = repeatAt(bytes, i);
    const run = runAt(bytes, i, perByte);
    const best = [word, repeat, run].reduce((a, b) => (b.length > a.length || (b.length === a.length && b.bits < a.bits) ? b : a));
    if (best.length === 0) {
      bits += perByte;
      i++;
      continue;
    }
    const text = shown(bytes.subarray(i, i + best.length));
    reasons.push(best === word ? `"${text}" is a common password` : best === repeat ? `"${text}" repeats earlier text` : `"${text}" is a run`);
    bits += best.bits;
    i += best.length;
  }
  // A key too short for its alphabet says so first, whatever else it holds.
  if (reasons.length === 0 || bytes.length * perByte < MIN_KEY_BITS) reasons.unshift(`${bytes.length} characters of ${alphabet.names.join(", ")} only`);
  return { bits: Math.floor(bits), reasons: [...new Set(reasons)].slice(0, 3) };
}

interface Match {
  length: number;
  bits: number;
}

const NONE: Match = { length: 0, bits: 0 };

/** The longest common word (3 characters or more) that starts at `i`. */
function commonWordAt(folded: readonly string[], i: number): Match {
  let best = NONE;
  for (const word of COMMON) {
    if (word.length < 3 || word.length <= best.length || i + word.length > folded.length) continue;
    let j = 0;
    while (j < word.length && folded[i + j] === word[j]) j++;
    if (j === word.length) best = { length: word.length, bits: Math.log2(COMMON.length) + 1 };
  }
  return best;
}

/** The longest text (4 bytes or more) at `i` that also starts before `i`: its place and length. */
function repeatAt(bytes: Uint8Array, i: number): Match {
  let length = 0;
  for (let start = 0; start < i; start++) {
    let n = 0;
    while (i + n < bytes.length && bytes[start + n] === bytes[i + n]) n++;
    if (n > length) length = n;
  }
  return length >= 4 ? { length, bits: Math.log2(i) + Math.log2(length) } : NONE;
}

/** The longest run at `i` of 4 bytes or more, each the last plus -1, 0 or +1 (digits wrap: 7890123): its start, length and step. */
function runAt(bytes: Uint8Array, i: number, perByte: number): Match {
  let best = NONE;
  for (const step of [-1, 0, 1]) {
    let n = 1;
    while (i + n < bytes.length && follows(bytes[i + n - 1]!, bytes[i + n]!, step)) n++;
    if (n >= 4 && n > best.length) best = { length: n, bits: perByte + Math.log2(n) + (step === 0 ? 0 : 1) };
  }
  return best;
}

function follows(previous: number, next: number, step: number): boolean {
  if (next === previous + step) return true;
  const digit = (b: number) => b >= 0x30 && b <= 0x39;
  return step !== 0 && digit(previous) && digit(next) && (next - 0x30 - (previous - 0x30) - step) % 10 === 0;
}

/** The kinds of characters a key uses, and how many characters they make. */
function alphabetOf(bytes: Uint8Array): { size: number; names: string[] } {
  const kinds: [string, number, (b: number) => boolean][] = [
    ["digits", 10, (b) => b >= 0x30 && b <= 0x39],
    ["lower case letters", 26, (b) => b >= 0x61 && b <= 0x7a],
    ["upper case letters", 26, (b) => b >= 0x41 && b <= 0x5a],
    ["symbols", 33, (b) => b >= 0x20 && b <= 0x7e && !/[A-Za-z0-9]/.test(String.fromCharCode(b))],
  ];
  if (bytes.some((b) => b < 0x20 || b > 0x7e)) return { size: 256, names: ["any byte"] };
  const used = kinds.filter(([, , test]) => bytes.some(test));
  return {
    size: Math.max(
      2,
      used.reduce((sum, [, size]) => sum + size, 0),
    ),
    names: used.map(([name]) => name),
  };
}

/** A character as word lists compare it: lower case, l33t spelling undone. */
function normalize(text: string): string {
  return text.toLowerCase().replace(/[@4031!$57+]/g, (c) => LEET[c]!);
}

const LEET: Readonly<Record<string, string>> = { "@": "a", "4": "a", "0": "o", "3": "e", "1": "i", "!": "i", $: "s", "5": "s", "7": "t", "+": "t" };

/** Bytes as text for a message: printable ASCII as it is, cut at 24 characters. */
function shown(bytes: Uint8Array): string {
  const text = Array.from(bytes, (b) => (b >= 0x20 && b <= 0x7e && b !== 0x22 && b !== 0x5c ? String.fromCharCode(b) : "?")).join("");
  return text.length > 24 ? `${text.slice(0, 24)}...` : text;
}
