/**
 * Table deltas (src/core/model/data/table-delta.ts): what the DB hash, `diffRecords` and a derived
 * table's key order take from the lineage `writeDb` notes, checked against full scans and
 * against hashes computed from scratch (`consistent_hash` of the whole text).
 */
import fc from 'fast-check';
import { freeze, produce } from '../../support/immer';
import { describe, expect, it } from 'vitest';
import { writeDb } from '../../../src/core/env/execute';
import type { Db } from '../../../src/core/model/data/db';
import { DbHasher } from '../../../src/core/model/data/db-hash';
import { diffRecords } from '../../../src/core/model/data/diff-records';
import { derivesFrom, fullTableDelta, tableDelta } from '../../../src/core/model/data/table-delta';
import { consistentHash } from '../../../src/core/py/hash';
import { parseJson } from '../../../src/core/py/json-parse';
import type { PyDict } from '../../../src/core/py/value';
import { EvalCache } from '../../../src/core/judge/cache';
import { evaluateEpisode } from '../../../src/core/judge/evaluate';
import { evaluatedSharedRun } from '../../support/fixtures';
import { describeShared } from '../../support/shared';
import { keysOf, recordedDeltaCases, scanDiff } from './recorded-deltas.cases';

const SEED = 20261204;

const makeBase = (): Db =>
  freeze(
    parseJson(
      JSON.stringify({
        users: Object.fromEntries(Array.from({ length: 24 }, (_, i) => [`u${String(i * 2).padStart(2, '0')}`, { name: `User ${i}`, n: i, tags: ['a'] }])),
        orders: Object.fromEntries(Array.from({ length: 16 }, (_, i) => [`#W${100 + i * 3}`, { total: i + 0.5, items: [{ id: String(i) }] }])),
        solo: { only: { x: 1 } },
        empty: {},
      }),
    ) as Db,
    true,
  );

const base = makeBase();
const tableOf = (db: Db, t: string) => db.get(t) as PyDict;
const rec = (db: PyDict, t: string, k: string) => tableOf(db, t).get(k) as PyDict;

