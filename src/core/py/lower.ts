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

/** In the BMP table: the code point's lowercase is not one BMP code unit (see LOWER_EXPANSIONS). */
const NOT_ONE_UNIT = 0xd800;
let bmp: Uint16Array | null = null;

const isSurrogate = (u: number): boolean => u >= 0xd800 && u <= 0xdfff;

/** Lowercase of every BMP code point as one code unit, or NOT_ONE_UNIT (128 KB, built on first use). */
function bmpTable(): Uint16Array {
  if (bmp !== null) return bmp;
  const t = new Uint16Array(0x10000);
  for (let i = 0; i < 0x10000; i++) t[i] = i;
  for (let r = 0; r < LOWER_RUNS.length; r += 4) {
    const [start, count, stride, delta] = [LOWER_RUNS[r]!, LOWER_RUNS[r + 1]!, LOWER_RUNS[r + 2]!, LOWER_RUNS[r + 3]!];
    for (let k = 0; k < count; k++) {
      const cp = start + k * stride;
      if (cp <= 0xffff) t[cp] = cp + delta > 0xffff ? NOT_ONE_UNIT : cp + delta;
    }
  }
  for (const [cp] of LOWER_EXPANSIONS) if (cp <= 0xffff) t[cp] = NOT_ONE_UNIT;
  return (bmp = t);
}

/**
 * The full lowercase of one code point out of context: a code point, or several for an
 * unconditional SpecialCasing expansion. U+03A3 gives σ here; pyLower decides σ/ς in context.
 */
export function lowerCodePoint(cp: number): number | readonly number[] {
  if (cp < 0x80) return cp >= 0x41 && cp <= 0x5a ? cp + 32 : cp;
  if (cp <= 0xffff) {
    const v = bmpTable()[cp]!;
    if (v !== NOT_ONE_UNIT || isSurrogate(cp)) return v;
  }
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
  for (let j = i; j > 0;) {
    const cp = codePointBefore(s, j);
    j -= units(cp);
    if (!isCaseIgnorable(cp)) {
      before = cp;
      break;
    }
  }
  if (before < 0 || !isCased(before)) return false;
  for (let j = i + 1; j < s.length;) {
    const cp = s.codePointAt(j)!;
    j += units(cp);
    if (!isCaseIgnorable(cp)) return !isCased(cp);
  }
  return true;
}

const BUFFER = 8192;
/** Pieces are joined into chunks of at least this many units (the last may be shorter). */
const CHUNK = 1 << 16;
/** ASCII runs at least this long are lower-cased by the engine in one go. */
const ASCII_RUN = 256;
const NEXT_NON_ASCII = /[^\x00-\x7f]/g;
let buffer: Uint16Array | null = null;

/**
 * `s.lower()` as a list of chunks (their concatenation is the result), and when `drop` is a BMP
 * code unit, `s.lower().replace(chr(drop), '')`: units equal to `drop` are left out after
 * lower-casing, so Final_Sigma still sees them. Memory: the result, at most one chunk being
 * assembled and a fixed buffer; nothing per character, and no copy of the whole result.
 */
