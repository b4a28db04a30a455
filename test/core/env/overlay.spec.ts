/**
 * Overlay tables (src/core/env/overlay.ts): a table a call wrote into is its base and the records
 * changed. Seeded random chains of calls through `writeDb` against the same edits made on plain Maps
 * (what the copying path made): keys and their order, size, has/get (absent keys too), every way of
 * iterating, repr, json.dumps, the DB hash and the lineage's deltas; chains keep one base; a frozen
 * overlay refuses writes; and an overlay never reaches a structured clone silently (it throws), while
 * what a session hands out after judging episodes with writes clones.
 */
import { serialize } from 'node:v8';
import { describe, expect, it } from 'vitest';
import { writeDb } from '../../../src/core/env/execute';
import { OVERLAY_MIN, OverlayDict } from '../../../src/core/env/overlay';
import type { Db } from '../../../src/core/model/data/db';
import { DbHasher } from '../../../src/core/model/data/db-hash';
import { fullTableDelta, tableDelta } from '../../../src/core/model/data/table-delta';
import { frozen } from '../../../src/core/py/json-parse';
import { jsonDumps } from '../../../src/core/py/json-dumps';
import { pyRepr } from '../../../src/core/py/repr';
import type { PyDict, PyValue } from '../../../src/core/py/value';
import { InspectSession } from '../../../src/core/session/session';
import { sampleRunText, sampleVersion } from '../../support/fixtures';
import { mulberry32 as rng } from '../../support/prng';

const TABLES = ['a', 'b', 'c'] as const;
const SIZE = OVERLAY_MIN + 36;

const record = (i: number): PyDict =>
  new Map<string, PyValue>([
    ['id', `r${i}`],
    ['n', BigInt(i)],
    ['x', i / 4],
    ['nest', new Map<string, PyValue>([['p', [BigInt(i), 'q']]])],
  ]);

function freezeDeep<T extends PyValue>(v: T): T {
  if (v instanceof Map) {
    v.forEach((x) => freezeDeep(x));
    frozen(v);
  } else if (Array.isArray(v)) {
    v.forEach((x) => freezeDeep(x));
    Object.freeze(v);
  }
  return v;
}

/** A deep, plain, mutable copy (Maps and arrays of their own). */
function plain(v: PyValue): PyValue {
  if (v instanceof Map) {
    const m = new Map<string, PyValue>();
    for (const [k, x] of v) m.set(k, plain(x));
    return m;
  }
  return Array.isArray(v) ? v.map(plain) : v;
}

const makeDb = (): Db =>
  freezeDeep(new Map(TABLES.map((t, ti) => [t, new Map(Array.from({ length: SIZE }, (_, k) => [`k${k}`, record(ti * SIZE + k)] as const))])));

type Edit = (db: Map<string, PyValue>) => void;

/** One random edit, made the same way on a draft and on the plain copy. Keys k0…k(SIZE+9): some absent, so added. */
function randomEdit(r: () => number): Edit {
  const table = TABLES[Math.floor(r() * TABLES.length)]!;
  const key = `k${Math.floor(r() * (SIZE + 10))}`;
  const v = BigInt(Math.floor(r() * 5));
  const t = (db: Map<string, PyValue>): PyDict => db.get(table) as PyDict;
  switch (Math.floor(r() * 7)) {
    case 0: // a field of a record (a nested write)
      return (db) => void (t(db).get(key) as PyDict | undefined)?.set('n', v);
    case 1: // deeper: inside the record's nested dict and its list
      return (db) => void ((t(db).get(key) as PyDict | undefined)?.get('nest') as PyDict | undefined)?.set('p', [v]);
    case 2: // a record replaced or added
      return (db) => void t(db).set(key, new Map<string, PyValue>([['id', key]]));
    case 3: // deleted
      return (db) => void t(db).delete(key);
    case 4: // deleted and set again (comes last)
      return (db) => {
        const rec = t(db).get(key);
        t(db).delete(key);
        t(db).set(key, rec ?? new Map<string, PyValue>([['new', v]]));
      };
    case 5: // the value it holds, set again (no change)
      return (db) => {
        const rec = t(db).get(key);
        if (rec !== undefined) t(db).set(key, rec);
      };
    default: // read only
      return (db) => void t(db).get(key);
  }
}

