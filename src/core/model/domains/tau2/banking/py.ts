/**
 * The Python builtins and str methods banking_knowledge's tools use, over τ² values, with CPython 3.11's
 * results and exception texts (f-string format specs, `str.title`, `float()`, `datetime.strptime`,
 * `json.dumps(indent=2)`, `json.loads(parse_int=float)`).
 */
import { PyException } from '../../../../py/errors';
import { dumpsFloat, dumpsStr } from '../../../../py/json-dumps';
import { parseJson } from '../../../../py/json-parse';
import { formatFloat2, truthy as pyTruthy } from '../../../../py/ops';
import { pyInt, toAsciiDigits } from '../../../../py/int-parse';
import { reprStr } from '../../../../py/repr';
import { sha256Hex } from '../../../../py/hash';
import { tRepr, tStr, tTypeName, type TDict, type TValue } from '../../../../py/pydantic';
import type { PyValue } from '../../../../py/value';

export const typeError = (text: string): PyException => new PyException('TypeError', text);
export const valueError = (text: string): PyException => new PyException('ValueError', text);
const attributeError = (v: TValue, name: string): PyException => new PyException('AttributeError', `'${tTypeName(v)}' object has no attribute '${name}'`);

/** Python truthiness. */
export const truthy = (v: TValue | undefined): boolean => v !== undefined && pyTruthy(v as PyValue);

/** f-string `{v}`. */
export const s = (v: TValue | undefined): string => tStr(v ?? null);

/** `repr(v)`, as `{list}` in an f-string shows a list of str. */
export const repr = (v: TValue): string => tRepr(v);

/** `d.get(k, default)` on a record (a dict; anything else has no `get`). */
export function get(d: TValue | undefined, k: string, dflt: TValue = null): TValue {
  if (d instanceof Map) return d.has(k) ? d.get(k)! : dflt;
  throw attributeError(d ?? null, 'get');
}

/** A record read as a dict (τ²'s tables hold dicts). */
export const rec = (v: TValue | undefined): TDict => {
  if (v instanceof Map) return v;
  throw attributeError(v ?? null, 'get');
};

const isNum = (v: TValue): v is bigint | number | boolean => typeof v === 'bigint' || typeof v === 'number' || typeof v === 'boolean';

/** A real number as a JS number (`float(v)` for int, float, bool). */
const asNumber = (v: bigint | number | boolean): number => (typeof v === 'boolean' ? (v ? 1 : 0) : Number(v));

// Python parity: float.__format__ / int.__format__ with '.Nf' (an int converts to float first).
function formatFixed(v: TValue, digits: 0 | 2): string {
  if (!isNum(v)) {
    if (typeof v === 'string') throw valueError(`Unknown format code 'f' for object of type 'str'`);
    throw typeError(`unsupported format string passed to ${tTypeName(v)}.__format__`);
  }
  if (typeof v === 'bigint' && (v >= 2n ** 1024n || v <= -(2n ** 1024n))) throw new PyException('OverflowError', 'int too large to convert to float');
  const x = asNumber(v);
  if (digits === 2) return formatFloat2(x);
  if (Number.isNaN(x)) return 'nan';
  if (!Number.isFinite(x)) return x > 0 ? 'inf' : '-inf';
  // Round half to even on the exact binary value: only an exact .5 is a tie.
  const ax = Math.abs(x);
  const fl = Math.floor(ax);
  const frac = ax - fl;
  const r = frac > 0.5 ? fl + 1 : frac < 0.5 ? fl : fl % 2 === 0 ? fl : fl + 1;
  const body = r >= 1e21 ? BigInt(r).toString() : r.toFixed(0);
  return x < 0 || Object.is(x, -0) ? `-${body}` : body;
}

/** f-string `{v:.2f}`. */
export const f2 = (v: TValue): string => formatFixed(v, 2);
/** f-string `{v:.0f}`. */
export const f0 = (v: TValue): string => formatFixed(v, 0);

/** f-string `{v:,}` for an int (float: its repr with the integer part grouped). */
export function comma(v: TValue): string {
  if (typeof v === 'bigint' || typeof v === 'boolean') {
    const t = (typeof v === 'boolean' ? (v ? 1n : 0n) : v).toString();
    const neg = t.startsWith('-');
    const d = neg ? t.slice(1) : t;
    return (neg ? '-' : '') + d.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  }
  if (typeof v === 'number') {
    const t = tStr(v);
    const m = /^(-?)(\d+)(.*)$/.exec(t);
    return m ? `${m[1]}${m[2]!.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}${m[3]}` : t;
  }
  if (typeof v === 'string') throw valueError(`Cannot specify ',' with 's'.`);
  throw typeError(`unsupported format string passed to ${tTypeName(v)}.__format__`);
}