describe('tableDelta', () => {
  it('a record deleted is removed; the table keeps its lineage to the root', () => {
    const s = writeDb(base, (d) => void tableOf(d, 'users').delete('u10'));
    expect(derivesFrom(tableOf(s, 'users'), tableOf(base, 'users'))).toBe(true);
    expect(tableDelta(tableOf(s, 'users'), tableOf(base, 'users'))).toEqual({ changed: [], removed: ['u10'] });
    expect(tableDelta(tableOf(base, 'users'), tableOf(s, 'users'))).toEqual({ changed: ['u10'], removed: [] });
  });

  it('a key deleted then added again (a new object) is changed, not removed; the same object put back is no change', () => {
    const gone = writeDb(base, (d) => void tableOf(d, 'users').delete('u10'));
    const again = writeDb(gone, (d) => void tableOf(d, 'users').set('u10', new Map([['name', 'User 5']])));
    expect(tableDelta(tableOf(again, 'users'), tableOf(base, 'users'))).toEqual({ changed: ['u10'], removed: [] });
    const original = rec(base, 'users', 'u10');
    const back = writeDb(gone, (d) => void tableOf(d, 'users').set('u10', original));
    expect(tableDelta(tableOf(back, 'users'), tableOf(base, 'users'))).toEqual({ changed: [], removed: [] });
    const h = new DbHasher(base, 64);
    expect(h.hash(back)).toBe(h.initialHash);
    expect(h.hash(again)).toBe(consistentHash(again));
  });

  it('a record changed and changed back to an equal new object: changed by identity, no diff, the base hash', () => {
    const changed = writeDb(base, (d) => void rec(d, 'orders', '#W103').set('total', 99n));
    const restored = writeDb(changed, (d) => void rec(d, 'orders', '#W103').set('total', 1.5));
    expect(tableDelta(tableOf(restored, 'orders'), tableOf(base, 'orders'))).toEqual({ changed: ['#W103'], removed: [] });
    expect(diffRecords(restored, base)).toEqual([]);
    const h = new DbHasher(base, 64);
    expect(h.hash(restored)).toBe(h.initialHash);
    expect(keysOf(diffRecords(changed, restored))).toEqual([{ table: 'orders', key: '#W103' }]);
  });

  it('a key added then removed leaves no change, the base hash and no diff', () => {
    const added = writeDb(base, (d) => void tableOf(d, 'users').set('u05a', null));
    const removed = writeDb(added, (d) => void tableOf(d, 'users').delete('u05a'));
    expect(tableDelta(tableOf(added, 'users'), tableOf(base, 'users'))).toEqual({ changed: ['u05a'], removed: [] });
    expect(tableDelta(tableOf(removed, 'users'), tableOf(base, 'users'))).toEqual({ changed: [], removed: [] });
    const h = new DbHasher(base, 64);
    expect(h.hash(removed)).toBe(h.initialHash);
    expect(h.hash(added)).toBe(consistentHash(added));
    expect(diffRecords(removed, base)).toEqual([]);
  });

  it('a table replaced by a non-dict or by a new dict has no lineage; hashes and diffs still match a full scan', () => {
    const scalar = writeDb(base, (d) => void d.set('users', 7n));
    const fresh = writeDb(base, (d) => void d.set('orders', new Map([['#W100', rec(base, 'orders', '#W100')]])));
    expect(derivesFrom(tableOf(fresh, 'orders'), tableOf(base, 'orders'))).toBe(false);
    expect(tableDelta(tableOf(fresh, 'orders'), tableOf(base, 'orders'))).toEqual(fullTableDelta(tableOf(fresh, 'orders'), tableOf(base, 'orders')));
    const h = new DbHasher(base, 64);
    for (const s of [scalar, fresh]) {
      expect(h.hash(s)).toBe(consistentHash(s));
      expect(keysOf(diffRecords(s, base))).toEqual(scanDiff(s, base));
    }
  });

  it('states not made by writeDb (a bare produce, a structured clone) have no lineage: full scan, same answers', () => {
    const bare = produce(base, (d) => void rec(d as PyDict, 'users', 'u40').set('n', -1n));
    const edited = writeDb(base, (d) => void rec(d, 'users', 'u02').set('n', -2n));
    expect(derivesFrom(tableOf(bare, 'users'), tableOf(base, 'users'))).toBe(false);
    expect(tableDelta(tableOf(bare, 'users'), tableOf(base, 'users'))).toEqual({ changed: ['u40'], removed: [] });
    expect(tableDelta(tableOf(bare, 'users'), tableOf(edited, 'users'))).toEqual({ changed: ['u02', 'u40'], removed: [] });
    const clone = freeze(structuredClone(edited), true);
    expect(tableDelta(tableOf(clone, 'users'), tableOf(base, 'users')).changed).toHaveLength(24);
    expect(keysOf(diffRecords(clone, base))).toEqual([{ table: 'users', key: 'u02' }]);
    expect(keysOf(diffRecords(bare, edited))).toEqual(scanDiff(bare, edited));
    const h = new DbHasher(base, 64);
    for (const s of [bare, clone]) expect(h.hash(s)).toBe(consistentHash(s));
  });

  it('two states derived from one root compare by the union of their writes', () => {
    const a = writeDb(base, (d) => void rec(d, 'users', 'u04').set('n', 40n));
    const b = writeDb(base, (d) => {
      rec(d, 'users', 'u06').set('n', 60n);
      tableOf(d, 'users').delete('u08');
    });
    expect(tableDelta(tableOf(a, 'users'), tableOf(b, 'users'))).toEqual({ changed: ['u04', 'u06', 'u08'], removed: [] });
    expect(tableDelta(tableOf(b, 'users'), tableOf(a, 'users'))).toEqual({ changed: ['u04', 'u06'], removed: ['u08'] });
    expect(keysOf(diffRecords(a, b))).toEqual(scanDiff(a, b));
  });
});

type Op =
  | { readonly kind: 'field'; readonly t: number; readonly k: number; readonly v: number }
  | { readonly kind: 'add'; readonly t: number; readonly key: string }
  | { readonly kind: 'delete'; readonly t: number; readonly k: number }
  | { readonly kind: 'renew'; readonly t: number; readonly k: number }
  | { readonly kind: 'restore'; readonly t: number; readonly k: number }
  | { readonly kind: 'table'; readonly t: number; readonly scalar: boolean }
  | { readonly kind: 'noop' };

const TABLES = ['users', 'orders', 'solo', 'empty'];

const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 5, arbitrary: fc.record({ kind: fc.constant('field' as const), t: fc.nat(3), k: fc.nat(30), v: fc.integer({ min: -3, max: 3 }) }) },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('add' as const),
      t: fc.nat(3),
      key: fc.constantFrom('', 'u', 'u00', 'u01', 'u47', 'u99', '#W', '#W101', 'only', 'zz', 'é', '😀'),
    }),
  },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('delete' as const), t: fc.nat(3), k: fc.nat(30) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('renew' as const), t: fc.nat(3), k: fc.nat(30) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('restore' as const), t: fc.nat(3), k: fc.nat(30) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('table' as const), t: fc.nat(3), scalar: fc.boolean() }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'noop' as const }) },
);

