import { CASED_RANGES, CASE_IGNORABLE_RANGES, LOWER_EXPANSIONS, LOWER_RUNS } from './lowercase-table';

// Python parity: str.lower — CPython 3.11 lower-cases by Unicode 14.0 (its unicodedata), with the
// full mappings of SpecialCasing.txt's unconditional entries ('İ' → 'i̇', two code points) and
// with the Final_Sigma rule for U+03A3 (CPython's handle_capital_sigma). It is NOT
// String.prototype.toLowerCase: the JS engine lower-cases by whatever newer Unicode it ships,
// so code points it lower-cases that Unicode 14 does not must stay as they are.

const NON_ASCII = /[^\x00-\x7f]/;
const CAPITAL_SIGMA = 0x3a3;
const SMALL_SIGMA = 0x3c3;
const SMALL_FINAL_SIGMA = 0x3c2;

/** Whether `cp` lies in one of the inclusive [start, end] pairs of `ranges` (flattened, sorted). */
function inRanges(ranges: readonly number[], cp: number): boolean {
  let lo = 0;
  let hi = ranges.length / 2 - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (cp < ranges[2 * mid]!) hi = mid - 1;
    else if (cp > ranges[2 * mid + 1]!) lo = mid + 1;
    else return true;
  }
  return false;
}

let expansions: Map<number, readonly number[]> | null = null;

/** The single code point lowercase of `cp` by LOWER_RUNS (cp itself when it has none). */
function lowerSingle(cp: number): number {
  let lo = 0;
  let hi = LOWER_RUNS.length / 4 - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const start = LOWER_RUNS[4 * mid]!;
    if (cp < start) {
      hi = mid - 1;
      continue;
    }
    const stride = LOWER_RUNS[4 * mid + 2]!;
    const offset = cp - start;
    if (offset >= LOWER_RUNS[4 * mid + 1]! * stride) {
      lo = mid + 1;
      continue;
    }
    return offset % stride === 0 ? cp + LOWER_RUNS[4 * mid + 3]! : cp;
  }
  return cp;
}

/**
 * The full lowercase of one code point out of context: a code point, or several for an
 * unconditional SpecialCasing expansion. U+03A3 gives σ here; pyLower decides σ/ς in context.
 */
export function lowerCodePoint(cp: number): number | readonly number[] {
  if (cp < 0x80) return cp >= 0x41 && cp <= 0x5a ? cp + 32 : cp;
  if (expansions === null) expansions = new Map(LOWER_EXPANSIONS);
  return expansions.get(cp) ?? lowerSingle(cp);
}

const units = (cp: number): number => (cp > 0xffff ? 2 : 1);

/** UTF-16 length of `cp`'s lowercase (σ and ς have the same length, so context never matters). */
export function lowerLength(cp: number): number {
  const l = lowerCodePoint(cp);
  if (typeof l === 'number') return units(l);
  let n = 0;
  for (const c of l) n += units(c);
  return n;
}

/** The code point ending just before UTF-16 index `j` (a lone surrogate stands for itself). */
export function codePointBefore(s: string, j: number): number {
  const lo = s.charCodeAt(j - 1);
  if (lo >= 0xdc00 && lo <= 0xdfff && j >= 2) {
    const hi = s.charCodeAt(j - 2);
    if (hi >= 0xd800 && hi <= 0xdbff) return ((hi - 0xd800) << 10) + (lo - 0xdc00) + 0x10000;
  }
  return lo;
}

const isCased = (cp: number): boolean => inRanges(CASED_RANGES, cp);
const isCaseIgnorable = (cp: number): boolean => inRanges(CASE_IGNORABLE_RANGES, cp);

/**
 * Whether the U+03A3 at UTF-16 index `i` of `s` lower-cases to final ς.
 * Context: \p{Cased} \p{Case_Ignorable}* Σ !(\p{Case_Ignorable}* \p{Cased}).
 */
