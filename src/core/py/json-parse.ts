import { PyException, valueError } from './errors';
import type { PyDict, PyValue } from './value';
import { fastJsonLoads, stringEnd } from './json-fast';
import { MAX_STR_DIGITS } from './int-parse';

const MAX_DEPTH = 900;

/** A JSON error with where it happened (char offset as Python counts it, 1-based line and column). */
export interface JsonDamage {
  readonly error: PyException;
  /** Position in the JavaScript string. */
  readonly pos: number;
  readonly line: number;
  readonly column: number;
  /** The offset Python reports (code points). */
  readonly char: number;
}

/**
 * `json.loads` with Python's result types: integers without fraction or exponent
 * are ints (bigint), everything else is a float; `NaN`, `Infinity`, `-Infinity`
 * are accepted; objects keep insertion order and the last duplicate wins.
 * Errors are `JSONDecodeError`s with Python's message, or `ValueError` for
 * integers longer than 4300 digits. A text `JSON.parse` reads exactly as Python does goes through it
 * (`json-fast.ts`); any other is read by this module's reader (`parseJsonExact`).
 */
// Python parity: json.loads / json.decoder.JSONDecoder (scanner and py_scanstring).
export function parseJson(
  text: string,
  options: {
    readonly freeze?: boolean;
    /** Set to the most containers any value of the text is inside (0: a scalar, or the top container's members at 1). */
    readonly deepest?: { value: number };
  } = {},
): PyValue {
  const fast = fastJsonLoads(text, MAX_DEPTH, options.freeze === true ? (v) => frozen(v as PyDict) : undefined);
  if (fast !== null) {
    if (options.deepest) options.deepest.value = fast.deepest;
    return fast.value as PyValue;
  }
  return parseJsonExact(text, options);
}

/**
 * `parseJson` through this module's own reader only (no `JSON.parse` fast path): the reference the fast path
 * (`json-fast.ts`) is checked against, and the reader of every text the fast path declines.
 */
// Python parity: json.loads / json.decoder.JSONDecoder (scanner and py_scanstring).
export function parseJsonExact(
  text: string,
  options: {
    readonly freeze?: boolean;
    readonly deepest?: { value: number };
    /** Every string read character by character, escapes included (the reference `Parser.string`'s use of JSON.parse is checked against). */
    readonly byRule?: boolean;
  } = {},
): PyValue {
  const p = new Parser(text, options.freeze === true);
  if (options.byRule === true) p.nativeUnescape = false;
  p.ws();
  const v = p.value(0);
  p.ws();
  if (p.i !== text.length) throw p.fail('Extra data', p.i);
  if (options.deepest) options.deepest.value = p.deepest;
  return v;
}

/**
 * One element of a top-level list, read on its own exactly as `scanList` reads it inside the list
 * (the same depth limit, over-long integers refused): its value, or null when it is not one clean
 * JSON value (any error, a deferred over-long integer, text after it). A caller that gets null
 * reads the whole list with `scanList`, which says where and why.
 */
export function parseListElement(text: string): { readonly value: PyValue } | null {
  const p = new Parser(text, false);
  p.deferLongInts = true;
  try {
    const value = p.value(1);
    if (p.deferred !== null || p.i !== text.length) return null;
    return { value };
  } catch (e) {
    if (e instanceof PyException) return null;
    throw e;
  }
}

/** Like parseJson but returns undefined instead of throwing a JSONDecodeError. */
export function tryParseJson(text: string): { ok: true; value: PyValue } | { ok: false; error: PyException } {
  try {
    return { ok: true, value: parseJson(text) };
  } catch (e) {
    if (e instanceof PyException) return { ok: false, error: e };
    throw e;
  }
}

/**
 * 1-based line and column, and the offset Python reports as `char`, of a position in the text.
 * Python counts code points where JavaScript counts UTF-16 units, so a character outside the
 * BMP before the position counts once.
 */
// Python parity: json.decoder.JSONDecodeError (lineno, colno, pos)
export function lineColumn(s: string, pos: number): { line: number; column: number; char: number } {
  return new LineCounter(s).at(pos);
}

/**
 * `lineColumn` of positions in one text, counted on from the last one asked for (from the start
 * again only for an earlier position): a scan that meets damage after damage — each resume attempt
 * that fails is one — would otherwise count from the start of the text each time, quadratic in the
 * file's size.
 */
// Python parity: json.decoder.JSONDecodeError (lineno, colno, pos)
class LineCounter {
  private k = 0;
  private line = 1;
  private char = 0;
  private charAtNewline = -1;
  constructor(private readonly s: string) {}

