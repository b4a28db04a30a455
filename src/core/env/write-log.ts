import type { PyDict, PyValue } from '../py/value';
import { DictView } from './dict-view';

/** Where a tool call wrote: `[table, key, …field path]` (list positions as numbers). */
export type WritePath = readonly (string | number)[];

type Node = PyDict | PyValue[];

/**
 * A copy-on-write view of a DB that logs every write made through it: `d[k] = v` (also with the
 * value `d[k]` already had, which changes nothing in `writeDb`), `del d[k]`, and every list position a
 * list method sets or removes. A dict or list assigned is one write at its path (so a fresh
 * record written is a write of all its fields). Reads see the writes made so far, and what
 * they return is seen through the tracker in turn, so a tool's code runs on it unchanged.
 *
 * The DB it wraps is never written: a dict of it keeps its writes beside it, a list is copied
 * (shallowly) when first seen; values the tool built and stored are its own and are written in
 * place. One tracker
 * per call; it makes no DB (the replay's `writeDb` does that).
 */
export class WriteTracker {
  readonly writes: WritePath[] = [];
  /**
   * The view of each value by where it was read: a value of the DB is seen through one view per
   * path (the same object reached by two paths is two views, each written apart, as `writeDb`'s
   * drafts do); a value the tool built is one view wherever it is read (written in place).
   */
  private readonly viewsOf = new WeakMap<object, Map<string, Node>>();
  private readonly ownView = new WeakMap<object, Node>();
  private readonly wrappers = new WeakSet<object>();
  /** Values the tool built and stored (written in place, like any Python object). */
  private readonly fresh = new WeakSet<object>();

  /** The DB to hand to the tool. */
  root(db: PyDict): PyDict {
    return this.wrap(db, [], null) as PyDict;
  }

  /** `v` found at `parent[key]` (the root: key null), seen through the tracker. */
  wrap(v: PyValue | undefined, parent: WritePath, key: string | number | null): PyValue | undefined {
    if (typeof v !== 'object' || v === null || this.wrappers.has(v)) return v;
    const path = key === null ? parent : [...parent, key];
    const own = this.fresh.has(v);
    let views = own ? undefined : this.viewsOf.get(v);
    if (!own && !views) this.viewsOf.set(v, (views = new Map()));
    const at = own ? '' : JSON.stringify(path);
    const seen = views ? views.get(at) : this.ownView.get(v);
    if (seen) return seen;
    const w: Node = v instanceof Map ? new TrackedDict(v, own, path, this) : new Proxy(own ? v : v.slice(), listHandler(path, this));
    if (views) views.set(at, w);
    else this.ownView.set(v, w);
    this.wrappers.add(w);
    return w;
  }

  /** Logs a write at `parent[key]` of `value` (remembered as the tool's own when it built it). */
  wrote(parent: WritePath, key: string | number, value?: PyValue): void {
    this.writes.push([...parent, key]);
    if (value !== undefined) this.adopt(value);
  }

  private adopt(v: PyValue): void {
    if (typeof v !== 'object' || v === null || this.wrappers.has(v) || this.fresh.has(v) || Object.isFrozen(v)) return;
    this.fresh.add(v);
    for (const x of v instanceof Map ? v.values() : v) this.adopt(x);
  }
}

const INDEX = /^(?:0|[1-9]\d*)$/;

function listHandler(path: WritePath, tracker: WriteTracker): ProxyHandler<PyValue[]> {
  return {
    get(t, p, receiver) {
      if (typeof p === 'string' && INDEX.test(p)) return tracker.wrap(t[Number(p)], path, Number(p));
      return Reflect.get(t, p, receiver) as unknown;
    },
    set(t, p, v) {
      if (typeof p === 'string' && INDEX.test(p)) tracker.wrote(path, Number(p), v as PyValue);
      else if (p === 'length' && typeof v === 'number') for (let i = v; i < t.length; i++) tracker.wrote(path, i);
      return Reflect.set(t, p, v);
    },
    deleteProperty(t, p) {
      if (typeof p === 'string' && INDEX.test(p)) tracker.wrote(path, Number(p));
      return Reflect.deleteProperty(t, p);
    },
  };
}

const GONE: unique symbol = Symbol('deleted');

/**
 * A dict seen through the tracker (a `Map` to every `instanceof` test). A dict of the DB keeps
 * its writes beside it (`#over`, in Python's key order: a new key last, an existing one in its
 * place), so a write into a table of thousands of records copies nothing.
 */
class TrackedDict extends DictView {
  #base: PyDict;
  #over: Map<string, PyValue | typeof GONE> | null = null;
  #size: number;
  readonly #path: WritePath;
  readonly #tracker: WriteTracker;

  /** `own`: the tool built `data`, so it is written in place. */
  constructor(data: PyDict, own: boolean, path: WritePath, tracker: WriteTracker) {
    super();
    this.#base = data;
    if (!own) this.#over = new Map();
    this.#size = data.size;
    this.#path = path;
    this.#tracker = tracker;
  }

  #raw(k: string): PyValue | undefined {
    const o = this.#over?.get(k);
    if (o === undefined) return this.#base.get(k);
    return o === GONE ? undefined : o;
  }

  override get size(): number {
    return this.#over === null ? this.#base.size : this.#size;
  }
  override has(k: string): boolean {
    return this.#raw(k) !== undefined;
  }
  override get(k: string): PyValue | undefined {
    return this.#tracker.wrap(this.#raw(k), this.#path, k);
  }
  override set(k: string, v: PyValue): this {
    this.#tracker.wrote(this.#path, k, v);
    const over = this.#over;
    if (over === null) this.#base.set(k, v);
    else if (over.get(k) === GONE) {
      // Python parity: dict.__setitem__ after del puts the key last; written out in full.
      this.#base = new Map(this.#entries());
      this.#over = null;
      this.#base.set(k, v);
    } else {
      if (this.#raw(k) === undefined) this.#size++;
      over.set(k, v);
    }
    return this;
  }
  override delete(k: string): boolean {
    if (this.#raw(k) === undefined) return false;
    this.#tracker.wrote(this.#path, k);
    if (this.#over === null) return this.#base.delete(k);
    if (this.#base.has(k)) this.#over.set(k, GONE);
    else this.#over.delete(k);
    this.#size--;
    return true;
  }
  override clear(): void {
    for (const k of this.keys()) this.delete(k);
  }
  *#entries(): Generator<[string, PyValue]> {
    const over = this.#over;
    if (over === null) {
      yield* this.#base;
      return;
    }
    for (const [k, v] of this.#base) {
      const o = over.get(k);
      if (o === undefined) yield [k, v];
      else if (o !== GONE) yield [k, o];
    }
    for (const [k, o] of over) if (o !== GONE && !this.#base.has(k)) yield [k, o];
  }
  override *keys(): MapIterator<string> {
    for (const [k] of this.#entries()) yield k;
  }
}

/** Whether a write at `w` wrote (part of) the value at `p`: one path is a prefix of the other. */
export function overlaps(w: WritePath, p: WritePath): boolean {
  const n = Math.min(w.length, p.length);
  for (let i = 0; i < n; i++) if (w[i] !== p[i]) return false;
  return true;
}