/** `x.replace(a, b)` on a str. */
export function replace(v: TValue, a: string, b: string): string {
  if (typeof v !== 'string') throw attributeError(v, 'replace');
  return v.split(a).join(b);
}

const isCased = (ch: string): boolean => ch.toLowerCase() !== ch.toUpperCase();
const isUpperish = (ch: string): boolean => /\p{Lu}|\p{Lt}/u.test(ch);
const isLowerish = (ch: string): boolean => /\p{Ll}/u.test(ch);

/** `s.title()`. */
// Python parity: str.title — a cased character after a cased one is lowered, any other is title-cased.
export function title(v: TValue): string {
  if (typeof v !== 'string') throw attributeError(v, 'title');
  let out = '';
  let prevCased = false;
  for (const ch of v) {
    if (prevCased) out += ch.toLowerCase();
    else out += ch.toUpperCase();
    prevCased = isCased(ch) && (isUpperish(ch) || isLowerish(ch));
  }
  return out;
}

/** `s.upper()`, `s.lower()`. */
export function upper(v: TValue): string {
  if (typeof v !== 'string') throw attributeError(v, 'upper');
  return v.toUpperCase();
}
export function lower(v: TValue): string {
  if (typeof v !== 'string') throw attributeError(v, 'lower');
  return v.toLowerCase();
}

/** `s.isdigit()`. */
export function isdigit(v: TValue): boolean {
  if (typeof v !== 'string') throw attributeError(v, 'isdigit');
  return (
    v.length > 0 &&
    /^[\p{Nd}\u00b2\u00b3\u00b9\u2070\u2074-\u2079\u2080-\u2089\u2460-\u2468\u2474-\u247c\u2488-\u2490\u24ea\u24f5-\u24fd\u24ff\u2776-\u277e\u2780-\u2788\u278a-\u2792]+$/u.test(
      v,
    )
  );
}

/** `len(v)` of a str (code points), list or dict. */
export function len(v: TValue): number {
  if (typeof v === 'string') return [...v].length;
  if (Array.isArray(v)) return v.length;
  if (v instanceof Map) return v.size;
  throw typeError(`object of type '${tTypeName(v)}' has no len()`);
}

/** `x in [str, …]` (list membership by ==; only a str equals a str). */
// Python parity: iter(x) — list items, dict keys, a string's characters; anything else raises TypeError.
export function iterate(x: TValue): TValue[] {
  if (Array.isArray(x)) return x;
  if (x instanceof Map) return [...x.keys()];
  if (typeof x === 'string') return [...x];
  throw typeError(`'${tTypeName(x)}' object is not iterable`);
}

export const oneOf = (v: TValue, options: readonly string[]): boolean => typeof v === 'string' && options.includes(v);

/** `key in dict` / `dict.get(key)` for a dict keyed by str (an unhashable key raises). */
export function dictKey(v: TValue): string | null {
  if (Array.isArray(v) || v instanceof Map) throw typeError(`unhashable type: '${Array.isArray(v) ? 'list' : 'dict'}'`);
  return typeof v === 'string' ? v : null;
}

/** `float(v)`. */
// Python parity: builtin float() (PyFloat_FromString for a str: non-ASCII decimal digits and spaces made ASCII first —
// float('١٢٣٤') is 1234.0 —, then ASCII whitespace stripped (not \x1c-\x1f, which str.strip would take), single
// underscores between digits).
export function float(v: TValue): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (typeof v === 'bigint') {
    const n = Number(v);
    if (!Number.isFinite(n)) throw new PyException('OverflowError', 'int too large to convert to float');
    return n;
  }
  if (typeof v === 'string') {
    const t = toAsciiDigits(v).replace(/^[ \t\n\v\f\r]+|[ \t\n\v\f\r]+$/g, '');
    const digits = String.raw`\d(?:_?\d)*`;
    if (/^[+-]?(inf|infinity|nan)$/i.test(t)) return /nan/i.test(t) ? NaN : t.startsWith('-') ? -Infinity : Infinity;
    if (new RegExp(String.raw`^[+-]?(?:${digits}(?:\.(?:${digits})?)?|\.${digits})(?:[eE][+-]?${digits})?$`).test(t)) return Number(t.replaceAll('_', ''));
    throw valueError(`could not convert string to float: ${reprStr(v)}`);
  }
  throw typeError(`float() argument must be a string or a real number, not '${tTypeName(v)}'`);
}

/** `int(v)`. */
export const int = (v: TValue): bigint => pyInt(v as PyValue);

/** `float.is_integer()`. */
export const isInteger = (x: number): boolean => Number.isFinite(x) && Math.trunc(x) === x;

