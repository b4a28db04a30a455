import { freeze, produce } from '../../support/immer';
import { describe, expect, it } from 'vitest';
import type { Db } from '../../../src/core/model/data/db';
import { DbHasher } from '../../../src/core/model/data/db-hash';
import '../../../src/core/env/execute';
import { consistentHash } from '../../../src/core/py/hash';
import { parseJson } from '../../../src/core/py/json-parse';
import type { PyDict } from '../../../src/core/py/value';

const base = freeze(
  parseJson(
    JSON.stringify({
      users: Object.fromEntries(
        Array.from({ length: 300 }, (_, i) => [`u${String(i).padStart(3, '0')}`, { name: `User ${i}`, balance: i, tags: ['a', i % 2 ? 'b' : 'c'] }]),
      ),
      orders: Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`#W${1000 + i}`, { total: i + 0.5, items: [{ id: String(i) }] }])),
      solo: { only: { x: 1 } },
      empty: {},
    }),
  ) as Db,
  true,
);

type Edit = (d: PyDict) => void;
const table = (d: PyDict, t: string) => d.get(t) as PyDict;

/** Each edit is applied to the base; the streamed hash must equal sha256(str(to_hashable(db))). */
const CASES: readonly (readonly [string, Edit])[] = [
  ['no change (new identity)', () => {}],
  ['first record of the first table', (d) => (table(d, 'empty').set('a', 1n), undefined)],
  ['a late record changes', (d) => void (table(table(d, 'users'), 'u299') as unknown as PyDict).set('balance', 300.0)],
  ['an early record changes', (d) => void (table(table(d, 'orders'), '#W1000') as unknown as PyDict).set('total', 1n)],
  ['a record is added in the middle of the sorted keys', (d) => void table(d, 'users').set('u150a', null)],
  ['a record is removed', (d) => void table(d, 'users').delete('u100')],
  ['the single-record table gains a record', (d) => void table(d, 'solo').set('other', [])],
  ['the single-record table loses it', (d) => void table(d, 'solo').delete('only')],
  ['a new table appears', (d) => void d.set('zeta', new Map([['k', 'v']]))],
  ['a table is dropped', (d) => void d.delete('orders')],
  ['int becomes float everywhere in one record', (d) => void (table(table(d, 'users'), 'u001') as unknown as PyDict).set('balance', 1.0)],
];

