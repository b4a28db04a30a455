/**
 * `json.loads` through the engine's own `JSON.parse` (several times faster than `json-parse.ts`'s reader, and far
 * less garbage), for the texts where the two cannot differ; `null` for any other text, which the exact reader then
 * reads (and refuses with Python's words). Where they could differ, and how each is caught:
 *
 * - **ints and floats**: `JSON.parse` gives `1` for both `1` and `1.0`, and rounds big integers. A scan of the text's
 *   number tokens outside strings (in document order) says which were written with a fraction or an exponent; the
 *   conversion takes them in the same order, so each integer becomes a bigint from its own digits.
 * - **key order**: JavaScript puts array-index keys (`"0"`, `"17"`) first; an object with such a key takes its keys
 *   from the scan instead (each key's place in the text, in document order).
 * - **duplicate keys**: both keep the first position and the last value, but the dropped value's numbers would put
 *   the scan out of step; the text's keys (`:` outside strings) must equal the keys converted → else null.
 * - **what `JSON.parse` refuses** (`NaN`, `Infinity`, a control character in a string, any syntax error) → null; a
 *   value nested deeper than `maxDepth`, or an integer longer than Python's digit limit → null.
 */
import { MAX_STR_DIGITS } from './int-parse';

/** The number tokens of a JSON text outside its strings, and its object keys, in document order. */
interface Tokens {
  /** For each number: its start, and its end negated if it is an int. */
  readonly at: Int32Array;
  readonly count: number;
  /** Where each object key's string begins (its opening quote: the string before a `:` outside strings). */
  readonly keyAt: Int32Array;
  readonly keys: number;
}

const grown = (a: Int32Array, need: number): Int32Array => {
  if (need <= a.length) return a;
  const bigger = new Int32Array(a.length * 2);
  bigger.set(a);
  return bigger;
};

/** The end of the string whose opening quote is at `quote` (the first quote after it not escaped), or -1. */
export function stringEnd(text: string, quote: number): number {
  let close = text.indexOf('"', quote + 1);
  for (;;) {
    if (close === -1) return -1;
    let slashes = 0;
    while (text.charCodeAt(close - 1 - slashes) === 92) slashes++;
    if (slashes % 2 === 0) return close + 1;
    close = text.indexOf('"', close + 1);
  }
}

/** Scans `text` (assumed valid JSON: `JSON.parse` read it) for its number tokens and keys; null if an int is too long. */
function scanTokens(text: string): Tokens | null {
  let at: Int32Array = new Int32Array(1024);
  let count = 0;
  let keyAt: Int32Array = new Int32Array(1024);
  let keys = 0;
  let lastString = -1;
  const n = text.length;
  let i = 0;
  while (i < n) {
    const quote = text.indexOf('"', i);
    const end = quote === -1 ? n : quote;
    // The structural text between two strings: punctuation, whitespace, literals and numbers.
    for (let k = i; k < end; k++) {
      const c = text.charCodeAt(k);
      if (c === 58) {
        keyAt = grown(keyAt, keys + 1);
        keyAt[keys++] = lastString;
      } else if (c === 45 || (c >= 48 && c <= 57)) {
        const start = k;
        let float = false;
        k++;
        for (; k < end; k++) {
          const d = text.charCodeAt(k);
          if (d >= 48 && d <= 57) continue;
          if (d === 46 || d === 101 || d === 69) float = true;
          else if (d !== 43 && d !== 45) break;
        }
        if (!float && k - start - (c === 45 ? 1 : 0) > MAX_STR_DIGITS) return null;
        at = grown(at, count * 2 + 2);
        at[count * 2] = start;
        at[count * 2 + 1] = float ? k : -k;
        count++;
        k--;
      }
    }
    if (quote === -1) break;
    // Past the string: its closing quote is the first one not escaped (an odd run of backslashes before it).
    lastString = quote;
    i = stringEnd(text, quote);
    if (i === -1) return null;
  }
  return { at, count, keyAt, keys };
}

/** Not an array index (which JavaScript orders first): ints from 0 to 2^32 − 2, written without leading zeros. */
function arrayIndex(key: string): boolean {
  const c = key.charCodeAt(0);
  if (c < 48 || c > 57 || key.length > 10) return false;
  if (c === 48) return key.length === 1;
  for (let k = 1; k < key.length; k++) {
    const d = key.charCodeAt(k);
    if (d < 48 || d > 57) return false;
  }
  return Number(key) < 4294967295;
}

class Bail extends Error {}

/**
 * The text read as `json.loads` reads it (dicts as Maps, ints as bigints, floats as numbers), and the most containers
 * a value is inside (as `parseJson`'s `deepest` counts), or null when this path cannot read it exactly.
 */
// Python parity: json.loads (the texts where JSON.parse and Python's scanner agree; see above).
export function fastJsonLoads(
  text: string,
  maxDepth: number,
  /** Applied to each container made (`parseJson`'s `freeze`). */
  seal?: (v: Map<string, unknown> | unknown[]) => void,
): { readonly value: unknown; readonly deepest: number } | null {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return null;
  }
  const numbers = scanTokens(text);
  if (numbers === null) return null;
  const { at, keyAt } = numbers;
  let next = 0;
  let keys = 0;
  let deepest = 0;
  const convert = (v: unknown, depth: number): unknown => {
    if (depth > deepest) {
      if (depth > maxDepth) throw new Bail();
      deepest = depth;
    }
    if (typeof v === 'number') {
      if (next >= numbers.count) throw new Bail();
      const end = at[next * 2 + 1]!;
      const start = at[next * 2]!;
      next++;
      if (end > 0) return v;
      // An int: exact from its digits (the float JSON.parse made of it is exact only up to 2^53).
      return Number.isSafeInteger(v) ? BigInt(v) : BigInt(text.slice(start, -end));
    }
    if (v === null || typeof v !== 'object') return v;
    if (Array.isArray(v)) {
      for (let k = 0; k < v.length; k++) v[k] = convert(v[k], depth + 1);
      seal?.(v);
      return v;
    }
    const out = new Map<string, unknown>();
    const o = v as Record<string, unknown>;
    let indexKeys = false;
    for (const key in o)
      if (arrayIndex(key)) {
        indexKeys = true;
        break;
      }
    if (!indexKeys)
      for (const key in o) {
        keys++;
        out.set(key, convert(o[key], depth + 1));
      }
    else {
      // JavaScript put this object's array-index keys first: its keys are taken in the text's order instead, from the
      // scan (the keys before it in document order all taken, so the next key token is this object's first).
      for (let n = Object.keys(o).length; n > 0; n--) {
        if (keys >= numbers.keys) throw new Bail();
        const quote = keyAt[keys++]!;
        const key = JSON.parse(text.slice(quote, stringEnd(text, quote))) as string;
        if (out.has(key) || !Object.hasOwn(o, key)) throw new Bail();
        out.set(key, convert(o[key], depth + 1));
      }
    }
    seal?.(out);
    return out;
  };
  try {
    const value = convert(raw, 0);
    if (next !== numbers.count || keys !== numbers.keys) return null;
    return { value, deepest };
  } catch (e) {
    if (e instanceof Bail || e instanceof RangeError) return null;
    throw e;
  }
}
