import { INVISIBLE, codePointName, type Span } from '../core/contract';

/**
 * Folding long text so that no more than a bounded amount is ever laid out at once. Megabyte-long
 * messages (with or without spaces) would otherwise keep the browser in one layout task for
 * seconds or minutes: a text is shown folded to `FOLD_LIMIT` characters, revealed on request in
 * blocks of `REVEAL_CHUNK`, and long unbroken runs get break opportunities every `RUN_BREAK`
 * characters (rendered as `<wbr>`, which copying ignores) instead of `overflow-wrap: anywhere`.
 */
export const FOLD_LIMIT = 20_000;
export const REVEAL_CHUNK = 100_000;
export const RUN_BREAK = 64;

/** A half-open range of UTF-16 indices. */
export interface Range {
  readonly start: number;
  readonly end: number;
}

const isHigh = (c: number): boolean => c >= 0xd800 && c <= 0xdbff;
const isLow = (c: number): boolean => c >= 0xdc00 && c <= 0xdfff;

/** `i` moved back by one when it would cut a surrogate pair in two. */
export function safeCut(text: string, i: number): number {
  const at = Math.max(0, Math.min(i, text.length));
  return at > 0 && at < text.length && isLow(text.charCodeAt(at)) && isHigh(text.charCodeAt(at - 1)) ? at - 1 : at;
}

/**
 * What to show of `text` at first: all of it when it is at most `limit` long; else the first
 * `limit` characters, or — when the highlighted `span` ends beyond them — `limit` characters
 * around the span (the span's start first when the span itself is longer than `limit`).
 */
export function foldWindow(text: string, span: Span | null, limit = FOLD_LIMIT): Range {
  const n = text.length;
  if (n <= limit) return { start: 0, end: n };
  const s = span ? { start: Math.max(0, Math.min(span.start, n)), end: Math.max(0, Math.min(span.end, n)) } : null;
  if (!s || s.end <= limit) return { start: 0, end: safeCut(text, limit) };
  const len = s.end - s.start;
  let start = len >= limit ? s.start : s.start - Math.floor((limit - len) / 2);
  start = Math.max(0, Math.min(start, n - limit));
  return { start: safeCut(text, start), end: safeCut(text, start + limit) };
}

/**
 * Where the next revealed block after `from` ends: `size` characters on, or just after the last
 * line break in the second half of that block (so blocks rarely split a line), never past the text.
 */
export function nextCut(text: string, from: number, size = REVEAL_CHUNK): number {
  const n = text.length;
  if (n - from <= size) return n;
  const hard = from + size;
  const nl = text.lastIndexOf('\n', hard - 1);
  if (nl >= from + size / 2) return nl + 1;
  return Math.max(from + 1, safeCut(text, hard));
}

/** The cut points of `text` from `from` to `to` in blocks of about `size` (both ends included). */
export function blockCuts(text: string, from: number, to: number, size = REVEAL_CHUNK): number[] {
  const cuts = [from];
  let at = from;
  while (at < to) {
    at = Math.min(to, nextCut(text, at, size));
    cuts.push(at);
  }
  return cuts;
}

/** A piece of a shown range: plain text, highlighted or not. */
export interface Piece {
  readonly text: string;
  readonly marked: boolean;
}

/** `text[range]` cut where it meets `span` into marked and unmarked pieces (empty pieces left out). */
export function markPieces(text: string, range: Range, span: Span | null): Piece[] {
  const { start, end } = range;
  if (!span) return start < end ? [{ text: text.slice(start, end), marked: false }] : [];
  const a = Math.max(start, Math.min(span.start, end));
  const b = Math.max(a, Math.min(span.end, end));
  const out: Piece[] = [];
  if (a > start) out.push({ text: text.slice(start, a), marked: false });
  if (b > a) out.push({ text: text.slice(a, b), marked: true });
  if (end > b) out.push({ text: text.slice(b, end), marked: false });
  return out;
}