/** `round(x, 4)` of a float (correctly rounded from the exact double, as CPython's dtoa does). */
// Python parity: float.__round__ with ndigits=4.
export function round4(x: number): number {
  if (!Number.isFinite(x) || x === 0) return x;
  const text = exactDecimal(Math.abs(x));
  const [ip, fp = ''] = text.split('.');
  const keep = fp.slice(0, 4).padEnd(4, '0');
  const rest = fp.slice(4);
  let n = BigInt(ip! + keep);
  const half = rest.length > 0 && (rest[0]! > '5' || (rest[0] === '5' && (/[1-9]/.test(rest.slice(1)) || Number(keep.at(-1) ?? ip!.at(-1)) % 2 === 1)));
  if (half) n += 1n;
  const t = n.toString().padStart(5, '0');
  const r = Number(`${t.slice(0, -4)}.${t.slice(-4)}`);
  return x < 0 ? -r : r;
}

/** The exact decimal expansion of a finite non-negative double. */
function exactDecimal(x: number): string {
  if (Number.isInteger(x)) return BigInt(x).toString();
  // x = m * 2^e with m an integer: the expansion has at most 1074 fraction digits.
  let e = 0;
  let m = x;
  while (!Number.isInteger(m)) {
    m *= 2;
    e++;
  }
  const num = BigInt(m) * 5n ** BigInt(e);
  const t = num.toString().padStart(e + 1, '0');
  return `${t.slice(0, -e)}.${t.slice(-e)}`;
}

// ---------------------------------------------------------------------------------------------
// datetime

/** A naive datetime as its count of seconds since 0001-01-01 (comparable, differences in days). */
export interface Stamp {
  readonly days: number;
  readonly seconds: number;
}

const daysBefore = (y: number, m: number, d: number): number => {
  const leap = (yy: number): boolean => yy % 4 === 0 && (yy % 100 !== 0 || yy % 400 === 0);
  const mdays = [31, leap(y) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
  const py = y - 1;
  let n = py * 365 + Math.floor(py / 4) - Math.floor(py / 100) + Math.floor(py / 400);
  for (let i = 0; i < m - 1; i++) n += mdays[i]!;
  return n + d;
};

const monthDays = (y: number, m: number): number => {
  const leap = y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0);
  return [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][m - 1]!;
};

/** `datetime.min`. */
export const DATETIME_MIN: Stamp = { days: 1, seconds: 0 };

/** `get_now()`: 2025-11-14 03:40:00 (naive). */
export const NOW: Stamp = { days: daysBefore(2025, 11, 14), seconds: 3 * 3600 + 40 * 60 };

/** `datetime.strptime(v, fmt)` for `%m/%d/%Y` and `%m/%d/%Y %H:%M:%S`. */
// Python parity: _strptime's regexes for %m %d %Y %H %M %S (re.match, then "unconverted data remains"), and datetime's range checks.
export function strptime(v: TValue, fmt: '%m/%d/%Y' | '%m/%d/%Y %H:%M:%S'): Stamp {
  if (typeof v !== 'string') throw typeError(`strptime() argument 1 must be str, not ${tTypeName(v)}`);
  const date = String.raw`(1[0-2]|0[1-9]|[1-9])/(3[01]|[12]\d|0[1-9]|[1-9]| [1-9])/(\d\d\d\d)`;
  const time = String.raw`\s+(2[0-3]|[0-1]\d|\d):([0-5]\d|\d):(6[0-1]|[0-5]\d|\d)`;
  const m = new RegExp(`^${date}${fmt === '%m/%d/%Y' ? '' : time}`, 'i').exec(v);
  if (m === null) throw valueError(`time data ${reprStr(v)} does not match format '${fmt}'`);
  if (m[0].length !== v.length) throw valueError(`unconverted data remains: ${v.slice(m[0].length)}`);
  const [mo, d, y] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (y < 1) throw valueError(`year 0 is out of range`);
  if (d > monthDays(y, mo)) throw valueError('day is out of range for month');
  const secs = m[4] === undefined ? 0 : Number(m[4]) * 3600 + Number(m[5]) * 60 + Number(m[6]);
  if (m[6] !== undefined && Number(m[6]) > 59) throw valueError('second must be in 0..59');
  return { days: daysBefore(y, mo, d), seconds: secs };
}

