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

it('an iteration written to meanwhile sees what a Map iteration sees: a key added is met, a key deleted is not, a value set is the new one', () => {
  const { dict, keys } = lazy(6);
  const plain = new Map<string, TValue>(keys.map((k, i) => [k, new Map<string, TValue>([['id', `r${i}`]])]));
  const walk = (d: Map<string, TValue>, how: 'values' | 'entries' | 'forEach' | 'of'): string[] => {
    const seen: string[] = [];
    const visit = (v: TValue, step: number): void => {
      seen.push(typeof v === 'string' ? v : ((v as Map<string, TValue>).get('id') as string));
      if (step === 1) {
        d.set('late', 'added');
        d.delete(keys[4]!);
        d.set(keys[3]!, 'replaced');
      }
    };
    let step = 0;
    if (how === 'values') for (const v of d.values()) visit(v, step++);
    if (how === 'entries') for (const [, v] of d.entries()) visit(v, step++);
    if (how === 'of') for (const [, v] of d) visit(v, step++);
    if (how === 'forEach') d.forEach((v) => visit(v, step++));
    return seen;
  };
  for (const how of ['values', 'entries', 'forEach', 'of'] as const) {
    const { dict: fresh } = lazy(6);
    const copy = new Map(plain);
    expect(walk(copyDict(fresh), how), how).toEqual(walk(copy, how));
  }
  // A copy of a dict read whole hands out the same records, decoding nothing again.
  expect([...dict.values()]).toHaveLength(6);
  const copy = copyDict(dict);
  expect([...copy.values()]).toEqual([...dict.values()]);
  for (const k of keys) expect(copy.get(k)).toBe(dict.get(k));
});