function lowerChunks(s: string, drop: number): string[] {
  const dropText = drop < 0 ? '' : String.fromCharCode(drop);
  const lowerAscii = (a: string): string => {
    const l = a.toLowerCase();
    return drop < 0 || drop > 0x7f ? l : l.replaceAll(dropText, '');
  };
  if (!NON_ASCII.test(s)) return [lowerAscii(s)];
  const table = bmpTable();
  const buf = (buffer ??= new Uint16Array(BUFFER + ASCII_RUN + 16));
  const chunks: string[] = [];
  let pending: string[] = [];
  let pendingLength = 0;
  let n = 0;
  const piece = (p: string): void => {
    pending.push(p);
    pendingLength += p.length;
    if (pendingLength >= CHUNK) {
      chunks.push(pending.length === 1 ? pending[0]! : pending.join(''));
      pending = [];
      pendingLength = 0;
    }
  };
  const flush = (): void => {
    if (n > 0) piece(String.fromCharCode.apply(null, buf.subarray(0, n) as unknown as number[]));
    n = 0;
  };
  const len = s.length;
  for (let i = 0; i < len;) {
    const c = s.charCodeAt(i);
    if (c < 0x80) {
      NEXT_NON_ASCII.lastIndex = i;
      const end = NEXT_NON_ASCII.exec(s)?.index ?? len;
      if (end - i >= ASCII_RUN) {
        flush();
        piece(lowerAscii(s.slice(i, end)));
      } else {
        for (let k = i; k < end; k++) {
          const a = s.charCodeAt(k);
          const l = a >= 0x41 && a <= 0x5a ? a + 32 : a;
          if (l !== drop) buf[n++] = l;
        }
      }
      i = end;
    } else if (c === CAPITAL_SIGMA) {
      buf[n++] = isFinalSigma(s, i) ? SMALL_FINAL_SIGMA : SMALL_SIGMA;
      i++;
    } else if (!isSurrogate(c) && table[c] !== NOT_ONE_UNIT) {
      const l = table[c]!;
      if (l !== drop) buf[n++] = l;
      i++;
    } else {
      // A surrogate pair, a lone surrogate, or an expansion.
      const cp = s.codePointAt(i)!;
      const l = lowerCodePoint(cp);
      for (const x of typeof l === 'number' ? [l] : l) {
        if (x > 0xffff) {
          buf[n++] = 0xd800 + ((x - 0x10000) >> 10);
          buf[n++] = 0xdc00 + ((x - 0x10000) & 0x3ff);
        } else if (x !== drop) buf[n++] = x;
      }
      i += units(cp);
    }
    if (n >= BUFFER) flush();
  }
  flush();
  if (pendingLength > 0 || chunks.length === 0) chunks.push(pending.join(''));
  return chunks;
}

/**
 * Where in `s` the units [from, to) of `lower(s, drop)` come from: from the start of the code
 * point that produced unit `from` to the end of the one that produced unit `to - 1` (to > from).
 * Rescans `s` up to `to`; 'İ' produces two units, a dropped character none, σ/ς always one.
 */
function originalSpan(s: string, drop: number, from: number, to: number): { start: number; end: number } {
  const table = bmpTable();
  let pos = 0;
  let start = -1;
  for (let i = 0; i < s.length;) {
    const c = s.charCodeAt(i);
    let width = 1;
    let produced: number;
    if (c < 0x80) produced = c === drop ? 0 : 1;
    else if (!isSurrogate(c) && table[c] !== NOT_ONE_UNIT) produced = table[c] === drop ? 0 : 1;
    else {
      const cp = s.codePointAt(i)!;
      width = units(cp);
      const l = lowerCodePoint(cp);
      produced = 0;
      for (const x of typeof l === 'number' ? [l] : l) produced += x === drop ? 0 : units(x);
    }
    if (produced > 0) {
      if (start < 0 && pos + produced > from) start = i;
      if (pos + produced >= to) return { start, end: i + width };
    }
    pos += produced;
    i += width;
  }
  throw new RangeError(`units ${from}..${to} lie beyond the lower-cased text (${pos} units)`);
}

/** CPython 3.11's `s.lower()`. */
export function pyLower(s: string): string {
  const chunks = lowerChunks(s, -1);
  return chunks.length === 1 ? chunks[0]! : chunks.join('');
}

/**
 * CPython 3.11's `s.lower().replace(ch, '')` for one BMP, non-surrogate character `ch`, in one
 * pass, as chunks whose concatenation is the result (a long text is never copied whole).
 */
export function pyLowerWithoutChunks(s: string, ch: string): string[] {
  return lowerChunks(s, dropUnit(ch));
}

function dropUnit(ch: string): number {
  const u = ch.charCodeAt(0);
  if (ch.length !== 1 || isSurrogate(u)) throw new RangeError(`${JSON.stringify(ch)} is not one BMP character`);
  return u;
}

/**
 * Where the units [from, to) of `pyLowerWithoutChunks(s, ch)` come from in `s`, as UTF-16 offsets
 * (from < to); see originalSpan.
 */
export function pyLowerWithoutSpan(s: string, ch: string, from: number, to: number): { start: number; end: number } {
  return originalSpan(s, dropUnit(ch), from, to);
}
