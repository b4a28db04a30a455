import { compareCodePoints, hashableStr } from '../../py/hashable';
import { reprStr } from '../../py/repr';
import { sha256Engine, sha256Stream, type Sha256Stream } from '../../py/sha256';
import type { PyValue } from '../../py/value';
import type { Db } from './db';
import { tableDelta } from './table-delta';

interface Checkpoint {
  /** Table position (sorted) and key position (sorted) of the entry that comes next. */
  readonly t: number;
  readonly k: number;
  readonly state: unknown;
}

/** Bumped whenever the hashed text or the snapshot layout changes: older snapshots are ignored. */
export const DB_HASHER_FORMAT = 1;

/**
 * A hasher's work on a base DB as plain structured-cloneable data: its hash, the sha256
 * midstates (only when the engine that saved them is the one running) and the UTF-8 text of
 * every record, so a later visit hashes derived states without re-printing the base.
 */
export interface DbHasherSnapshot {
  readonly format: number;
  readonly engine: string;
  readonly every: number;
  readonly baseHash: string;
  readonly checkpoints: readonly { readonly t: number; readonly k: number; readonly state: Uint8Array }[];
  /** Sorted table names, and each table's sorted keys (null for a table that is not a dict). */
  readonly tables: readonly string[];
  readonly keys: readonly (readonly string[] | null)[];
  /** Every record's `(repr(key), str(to_hashable(record)))` in table and key order; `ends[i]` is where record i ends. */
  readonly bytes: Uint8Array;
  readonly ends: Uint32Array;
}

/**
 * `consistent_hash(to_hashable(db))` without building the multi-megabyte string: the text is
 * streamed record by record into sha256, and for states derived from a base DB the hash
 * resumes from a saved midstate just before the first record that differs from the base.
 */
// Python parity: tau_bench.envs.base.Env.get_data_hash (str() of nested sorted tuples).
export class DbHasher {
  private readonly checkpoints: Checkpoint[] = [];
  private readonly baseHash: string;
  /** Hashes of derived states by `changeKey`, the oldest dropped past `CHANGE_MEMO`. */
  private readonly byChanges = new Map<string, string>();
  /** The base's records' text in one array (made at the first derived state), so unchanged runs of records are hashed as spans of it. */
  private spans: BaseSpans | null = null;

  constructor(
    private readonly base: Db,
    private readonly every = 32 * 1024,
    restored?: { readonly baseHash: string; readonly checkpoints: readonly Checkpoint[] },
  ) {
    if (restored) {
      this.baseHash = restored.baseHash;
      this.checkpoints.push(...restored.checkpoints);
    } else this.baseHash = this.run(base, null, true);
  }

  /** The base's hash (computed once). */
  get initialHash(): string {
    return this.baseHash;
  }

  /** This hasher's work as plain data (see `DbHasherSnapshot`). */
  snapshot(): DbHasherSnapshot {
    const tables = sortedKeysOf(this.base);
    const keys: (readonly string[] | null)[] = [];
    const pieces: Uint8Array[] = [];
    for (const name of tables) {
      const table = this.base.get(name)!;
      if (!(table instanceof Map)) {
        keys.push(null);
        continue;
      }
      const ks = sortedKeysOf(table);
      keys.push(ks);
      for (const k of ks) pieces.push(entryBytes(k, table.get(k)!));
    }
    const ends = new Uint32Array(pieces.length);
    const bytes = new Uint8Array(pieces.reduce((n, p) => n + p.length, 0));
    let at = 0;
    pieces.forEach((p, i) => {
      bytes.set(p, at);
      at += p.length;
      ends[i] = at;
    });
    const engine = sha256Engine();
    const checkpoints = engine === 'wasm' ? this.checkpoints.map((c) => ({ t: c.t, k: c.k, state: new Uint8Array(c.state as Uint8Array) })) : [];
    return { format: DB_HASHER_FORMAT, engine, every: this.every, baseHash: this.baseHash, checkpoints, tables, keys, bytes, ends };
  }

