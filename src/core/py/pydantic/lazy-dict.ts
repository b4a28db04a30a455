/**
 * Dicts of records shared between a base DB and its copies (τ²'s copy-on-write domains: see `ownTable`).
 *
 * `DictCopy`: a table's copy (`copyDict`) that knows its origin and the keys written since (`set`, `delete`), so the DB
 * hasher lays out a copied table's text in the number of records changed, not the table's size (2,000 reservations
 * compared per hash before).
 *
 * `LazyDict`: a table read from a snapshot (snapshot.ts) whose values are decoded when first read: a process judging a
 * few simulations of airline reads a few of its 2,000 reservations and 500 users, so it need not build every record's
 * models (most of a cached DB's load, and of the garbage it leaves). It is a `Map`: keys, order, `size`, `has`,
 * `set`, `delete` are the map's own; `get` and every iteration hand out the decoded record, decoded once per record
 * for every copy of the table (`copyDict`), so a copy and its base share an untouched record as the same object, as
 * copies of an eager table do (what `own` and the DB hasher tell changes by).
 */
import type { TValue } from './model';

/** The records of one table, each decoded on first demand and kept. */
export class RecordSource {
  private readonly decoded: (TValue | undefined)[];
  readonly pending: readonly Pending[];

  constructor(
    count: number,
    private readonly decodeAt: (slot: number) => TValue,
  ) {
    this.decoded = new Array<TValue | undefined>(count);
    this.pending = Array.from({ length: count }, (_, slot) => new Pending(this, slot));
  }

  value(slot: number): TValue {
    let v = this.decoded[slot];
    if (v === undefined) this.decoded[slot] = v = this.decodeAt(slot);
    return v;
  }

  /** The record if decoded already, else undefined. */
  peek(slot: number): TValue | undefined {
    return this.decoded[slot];
  }
}

/** A record not decoded yet (the value the map holds in its place). */
class Pending {
  constructor(
    readonly source: RecordSource,
    readonly slot: number,
  ) {}
}

const mapSet = Map.prototype.set;
// The map's own entries, walked by the engine's builtin (no iterator objects and no generator: most of a short CLI
// process runs without the optimizing compiler, where those cost several times a builtin's callback).
const mapForEach = Map.prototype.forEach as (this: Map<string, unknown>, f: (value: unknown, key: string) => void) => void;

/** A copy of a dict (`copyDict`): its origin, and every key set or deleted since it was made. */
export class DictCopy extends Map<string, TValue> {
  /** The dict this is a copy of (null: none). Fields are set after `super()`, so the map is always made empty and then filled. */
  origin: Map<string, TValue> | null = null;
  readonly written = new Set<string>();

  /** A copy of `d`'s entries (the same values). */
  static from(d: Map<string, TValue>): DictCopy {
    const c = new DictCopy();
    mapForEach.call(d, (v, k) => mapSet.call(c, k, v));
    c.origin = d;
    return c;
  }

  override set(k: string, v: TValue): this {
    this.written.add(k);
    return super.set(k, v);
  }

  override delete(k: string): boolean {
    this.written.add(k);
    return super.delete(k);
  }

  override clear(): void {
    for (const k of this.keys()) this.written.add(k);
    super.clear();
  }
}

export class LazyDict extends DictCopy {
  /** Every value decoded (none pending): then the map's own iterators hand out the records. */
  settled = false;

  /** A dict of `keys` (in order), each record the source's of the same place. */
  static of(keys: readonly string[], source: RecordSource): LazyDict {
    const d = new LazyDict();
    keys.forEach((k, i) => d.put(k, source.pending[i]!));
    return d;
  }

  /**
   * Every record decoded, in the map's order (what an iteration would do on the way): an iteration then runs on the
   * map's own iterator, which sees keys set or deleted meanwhile as a Map's does.
   */
  private settleAll(): void {
    if (this.settled) return;
    mapForEach.call(this, (v, k) => {
      if (v instanceof Pending) this.put(k, v.source.value(v.slot));
    });
    this.settled = true;
  }

  /** A value put in place of another (a record decoded) is no write. */
  private put(k: string, v: TValue | Pending): void {
    mapSet.call(this, k, v);
  }

  private raw(k: string): TValue | Pending | undefined {
    return super.get(k);
  }

  private settle(k: string, v: TValue | Pending): TValue {
    if (!(v instanceof Pending)) return v;
    const value = v.source.value(v.slot);
    this.put(k, value);
    return value;
  }

  override get(k: string): TValue | undefined {
    const v = this.raw(k);
    return v === undefined ? undefined : this.settle(k, v);
  }

  override entries(): MapIterator<[string, TValue]> {
    this.settleAll();
    return super.entries();
  }

  override values(): MapIterator<TValue> {
    this.settleAll();
    return super.values();
  }

  override [Symbol.iterator](): MapIterator<[string, TValue]> {
    return this.entries();
  }

  override forEach(f: (value: TValue, key: string, map: Map<string, TValue>) => void, thisArg?: unknown): void {
    this.settleAll();
    super.forEach(f, thisArg);
  }

  /** A dict of the same keys and records, nothing decoded for it (its origin this one). */
  copy(): LazyDict {
    const d = new LazyDict();
    mapForEach.call(this, (v, k) => mapSet.call(d, k, v));
    d.settled = this.settled;
    d.origin = this;
    return d;
  }

