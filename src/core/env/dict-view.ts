import type { PyValue } from '../py/value';

/**
 * A dict seen through a view of it (a `Map` to every `instanceof` test) whose iteration is its
 * `keys()` in order, each value read through its `get` (so the tool sees what `get` gives it).
 */
export abstract class DictView extends Map<string, PyValue> {
  abstract override keys(): MapIterator<string>;
  abstract override get(k: string): PyValue | undefined;

  override *values(): MapIterator<PyValue> {
    for (const k of this.keys()) yield this.get(k)!;
  }
  override *entries(): MapIterator<[string, PyValue]> {
    for (const k of this.keys()) yield [k, this.get(k)!];
  }
  override [Symbol.iterator](): MapIterator<[string, PyValue]> {
    return this.entries();
  }
  /** `dict.clear()`: each key deleted through `delete`, the keys taken first. */
  override clear(): void {
    for (const k of [...this.keys()]) this.delete(k);
  }
  override forEach(fn: (v: PyValue, k: string, m: Map<string, PyValue>) => void, thisArg?: unknown): void {
    for (const k of this.keys()) fn.call(thisArg, this.get(k)!, k, this);
  }
}
