import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { produce } from '../../support/immer';
import { describe, expect, it } from 'vitest';
import { buildDb, DOMAIN_TABLES, reviveDb, type Db, type Domain } from '../../../src/core/model/data/db';
import { DbHasher } from '../../../src/core/model/data/db-hash';
import { KNOWN_DATA_VERSIONS, lazyVersion, type DataVersion } from '../../../src/core/model/data/versions';
import { guessDataCommitFromText } from '../../../src/core/judge/detect';
import { consistentHash } from '../../../src/core/py/hash';
import { prepareSha256 } from '../../../src/core/py/sha256';
import type { PyDict } from '../../../src/core/py/value';
import { InspectSession, type DataSnapshot } from '../../../src/core/session/session';
import { COMMITS, dataTexts, describeShared, readShared } from '../../support/shared';

const root = resolve(import.meta.dirname, '../../..');
const sampleText = readFileSync(join(root, 'sample-runs/runs/retail-sample.json'), 'utf8');
const sampleTexts = Object.fromEntries(
  DOMAIN_TABLES.retail.map((t) => [t, readFileSync(join(root, `sample-runs/data/tau_bench/envs/retail/data/${t}.json`), 'utf8')]),
);
const version = (db: Db, commit = 'sample'): DataVersion => ({ commit, known: null, db, source: 'test' });

/** Every Map and list of a value, depth first. */
function* containers(v: unknown): Generator<object> {
  if (v instanceof Map) {
    yield v;
    for (const x of v.values()) yield* containers(x);
  } else if (Array.isArray(v)) {
    yield v;
    for (const x of v) yield* containers(x);
  }
}

/** Judges a whole file on one version; the plain JSON verdicts (hashes, diffs, observations) and a few episode views. */
function judge(text: string, v: DataVersion, snap?: DataSnapshot) {
  const s = new InspectSession(text);
  const used = snap ? s.restoreVersion(v, snap) : v;
  if (!used) throw new Error('snapshot refused');
  s.useData([used]);
  const known = s.knownGroundTruths();
  const reports = s.evaluateAll();
  return { session: s, reports, views: [0, 1, 2].map((i) => JSON.stringify(s.view(i))), knownBeforeEvaluating: known };
}