  at(pos: number): { line: number; column: number; char: number } {
    if (pos < this.k) {
      this.k = 0;
      this.line = 1;
      this.char = 0;
      this.charAtNewline = -1;
    }
    const s = this.s;
    let { k, line, char, charAtNewline } = this;
    // A surrogate pair cut by `pos` counts as one character before it (as in `lineColumn`) and as
    // part of a pair after it: the count is not kept from such a position.
    let cut = false;
    for (; k < pos && k < s.length; k++) {
      const c = s.charCodeAt(k);
      if (c >= 0xd800 && c <= 0xdbff && (s.charCodeAt(k + 1) & 0xfc00) === 0xdc00) {
        if (k + 1 < pos) k++;
        else cut = true;
      } else if (c === 10) {
        line += 1;
        charAtNewline = char;
      }
      char++;
    }
    if (!cut) Object.assign(this, { k, line, char, charAtNewline });
    return { line, column: char - charAtNewline, char: char + Math.max(0, pos - s.length) };
  }
}

/** One element of a top-level list, read on its own: its value, or why it could not be read. */
export type ListItem<T = PyValue> =
  | { readonly ok: true; readonly value: T; readonly start: number; readonly end: number; readonly damage: JsonDamage | null }
  | { readonly ok: false; readonly start: number; readonly end: number; readonly damage: JsonDamage };

export interface ListScan<T = PyValue> {
  readonly items: readonly ListItem<T>[];
  /** Damage between or after the elements (a broken delimiter, extra data, a truncated end). */
  readonly outside: readonly JsonDamage[];
}

const damageAt = (p: Parser, e: PyException): JsonDamage => ({ error: e, pos: p.failPos, ...p.lines.at(p.failPos) });

/**
 * Reads a top-level JSON list element by element, so that damage in one element costs that
 * element only: an over-long integer marks its element (json.loads would refuse the whole
 * file); a syntax error marks the element it falls in and reading resumes at the next
 * position where an element accepted by `isElement` parses. Elements before the damage are
 * always kept. Returns null when the text is not a list at all (use parseJson for its error).
 * `keep` turns each element read into what the scan holds on to (by default the value itself), so a
 * caller can keep less than every parsed element; it gets the element's index among the items and
 * its `start`/`end` in the text.
 */
export function scanList(text: string, isElement: (v: PyValue) => boolean, resumeAt: RegExp): ListScan | null;
export function scanList<T>(
  text: string,
  isElement: (v: PyValue) => boolean,
  resumeAt: RegExp,
  keep: (v: PyValue, index: number, start: number, end: number) => T,
): ListScan<T> | null;
export function scanList<T>(
  text: string,
  isElement: (v: PyValue) => boolean,
  resumeAt: RegExp,
  keep: (v: PyValue, index: number, start: number, end: number) => T = (v) => v as T,
): ListScan<T> | null {
  const p = new Parser(text, false);
  p.deferLongInts = true;
  p.ws();
  if (text[p.i] !== '[') return null;
  p.i++;
  p.ws();
  const items: ListItem<T>[] = [];
  const outside: JsonDamage[] = [];
  if (text[p.i] === ']') {
    p.i++;
  } else {
    for (;;) {
      const start = p.i;
      let value: PyValue;
      try {
        p.deferred = null;
        value = p.value(1);
      } catch (e) {
        if (!(e instanceof PyException)) throw e;
        const damage = damageAt(p, e);
        const next = start >= text.length ? -1 : resume(p, start + 1, isElement, resumeAt);
        if (start < text.length || items.length === 0) items.push({ ok: false, start, end: next === -1 ? text.length : next, damage });
        else outside.push(damage);
        if (next === -1) break;
        p.i = next;
        continue;
      }
      const deferred = p.deferred as JsonDamage | null;
      items.push(
        deferred ? { ok: false, start, end: p.i, damage: deferred } : { ok: true, value: keep(value, items.length, start, p.i), start, end: p.i, damage: null },
      );
      p.ws();
      const c = text[p.i];
      if (c === ']') {
        p.i++;
        break;
      }
      if (c === ',') {
        p.i++;
        p.ws();
        continue;
      }
      outside.push(damageAt(p, p.fail("Expecting ',' delimiter", p.i)));
      const next = resume(p, p.i, isElement, resumeAt);
      if (next === -1) break;
      p.i = next;
    }
  }
  p.ws();
  if (p.i < text.length) outside.push(damageAt(p, p.fail('Extra data', p.i)));
  return { items, outside };
}