describe('DbHasher (streamed, resumable DB hash)', () => {
  const hasher = new DbHasher(base, 512);
  it('hashes the base like consistent_hash', () => expect(hasher.hash(base)).toBe(consistentHash(base)));
  it.each(CASES)('%s', (_name, edit) => {
    const next = produce(base, (d) => {
      edit(d as PyDict);
    });
    expect(hasher.hash(next)).toBe(consistentHash(next));
  });
  it('remembers a hash by the changes: the same edits made again (new objects) hash alike, different ones never', () => {
    // One hasher sees every case twice, each time a fresh copy, and each must still be consistent_hash's;
    // the cases differ by one record or one key, so a key that confused two of them would fail here.
    const memo = new DbHasher(base, 512);
    for (let round = 0; round < 2; round++)
      for (const [, edit] of CASES) {
        const next = produce(base, (d) => {
          edit(d as PyDict);
        });
        expect(memo.hash(next)).toBe(consistentHash(next));
      }
    const twins = [0, 1].map(() => produce(base, (d) => void (table(table(d as PyDict, 'users'), 'u007') as unknown as PyDict).set('balance', 8n)));
    const other = produce(base, (d) => void (table(table(d as PyDict, 'users'), 'u007') as unknown as PyDict).set('balance', 8.0));
    expect(memo.hash(twins[0]!)).toBe(memo.hash(twins[1]!));
    expect(memo.hash(other)).toBe(consistentHash(other));
    expect(memo.hash(other)).not.toBe(memo.hash(twins[0]!));
    // A record removed and one added in its place with the base's text: not the same DB as the base.
    const moved = produce(base, (d) => {
      const users = table(d as PyDict, 'users');
      const rec = users.get('u010');
      users.delete('u010');
      users.set('u010x', rec!);
    });
    expect(memo.hash(moved)).toBe(consistentHash(moved));
  });
  it('chains: states derived from derived states', () => {
    let s = base;
    for (let i = 0; i < 20; i++) {
      s = produce(s, (d) => {
        (table(table(d as PyDict, 'users'), `u${String(i * 13).padStart(3, '0')}`) as unknown as PyDict).set('balance', BigInt(-i));
      });
      expect(hasher.hash(s)).toBe(consistentHash(s));
    }
  });
  it('seeded random edits — records changed, added and removed in several tables, runs of unchanged records between — hash like consistent_hash', () => {
    // Unchanged records are hashed as spans of the base's text (runs of neighbours at once): every shape of run
    // boundary (a change at a table's start or end, two changes side by side, a removal next to a change) comes up.
    let seed = 20261205;
    const rand = (n: number): number => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return (seed >>> 8) % n;
    };
    const fresh = new DbHasher(base, 512);
    for (let round = 0; round < 300; round++) {
      const edits = 1 + rand(6);
      const next = produce(base, (d) => {
        for (let e = 0; e < edits; e++) {
          const t = ['users', 'orders', 'solo', 'empty'][rand(4)]!;
          const tab = table(d as PyDict, t);
          const keys = [...tab.keys()];
          const op = rand(4);
          if (op === 0 && keys.length > 0) tab.delete(keys[rand(keys.length)]!);
          else if (op === 1) tab.set(`${keys[rand(Math.max(1, keys.length))] ?? 'k'}~${rand(9)}`, BigInt(rand(100)));
          else if (keys.length > 0) {
            const rec = tab.get(keys[rand(keys.length)]!);
            if (rec instanceof Map) (rec as PyDict).set(rand(2) ? 'balance' : 'total', rand(2) ? BigInt(rand(50)) : rand(50) + 0.25);
            else tab.set(keys[rand(keys.length)]!, 'replaced');
          }
        }
      });
      expect(fresh.hash(next)).toBe(consistentHash(next));
    }
  });
  it('a record that is not frozen is printed as it is now, not as it was when first hashed', () => {
    const h = new DbHasher(base, 512);
    const live = new Map<string, unknown>([
      ['name', 'Live'],
      ['balance', 1n],
    ]) as unknown as PyDict;
    const db = new Map(base) as Db;
    db.set('users', new Map(table(base as PyDict, 'users')).set('u005', live as never) as never);
    expect(h.hash(db)).toBe(consistentHash(db));
    live.set('balance', 2n);
    const again = new Map(db) as Db;
    again.set('users', new Map(table(db as PyDict, 'users')) as never);
    expect(h.hash(again)).toBe(consistentHash(again));
  });
  it('sameText: two states derived from the base print alike exactly when their hashes are equal (seeded pairs, and the close calls)', () => {
    let seed = 4242;
    const rand = (n: number): number => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return (seed >>> 8) % n;
    };
    const h = new DbHasher(base, 512);
    // Few choices, so pairs often make the same changes (with new objects) and often differ by one value.
    const edit = (): Db =>
      produce(base, (d) => {
        for (let e = rand(3); e > 0; e--) {
          const users = table(d as PyDict, 'users');
          const key = `u00${rand(3)}`;
          const op = rand(5);
          if (op === 0) users.delete(key);
          else if (op === 1) users.set(key, users.get(key) ?? (null as never));
          else if (op === 2) (users.get(key) as unknown as PyDict | undefined)?.set('balance', rand(2) ? 7n : 7.0);
          else if (op === 3) users.set(`${key}x`, new Map([['name', 'New']]) as never);
          else table(d as PyDict, 'solo').set('only', new Map([['x', 1n]]) as never);
        }
      });
    let same = 0;
    for (let i = 0; i < 400; i++) {
      const a = edit();
      const b = edit();
      const expected = consistentHash(a) === consistentHash(b);
      if (expected) same++;
      expect(h.sameText(a, b)).toBe(expected);
    }
    // Both answers came up many times.
    expect(same).toBeGreaterThan(40);
    expect(same).toBeLessThan(360);
    // A table that is not a dict on one side: compared by hash ({} and [] both print as ()).
    const list = new Map(base) as Db;
    list.set('empty', [] as never);
    expect(h.sameText(list, base)).toBe(consistentHash(list) === consistentHash(base));
    expect(h.sameText(list, base)).toBe(true);
  });
});