/** `strptime` of a str where a ValueError would be caught: null instead (no exception made). */
export function strptimeOrNull(v: string, fmt: '%m/%d/%Y' | '%m/%d/%Y %H:%M:%S'): Stamp | null {
  const date = String.raw`(1[0-2]|0[1-9]|[1-9])/(3[01]|[12]\d|0[1-9]|[1-9]| [1-9])/(\d\d\d\d)`;
  const time = String.raw`\s+(2[0-3]|[0-1]\d|\d):([0-5]\d|\d):(6[0-1]|[0-5]\d|\d)`;
  const m = new RegExp(`^${date}${fmt === '%m/%d/%Y' ? '' : time}$`, 'i').exec(v);
  if (m === null) return null;
  const [mo, d, y] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (y < 1 || d > monthDays(y, mo) || (m[6] !== undefined && Number(m[6]) > 59)) return null;
  return { days: daysBefore(y, mo, d), seconds: m[4] === undefined ? 0 : Number(m[4]) * 3600 + Number(m[5]) * 60 + Number(m[6]) };
}

/** `(a - b).days`. */
export const daysBetween = (a: Stamp, b: Stamp): number => Math.floor(a.days - b.days + (a.seconds - b.seconds) / 86400);

export const stampCompare = (a: Stamp, b: Stamp): number => a.days - b.days || a.seconds - b.seconds;

// ---------------------------------------------------------------------------------------------
// json

/** `json.dumps(v, indent=2)` (ensure_ascii, separators `,` and `: `, insertion order). */
// Python parity: json.dumps with indent=2.
export function dumpsIndent(v: TValue, level = 0): string {
  const pad = '\n' + '  '.repeat(level + 1);
  const end = '\n' + '  '.repeat(level);
  if (Array.isArray(v)) return v.length === 0 ? '[]' : `[${v.map((x) => pad + dumpsIndent(x, level + 1)).join(',')}${end}]`;
  if (v instanceof Map) return v.size === 0 ? '{}' : `{${[...v].map(([k, x]) => `${pad}${dumpsStr(k)}: ${dumpsIndent(x, level + 1)}`).join(',')}${end}}`;
  return dumpsScalar(v);
}

/** `json.dumps(v, sort_keys=True)` (separators `, ` and `: `). */
// Python parity: json.dumps(sort_keys=True).
export function dumpsSorted(v: TValue): string {
  if (Array.isArray(v)) return `[${v.map(dumpsSorted).join(', ')}]`;
  if (v instanceof Map)
    return `{${[...v.keys()]
      .sort(codePointCompare)
      .map((k) => `${dumpsStr(k)}: ${dumpsSorted(v.get(k)!)}`)
      .join(', ')}}`;
  return dumpsScalar(v);
}

const codePointCompare = (a: string, b: string): number => {
  const x = [...a];
  const y = [...b];
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const d = x[i]!.codePointAt(0)! - y[i]!.codePointAt(0)!;
    if (d !== 0) return d;
  }
  return x.length - y.length;
};

function dumpsScalar(v: TValue): string {
  if (v === null) return 'null';
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (typeof v === 'bigint') return v.toString();
  if (typeof v === 'number') return dumpsFloat(v);
  if (typeof v === 'string') return dumpsStr(v);
  throw typeError(`Object of type ${tTypeName(v)} is not JSON serializable`);
}

/** Numbers read as floats (`parse_int=float`). */
function intsAsFloats(v: PyValue): TValue {
  if (typeof v === 'bigint') return Number(v);
  if (Array.isArray(v)) return v.map(intsAsFloats);
  if (v instanceof Map) return new Map([...v].map(([k, x]) => [k, intsAsFloats(x)]));
  return v;
}

/**
 * `json.loads(v)` / `json.loads(v, parse_int=float)`: `{ error }` holds `str(e)` of a JSONDecodeError (the caller
 * words it); any other exception (a non-str argument) is raised.
 */
// Python parity: json.loads (a non-str raises TypeError; a decode error is a JSONDecodeError).
export function loads(v: TValue, intAsFloat: boolean): { readonly value: TValue } | { readonly error: string } {
  if (typeof v !== 'string') throw typeError(`the JSON object must be str, bytes or bytearray, not ${tTypeName(v)}`);
  if (v.startsWith('\ufeff')) return { error: 'Unexpected UTF-8 BOM (decode using utf-8-sig): line 1 column 1 (char 0)' };
  try {
    const value = parseJson(v);
    return { value: intAsFloat ? intsAsFloats(value) : (value as TValue) };
  } catch (e) {
    if (e instanceof PyException && e.pyType === 'JSONDecodeError') return { error: e.text };
    throw e;
  }
}

// ---------------------------------------------------------------------------------------------
// ids

/** `_deterministic_id(seed, length)`: the first `length` hex digits of sha256(seed). */
// Python parity: banking_knowledge utils._deterministic_id.
export const deterministicId = (seed: string, length = 16): string => sha256Hex(seed).slice(0, 2 * Math.floor(length / 2));

/** `get_today_str()`. */
export const TODAY = '11/14/2025';