  /** What stands for the record at `k` without decoding it: the record once decoded, else a token equal only to itself. */
  identity(k: string): unknown {
    const v = this.raw(k);
    return v instanceof Pending ? (v.source.peek(v.slot) ?? v) : v;
  }
}

const mapDelete = Map.prototype.delete;
const GONE: unique symbol = Symbol('deleted');
/** In a `CopyView`'s own entries until it is made a copy: a structured clone of it throws instead of giving an empty dict. */
const UNCLONEABLE: unique symbol = Symbol('a table copy not made yet cannot be cloned');

/** A dict at least this big is copied as a `CopyView` (a smaller one at once). */
export const VIEW_MIN = 64;

/**
 * A copy of a big dict (`copyDict`) that copies nothing until it is iterated: `get`, `has`, `size`, `set` and `delete`
 * read and write its writes (`#changes`) over its origin, in Python's key order (a key of the origin keeps its place,
 * a new key comes last, a key deleted and set again comes last: `#tail`); the first iteration (any form) or `clear`
 * makes it the copy `copyDict` made before — the origin's entries as they are (a lazy origin's records still pending),
 * its writes applied in order — and from then on it is that copy. A τ² simulation writes a table of 2,000 reservations
 * and reads a few: the table is never copied. The origin must not be written meanwhile (τ²'s base DBs never are).
 */
export class CopyView extends LazyDict {
  #changes: Map<string, TValue | typeof GONE> | null = new Map();
  readonly #tail = new Set<string>();
  #size = 0;

  static over(d: Map<string, TValue>): CopyView {
    const c = new CopyView();
    mapSet.call(c, UNCLONEABLE as unknown as string, UNCLONEABLE as unknown as TValue);
    c.origin = d;
    c.#size = d.size;
    return c;
  }

  /** Made the copy (see the class): the origin's own entries, then the writes. */
  #made(): void {
    const changes = this.#changes;
    if (changes === null) return;
    this.#changes = null;
    const origin = this.origin!;
    mapDelete.call(this, UNCLONEABLE as unknown as string);
    mapForEach.call(origin, (v, k) => mapSet.call(this, k, v));
    this.settled = origin instanceof LazyDict ? origin.settled : true;
    changes.forEach((c, k) => {
      if (c === GONE) mapDelete.call(this, k);
      else if (!this.#tail.has(k)) mapSet.call(this, k, c);
    });
    this.#tail.forEach((k) => {
      mapDelete.call(this, k);
      mapSet.call(this, k, changes.get(k));
    });
  }

  override get size(): number {
    return this.#changes === null ? super.size : this.#size;
  }
  override has(k: string): boolean {
    if (this.#changes === null) return super.has(k);
    const c = this.#changes.get(k);
    return c === undefined ? this.origin!.has(k) : c !== GONE;
  }
  override get(k: string): TValue | undefined {
    if (this.#changes === null) return super.get(k);
    const c = this.#changes.get(k);
    if (c === undefined) return this.origin!.get(k);
    return c === GONE ? undefined : c;
  }
  override identity(k: string): unknown {
    if (this.#changes === null) return super.identity(k);
    const c = this.#changes.get(k);
    if (c === undefined) return recordIdentity(this.origin!, k);
    return c === GONE ? undefined : c;
  }
  // Python parity: dict.__setitem__ keeps an existing key's place; a new key, or one deleted and set again, goes last.
  override set(k: string, v: TValue): this {
    const changes = this.#changes;
    if (changes === null) return super.set(k, v);
    this.written.add(k);
    const c = changes.get(k);
    if (c === undefined ? !this.origin!.has(k) : c === GONE) {
      this.#tail.add(k);
      this.#size++;
    }
    changes.set(k, v);
    return this;
  }
  override delete(k: string): boolean {
    const changes = this.#changes;
    if (changes === null) return super.delete(k);
    this.written.add(k);
    if (!this.has(k)) return false;
    this.#tail.delete(k);
    if (this.origin!.has(k)) changes.set(k, GONE);
    else changes.delete(k);
    this.#size--;
    return true;
  }
  override clear(): void {
    this.#made();
    super.clear();
  }
  override keys(): MapIterator<string> {
    this.#made();
    return super.keys();
  }
  override entries(): MapIterator<[string, TValue]> {
    this.#made();
    return super.entries();
  }
  override values(): MapIterator<TValue> {
    this.#made();
    return super.values();
  }
  override forEach(f: (value: TValue, key: string, map: Map<string, TValue>) => void, thisArg?: unknown): void {
    this.#made();
    super.forEach(f, thisArg);
  }
  override copy(): LazyDict {
    this.#made();
    return super.copy();
  }
}

/** `dict(d)`: a copy of a dict that notes what is written to it (of a lazy one, lazy too; of a big one, a `CopyView`). */
export const copyDict = (d: Map<string, TValue>): DictCopy => {
  if (d instanceof CopyView) return d.copy();
  if (d.size >= VIEW_MIN) return CopyView.over(d);
  return d instanceof LazyDict ? d.copy() : DictCopy.from(d);
};

/**
 * The value at `k` as far as identity goes, without decoding a lazy record: two dicts hold the same object at `k`
 * exactly when their `recordIdentity` is the same (undefined where there is none).
 */
export const recordIdentity = (d: Map<string, TValue>, k: string): unknown => (d instanceof LazyDict ? d.identity(k) : d.get(k));
