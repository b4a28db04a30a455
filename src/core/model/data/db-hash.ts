import { compareCodePoints, hashableStr } from '../../py/hashable';
import { reprStr } from '../../py/repr';
import { sha256Stream, type Sha256Stream } from '../../py/sha256';
import type { PyValue } from '../../py/value';
import type { Db } from './db';

interface Checkpoint {
  /** Table position (sorted) and key position (sorted) of the entry that comes next. */
  readonly t: number;
  readonly k: number;
  readonly state: unknown;
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

  constructor(
    private readonly base: Db,
    private readonly every = 32 * 1024,
  ) {
    this.baseHash = this.run(base, null, true);
  }

  hash(db: Db): string {
    if (db === this.base) return this.baseHash;
    const at = this.divergence(db);
    if (at === 'same') return this.baseHash;
    let from: Checkpoint | null = null;
    if (at !== null)
      for (const c of this.checkpoints) {
        if (c.t < at.t || (c.t === at.t && c.k <= at.k)) from = c;
        else break;
      }
    return this.run(db, from, false);
  }

  /** Where `db`'s text first differs from the base's; null when the table names differ. */
  private divergence(db: Db): { t: number; k: number } | 'same' | null {
    const tables = sortedKeysOf(db);
    const baseTables = sortedKeysOf(this.base);
    if (tables.length !== baseTables.length || tables.some((t, i) => t !== baseTables[i])) return null;
    for (let t = 0; t < tables.length; t++) {
      const a = db.get(tables[t]!);
      const b = this.base.get(tables[t]!);
      if (a === b) continue;
      if (!(a instanceof Map) || !(b instanceof Map)) return { t, k: 0 };
      const ka = sortedKeysOf(a);
      const kb = sortedKeysOf(b);
      const n = Math.min(ka.length, kb.length);
      for (let k = 0; k < n; k++) if (ka[k] !== kb[k] || a.get(ka[k]!) !== b.get(kb[k]!)) return { t, k };
      if (ka.length !== kb.length) return { t, k: n };
    }
    return 'same';
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
      const keys = sortedKeysOf(table);
      if (!resuming) s.update(keys.length === 0 ? '()' : '(');
      for (let k = resuming ? from.k : 0; k < keys.length; k++) {
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

function sortedKeysOf(m: ReadonlyMap<string, unknown>): readonly string[] {
  let keys = sortedCache.get(m);
  if (!keys) {
    keys = [...m.keys()].sort(compareCodePoints);
    if (Object.isFrozen(m)) sortedCache.set(m, keys);
  }
  return keys;
}