/** One edit as a tool would make it (one `writeDb`), or as a what-if state might arrive (a bare `produce`, no lineage). */
function apply(state: Db, o: Op, bare: boolean): Db {
  const recipe = (d: Db): void => {
    if (o.kind === 'noop') return;
    const name = TABLES[o.t]!;
    const t = d.get(name);
    if (o.kind === 'table') {
      d.set(name, o.scalar ? 1n : new Map(t instanceof Map ? t : []));
      return;
    }
    if (!(t instanceof Map)) return;
    if (o.kind === 'add') {
      t.set(o.key, new Map([['added', BigInt(o.key.length)]]));
      return;
    }
    const keys = [...t.keys()];
    if (keys.length === 0) return;
    const key = keys[o.k % keys.length]!;
    const r = t.get(key);
    if (o.kind === 'delete') t.delete(key);
    else if (o.kind === 'renew') t.set(key, r instanceof Map ? new Map(r) : r === undefined ? null : structuredClone(r));
    else if (o.kind === 'restore') {
      const orig = base.get(name);
      if (orig instanceof Map && orig.has(key)) t.set(key, orig.get(key)!);
    } else if (r instanceof Map) r.set('n', BigInt(o.v));
  };
  return bare ? produce(state, (d) => void recipe(d as Db)) : writeDb(state, recipe);
}

describe('deltas against full scans (property, seeded)', () => {
  it('for random edit sequences, hashes (memoised, resumed) are consistent_hash, diffs and deltas are the full scans', () => {
    const memo = new DbHasher(base, 96);
    let states = 0;
    fc.assert(
      fc.property(fc.array(op, { maxLength: 8 }), fc.array(op, { maxLength: 8 }), fc.array(op, { maxLength: 8 }), fc.nat(9), (shared, left, right, bareAt) => {
        const run = (ops: readonly Op[], from: Db, offset: number): Db[] => {
          const out: Db[] = [];
          let s = from;
          ops.forEach((o, i) => out.push((s = apply(s, o, i + offset === bareAt))));
          return out;
        };
        const prefix = run(shared, base, 0);
        const mid = prefix.at(-1) ?? base;
        const a = run(left, mid, shared.length);
        const b = run(right, mid, 100);
        const agent = a.at(-1) ?? mid;
        const reference = b.at(-1) ?? mid;
        for (const s of [...prefix, ...a, ...b]) {
          states++;
          const expected = consistentHash(s);
          expect(memo.hash(s)).toBe(expected);
          expect(new DbHasher(base, 96).hash(s)).toBe(expected);
        }
        expect(keysOf(diffRecords(agent, reference))).toEqual(scanDiff(agent, reference));
        for (const [x, y] of [
          [agent, base],
          [reference, base],
          [agent, reference],
          [reference, agent],
        ] as const)
          for (const name of TABLES) {
            const tx = x.get(name);
            const ty = y.get(name);
            if (tx instanceof Map && ty instanceof Map) expect(tableDelta(tx, ty)).toEqual(fullTableDelta(tx, ty));
          }
      }),
      { seed: SEED, numRuns: 300, endOnFailure: true },
    );
    expect(states).toBeGreaterThan(1000);
  });
});

// Every run of ../shared/runs is in the soak (test/soak/table-delta.spec.ts); one of each domain here.
recordedDeltaCases(['grok-4-tool-calling-airline.json', 'grok-4-tool-calling-retail.json']);

describeShared('what-if edits (a write removed) judged with deltas', () => {
  it('gpt-4o-airline: each episode with its first writing call removed hashes as consistent_hash, its diff as the scan', () => {
    const f = evaluatedSharedRun('gpt-4o-airline.json');
    const cache = new EvalCache();
    let edited = 0;
    for (const outcome of f.outcomes.slice(0, 40)) {
      if (!outcome.ok) continue;
      const write = outcome.value.replay.steps.find((s) => s.state !== f.version.db && s.source !== 'user');
      if (!write) continue;
      const again = evaluateEpisode(outcome.value.record, f.domain!, f.version, cache, (steps) => steps.filter((_s, i) => i !== write.index));
      if (!again.ok) throw new Error(again.error);
      edited++;
      expect(again.value.agentHash).toBe(consistentHash(again.value.replay.finalState));
      expect(again.value.gtHash).toBe(consistentHash(again.value.groundTruth.state));
      expect(keysOf(again.value.diff)).toEqual(scanDiff(again.value.replay.finalState, again.value.groundTruth.state));
    }
    expect(edited).toBeGreaterThan(10);
  });
});