function collected(m: PyDict): { keys: string[]; forEach: string[]; entries: string[]; values: string[]; spread: string[] } {
  const forEach: string[] = [];
  m.forEach((x, k) => forEach.push(`${k}=${pyRepr(x)}`));
  return {
    keys: [...m.keys()],
    forEach,
    entries: [...m.entries()].map(([k, x]) => `${k}=${pyRepr(x)}`),
    values: [...m.values()].map(pyRepr),
    spread: [...m].map(([k, x]) => `${k}=${pyRepr(x)}`),
  };
}

/** The table `m` reads exactly as the plain `ref` does, every way a consumer reads it. */
function expectSameTable(m: PyDict, ref: PyDict, where: string): void {
  expect(m.size, where).toBe(ref.size);
  const want = collected(ref);
  expect(collected(m), where).toEqual(want);
  for (let k = 0; k < SIZE + 10; k++) {
    const key = `k${k}`;
    expect(m.has(key), `${where} has ${key}`).toBe(ref.has(key));
    const x = m.get(key);
    expect(x === undefined ? 'absent' : pyRepr(x), `${where} get ${key}`).toBe(ref.get(key) === undefined ? 'absent' : pyRepr(ref.get(key)!));
  }
  expect(pyRepr(new Map(m))).toBe(pyRepr(ref));
}

describe('overlay tables, against the same edits on plain Maps (seeded)', () => {
  it('chains of up to 40 calls of random edits read, print and hash as the plain tables do', () => {
    const r = rng(20261205);
    const initial = makeDb();
    const hasher = new DbHasher(initial, 512);
    let overlays = 0;
    let chainedOnOneBase = 0;
    let written = 0;
    for (let chain = 0; chain < 30; chain++) {
      let state = initial;
      const ref = plain(initial) as Map<string, PyValue>;
      const calls = 1 + Math.floor(r() * 40);
      for (let c = 0; c < calls; c++) {
        const edits = Array.from({ length: 1 + Math.floor(r() * 4) }, () => randomEdit(r));
        const before = state;
        state = writeDb(state, (d) => edits.forEach((e) => e(d)));
        edits.forEach((e) => e(ref));
        for (const name of TABLES) {
          const t1 = state.get(name) as PyDict;
          const t0 = before.get(name) as PyDict;
          const i0 = initial.get(name) as PyDict;
          if (t1 === t0) continue;
          written++;
          expect(Object.isFrozen(t1)).toBe(true);
          const parts = OverlayDict.parts(t1);
          if (parts !== null) {
            overlays++;
            // Flattened: an overlay of an overlay keeps one base (the initial table, or a plain table made of many changes).
            expect(parts.base).not.toBeInstanceOf(OverlayDict);
            expect([...parts.changed].length).toBeLessThanOrEqual(parts.base.size / 4 + 4);
            if (c > 0 && parts.base === i0 && OverlayDict.parts(t0)?.base === i0) chainedOnOneBase++;
          }
          expectSameTable(t1, ref.get(name) as PyDict, `chain ${chain} call ${c} table ${name}`);
          expect(tableDelta(t1, i0)).toEqual(fullTableDelta(t1, i0));
          expect(tableDelta(t1, t0)).toEqual(fullTableDelta(t1, t0));
        }
        expect(pyRepr(state)).toBe(pyRepr(ref));
        expect(jsonDumps(state)).toBe(jsonDumps(ref));
      }
      // The hash of the derived state (resumed from the base's midstate, its records as spans) is the plain DB's hash from scratch.
      expect(hasher.hash(state)).toBe(new DbHasher(ref, 512).initialHash);
      expect(hasher.sameText(state, initial)).toBe(hasher.hash(state) === hasher.initialHash);
    }
    expect(written).toBeGreaterThan(500);
    expect(overlays).toBeGreaterThan(written * 0.7);
    expect(chainedOnOneBase).toBeGreaterThan(100);
  });

  it('a key deleted and set again comes last, in one call or across two; an existing key set keeps its place', () => {
    const initial = makeDb();
    const a = writeDb(initial, (d) => {
      const t = d.get('a') as PyDict;
      const rec = t.get('k1')!;
      t.delete('k1');
      t.set('k1', rec);
      t.set('new', 1n);
      t.set('k2', 2n);
    });
    const ta = a.get('a') as PyDict;
    expect(ta).toBeInstanceOf(OverlayDict);
    expect([...ta.keys()].slice(0, 3)).toEqual(['k0', 'k2', 'k3']);
    expect([...ta.keys()].slice(-2)).toEqual(['k1', 'new']);
    const b = writeDb(a, (d) => void (d.get('a') as PyDict).delete('k0'));
    const c = writeDb(b, (d) => void (d.get('a') as PyDict).set('k0', 0n));
    expect([...(c.get('a') as PyDict).keys()].slice(-3)).toEqual(['k1', 'new', 'k0']);
    expect((c.get('a') as PyDict).size).toBe(SIZE + 1);
    expect(OverlayDict.parts(c.get('a') as PyDict)!.base).toBe(initial.get('a'));
  });

  it('a small table is copied, and an overlay holding many changes is made a plain table again', () => {
    const small = freezeDeep(new Map([['t', new Map(Array.from({ length: OVERLAY_MIN - 1 }, (_, k) => [`k${k}`, BigInt(k)] as const))]]));
    expect(writeDb(small, (d) => void (d.get('t') as PyDict).set('k0', 9n)).get('t')).not.toBeInstanceOf(OverlayDict);
    const initial = makeDb();
    let state = initial;
    const bases = new Set<PyDict>();
    const plainAt: number[] = [];
    for (let i = 0; i < SIZE; i++) {
      state = writeDb(state, (d) => void (d.get('b') as PyDict).set(`k${i}`, BigInt(-i)));
      const parts = OverlayDict.parts(state.get('b') as PyDict);
      if (parts === null) plainAt.push(i);
      else bases.add(parts.base);
    }
    // The initial table, then each plain table made when an overlay's changes passed a quarter of its base, as the next overlays' base.
    expect(plainAt).toEqual([26, 53, 80]);
    expect([...bases][0]).toBe(initial.get('b'));
    expect(bases.size).toBe(4);
    expect([...(state.get('b') as PyDict).values()]).toEqual(Array.from({ length: SIZE }, (_, i) => BigInt(-i)));
  });

  it('a frozen overlay refuses writes, as a frozen dict does', () => {
    const t = writeDb(makeDb(), (d) => void (d.get('c') as PyDict).set('k3', 3n)).get('c') as PyDict;
    expect(t).toBeInstanceOf(OverlayDict);
    expect(() => t.set('k3', 4n)).toThrow(TypeError);
    expect(() => t.delete('k3')).toThrow(TypeError);
    expect(() => t.clear()).toThrow(TypeError);
    expect(t.get('k3')).toBe(3n);
  });
});