  /**
   * A hasher for `base` from a snapshot taken of a DB with the same content (e.g. the same
   * data parsed, or structured-cloned, on an earlier visit); null when the snapshot does not
   * fit `base` (other format, tables or keys). Seeds the per-record text cache, so nothing is
   * printed again. Midstates are used only when the running sha256 engine saved them.
   */
  static restore(base: Db, snap: DbHasherSnapshot): DbHasher | null {
    if (snap.format !== DB_HASHER_FORMAT) return null;
    const tables = sortedKeysOf(base);
    if (tables.length !== snap.tables.length || tables.some((t, i) => t !== snap.tables[i])) return null;
    const seeds: [object, string, number][] = [];
    let i = 0;
    for (let t = 0; t < tables.length; t++) {
      const table = base.get(tables[t]!)!;
      const ks = snap.keys[t];
      if (!(table instanceof Map) || !ks) {
        if (table instanceof Map !== (ks !== null && ks !== undefined)) return null;
        continue;
      }
      if (table.size !== ks.length) return null;
      for (const k of ks) {
        if (!table.has(k)) return null;
        const record = table.get(k)!;
        if (typeof record === 'object' && record !== null && Object.isFrozen(record)) seeds.push([record, k, i]);
        i++;
      }
      if (Object.isFrozen(table)) sortedCache.set(table, ks);
    }
    if (i !== snap.ends.length || (i > 0 ? snap.ends[i - 1] : 0) !== snap.bytes.length) return null;
    for (const [record, key, n] of seeds) pieceCache.set(record, { key, bytes: snap.bytes.subarray(n === 0 ? 0 : snap.ends[n - 1], snap.ends[n]) });
    const checkpoints = snap.engine === sha256Engine() && snap.engine === 'wasm' ? snap.checkpoints : [];
    return new DbHasher(base, snap.every, { baseHash: snap.baseHash, checkpoints });
  }

  hash(db: Db): string {
    if (db === this.base) return this.baseHash;
    const at = this.divergence(db);
    if (at === 'same') return this.baseHash;
    // The same changes to the base give the same text: hashed once (trials of one task that end alike,
    // an agent's DB equal to the reference replay's).
    const key = at === null ? null : this.changeKey(db);
    const known = key === null ? undefined : this.byChanges.get(key);
    if (known !== undefined) return known;
    let from: Checkpoint | null = null;
    if (at !== null)
      for (const c of this.checkpoints) {
        if (c.t < at.t || (c.t === at.t && c.k <= at.k)) from = c;
        else break;
      }
    const h = this.run(db, from, false);
    if (key !== null) {
      if (this.byChanges.size >= CHANGE_MEMO) this.byChanges.delete(this.byChanges.keys().next().value!);
      this.byChanges.set(key, h);
    }
    return h;
  }

  /**
   * What tells `db`'s hashed text apart from the base's, as a digest: every record that is not the
   * base's own object (its table, key and hashed text) and every key the base has and `db` lacks.
   * Two DBs with the same key have the same text (the same keys in each table, each record printed
   * the same), so the same hash. Null when a table is not a dict on either side (not remembered).
   */
  private changeKey(db: Db): string | null {
    const s = sha256Stream();
    const field = (b: Uint8Array): void => {
      s.update(encoder.encode(`${b.length}:`));
      s.update(b);
    };
    for (const { t, a, b } of this.tablesApart(db)) {
      if (!(a instanceof Map) || !(b instanceof Map)) return null;
      s.update(encoder.encode(`|${t}|`));
      // Keys in code-point order (see `tableDelta`): the same changes give the same key whatever order they were made in.
      const { changed, removed } = tableDelta(a, b);
      for (const k of changed) field(entryBytes(k, a.get(k)!));
      for (const k of removed) field(encoder.encode(`-${reprStr(k)}`));
    }
    return s.hex();
  }

  /** Each table of `db` (by its place `t` in the sorted names) that is not the base's own object, beside the base's. */
  private *tablesApart(db: Db): Generator<{ readonly t: number; readonly a: PyValue | undefined; readonly b: PyValue | undefined }> {
    const tables = sortedKeysOf(db);
    for (let t = 0; t < tables.length; t++) {
      const a = db.get(tables[t]!);
      const b = this.base.get(tables[t]!);
      if (a !== b) yield { t, a, b };
    }
  }

  /** Where `db`'s text first differs from the base's; null when the table names differ. */
  private divergence(db: Db): { t: number; k: number } | 'same' | null {
    const tables = sortedKeysOf(db);
    const baseTables = sortedKeysOf(this.base);
    if (tables.length !== baseTables.length || tables.some((t, i) => t !== baseTables[i])) return null;
    for (const { t, a, b } of this.tablesApart(db)) {
      if (!(a instanceof Map) || !(b instanceof Map)) return { t, k: 0 };
      const { changed, removed } = tableDelta(a, b);
      if (changed.length === 0 && removed.length === 0) continue;
      // Every key below the first differing one (changed, added or removed) is in both tables with the
      // same record, so both sorted key lists agree up to that key's place among the base's keys.
      const first = changed.length === 0 ? removed[0]! : removed.length === 0 ? changed[0]! : minKey(changed[0]!, removed[0]!);
      return { t, k: lowerBound(sortedKeysOf(b), first) };
    }
    return 'same';
  }

  private baseSpans(): BaseSpans {
    return (this.spans ??= new BaseSpans(this.base));
  }

