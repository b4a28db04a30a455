/**
 * pydantic-core's lax-mode number and bool parsing of Python `str` input (pydantic 2.13): what it
 * strips, where it allows underscores, and the i64 bound on ints made from floats.
 */
import { stripOf } from '../strip';

/** Rust's `str::trim` (Unicode White_Space): U+0085 is stripped, U+FEFF is not (unlike JS `trim`). */
// Python parity: pydantic-core strips with Rust's str::trim, not Python's str.strip.
const RUST_SPACE = '\t\n\v\f\r \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000';

export const rustTrim = (s: string): string => stripOf(s, RUST_SPACE);

/** `_` removed, or null where pydantic-core refuses them: a leading or trailing one, or two in a row. */
// Python parity: pydantic-core's strip_underscores.
function stripUnderscores(s: string): string | null {
  if (s.startsWith('_') || s.endsWith('_') || s.includes('__')) return null;
  return s.replaceAll('_', '');
}

/** Rust's `f64::from_str`: decimal with optional point and exponent, or inf/infinity/nan, any case, signed. */
function rustF64(s: string): number | null {
  if (/^[+-]?(inf|infinity|nan)$/i.test(s)) return /nan/i.test(s) ? NaN : s.startsWith('-') ? -Infinity : Infinity;
  return /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(s) ? Number(s) : null;
}

// Python parity: pydantic-core str_as_float — the trimmed text, else the untrimmed text without underscores.
export function floatFromStr(s: string): number | null {
  const direct = rustF64(rustTrim(s));
  if (direct !== null) return direct;
  const stripped = stripUnderscores(s);
  return stripped === null ? null : rustF64(stripped);
}

// Python parity: pydantic-core str_as_int — ASCII digits with single underscores between them, or a whole number followed by `.000…`.
export function intFromStr(s: string): bigint | null {
  const m = /^([+-]?\d+(?:_\d+)*)(?:\.0+)?$/.exec(rustTrim(s));
  return m ? BigInt(m[1]!.replaceAll('_', '')) : null;
}

/** A float pydantic accepts as an int: integral and strictly inside the i64 range (else `int_parsing_size`). */
// Python parity: pydantic-core float_as_int.
export const floatIntFits = (x: number): boolean => x > -(2 ** 63) && x < 2 ** 63;

/** The strings pydantic reads as booleans: exactly these, in any case, nothing stripped. */
// Python parity: pydantic-core str_as_bool.
export function boolFromStr(s: string): boolean | null {
  const l = s.toLowerCase();
  if (['1', 'on', 't', 'true', 'y', 'yes'].includes(l)) return true;
  if (['0', 'off', 'f', 'false', 'n', 'no'].includes(l)) return false;
  return null;
}
