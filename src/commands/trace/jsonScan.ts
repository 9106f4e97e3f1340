/**
 * An incremental JSON checker for a message too large to hold: bytes in as they arrive, and at the
 * end whether they were one well-formed JSON text (RFC 8259), without building its value. On the
 * way it keeps the few small fields a reader of the live view needs (`jsonrpc`, `id`, `method`,
 * `params.name`, `params.uri`, `error.code`, `error.message`, `result.isError`), so a stand-in can
 * be shown for a message nobody parsed.
 */

const enum S {
  Value,
  ObjectFirst,
  ObjectKey,
  Colon,
  ArrayFirst,
  After,
  Done,
  String,
  Escape,
  Hex,
  Minus,
  Zero,
  Integer,
  Dot,
  Fraction,
  Exponent,
  ExponentSign,
  ExponentDigits,
  Literal,
  Invalid,
}

const OBJECT = 1;
const ARRAY = 2;
/** The longest key or field value kept for the stand-in (bytes of JSON). */
const KEEP_BYTES = 512;

/** The fields kept of the message itself. */
const KEPT_TOP = new Set(["jsonrpc", "id", "method"]);
/** The fields kept of the message's objects, by their key. */
const KEPT_UNDER = new Map([
  ["params", new Set(["name", "uri"])],
  ["error", new Set(["code", "message"])],
  ["result", new Set(["isError"])],
]);

const isSpace = (b: number) => b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09;
const isDigit = (b: number) => b >= 0x30 && b <= 0x39;
const isHex = (b: number) => isDigit(b) || (b >= 0x41 && b <= 0x46) || (b >= 0x61 && b <= 0x66);

export class JsonScanner {
  private state = S.Value;
  /** Open containers, outermost first. */
  private readonly stack: number[] = [];
  /** Inside a string: whether it is an object key. */
  private inKey = false;
  private hexLeft = 0;
  private literal = "";
  private literalAt = 0;
  /** The current key at depth 1 and 2 (undefined when too long to keep). */
  private readonly keys: (string | undefined)[] = [];
  /** The bytes of the key or kept value being read, or undefined when not keeping. */
  private token: number[] | undefined;
  private tokenTooLong = false;
  private readonly top = new Map<string, unknown>();
  private readonly parents = new Map<string, Map<string, unknown>>();
  private topIsArray = false;

  /** Reads more bytes; a byte that cannot continue well-formed JSON makes the whole text invalid. */
  push(bytes: Uint8Array): void {
    for (let i = 0; i < bytes.length && this.state !== S.Invalid; i++) this.byte(bytes[i]!);
  }

  get invalid(): boolean {
    return this.state === S.Invalid;
  }

  /** The end of the bytes: whether they were one whole JSON text. */
  end(): boolean {
    if (this.stack.length === 0 && (this.state === S.Zero || this.state === S.Integer || this.state === S.Fraction || this.state === S.ExponentDigits))
      this.state = S.Done;
    return this.state === S.Done;
  }

  /** A stand-in for the message with the small fields kept: what the live view shows of it. */
  standIn(): unknown {
    if (this.topIsArray) return [];
    const out: Record<string, unknown> = Object.fromEntries(this.top);
    for (const [parent, fields] of this.parents) out[parent] = Object.fromEntries(fields);
    return out;
  }

  private byte(b: number): void {
    switch (this.state) {
      case S.String:
        if (this.token) this.keep(b);
        if (b === 0x22) return this.endString();
        if (b === 0x5c) this.state = S.Escape;
        else if (b < 0x20) this.state = S.Invalid;
        return;
      case S.Escape:
        if (this.token) this.keep(b);
        if (b === 0x75) {
          this.hexLeft = 4;
          this.state = S.Hex;
        } else if (b === 0x22 || b === 0x5c || b === 0x2f || b === 0x62 || b === 0x66 || b === 0x6e || b === 0x72 || b === 0x74) this.state = S.String;
        else this.state = S.Invalid;
        return;
      case S.Hex:
        if (this.token) this.keep(b);
        if (!isHex(b)) this.state = S.Invalid;
        else if (--this.hexLeft === 0) this.state = S.String;
        return;
      case S.Value:
      case S.ArrayFirst:
        if (isSpace(b)) return;
        if (this.state === S.ArrayFirst && b === 0x5d) return this.close();
        return this.startValue(b);
      case S.ObjectFirst:
      case S.ObjectKey:
        if (isSpace(b)) return;
        if (b === 0x7d && this.state === S.ObjectFirst) return this.close();
        if (b !== 0x22) return void (this.state = S.Invalid);
        this.inKey = true;
        this.token = this.stack.length <= 2 ? [b] : undefined;
        this.tokenTooLong = false;
        this.state = S.String;
        return;
      case S.Colon:
        if (isSpace(b)) return;
        this.state = b === 0x3a ? S.Value : S.Invalid;
        return;
      case S.After:
        return this.after(b);
      case S.Done:
        if (!isSpace(b)) this.state = S.Invalid;
        return;
      case S.Literal:
        if (this.token) this.keep(b);
        if (b !== this.literal.charCodeAt(this.literalAt)) return void (this.state = S.Invalid);
        if (++this.literalAt === this.literal.length) this.endScalar();
        return;
      default:
        return this.number(b);
    }
  }