describe('data snapshots (a parsed DB and its hashes kept across visits)', () => {
  const db = buildDb('retail', sampleTexts);
  const original = judge(sampleText, version(db));

  it('a DB round-tripped through structuredClone is frozen again like a parsed one and hashes the same', () => {
    const revived = reviveDb('retail', structuredClone(db));
    expect(revived).not.toBe(db);
    for (const c of containers(revived)) expect(Object.isFrozen(c)).toBe(true);
    const users = revived.get('users') as PyDict;
    expect(() => users.set('x', null)).toThrow();
    expect(() => users.delete([...users.keys()][0]!)).toThrow();
    expect(new DbHasher(revived).hash(revived)).toBe(consistentHash(db));
    // immer still shares what a tool does not touch.
    const next = produce(revived, (d) => void ((d as PyDict).get('users') as PyDict).set('new-user', null));
    expect(next.get('orders')).toBe(revived.get('orders'));
  });

  it('replays and judges identically on a structured-cloned DB', () => {
    const cloned = judge(sampleText, version(reviveDb('retail', structuredClone(db))));
    expect(cloned.reports).toEqual(original.reports);
    expect(cloned.views).toEqual(original.views);
  });

  it('a session restored from a structured-cloned snapshot judges identically without replaying for detection', () => {
    const snap = structuredClone(original.session.dataSnapshot()!);
    expect(snap.work.gtHashes.size).toBeGreaterThan(0);
    const restored = judge(sampleText, version(new Map()), snap);
    expect(restored.knownBeforeEvaluating).toBe(snap.work.gtHashes.size);
    expect(restored.knownBeforeEvaluating).toBeGreaterThan(original.knownBeforeEvaluating);
    expect(restored.reports).toEqual(original.reports);
    expect(restored.views).toEqual(original.views);
  });

  it("uses the snapshot's record texts instead of printing the base again (a tampered text changes the hashes)", () => {
    const snap = structuredClone(original.session.dataSnapshot()!);
    const bytes = snap.work.hasher.bytes;
    bytes[bytes.length - 3] = bytes[bytes.length - 3] === 0x41 ? 0x42 : 0x41;
    const s = new InspectSession(sampleText);
    const v = s.restoreVersion(version(new Map()), { ...snap, work: { ...snap.work, gtHashes: new Map() } })!;
    const probe = produce(v.db, (d) => void ((d as PyDict).get('orders') as PyDict).set('#W0000000', null));
    // consistentHash prints everything itself; the hasher takes the (tampered) texts of untouched records.
    expect(new DbHasher(v.db).hash(probe)).not.toBe(consistentHash(probe));
    const untampered = s.restoreVersion(version(new Map()), structuredClone(original.session.dataSnapshot()!))!;
    const probe2 = produce(untampered.db, (d) => void ((d as PyDict).get('orders') as PyDict).set('#W0000000', null));
    expect(new DbHasher(untampered.db).hash(probe2)).toBe(consistentHash(probe2));
  });

  it('refuses a snapshot that does not fit the data or the domain', () => {
    const snap = original.session.dataSnapshot()!;
    const s = new InspectSession(sampleText);
    const fewer = structuredClone(snap);
    const orders = (fewer.db as PyDict).get('orders') as PyDict;
    orders.delete([...orders.keys()][5]!);
    expect(s.restoreVersion(version(new Map()), fewer)).toBeNull();
    expect(s.restoreVersion(version(new Map()), { ...structuredClone(snap), domain: 'airline' })).toBeNull();
    const other = structuredClone(snap);
    expect(s.restoreVersion(version(new Map()), { ...other, work: { ...other.work, hasher: { ...other.work.hasher, format: -1 } } })).toBeNull();
    expect(s.restoreVersion(version(new Map()), { ...other, db: new Map([['users', 1n]]) })).toBeNull();
    expect(s.knownGroundTruths()).toBe(0);
  });
});

describeShared('data snapshots of τ-bench data (../shared)', () => {
  const cases: { file: string; domain: Domain; commit: string }[] = [
    { file: 'gpt-4o-airline.json', domain: 'airline', commit: COMMITS.historical },
    { file: 'grok-4-tool-calling-retail.json', domain: 'retail', commit: COMMITS.pinned },
  ];
  it.each(cases)('$file: restored from a structured-cloned snapshot (WASM midstates), every verdict is the same', async ({ file, domain, commit }) => {
    await prepareSha256();
    const known = KNOWN_DATA_VERSIONS.find((k) => k.commit === commit)!;
    const text = readShared('runs', file);
    const original = judge(text, { commit, known, db: buildDb(domain, dataTexts(commit, domain)), source: 'test' });
    const snap = structuredClone(original.session.dataSnapshot()!);
    expect(snap.work.hasher.baseHash).toBe(known.initialHash[domain]);
    expect(snap.work.hasher.checkpoints.length).toBeGreaterThan(10);
    const restored = judge(text, { commit, known, db: new Map(), source: 'test' }, snap);
    expect(restored.session.detection().versionWhy).toBe(original.session.detection().versionWhy);
    expect(restored.reports).toEqual(original.reports);
    expect(restored.views).toEqual(original.views);
  });

  it.each(['gpt-4o-airline.json', 'grok-4-fast-act-airline.json', 'grok-4-fast-few-shot-airline.json', 'qwen3-8b-react-retail.json'])(
    '%s: the version guessed from the raw text (to prefetch it) is the one detection tries first',
    (file) => {
      const text = readShared('runs', file);
      const s = new InspectSession(text);
      const versions = KNOWN_DATA_VERSIONS.map((k) => lazyVersion(k.commit, k, 'test', () => new Map()));
      expect(guessDataCommitFromText(text)).toBe(s.preferredVersion(versions)!.commit);
    },
  );
});
