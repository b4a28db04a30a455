import { PyException, typeError, valueError } from './errors';
import { reprStr } from './repr';
import { typeName, type PyValue } from './value';

// Code points of the Unicode 14 decimal-digit zeros (each starts a run of ten digits), CPython 3.11.
const DECIMAL_ZEROS: readonly number[] = [
  0x660, 0x6f0, 0x7c0, 0x966, 0x9e6, 0xa66, 0xae6, 0xb66, 0xbe6, 0xc66, 0xce6, 0xd66, 0xde6, 0xe50, 0xed0, 0xf20, 0x1040, 0x1090, 0x17e0, 0x1810, 0x1946,
  0x19d0, 0x1a80, 0x1a90, 0x1b50, 0x1bb0, 0x1c40, 0x1c50, 0xa620, 0xa8d0, 0xa900, 0xa9d0, 0xa9f0, 0xaa50, 0xabf0, 0xff10, 0x104a0, 0x10d30, 0x11066, 0x110f0,
  0x11136, 0x111d0, 0x112f0, 0x11450, 0x114d0, 0x11650, 0x116c0, 0x11730, 0x118e0, 0x11950, 0x11c50, 0x11d50, 0x11da0, 0x16a60, 0x16ac0, 0x16b50, 0x1d7ce,
  0x1d7d8, 0x1d7e2, 0x1d7ec, 0x1d7f6, 0x1e140, 0x1e2f0, 0x1e950, 0x1fbf0,
];

// Non-ASCII code points for which str.isspace() is True.
const UNICODE_SPACES = new Set([
  0x85, 0xa0, 0x1680, 0x2000, 0x2001, 0x2002, 0x2003, 0x2004, 0x2005, 0x2006, 0x2007, 0x2008, 0x2009, 0x200a, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000,
]);

const ASCII_SPACE = ' \t\n\v\f\r';
/** The most digits an int may have in text, read or written. */
// Python parity: sys.get_int_max_str_digits() default (CPython 3.11).
export const MAX_STR_DIGITS = 4300;

function decimalValue(cp: number): number {
  for (const zero of DECIMAL_ZEROS) {
    if (cp < zero) return -1;
    if (cp < zero + 10) return cp - zero;
  }
  return -1;
}

/**
 * The ASCII form CPython parses: non-ASCII spaces become ' ', non-ASCII decimal digits their
 * ASCII digit, and the first other non-ASCII character ends the text with '?' (always invalid).
 */
// Python parity: _PyUnicode_TransformDecimalAndSpaceToASCII.
export function toAsciiDigits(s: string): string {
  let out = '';
  for (const ch of s) {
    const cp = ch.codePointAt(0)!;
    if (cp < 127) out += ch;
    else if (UNICODE_SPACES.has(cp)) out += ' ';
    else {
      const d = decimalValue(cp);
      if (d < 0) return out + '?';
      out += String.fromCharCode(48 + d);
    }
  }
  return out;
}

const isDigit = (c: string | undefined): boolean => c !== undefined && c >= '0' && c <= '9';

/** `int(s)` for a str, base 10. */
// Python parity: PyLong_FromUnicodeObject / PyLong_FromString with base 10.
export function intFromStr(s: string): bigint {
  const invalid = (): PyException => {
    const r = [...reprStr(s)];
    return valueError(`invalid literal for int() with base 10: ${r.slice(0, 200).join('')}`);
  };
  const t = toAsciiDigits(s);
  let i = 0;
  while (i < t.length && ASCII_SPACE.includes(t[i]!)) i++;
  let negative = false;
  if (t[i] === '+' || t[i] === '-') negative = t[i++] === '-';
  if (!isDigit(t[i])) throw invalid();
  let digits = '';
  while (i < t.length) {
    const c = t[i]!;
    if (isDigit(c)) digits += c;
    else if (c === '_' && isDigit(t[i + 1])) {
      // a single underscore between two digits
    } else break;
    i++;
  }
  while (i < t.length && ASCII_SPACE.includes(t[i]!)) i++;
  if (i !== t.length) throw invalid();
  if (digits.length > MAX_STR_DIGITS)
    throw valueError(
      `Exceeds the limit (${MAX_STR_DIGITS} digits) for integer string conversion: value has ${digits.length} digits; use sys.set_int_max_str_digits() to increase the limit`,
    );
  const n = BigInt(digits);
  return negative ? -n : n;
}

/** Python `int(v)` with one argument. */
// Python parity: builtin int() (PyNumber_Long).
export function pyInt(v: PyValue): bigint {
  if (typeof v === 'string') return intFromStr(v);
  if (typeof v === 'bigint') return v;
  if (typeof v === 'boolean') return v ? 1n : 0n;
  if (typeof v === 'number') {
    if (Number.isNaN(v)) throw valueError('cannot convert float NaN to integer');
    if (!Number.isFinite(v)) throw new PyException('OverflowError', 'cannot convert float infinity to integer');
    return BigInt(Math.trunc(v));
  }
  throw typeError(`int() argument must be a string, a bytes-like object or a real number, not '${typeName(v)}'`);
}
