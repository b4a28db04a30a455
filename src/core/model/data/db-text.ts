/**
 * The text τ-bench's DB hash is taken of (`str(to_hashable(db))`), as bytes: each record's entry
 * `(repr(key), str(to_hashable(record)))` cached by the frozen record, tables' keys in code-point order
 * cached by the frozen table, a base's tables laid out as one text each (`tableSpans`), and the buffer
 * that feeds sha256 (`Buffered`). `db-hash.ts` streams and compares DB texts with them.
 */
import { compareCodePoints, hashableStr } from '../../py/hashable';
import { reprStr } from '../../py/repr';
import type { Sha256Stream } from '../../py/sha256';
import type { PyValue } from '../../py/value';
import { tableDelta } from './table-delta';

export const encoder = new TextEncoder();

/** Feeds sha256 in 64 KB chunks of UTF-8: many small updates (and encodings) are slow. */
export class Buffered {
  private readonly buf = new Uint8Array(65536);
  private used = 0;
  constructor(private readonly s: Sha256Stream) {}
  update(text: string): void {
    this.bytes(encoder.encode(text));
  }
  bytes(b: Uint8Array): void {
    if (this.used + b.length > this.buf.length) this.flush();
    if (b.length >= this.buf.length) this.s.update(b);
    else {
      this.buf.set(b, this.used);
      this.used += b.length;
    }
  }
  /** Bytes that stay as they are while hashed (a span of a base's text): a long one goes to sha256 without a copy. */
  span(b: Uint8Array): void {
    if (b.length < SPAN_DIRECT) return this.bytes(b);
    this.flush();
    this.s.update(b);
  }
  private flush(): void {
    if (this.used > 0) this.s.update(this.buf.subarray(0, this.used));
    this.used = 0;
  }
  save(): unknown {
    this.flush();
    return this.s.save();
  }
  load(state: unknown): void {
    this.used = 0;
    this.s.load(state);
  }
  hex(): string {
    this.flush();
    return this.s.hex();
  }
}

/** A span at least this long is hashed where it lies; a shorter one is copied into the buffer with its neighbours. */
const SPAN_DIRECT = 4096;

/** One dict table of a base: its frozen records' text, separated by `", "` as hashed, and where each record is in it. */
export interface TableSpans {
  readonly text: Uint8Array;
  readonly starts: Uint32Array;
  readonly ends: Uint32Array;
  /** The place of `key` among the table's sorted keys (-1 for a record that is not frozen: its text may change). */
  index(key: string): number;
  /** The table's sorted keys. */
  readonly keys: readonly string[];
  /** Every record is frozen (so each one's text is the span at its place). */
  readonly allFrozen: boolean;
}

/** A base's dict table laid out as one text (made once per base table, from its records' cached bytes). */
export function tableSpans(map: ReadonlyMap<string, PyValue>): TableSpans {
  const keys = sortedKeysOf(map);
  const pieces = keys.map((k) => entryBytes(k, map.get(k)!));
  const text = new Uint8Array(pieces.reduce((n, p) => n + p.length, 0) + Math.max(0, pieces.length - 1) * COMMA.length);
  const starts = new Uint32Array(keys.length);
  const ends = new Uint32Array(keys.length);
  let at = 0;
  pieces.forEach((p, j) => {
    if (j > 0) {
      text.set(COMMA, at);
      at += COMMA.length;
    }
    starts[j] = at;
    text.set(p, at);
    at += p.length;
    ends[j] = at;
  });
  const place = new Map<string, number>();
  keys.forEach((k, j) => {
    const rec = map.get(k)!;
    // A record that is not frozen may have been changed in place: its text is printed again every time (as `entryBytes` does).
    if (typeof rec !== 'object' || rec === null || Object.isFrozen(rec)) place.set(k, j);
  });
  return { text, starts, ends, index: (key) => place.get(key) ?? -1, keys, allFrozen: place.size === keys.length };
}

const pieceCache = new WeakMap<object, { readonly key: string; readonly bytes: Uint8Array }>();

/** A record's text known already (a snapshot's bytes, for a frozen record of the same content): `entryBytes` gives it. */
export function seedEntryBytes(record: object, key: string, bytes: Uint8Array): void {
  pieceCache.set(record, { key, bytes });
}

/** Lets go of texts and sorted keys seeded from a snapshot that turned out not to fit: they are printed and sorted again. */
export function forgetSeeds(records: readonly object[], tables: readonly object[]): void {
  for (const r of records) pieceCache.delete(r);
  for (const t of tables) sortedCache.delete(t);
}

/** UTF-8 of `(repr(key), str(to_hashable(record)))`, cached by record identity. */
export function entryBytes(key: string, record: PyValue): Uint8Array {
  const cacheable = typeof record === 'object' && record !== null && Object.isFrozen(record);
  if (cacheable) {
    const hit = pieceCache.get(record);
    if (hit && hit.key === key) return hit.bytes;
  }
  const bytes = encoder.encode(`(${reprStr(key)}, ${hashableStr(record)})`);
  if (cacheable) pieceCache.set(record, { key, bytes });
  return bytes;
}

export const COMMA = encoder.encode(', ');

export function sameBytes(x: Uint8Array, y: Uint8Array): boolean {
  if (x === y) return true;
  if (x.length !== y.length) return false;
  for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return false;
  return true;
}

const sortedCache = new WeakMap<object, readonly string[]>();

/** A frozen table's sorted keys known already (a snapshot's): `sortedKeysOf` gives them. */
export function seedSortedKeys(table: object, keys: readonly string[]): void {
  sortedCache.set(table, keys);
}

export function sortedKeysOf(m: ReadonlyMap<string, unknown>, like?: ReadonlyMap<string, PyValue>): readonly string[] {
  let keys = sortedCache.get(m);
  if (!keys) {
    keys = like !== undefined ? derivedOrder(m as ReadonlyMap<string, PyValue>, like) : [...m.keys()].sort(compareCodePoints);
    if (Object.isFrozen(m)) sortedCache.set(m, keys);
  }
  return keys;
}

/** The sorted keys of `m`, a table derived from `like`: `like`'s order without the keys removed, the keys added merged in (no sort of the whole table). */
function derivedOrder(m: ReadonlyMap<string, PyValue>, like: ReadonlyMap<string, PyValue>): readonly string[] {
  const base = sortedKeysOf(like);
  const { changed, removed } = tableDelta(m, like);
  const added = changed.filter((k) => !like.has(k));
  if (added.length === 0 && removed.length === 0) return base;
  const gone = new Set(removed);
  const out: string[] = [];
  let j = 0;
  for (const k of base) {
    while (j < added.length && compareCodePoints(added[j]!, k) < 0) out.push(added[j++]!);
    if (!gone.has(k)) out.push(k);
  }
  while (j < added.length) out.push(added[j++]!);
  return out;
}

export function minKey(a: string, b: string): string {
  return compareCodePoints(a, b) <= 0 ? a : b;
}

/** How many of the sorted `keys` come before `key` in code-point order. */
export function lowerBound(keys: readonly string[], key: string): number {
  let lo = 0;
  let hi = keys.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (compareCodePoints(keys[mid]!, key) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