  private run(db: Db, from: Checkpoint | null, record: boolean): string {
    const s = new Buffered(sha256Stream());
    if (from) s.load(from.state);
    else s.update('(');
    const tables = sortedKeysOf(db);
    let since = 0;
    for (let t = from?.t ?? 0; t < tables.length; t++) {
      const name = tables[t]!;
      const table = db.get(name)!;
      const resuming = from !== null && t === from.t;
      if (!resuming) s.update(`${t > 0 ? ', ' : ''}(${reprStr(name)}, `);
      if (!(table instanceof Map)) {
        s.update(`${hashableStr(table)})`);
        continue;
      }
      const before = this.base.get(name);
      const keys = sortedKeysOf(table, before instanceof Map ? before : undefined);
      if (!resuming) s.update(keys.length === 0 ? '()' : '(');
      const k0 = resuming ? from.k : 0;
      // A derived state: records the base has under the same key, as the same (frozen) object, are the base's bytes —
      // a run of them is one span of the base's text (separators included), hashed without a copy.
      const beforeMap = before instanceof Map ? before : null;
      const base = record || beforeMap === null ? null : this.baseSpans().table(name, beforeMap);
      if (base !== null) {
        let span = -1;
        let last = -1;
        for (let k = k0; k < keys.length; k++) {
          const key = keys[k]!;
          const rec = table.get(key)!;
          const j = beforeMap!.get(key) === rec ? base.index(key) : -1;
          if (j >= 0 && span >= 0 && j === last + 1) {
            last = j;
            continue;
          }
          if (span >= 0) s.span(base.text.subarray(base.starts[span]!, base.ends[last]!));
          if (k > 0) s.bytes(COMMA);
          if (j >= 0) span = last = j;
          else {
            span = -1;
            s.bytes(entryBytes(key, rec));
          }
        }
        if (span >= 0) s.span(base.text.subarray(base.starts[span]!, base.ends[last]!));
      } else
        for (let k = k0; k < keys.length; k++) {
          if (record && k > 0 && since >= this.every) {
            this.checkpoints.push({ t, k, state: s.save() });
            since = 0;
          }
          const key = keys[k]!;
          if (k > 0) s.bytes(COMMA);
          const piece = entryBytes(key, table.get(key)!);
          s.bytes(piece);
          since += piece.length + 2;
        }
      // Python parity: tuple.__repr__ — a 1-tuple keeps a trailing comma.
      s.update(keys.length === 0 ? ')' : keys.length === 1 ? ',))' : '))');
    }
    s.update(tables.length === 1 ? ',)' : ')');
    return s.hex();
  }
}

const encoder = new TextEncoder();

/** Derived states whose hash a hasher remembers by their changes (a 64-character key and hash each). */
const CHANGE_MEMO = 16384;

/** Feeds sha256 in 64 KB chunks of UTF-8: many small updates (and encodings) are slow. */
class Buffered {
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
interface TableSpans {
  readonly text: Uint8Array;
  readonly starts: Uint32Array;
  readonly ends: Uint32Array;
  /** The place of `key` among the table's sorted keys (-1 for a record that is not frozen: its text may change). */
  index(key: string): number;
}

/**
 * The base's dict tables as text, made once per base from the records' cached bytes: a derived state's records that
 * are the base's own (same key, same frozen object) are hashed from here, a run of neighbours as one span.
 */
class BaseSpans {
  private readonly tables = new Map<string, TableSpans | null>();
  constructor(private readonly base: Db) {}

  table(name: string, map: ReadonlyMap<string, PyValue>): TableSpans | null {
    let t = this.tables.get(name);
    if (t === undefined) this.tables.set(name, (t = this.base.get(name) === map ? tableSpans(map) : null));
    return t;
  }
}

function tableSpans(map: ReadonlyMap<string, PyValue>): TableSpans {
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
  return { text, starts, ends, index: (key) => place.get(key) ?? -1 };
}

const pieceCache = new WeakMap<object, { readonly key: string; readonly bytes: Uint8Array }>();

/** UTF-8 of `(repr(key), str(to_hashable(record)))`, cached by record identity. */
function entryBytes(key: string, record: PyValue): Uint8Array {
  const cacheable = typeof record === 'object' && record !== null && Object.isFrozen(record);
  if (cacheable) {
    const hit = pieceCache.get(record);
    if (hit && hit.key === key) return hit.bytes;
  }
  const bytes = encoder.encode(`(${reprStr(key)}, ${hashableStr(record)})`);
  if (cacheable) pieceCache.set(record, { key, bytes });
  return bytes;
}

const COMMA = encoder.encode(', ');

const sortedCache = new WeakMap<object, readonly string[]>();

function sortedKeysOf(m: ReadonlyMap<string, unknown>, like?: ReadonlyMap<string, PyValue>): readonly string[] {
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

function minKey(a: string, b: string): string {
  return compareCodePoints(a, b) <= 0 ? a : b;
}

/** How many of the sorted `keys` come before `key` in code-point order. */
function lowerBound(keys: readonly string[], key: string): number {
  let lo = 0;
  let hi = keys.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (compareCodePoints(keys[mid]!, key) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
