import { compareCodePoints, hashableStr } from '../../py/hashable';
import { reprStr } from '../../py/repr';
import { sha256Engine, sha256Stream } from '../../py/sha256';
import type { PyValue } from '../../py/value';
import type { Db } from './db';
import {
  Buffered,
  COMMA,
  encoder,
  entryBytes,
  forgetSeeds,
  lowerBound,
  minKey,
  sameBytes,
  seedEntryBytes,
  seedSortedKeys,
  sortedKeysOf,
  tableSpans,
  type TableSpans,
} from './db-text';
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
  /**
   * The base's dict tables as text (each made at its first derived state): a derived state's records that are the base's
   * own (same key, same frozen object) are hashed from here, a run of neighbours as one span.
   */
  private readonly spans = new Map<string, TableSpans>();

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

  /** How many sha256 midstates of the base this hasher can resume from (a derived state is hashed from the last before it). */
  get midstates(): number {
    return this.checkpoints.length;
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
   * printed again. Midstates are used only when the running sha256 engine saved them, else made again.
   */
  static restore(base: Db, snap: DbHasherSnapshot): DbHasher | null {
    if (snap.format !== DB_HASHER_FORMAT) return null;
    const tables = sortedKeysOf(base);
    if (tables.length !== snap.tables.length || tables.some((t, i) => t !== snap.tables[i])) return null;
    const seeds: [object, string, number][] = [];
    const sortedTables: [object, readonly string[]][] = [];
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
      if (Object.isFrozen(table)) sortedTables.push([table, ks]);
    }
    if (i !== snap.ends.length || (i > 0 ? snap.ends[i - 1] : 0) !== snap.bytes.length) return null;
    for (const [table, ks] of sortedTables) seedSortedKeys(table, ks);
    for (const [record, key, n] of seeds) seedEntryBytes(record, key, snap.bytes.subarray(n === 0 ? 0 : snap.ends[n - 1], snap.ends[n]));
    if (snap.engine === sha256Engine() && snap.engine === 'wasm')
      return new DbHasher(base, snap.every, { baseHash: snap.baseHash, checkpoints: snap.checkpoints });
    // Midstates this engine cannot load (the host's are objects, never in a snapshot): made again by hashing the base once
    // from the seeded bytes (milliseconds: nothing is printed), else every derived state would be hashed from the start.
    // That pass checks the seeded texts too: when they do not give the snapshot's hash they are let go of.
    const again = new DbHasher(base, snap.every);
    if (again.baseHash === snap.baseHash) return again;
    forgetSeeds(
      seeds.map(([record]) => record),
      sortedTables.map(([table]) => table),
    );
    return null;
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
   * Whether `a` and `b`, states derived from the base, print the same text (so have the same hash), found without
   * hashing: record by record where either departs from the base (`tableDelta`), every other record being the base's
   * own object in both. A table's text is its entries `(repr(key), str(to_hashable(record)))` in key order, and that text
   * is a Python literal with one parse, so two tables print alike exactly when they have the same keys and each key's
   * entry prints alike — compared as the very bytes hashed. A table that is not a dict on either side is compared by hash.
   */
  sameText(a: Db, b: Db): boolean {
    if (a === b) return true;
    const names = sortedKeysOf(a);
    const other = sortedKeysOf(b);
    if (names.length !== other.length || names.some((n, i) => n !== other[i])) return this.hash(a) === this.hash(b);
    for (const name of names) {
      const x = a.get(name)!;
      const y = b.get(name)!;
      if (x === y) continue;
      const z = this.base.get(name);
      if (!(x instanceof Map) || !(y instanceof Map) || !(z instanceof Map)) return this.hash(a) === this.hash(b);
      const dx = tableDelta(x, z);
      const dy = tableDelta(y, z);
      for (const keys of [dx.changed, dx.removed, dy.changed, dy.removed])
        for (const k of keys) {
          const hx = x.has(k);
          if (hx !== y.has(k)) return false;
          if (hx && x.get(k) !== y.get(k) && !sameBytes(entryBytes(k, x.get(k)!), entryBytes(k, y.get(k)!))) return false;
        }
    }
    return true;
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

  private baseSpans(name: string, table: ReadonlyMap<string, PyValue>): TableSpans {
    let t = this.spans.get(name);
    if (t === undefined) this.spans.set(name, (t = tableSpans(table)));
    return t;
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
      const k0 = resuming ? from.k : 0;
      const beforeMap = before instanceof Map ? before : null;
      // A derived state over a base table whose records are all frozen: only the keys where the two depart are looked at.
      const spans = record || beforeMap === null ? null : this.baseSpans(name, beforeMap);
      if (spans !== null && spans.allFrozen) {
        if (!resuming) s.update(table.size === 0 ? '()' : '(');
        derivedEntries(s, table, beforeMap!, spans, k0);
        s.update(table.size === 0 ? ')' : table.size === 1 ? ',))' : '))');
        continue;
      }
      const keys = sortedKeysOf(table, beforeMap ?? undefined);
      if (!resuming) s.update(keys.length === 0 ? '()' : '(');
      // A derived state: records the base has under the same key, as the same (frozen) object, are the base's bytes —
      // a run of them is one span of the base's text (separators included), hashed without a copy.
      const base = spans;
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

/**
 * The entries of `table`, a state derived from the base table `before` (its text `base`, every record frozen), from its
 * sorted place `k0` on (the comma before it not yet fed when `k0 > 0`): the base's records between the keys where the two
 * depart (`tableDelta`: changed, added or removed, in code-point order) as spans of the base's text, each changed or added
 * record printed. What the loop over every key in `run` feeds, without looking at the keys that did not change.
 */
function derivedEntries(s: Buffered, table: ReadonlyMap<string, PyValue>, before: ReadonlyMap<string, PyValue>, base: TableSpans, k0: number): void {
  const { changed, removed } = tableDelta(table, before);
  const order = base.keys;
  let p = k0;
  let first = k0 === 0;
  const spanTo = (to: number): void => {
    if (to <= p) return;
    if (!first) s.bytes(COMMA);
    s.span(base.text.subarray(base.starts[p]!, base.ends[to - 1]!));
    first = false;
    p = to;
  };
  let i = 0;
  let j = 0;
  while (i < changed.length || j < removed.length) {
    const gone = i === changed.length || (j < removed.length && compareCodePoints(removed[j]!, changed[i]!) < 0);
    const key = gone ? removed[j++]! : changed[i++]!;
    const at = lowerBound(order, key);
    spanTo(at);
    if (order[at] === key) p = at + 1;
    if (gone) continue;
    if (!first) s.bytes(COMMA);
    s.bytes(entryBytes(key, table.get(key)!));
    first = false;
  }
  spanTo(order.length);
}

/** Derived states whose hash a hasher remembers by their changes (a 64-character key and hash each). */
const CHANGE_MEMO = 16384;