describe('overlay tables never cross a structured clone silently', () => {
  it('a structured clone, postMessage or v8.serialize of an overlay throws (its builtin entries would arrive as an empty dict)', () => {
    const db = writeDb(makeDb(), (d) => void (d.get('a') as PyDict).set('k0', 0n));
    const t = db.get('a') as PyDict;
    expect(t).toBeInstanceOf(OverlayDict);
    expect(() => structuredClone(t)).toThrow();
    expect(() => structuredClone(db)).toThrow();
    expect(() => serialize(db)).toThrow();
    const { port1, port2 } = new MessageChannel();
    try {
      expect(() => port1.postMessage(db)).toThrow();
    } finally {
      port1.close();
      port2.close();
    }
    // A copy is a plain dict, and clones whole.
    expect(pyRepr(structuredClone(new Map(t)))).toBe(pyRepr(t));
  });

  it('what a session hands out after judging episodes that write (views, what-if, its data snapshot) clones: no overlay in it', () => {
    const session = new InspectSession(sampleRunText());
    session.useData([sampleVersion()]);
    const summaries = session.summaries();
    let viewsWithWrites = 0;
    for (const s of summaries) {
      const view = session.view(s.index);
      expect(() => structuredClone(view)).not.toThrow();
      expect(() => structuredClone(s)).not.toThrow();
      if ('error' in view) continue;
      const write = view.steps.find((st) => st.changes.length > 0);
      if (write === undefined) continue;
      viewsWithWrites++;
      // The same write again (a what-if judged afresh: its replay's states are new overlays).
      const again = session.whatIf(s.index, [{ messageIndex: write.messageIndex, kwargsJson: write.kwargs }]);
      expect('error' in again ? again.error : '').toBe('');
      expect(() => structuredClone(again)).not.toThrow();
    }
    expect(viewsWithWrites).toBeGreaterThan(5);
    expect(() => structuredClone(session.dataSnapshot())).not.toThrow();
  });
});