  private startValue(b: number): void {
    const kept = this.keptPath();
    if (b === 0x7b || b === 0x5b) {
      if (this.stack.length === 0 && b === 0x5b) this.topIsArray = true;
      // A parent of kept fields (params, error, result) that is an object: noted even when empty.
      if (this.stack.length === 1 && b === 0x7b) {
        const key = this.keys[0];
        if (key !== undefined && KEPT_UNDER.has(key)) this.parents.set(key, new Map());
      }
      this.stack.push(b === 0x7b ? OBJECT : ARRAY);
      this.state = b === 0x7b ? S.ObjectFirst : S.ArrayFirst;
      return;
    }
    this.token = kept ? [] : undefined;
    this.tokenTooLong = false;
    if (this.token) this.keep(b);
    if (b === 0x22) {
      this.inKey = false;
      this.state = S.String;
    } else if (b === 0x2d) this.state = S.Minus;
    else if (b === 0x30) this.state = S.Zero;
    else if (isDigit(b)) this.state = S.Integer;
    else if (b === 0x74 || b === 0x66 || b === 0x6e) {
      this.literal = b === 0x74 ? "true" : b === 0x66 ? "false" : "null";
      this.literalAt = 1;
      this.state = S.Literal;
    } else this.state = S.Invalid;
  }

  private number(b: number): void {
    const next = this.numberNext(b);
    if (next !== undefined) {
      this.state = next;
      if (this.token && next !== S.Invalid) this.keep(b);
      return;
    }
    // The number ended at the byte before this one, which belongs to what follows.
    this.endScalar();
    this.byte(b);
  }

  /** The number's state after `b`, or undefined when the number ended before `b`. */
  private numberNext(b: number): S | undefined {
    const digit = isDigit(b);
    const exponent = b === 0x65 || b === 0x45;
    switch (this.state) {
      case S.Minus:
        return b === 0x30 ? S.Zero : digit ? S.Integer : S.Invalid;
      case S.Zero:
        return b === 0x2e ? S.Dot : exponent ? S.Exponent : digit ? S.Invalid : undefined;
      case S.Integer:
        return digit ? S.Integer : b === 0x2e ? S.Dot : exponent ? S.Exponent : undefined;
      case S.Dot:
        return digit ? S.Fraction : S.Invalid;
      case S.Fraction:
        return digit ? S.Fraction : exponent ? S.Exponent : undefined;
      case S.Exponent:
        return b === 0x2b || b === 0x2d ? S.ExponentSign : digit ? S.ExponentDigits : S.Invalid;
      case S.ExponentSign:
        return digit ? S.ExponentDigits : S.Invalid;
      default:
        return digit ? S.ExponentDigits : undefined;
    }
  }

  private after(b: number): void {
    if (isSpace(b)) return;
    const container = this.stack[this.stack.length - 1];
    if (b === 0x2c) this.state = container === OBJECT ? S.ObjectKey : S.Value;
    else if ((b === 0x7d && container === OBJECT) || (b === 0x5d && container === ARRAY)) this.close();
    else this.state = S.Invalid;
  }

  private close(): void {
    this.stack.pop();
    this.state = this.stack.length === 0 ? S.Done : S.After;
  }

  private endString(): void {
    if (this.inKey) {
      const depth = this.stack.length;
      this.keys[depth - 1] = this.token && !this.tokenTooLong ? (JSON.parse(Buffer.from(this.token).toString("utf8")) as string) : undefined;
      this.keys.length = depth;
      this.token = undefined;
      this.inKey = false;
      this.state = S.Colon;
      return;
    }
    this.endScalar();
  }

  private endScalar(): void {
    if (this.token && !this.tokenTooLong) {
      const value = JSON.parse(Buffer.from(this.token).toString("utf8")) as unknown;
      const depth = this.stack.length;
      if (depth === 1) this.top.set(this.keys[0]!, value);
      else if (depth === 2) this.parents.get(this.keys[0]!)?.set(this.keys[1]!, value);
    }
    this.token = undefined;
    this.state = this.stack.length === 0 ? S.Done : S.After;
  }

  /** Whether the value starting now is one of the kept fields. */
  private keptPath(): boolean {
    const depth = this.stack.length;
    if (depth === 0 || this.stack[depth - 1] !== OBJECT) return false;
    if (depth === 1) return this.keys[0] !== undefined && KEPT_TOP.has(this.keys[0]);
    if (depth !== 2 || this.keys[0] === undefined || this.keys[1] === undefined || !this.parents.has(this.keys[0])) return false;
    return KEPT_UNDER.get(this.keys[0])?.has(this.keys[1]) ?? false;
  }

  private keep(b: number): void {
    if (this.token!.length >= KEEP_BYTES) this.tokenTooLong = true;
    else this.token!.push(b);
  }
}