/** A piece of a shown range with search hits: also which hit (index into `hits`) it belongs to, or -1. */
export interface HitPiece extends Piece {
  readonly hit: number;
}

/**
 * Like markPieces, also cut at each of `hits` (sorted, not overlapping): every piece says whether it
 * lies in `span` and in which hit. Hits outside the range are skipped.
 */
export function hitPieces(text: string, range: Range, span: Span | null, hits: readonly Span[]): HitPiece[] {
  const { start, end } = range;
  const clampTo = (i: number): number => Math.max(start, Math.min(i, end));
  const cuts = new Set<number>([start, end]);
  if (span) {
    cuts.add(clampTo(span.start));
    cuts.add(clampTo(span.end));
  }
  for (const h of hits) {
    if (h.end <= start || h.start >= end) continue;
    cuts.add(clampTo(h.start));
    cuts.add(clampTo(h.end));
  }
  const at = [...cuts].sort((a, b) => a - b);
  const out: HitPiece[] = [];
  let h = 0;
  for (let i = 0; i + 1 < at.length; i++) {
    const a = at[i]!;
    const b = at[i + 1]!;
    if (b <= a) continue;
    while (h < hits.length && hits[h]!.end <= a) h++;
    const hit = h < hits.length && hits[h]!.start <= a && hits[h]!.end >= b ? h : -1;
    out.push({ text: text.slice(a, b), marked: span !== null && span.start <= a && span.end >= b && span.end > span.start, hit });
  }
  return out;
}

const isSpace = (c: number): boolean => c === 0x20 || c === 0x0a || c === 0x09 || c === 0x0d || c === 0x0c;

/**
 * `s` cut inside runs of more than `run` characters without whitespace, every `run` characters (a
 * line-break opportunity goes between the pieces). Text with no long runs comes back whole.
 */
export function breakRuns(s: string, run = RUN_BREAK): string[] {
  if (s.length <= run) return [s];
  const out: string[] = [];
  let from = 0;
  let len = 0;
  for (let i = 0; i < s.length; i++) {
    if (isSpace(s.charCodeAt(i))) {
      len = 0;
      continue;
    }
    if (len >= run) {
      const cut = safeCut(s, i);
      if (cut > from) {
        out.push(s.slice(from, cut));
        from = cut;
      }
      len = i - cut;
    }
    len++;
  }
  out.push(s.slice(from));
  return out;
}

/** The UTF-8 size of a text in bytes (a lone surrogate counts as the 3 bytes of U+FFFD). */
export function utf8Length(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (isHigh(c) && i + 1 < s.length && isLow(s.charCodeAt(i + 1))) {
      n += 4;
      i++;
    } else n += 3;
  }
  return n;
}

/** A short label from untrusted text: at most `max` characters, with an ellipsis when cut. */
export function clip(s: string, max = 200): string {
  return s.length <= max ? s : `${s.slice(0, safeCut(s, max - 1))}…`;
}

export { INVISIBLE, codePointName };

const HAS_INVISIBLE = new RegExp(INVISIBLE.source);

/** Splits `s` into plain text and invisible characters (as `{ invisible: 'U+202E' }`). */
export function splitInvisible(s: string): (string | { readonly invisible: string })[] {
  if (!HAS_INVISIBLE.test(s)) return [s];
  const out: (string | { invisible: string })[] = [];
  let last = 0;
  for (const m of s.matchAll(INVISIBLE)) {
    if (m.index > last) out.push(s.slice(last, m.index));
    out.push({ invisible: codePointName(m[0]) });
    last = m.index + m[0].length;
  }
  if (last < s.length) out.push(s.slice(last));
  return out;
}

/** A one-line label from untrusted text (a file name, a URL): clipped, line breaks and invisible characters shown as marks. */
export function safeLabel(s: string, max = 200): string {
  return clip(s, max)
    .replace(/[\n\r\t]/g, ' ')
    .replace(INVISIBLE, (c) => `⟨${codePointName(c)}⟩`);
}
