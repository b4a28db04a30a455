import { describe, expect, it } from 'vitest';
import type { Action } from '../../../src/core/model/episode/types';
import { hashableStr } from '../../../src/core/py/hashable';
import { dict, type PyValue } from '../../../src/core/py/value';
import { argDiffs } from '../../../src/core/view/alignment';

const action = (v: PyValue | undefined): Action => ({ name: 'tool', kwargs: dict(v === undefined ? [] : [['x', v]]) }) as Action;

/** Scalars equal in JavaScript or in Python's `==` but printed otherwise by τ-bench's hashable form, and containers. */
const VALUES: readonly (PyValue | undefined)[] = [
  undefined,
  null,
  true,
  false,
  0n,
  1n,
  -1n,
  0,
  -0,
  1,
  1.5,
  NaN,
  Infinity,
  -Infinity,
  1e16,
  10000000000000000n,
  '',
  '1',
  'True',
  'None',
  '1.0',
  'nan',
  "'a'",
  'a',
  [],
  new Map(),
  [1n],
  ['1'],
  [[]],
  dict([['a', 1n]]),
  dict([['a', 1.0]]),
  dict([
    ['b', 2n],
    ['a', 1n],
  ]),
  dict([
    ['a', 1n],
    ['b', 2n],
  ]),
];

describe('argDiffs: an argument differs exactly when its hashable text does', () => {
  it('every pair of values (scalars told apart without printing them)', () => {
    for (const a of VALUES)
      for (const r of VALUES) {
        // Passed by neither: nothing differs; by one only: it differs.
        const alike = a === undefined || r === undefined ? a === r : hashableStr(a) === hashableStr(r);
        expect(argDiffs(action(a), action(r)).length === 0, `${String(a)} vs ${String(r)}`).toBe(alike);
      }
  });
  it('the close calls', () => {
    expect(argDiffs(action(1n), action(1))).toHaveLength(1);
    expect(argDiffs(action(true), action(1n))).toHaveLength(1);
    expect(argDiffs(action(-0), action(0))).toHaveLength(1);
    expect(argDiffs(action(NaN), action(NaN))).toHaveLength(0);
    // A list and a dict both empty print `()`.
    expect(argDiffs(action([]), action(new Map()))).toHaveLength(0);
  });
});