/** The next position at or after `from` where an element accepted by `isElement` parses; -1 (the parser at the end) when none does. */
function resume(p: Parser, from: number, isElement: (v: PyValue) => boolean, resumeAt: RegExp): number {
  const re = new RegExp(resumeAt.source, 'g');
  re.lastIndex = from;
  for (let m = re.exec(p.s); m; m = re.exec(p.s)) {
    p.i = m.index;
    try {
      p.deferred = null;
      if (isElement(p.value(1))) return m.index;
    } catch (e) {
      if (!(e instanceof PyException)) throw e;
    }
    re.lastIndex = m.index + 1;
  }
  // Nothing further is an element: the rest belongs to the damage, so the parser ends there (not
  // wherever the last candidate it tried stopped, which would read as text after the list).
  p.i = p.s.length;
  return -1;
}

const NUM = /-?(?:0|[1-9]\d*)(\.\d+)?([eE][-+]?\d+)?/y;

function refuse(): never {
  throw new TypeError('This value is frozen (a DB state); tools change it through writeDb.');
}

/** Freezes a container (Maps get throwing mutators, as immer's `freeze` gave them), in one pass. */
export function frozen<T extends PyDict | PyValue[]>(v: T): T {
  if (v instanceof Map) {
    const m = v as unknown as { set: unknown; clear: unknown; delete: unknown };
    m.set = m.clear = m.delete = refuse;
  }
  return Object.freeze(v);
}

class Parser {
  i = 0;
  /** Line and column of error positions (see `LineCounter`). */
  readonly lines: LineCounter;
  constructor(
    readonly s: string,
    readonly freeze: boolean,
  ) {
    this.lines = new LineCounter(s);
  }

  /** Set by `scanList`: integers over the digit limit are recorded here instead of thrown. */
  deferred: JsonDamage | null = null;
  deferLongInts = false;
  /** A string with escapes is unescaped by the engine's JSON.parse where it reads it (see `string`). */
  nativeUnescape = true;

  fail(msg: string, pos: number): PyException {
    const { line, column, char } = this.lines.at(pos);
    const e = new PyException('JSONDecodeError', `${msg}: line ${line} column ${column} (char ${char})`);
    this.failPos = pos;
    return e;
  }

  /** Where the last error was raised (char offset). */
  failPos = 0;

  /** The most containers a value read so far is inside. */
  deepest = 0;

  ws(): void {
    const s = this.s;
    let i = this.i;
    for (;;) {
      const c = s.charCodeAt(i);
      if (c === 32 || c === 10 || c === 13 || c === 9) i++;
      else break;
    }
    this.i = i;
  }

  value(depth: number): PyValue {
    const s = this.s;
    const c = s[this.i];
    if (depth > this.deepest) this.deepest = depth;
    if (depth > MAX_DEPTH && (c === '[' || c === '{')) {
      this.failPos = this.i;
      // Python parity: _json.c scan_once_unicode (Py_EnterRecursiveCall)
      throw new PyException('RecursionError', `maximum recursion depth exceeded while decoding a JSON ${c === '[' ? 'array' : 'object'} from a unicode string`);
    }
    switch (c) {
      case '"':
        return this.string();
      case '{':
        return this.object(depth);
      case '[':
        return this.array(depth);
      case 'n':
        if (s.startsWith('null', this.i)) return ((this.i += 4), null);
        break;
      case 't':
        if (s.startsWith('true', this.i)) return ((this.i += 4), true);
        break;
      case 'f':
        if (s.startsWith('false', this.i)) return ((this.i += 5), false);
        break;
      case 'N':
        if (s.startsWith('NaN', this.i)) return ((this.i += 3), NaN);
        break;
      case 'I':
        if (s.startsWith('Infinity', this.i)) return ((this.i += 8), Infinity);
        break;
      case '-':
        if (s.startsWith('-Infinity', this.i)) return ((this.i += 9), -Infinity);
        break;
    }
    NUM.lastIndex = this.i;
    const m = NUM.exec(s);
    if (m) {
      this.i = NUM.lastIndex;
      const t = m[0];
      if (m[1] === undefined && m[2] === undefined) {
        if (t.replace('-', '').length > MAX_STR_DIGITS) {
          const e = valueError(
            `Exceeds the limit (${MAX_STR_DIGITS} digits) for integer string conversion: value has ${t.replace('-', '').length} digits; use sys.set_int_max_str_digits() to increase the limit`,
          );
          const pos = this.i - t.length;
          if (!this.deferLongInts) {
            this.failPos = pos;
            throw e;
          }
          this.deferred ??= { error: e, pos, ...this.lines.at(pos) };
          return Number(t);
        }
        return BigInt(t);
      }
      return Number(t);
    }
    throw this.fail('Expecting value', this.i);
  }

