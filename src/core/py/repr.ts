import { NONPRINTABLE_RANGES } from './nonprintable-ranges';
import type { PyValue } from './value';

function isPrintable(cp: number): boolean {
  if (cp >= 0x20 && cp < 0x7f) return true;
  let lo = 0;
  let hi = NONPRINTABLE_RANGES.length / 2 - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const start = NONPRINTABLE_RANGES[mid * 2]!;
    const end = NONPRINTABLE_RANGES[mid * 2 + 1]!;
    if (cp < start) hi = mid - 1;
    else if (cp > end) lo = mid + 1;
    else return false;
  }
  return true;
}

const hex = (n: number, width: number): string => n.toString(16).padStart(width, '0');

// Strings made only of these need no escaping at all (the common case in τ-bench data).
const PLAIN = /^[\x20-\x26\x28-\x5b\x5d-\x7e]*$/;

// Python parity: unicode_repr (Objects/unicodeobject.c), CPython 3.11 / Unicode 14.
export function reprStr(s: string): string {
  if (PLAIN.test(s)) return `'${s}'`;
  const quote = s.includes("'") && !s.includes('"') ? '"' : "'";
  let out = quote;
  for (const ch of s) {
    const cp = ch.codePointAt(0)!;
    if (ch === quote || ch === '\\') out += '\\' + ch;
    else if (ch === '\t') out += '\\t';
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (cp < 0x20 || cp === 0x7f) out += '\\x' + hex(cp, 2);
    else if (cp < 0x7f || isPrintable(cp)) out += ch;
    else if (cp <= 0xff) out += '\\x' + hex(cp, 2);
    else if (cp <= 0xffff) out += '\\u' + hex(cp, 4);
    else out += '\\U' + hex(cp, 8);
  }
  return out + quote;
}

// Python parity: float_repr (repr(float), 'r' format, shortest round-trip digits).
export function reprFloat(x: number): string {
  if (Number.isNaN(x)) return 'nan';
  if (x === Infinity) return 'inf';
  if (x === -Infinity) return '-inf';
  if (x === 0) return Object.is(x, -0) ? '-0.0' : '0.0';
  const sign = x < 0 ? '-' : '';
  const [mant, expText] = Math.abs(x).toExponential().split('e') as [string, string];
  const digits = mant.replace('.', '');
  const e = Number(expText);
  if (e >= -4 && e < 16) {
    if (e >= 0) {
      const intPart = digits.length > e + 1 ? digits.slice(0, e + 1) : digits.padEnd(e + 1, '0');
      const frac = digits.length > e + 1 ? digits.slice(e + 1) : '0';
      return `${sign}${intPart}.${frac}`;
    }
    return `${sign}0.${'0'.repeat(-e - 1)}${digits}`;
  }
  const m = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
  const es = e < 0 ? '-' : '+';
  return `${sign}${m}e${es}${String(Math.abs(e)).padStart(2, '0')}`;
}

/** Python `repr()`: lists as `[...]`, dicts as `{...}` in insertion order. */
export function pyRepr(v: PyValue): string {
  if (v === null) return 'None';
  switch (typeof v) {
    case 'boolean':
      return v ? 'True' : 'False';
    case 'bigint':
      return v.toString();
    case 'number':
      return reprFloat(v);
    case 'string':
      return reprStr(v);
  }
  if (Array.isArray(v)) return `[${v.map(pyRepr).join(', ')}]`;
  const parts: string[] = [];
  for (const [k, x] of v) parts.push(`${reprStr(k)}: ${pyRepr(x)}`);
  return `{${parts.join(', ')}}`;
}

/** Python `str()`: like repr, except that a bare string is itself. */
export function pyStr(v: PyValue): string {
  return typeof v === 'string' ? v : pyRepr(v);
}
