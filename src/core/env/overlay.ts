import type { PyDict, PyValue } from '../py/value';
import { DictView } from './dict-view';

const GONE: unique symbol = Symbol('deleted');
type Slot = PyValue | typeof GONE;

/**
 * Held in the overlay's own (builtin) entries, which are otherwise empty: a structured clone, a
 * postMessage or `v8.serialize` copies a Map's builtin entries only, so an overlay would arrive as an
 * empty dict; with a symbol among them it throws (DataCloneError) instead.
 */
const UNCLONEABLE: unique symbol = Symbol('an overlay table cannot be cloned: copy it to a Map first');

/** A table at least this big is made an overlay when a call writes into it (smaller ones are copied). */
export const OVERLAY_MIN = 64;

/**
 * A dict made of a shared, frozen base dict and the records a call changed, added or deleted (the next
 * DB's table after a write: `DictDraft.finish`), instead of a copy of the whole table. It is a `Map` to
 * every `instanceof` test and reads as the dict it stands for, in Python's key order: a key of the base
 * keeps its place, a new key comes last, and a key deleted and set again comes last too (`#tail`, in
 * the order they came). An overlay of an overlay keeps the one base and a copy of the changes
 * (`derive`), so a chain of calls never stacks. Its builtin entries are never the dict's: anything
 * that reads them (`Map.prototype.get.call`, a structured clone) is wrong, and a clone throws.
 *
 * Writable only until frozen (`frozen` in json-parse: set, delete and clear then throw).
 */
export class OverlayDict extends DictView {
  readonly #base: PyDict;
  /** The keys whose value differs from the base's: a value, or `GONE` for a key of the base deleted. */
  readonly #changes: Map<string, Slot>;
  /** The keys that come after the base's (new, or deleted from the base and set again), in order. */
  readonly #tail: Set<string>;
  #size: number;

  private constructor(base: PyDict, changes: Map<string, Slot>, tail: Set<string>, size: number) {
    super();
    super.set(UNCLONEABLE as unknown as string, UNCLONEABLE as unknown as PyValue);
    this.#base = base;
    this.#changes = changes;
    this.#tail = tail;
    this.#size = size;
  }

  /**
   * A dict to write the next state of the frozen `table` into: an overlay over it (over its base, when
   * `table` is an overlay), or a plain copy when the table is small or its overlay holds many changes.
   */
  static over(table: PyDict): PyDict {
    if (table instanceof OverlayDict) {
      if (table.#changes.size * 4 > table.#base.size) return new Map(table);
      return new OverlayDict(table.#base, new Map(table.#changes), new Set(table.#tail), table.#size);
    }
    if (table.size < OVERLAY_MIN || !Object.isFrozen(table)) return new Map(table);
    return new OverlayDict(table, new Map(), new Set(), table.size);
  }

  /** The frozen base and the keys that may differ from it (for a consumer that compares the two). */
  static parts(table: PyDict): { readonly base: PyDict; readonly changed: Iterable<string> } | null {
    return table instanceof OverlayDict ? { base: table.#base, changed: table.#changes.keys() } : null;
  }

  override get size(): number {
    return this.#size;
  }
  override has(k: string): boolean {
    const c = this.#changes.get(k);
    return c === undefined ? this.#base.has(k) : c !== GONE;
  }
  override get(k: string): PyValue | undefined {
    const c = this.#changes.get(k);
    if (c === undefined) return this.#base.get(k);
    return c === GONE ? undefined : c;
  }
  // Python parity: dict.__setitem__ keeps an existing key's place; a new key, or one deleted and set again, goes last.
  override set(k: string, v: PyValue): this {
    const c = this.#changes.get(k);
    if (c === undefined ? !this.#base.has(k) : c === GONE) {
      this.#tail.add(k);
      this.#size++;
    }
    this.#changes.set(k, v);
    return this;
  }
  override delete(k: string): boolean {
    if (!this.has(k)) return false;
    this.#tail.delete(k);
    if (this.#base.has(k)) this.#changes.set(k, GONE);
    else this.#changes.delete(k);
    this.#size--;
    return true;
  }

  override *keys(): MapIterator<string> {
    const changes = this.#changes;
    const tail = this.#tail;
    if (changes.size === 0) {
      yield* this.#base.keys();
      return;
    }
    for (const k of this.#base.keys()) {
      const c = changes.get(k);
      if (c === undefined || (c !== GONE && !tail.has(k))) yield k;
    }
    yield* tail;
  }
  override *entries(): MapIterator<[string, PyValue]> {
    for (const k of this.keys()) yield [k, this.get(k)!];
  }
  override *values(): MapIterator<PyValue> {
    for (const k of this.keys()) yield this.get(k)!;
  }
  override forEach(fn: (v: PyValue, k: string, m: Map<string, PyValue>) => void, thisArg?: unknown): void {
    const changes = this.#changes;
    const tail = this.#tail;
    this.#base.forEach((v, k) => {
      const c = changes.get(k);
      if (c === undefined) fn.call(thisArg, v, k, this);
      else if (c !== GONE && !tail.has(k)) fn.call(thisArg, c, k, this);
    });
    tail.forEach((k) => fn.call(thisArg, changes.get(k) as PyValue, k, this));
  }
}
