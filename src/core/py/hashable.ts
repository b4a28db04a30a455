import { reprFloat, reprStr } from './repr';
import type { PyValue } from './value';

/** Code-point order, as Python compares `str`. */
// Python parity: str.__lt__ compares code points; JS `<` compares UTF-16 units.
export function compareCodePoints(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    if (x >= 0xd800 && y >= 0xd800) {
      const cx = a.codePointAt(i)!;
      const cy = b.codePointAt(i)!;
      if (cx !== cy) return cx < cy ? -1 : 1;
      continue;
    }
    return x < y ? -1 : 1;
  }
  return a.length - b.length;
}

export function sortedKeys(d: ReadonlyMap<string, unknown>): string[] {
  return [...d.keys()].sort(compareCodePoints);
}

const cache = new WeakMap<object, string>();

/**
 * `str(to_hashable(v))`: dicts become tuples of (key, value) pairs sorted by key,
 * lists become tuples. Results for frozen containers are cached by identity.
 */
// Python parity: tau_bench.envs.base.to_hashable, then tuple.__repr__.
export function hashableStr(v: PyValue): string {
  if (v === null) return 'None';
  switch (typeof v) {
    case 'boolean':
      return v ? 'True' : 'False';
    case 'bigint':
      return v.toString();
    case 'number':
      return reprFloat(v);
    case 'string':
      return reprStr(v);
  }
  const hit = cache.get(v);
  if (hit !== undefined) return hit;
  let parts: string[];
  if (Array.isArray(v)) parts = v.map(hashableStr);
  else parts = sortedKeys(v).map((k) => `(${reprStr(k)}, ${hashableStr(v.get(k)!)})`);
  // Python parity: tuple repr — `()` when empty, `(x,)` for one element.
  const s = parts.length === 1 ? `(${parts[0]},)` : `(${parts.join(', ')})`;
  // Only frozen values (finalised DB states) can be cached safely.
  if (Object.isFrozen(v)) cache.set(v, s);
  return s;
}
