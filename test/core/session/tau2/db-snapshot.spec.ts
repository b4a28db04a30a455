/**
 * A domain's validated τ² DBs kept as a snapshot (`tau2DbsSnapshot`, what the CLI's cache folder holds) and read
 * back judge exactly as the DBs read from the data files: every simulation of every shared τ² run (and the banking
 * run) judged both ways gives the same report, field for field (hashes, checks, tool outputs). A snapshot that is
 * damaged, cut short or made for other classes is refused with a `SnapshotError`; the session then loads the files.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { TAU2_DOMAINS } from '../../../../src/core/model/domains/tau2/registry';
import { encode, decode, schemaOf, SnapshotError } from '../../../../src/core/py/pydantic/snapshot';
import { LazyDict } from '../../../../src/core/py/pydantic/lazy-dict';
import { EnumClass, field, defineModel, PyDate, PyDateTime, PydModel, t, type TValue } from '../../../../src/core/py/pydantic';
import { tau2DbsFromSnapshot, type Tau2DbSnapshot } from '../../../../src/core/session/tau2/db-snapshot';
import { Tau2Session, type LoadedDbs, type Tau2DbFiles, type Tau2DbStore } from '../../../../src/core/session/tau2/session';
import { modelDump, pyJsonDumps } from '../../../../src/core/py/pydantic';

/** A DB's whole `json.dumps(model_dump(), sort_keys=True)`, printed afresh (no hasher, no kept text). */
const fullDump = (db: PydModel | null): string | null => (db === null ? null : pyJsonDumps(modelDump(db), { sortKeys: true }));
import { describeTau2, TAU2_DIR } from '../../../support/shared';
import { tau2Read, tau2RunFiles } from '../../../support/tau2';

/** A store in memory, as the CLI's folder is on disk: what it was asked, what it kept, what it refused. */
function memoryStore(): Tau2DbStore & { kept: Map<string, Tau2DbSnapshot>; gets: number; refusals: string[] } {
  const kept = new Map<string, Tau2DbSnapshot>();
  const keyOf = (f: Tau2DbFiles) => `${f.code}\n${f.files.map((x) => x.text).join('\n')}`;
  return {
    kept,
    gets: 0,
    refusals: [],
    async get(f) {
      this.gets++;
      return kept.get(keyOf(f)) ?? null;
    },
    async put(f, snapshot) {
      kept.set(keyOf(f), snapshot());
    },
    refused(_f, why) {
      this.refusals.push(why);
    },
  };
}

const BANKING = join(TAU2_DIR, 'banking', 'runs');
const runs = (): { name: string; text: string }[] => [
  ...tau2RunFiles().map((f) => ({ name: f, text: readFileSync(join(TAU2_DIR, 'runs', f), 'utf8') })),
  ...(existsSync(BANKING) ? readdirSync(BANKING).filter((f) => f.endsWith('.json')) : []).map((f) => ({
    name: f,
    text: readFileSync(join(BANKING, f), 'utf8'),
  })),
];

describeTau2('τ² DBs from a snapshot', () => {
  // One store for the whole suite: the first run of each domain fills it (its DBs loaded from the files), the rest read it.
  const store = memoryStore();
  const filled = new Set<string>();
  for (const { name, text } of runs()) {
    const run = Tau2Session.read(text);
    if (!TAU2_DOMAINS.has(run.domain)) continue;
    it(`${name}: every simulation judges the same from a snapshot as from the data files, and the base DBs are never written`, async () => {
      if (!filled.has(run.domain)) await Tau2Session.open(run, tau2Read, { dbs: new Map(), store });
      filled.add(run.domain);
      const gets = store.gets;
      const exact = await Tau2Session.open(run, tau2Read);
      const dbs = new Map<string, Promise<LoadedDbs>>();
      const fromSnapshot = await Tau2Session.open(run, tau2Read, { dbs, store });
      expect(store.gets).toBe(gets + 1);
      expect(store.refusals).toEqual([]);
      expect(store.kept.size).toBe(filled.size);
      const base = await [...dbs.values()][0]!;
      const before = [base.agent, base.user].map(fullDump);
      for (let i = 0; i < exact.size; i++) expect(fromSnapshot.report(i), `simulation ${i}`).toEqual(exact.report(i));
      // Environments share the base's tables and records until a tool writes one: judging never wrote the base.
      expect([base.agent, base.user].map(fullDump), 'the base DBs after judging').toEqual(before);
    });
  }

  it('the runs above cover airline, retail, telecom and mock (and banking_knowledge when its runs are there)', () => {
    expect(filled.size).toBeGreaterThanOrEqual(4);
  });

  it('a damaged, cut or foreign snapshot is refused and the session judges from the files', async () => {
    const file = tau2RunFiles().find((f) => f.includes('mock'))!;
    const run = Tau2Session.read(readFileSync(join(TAU2_DIR, 'runs', file), 'utf8'));
    const domain = TAU2_DOMAINS.get(run.domain)!;
    const store = memoryStore();
    const exact = await Tau2Session.open(run, tau2Read, { dbs: new Map(), store });
    const [key, good] = [...store.kept][0]!;
    type Snap = { agent: { db: unknown[]; hasher: { tables: { start: number; ends: number[] }[] }; text: [number, number] }; signature: string };
    const snap = JSON.parse(good.json) as Snap;
    const json = (s: Snap): Tau2DbSnapshot => ({ json: JSON.stringify(s), bytes: good.bytes });
    const digit = good.bytes.findIndex((b) => b >= 0x30 && b <= 0x39);
    const wrongText = Uint8Array.from(good.bytes);
    wrongText[digit] = 0x78;
    const movedRecord = structuredClone(snap);
    movedRecord.agent.hasher.tables[0]!.ends[0]! -= 1;
    for (const [what, text] of [
      ['cut short', { json: good.json.slice(0, good.json.length >> 1), bytes: good.bytes }],
      ['its bytes cut short', { json: good.json, bytes: good.bytes.subarray(0, good.bytes.length - 1) }],
      ['a DB of other fields', json({ ...snap, agent: { ...snap.agent, db: [...snap.agent.db.slice(0, -1), [1]] } })],
      ['record texts that do not hash to the base hash', { json: good.json, bytes: wrongText }],
      ['a record placed off its separator', json(movedRecord)],
      ['made for other classes', json({ ...snap, signature: `${snap.signature};Other(a)` })],
    ] as const) {
      expect(() => tau2DbsFromSnapshot(domain, text), what).toThrow(SnapshotError);
      store.kept.set(key, text);
      store.refusals.length = 0;
      const again = await Tau2Session.open(run, tau2Read, { dbs: new Map(), store });
      expect(store.refusals, what).toHaveLength(1);
      for (let i = 0; i < exact.size; i++) expect(again.report(i), `${what}: simulation ${i}`).toEqual(exact.report(i));
      // Refused, loaded from the files, and kept again.
      expect(store.kept.get(key), what).toEqual(good);
    }
  });
});