// Python parity: str.lower (handle_capital_sigma) — each side is scanned over Case_Ignorable code
// points first, even ones that are also Cased (U+02B0 'ʰ', U+0345): 'ʰΣ' gives 'ʰσ' (nothing cased
// before) and 'ΑΣ\u0345' gives 'ας\u0345' (nothing cased after). Cased and Case_Ignorable are
// Unicode 14's: 'ꟋΣ'.lower() == 'Ɤσ' (U+A7CB is unassigned in 14, so neither lowered nor Cased).
export function isFinalSigma(s: string, i: number): boolean {
  let before = -1;
  for (let j = i; j > 0; ) {
    const cp = codePointBefore(s, j);
    j -= units(cp);
    if (!isCaseIgnorable(cp)) {
      before = cp;
      break;
    }
  }
  if (before < 0 || !isCased(before)) return false;
  for (let j = i + 1; j < s.length; ) {
    const cp = s.codePointAt(j)!;
    j += units(cp);
    if (!isCaseIgnorable(cp)) return !isCased(cp);
  }
  return true;
}

const CHUNK = 8192;
/** ASCII runs at least this long are lower-cased by the engine in one go. */
const ASCII_RUN = 256;
const NEXT_NON_ASCII = /[^\x00-\x7f]/g;
let buffer: Uint16Array | null = null;

/**
 * `s.lower()`, and when `drop` is a BMP code unit, `s.lower().replace(chr(drop), '')`: units
 * equal to `drop` are left out of the result (after lower-casing, so Final_Sigma still sees them).
 * Memory: the result plus a fixed 16 KB buffer; no per-character arrays.
 */
function lower(s: string, drop: number): string {
  if (!NON_ASCII.test(s)) {
    const l = s.toLowerCase();
    return drop < 0 || drop > 0x7f ? l : l.replaceAll(String.fromCharCode(drop), '');
  }
  const buf = (buffer ??= new Uint16Array(CHUNK + ASCII_RUN + 16));
  const parts: string[] = [];
  let n = 0;
  const flush = (): void => {
    if (n > 0) parts.push(String.fromCharCode.apply(null, buf.subarray(0, n) as unknown as number[]));
    n = 0;
  };
  const put = (c: number): void => {
    if (c > 0xffff) {
      buf[n++] = 0xd800 + ((c - 0x10000) >> 10);
      buf[n++] = 0xdc00 + ((c - 0x10000) & 0x3ff);
    } else if (c !== drop) buf[n++] = c;
  };
  const len = s.length;
  for (let i = 0; i < len; ) {
    const c = s.charCodeAt(i);
    if (c < 0x80) {
      NEXT_NON_ASCII.lastIndex = i;
      const end = NEXT_NON_ASCII.exec(s)?.index ?? len;
      if (end - i >= ASCII_RUN) {
        flush();
        const l = s.slice(i, end).toLowerCase();
        parts.push(drop < 0 || drop > 0x7f ? l : l.replaceAll(String.fromCharCode(drop), ''));
      } else {
        for (let k = i; k < end; k++) {
          const a = s.charCodeAt(k);
          const l = a >= 0x41 && a <= 0x5a ? a + 32 : a;
          if (l !== drop) buf[n++] = l;
        }
      }
      i = end;
    } else if (c === CAPITAL_SIGMA) {
      put(isFinalSigma(s, i) ? SMALL_FINAL_SIGMA : SMALL_SIGMA);
      i++;
    } else {
      const cp = s.codePointAt(i)!;
      const l = lowerCodePoint(cp);
      if (typeof l === 'number') put(l);
      else for (const x of l) put(x);
      i += units(cp);
    }
    if (n >= CHUNK) flush();
  }
  flush();
  return parts.length === 1 ? parts[0]! : parts.join('');
}

/** CPython 3.11's `s.lower()`. */
export function pyLower(s: string): string {
  return lower(s, -1);
}

/** CPython 3.11's `s.lower().replace(ch, '')` for one BMP, non-surrogate character `ch`, in one pass. */
export function pyLowerWithout(s: string, ch: string): string {
  const drop = ch.charCodeAt(0);
  if (ch.length !== 1 || (drop >= 0xd800 && drop <= 0xdfff)) throw new RangeError(`pyLowerWithout: ${JSON.stringify(ch)} is not one BMP character`);
  return lower(s, drop);
}
