/**
 * The dicts a copy-on-write τ² DB is made of (src/core/py/pydantic/lazy-dict.ts): a `LazyDict` read from a snapshot
 * behaves as the eager dict it stands for (keys, order, values, iteration, `has`, `size`, `set`, `delete`), decodes a
 * record once however many copies read it (a copy and its base share an untouched record as the same object), and a
 * copy (`copyDict`) notes every key written to it, never a key only read.
 */
import { expect, it } from 'vitest';
import { copyDict, DictCopy, LazyDict, recordIdentity, RecordSource } from '../../../src/core/py/pydantic/lazy-dict';
import type { TValue } from '../../../src/core/py/pydantic';

const lazy = (n: number) => {
  const decoded: number[] = [];
  const source = new RecordSource(n, (slot) => {
    decoded.push(slot);
    return new Map<string, TValue>([['id', `r${slot}`]]);
  });
  const keys = Array.from({ length: n }, (_, i) => `k${(i * 7) % n}`);
  return { dict: LazyDict.of(keys, source), keys, decoded };
};

it('a LazyDict is the dict it stands for, each record decoded on first read and once', () => {
  const { dict, keys, decoded } = lazy(5);
  expect(dict).toBeInstanceOf(Map);
  expect([...dict.keys()]).toEqual(keys);
  expect(dict.size).toBe(5);
  expect(dict.has('k2')).toBe(true);
  expect(decoded).toEqual([]);
  const r = dict.get(keys[3]!);
  expect(r).toEqual(new Map([['id', 'r3']]));
  expect(dict.get(keys[3]!)).toBe(r);
  expect(dict.get('missing')).toBeUndefined();
  expect(decoded).toEqual([3]);
  // Iteration in key order, every form, each record the one decoded.
  expect([...dict].map(([k, v]) => [k, (v as Map<string, TValue>).get('id')])).toEqual(keys.map((k, i) => [k, `r${i}`]));
  expect([...dict.values()][3]).toBe(r);
  const seen: string[] = [];
  dict.forEach((v, k) => seen.push(`${k}=${(v as Map<string, TValue>).get('id') as string}`));
  expect(seen).toEqual(keys.map((k, i) => `${k}=r${i}`));
  expect(new Map(dict).get(keys[3]!)).toBe(r);
  expect(decoded.sort()).toEqual([0, 1, 2, 3, 4]);
});

it('a copy decodes nothing for itself: base and copy share each untouched record, and the copy notes what is written', () => {
  const { dict, keys, decoded } = lazy(4);
  const copy = copyDict(dict);
  expect(copy).toBeInstanceOf(LazyDict);
  expect(copy.origin).toBe(dict);
  expect(decoded).toEqual([]);
  // Not decoded on either side: the same token; decoded through the copy: the same object on both sides.
  expect(recordIdentity(copy, keys[0]!)).toBe(recordIdentity(dict, keys[0]!));
  const a = copy.get(keys[0]!);
  expect(recordIdentity(dict, keys[0]!)).toBe(a);
  expect(dict.get(keys[0]!)).toBe(a);
  expect(decoded).toEqual([0]);
  expect([...copy.written]).toEqual([]);
  copy.set(keys[1]!, 'mine');
  copy.delete(keys[2]!);
  copy.set('new', 'added');
  expect([...copy.written]).toEqual([keys[1], keys[2], 'new']);
  expect(recordIdentity(copy, keys[1]!)).not.toBe(recordIdentity(dict, keys[1]!));
  expect([...copy.keys()]).toEqual([keys[0], keys[1], keys[3], 'new']);
  // The base is as it was.
  expect([...dict.keys()]).toEqual(keys);
  expect(dict.get(keys[1]!)).toEqual(new Map([['id', 'r1']]));
});

it('a copy of a plain dict is a DictCopy of the same values that notes writes, set and delete alike', () => {
  const base = new Map<string, TValue>([
    ['a', 1n],
    ['b', 2n],
  ]);
  const copy = copyDict(base);
  expect(copy).toBeInstanceOf(DictCopy);
  expect(copy.origin).toBe(base);
  expect([...copy]).toEqual([...base]);
  copy.get('a');
  expect([...copy.written]).toEqual([]);
  copy.set('a', 3n);
  copy.clear();
  expect([...copy.written].sort()).toEqual(['a', 'b']);
  expect([...base]).toEqual([
    ['a', 1n],
    ['b', 2n],
  ]);
});