  string(): string {
    const s = this.s;
    const start = ++this.i;
    // Fast path: no escapes and no control characters.
    let j = start;
    for (;;) {
      const c = s.charCodeAt(j);
      if (c === 34) {
        this.i = j + 1;
        return s.slice(start, j);
      }
      if (c === 92 || c < 32 || Number.isNaN(c)) break;
      j++;
    }
    if (this.nativeUnescape && s.charCodeAt(j) === 92) {
      // Escapes: the string's text up to its closing quote (the first after an even run of backslashes) unescaped by
      // the engine's JSON.parse, whose escapes, surrogate handling and refusals (a control character, a bad escape)
      // are json.loads' own; anything it refuses is read below, which words Python's error.
      const end = stringEnd(s, start - 1);
      if (end !== -1) {
        try {
          const v = JSON.parse(s.slice(start - 1, end)) as string;
          this.i = end;
          return v;
        } catch {
          // Read below, for Python's words.
        }
      }
    }
    let out = s.slice(start, j);
    this.i = j;
    for (;;) {
      // Copy the run of plain characters up to the next quote, backslash or control character.
      let k = this.i;
      for (;;) {
        const d = s.charCodeAt(k);
        if (d === 34 || d === 92 || d < 32 || Number.isNaN(d)) break;
        k++;
      }
      if (k > this.i) {
        out += s.slice(this.i, k);
        this.i = k;
      }
      const c = s.charCodeAt(this.i);
      if (Number.isNaN(c)) throw this.fail('Unterminated string starting at', start - 1);
      if (c === 34) {
        this.i++;
        return out;
      }
      if (c < 32) throw this.fail('Invalid control character at', this.i);
      const e = s[this.i + 1];
      switch (e) {
        case '"':
        case '\\':
        case '/':
          out += e;
          this.i += 2;
          break;
        case 'b':
          out += '\b';
          this.i += 2;
          break;
        case 'f':
          out += '\f';
          this.i += 2;
          break;
        case 'n':
          out += '\n';
          this.i += 2;
          break;
        case 'r':
          out += '\r';
          this.i += 2;
          break;
        case 't':
          out += '\t';
          this.i += 2;
          break;
        case 'u': {
          const u = this.hex4(this.i + 2);
          this.i += 6;
          // Python parity: py_scanstring joins a valid surrogate pair, keeps a lone one.
          if (u >= 0xd800 && u <= 0xdbff && s[this.i] === '\\' && s[this.i + 1] === 'u') {
            const lo = this.hex4(this.i + 2);
            if (lo >= 0xdc00 && lo <= 0xdfff) {
              this.i += 6;
              out += String.fromCharCode(u, lo);
              break;
            }
          }
          out += String.fromCharCode(u);
          break;
        }
        default:
          if (e === undefined) throw this.fail('Unterminated string starting at', start - 1);
          throw this.fail('Invalid \\escape', this.i);
      }
    }
  }

  hex4(at: number): number {
    const h = this.s.slice(at, at + 4);
    if (!/^[0-9a-fA-F]{4}$/.test(h)) throw this.fail('Invalid \\uXXXX escape', at - 1);
    return parseInt(h, 16);
  }

  object(depth: number): PyDict {
    const s = this.s;
    const out: PyDict = new Map();
    this.i++;
    this.ws();
    if (s[this.i] === '}') {
      this.i++;
      return this.freeze ? frozen(out) : out;
    }
    for (;;) {
      if (s[this.i] !== '"') throw this.fail('Expecting property name enclosed in double quotes', this.i);
      const k = this.string();
      this.ws();
      if (s[this.i] !== ':') throw this.fail("Expecting ':' delimiter", this.i);
      this.i++;
      this.ws();
      out.set(k, this.value(depth + 1));
      this.ws();
      const c = s[this.i];
      if (c === '}') {
        this.i++;
        return this.freeze ? frozen(out) : out;
      }
      if (c !== ',') throw this.fail("Expecting ',' delimiter", this.i);
      this.i++;
      this.ws();
    }
  }

  array(depth: number): PyValue[] {
    const s = this.s;
    const out: PyValue[] = [];
    this.i++;
    this.ws();
    if (s[this.i] === ']') {
      this.i++;
      return this.freeze ? frozen(out) : out;
    }
    for (;;) {
      out.push(this.value(depth + 1));
      this.ws();
      const c = s[this.i];
      if (c === ']') {
        this.i++;
        return this.freeze ? frozen(out) : out;
      }
      if (c !== ',') throw this.fail("Expecting ',' delimiter", this.i);
      this.i++;
      this.ws();
    }
  }
}