describeTau2('τ² DBs from a snapshot, lazily read tables', () => {
  it('airline: its tables are read record by record, and damaged records are refused before any is read', async () => {
    const file = tau2RunFiles().find((f) => f.includes('airline'))!;
    const run = Tau2Session.read(readFileSync(join(TAU2_DIR, 'runs', file), 'utf8'));
    const domain = TAU2_DOMAINS.get(run.domain)!;
    const store = memoryStore();
    await Tau2Session.open(run, tau2Read, { dbs: new Map(), store });
    const good = [...store.kept.values()][0]!;
    const db = tau2DbsFromSnapshot(domain, good).agent;
    for (const table of ['flights', 'reservations', 'users']) expect(db.fields.get(table), table).toBeInstanceOf(LazyDict);
    const snap = JSON.parse(good.json) as { records: { at: [number, number]; sha256: string } };
    const flipped = Uint8Array.from(good.bytes);
    flipped[snap.records.at[0] + 100]! ^= 0x04;
    for (const [what, bad] of [
      ['a record text changed', { json: good.json, bytes: flipped }],
      ['records cut short', { json: good.json, bytes: good.bytes.subarray(0, snap.records.at[1] - 1) }],
      ['records out of the bytes', { json: JSON.stringify({ ...snap, records: { ...snap.records, at: [0, good.bytes.length + 1] } }), bytes: good.bytes }],
    ] as const)
      expect(() => tau2DbsFromSnapshot(domain, bad), what).toThrow(SnapshotError);
  });
});

it('encode/decode keep every Python type: int vs float, -0.0, nan, inf, big ints, dict order, models, Enums, dates', () => {
  const Color = new EnumClass('Color', [
    ['RED', 'red'],
    ['BLUE', 'blue'],
  ]);
  const Inner = defineModel('Inner', [field('x', t.int), field('c', t.enum(Color))]);
  const Outer = defineModel('Outer', [
    field(
      'items',
      t.dict(
        t.str,
        t.model(() => Inner),
      ),
    ),
    field('any', t.any),
  ]);
  const schema = schemaOf([Outer]);
  const inner = (x: bigint, c: string) =>
    new PydModel(
      Inner,
      new Map<string, TValue>([
        ['x', x],
        ['c', Color.get(c)],
      ]),
    );
  const extra = new PydModel(
    Inner,
    new Map<string, TValue>([
      ['c', Color.get('RED')],
      ['x', 1n],
      ['more', 'kept'],
    ]),
  );
  const v = new PydModel(
    Outer,
    new Map<string, TValue>([
      [
        'items',
        new Map<string, TValue>([
          ['10', inner(1n, 'RED')],
          ['2', inner(2n ** 70n, 'BLUE')],
          ['x', extra],
        ]),
      ],
      [
        'any',
        [
          1,
          1.5,
          -0,
          NaN,
          Infinity,
          -Infinity,
          3n,
          -(2n ** 64n),
          null,
          true,
          'tëxt\u{1F600}\uD800',
          new PyDate(2024, 5, 1),
          new PyDateTime(2024, 5, 1, 13, 4, 5),
          new Map(),
        ],
      ],
    ]),
  );
  const back = decode(JSON.parse(JSON.stringify(encode(v, schema))), schema) as PydModel;
  expect(back).toEqual(v);
  const any = back.get('any') as TValue[];
  expect(Object.is(any[2], -0)).toBe(true);
  expect(typeof any[0]).toBe('number');
  expect(typeof any[6]).toBe('bigint');
  expect([...(back.get('items') as Map<string, TValue>).keys()]).toEqual(['10', '2', 'x']);
  expect(((back.get('items') as Map<string, PydModel>).get('10')!.get('c') as unknown) === Color.get('RED')).toBe(true);
  expect([...(back.get('items') as Map<string, PydModel>).get('x')!.fields.keys()]).toEqual(['c', 'x', 'more']);
  for (const bad of [[99], [2, 5], [2, 0, 1], [4, 1.5], [5, '1e3'], [6, 'NaN'], [7, 0, 'GREEN'], [1, 'k'], { a: 1 }, [0, [42]]])
    expect(() => decode(bad, schema), JSON.stringify(bad)).toThrow(SnapshotError);
});
