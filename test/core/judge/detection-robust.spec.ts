import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Domain } from '../../../src/core/model/data/db';
import { buildDb } from '../../../src/core/model/data/db';
import { KNOWN_DATA_VERSIONS, type DataVersion } from '../../../src/core/model/data/versions';
import { readResults } from '../../../src/core/model/episode/results-file';
import { jsonDumps } from '../../../src/core/py/json-dumps';
import { parseJson } from '../../../src/core/py/json-parse';
import type { PyDict, PyValue } from '../../../src/core/py/value';
import { InspectSession } from '../../../src/core/session/session';
import { ResultsFileError } from '../../../src/core/model/episode/results-file';
import { describeShared, itShared, readShared, SHARED_DIR, sharedDb } from '../../support/shared';
import { emptyObjects, noEpisodesCases } from './no-episodes.cases';
import { readFileSync } from 'node:fs';
import { DOMAIN_TABLES } from '../../../src/core/model/data/db';

const known = (domain: Domain): DataVersion[] =>
  KNOWN_DATA_VERSIONS.map((k) => ({ commit: k.commit, known: k, db: sharedDb(k.commit, domain), source: 'shared' }));

function judge(text: string, versions: (d: Domain) => readonly DataVersion[] = known) {
  const s = new InspectSession(text);
  s.useData(versions(s.domain));
  const reports = s.evaluateAll();
  return { s, reports, d: s.detection() };
}

const episodes = (file: string): PyValue[] => parseJson(readShared('runs', file)) as PyValue[];
const withReward = (e: PyValue, r: number): PyValue => new Map([...(e as PyDict)].map(([k, v]) => [k, k === 'reward' ? r : v]));

describeShared('recorded rewards of one episode never change the verdict of another', () => {
  const file = 'grok-4-tool-calling-retail.json';
  const all = episodes(file);
  const whole = judge(readShared('runs', file));
  // Episodes the two rules judge differently, whose recorded reward an editor set to the other rule's verdict.
  const telling = whole.reports.filter(
    (r) => r.error === undefined && r.done && r.index !== 29 && r.outputs !== null && r.reward === 0 && r.hypothetical_reward_if_done === undefined,
  );
  const flippable = telling.filter((r) => {
    const o = whole.s.evaluation(r.index);
    return o.ok && o.value.verdicts['outputs-only'].reward === 1 && o.value.verdicts['db-and-outputs'].reward === 0;
  });

  it('episode 29 alone is judged 0 (τ-bench recorded 0)', () => {
    const alone = judge(jsonDumps([all[29]!]));
    expect(alone.reports[0]!.reward).toBe(0);
    expect(alone.reports[0]!.recorded_reward).toBe(0);
  });

  it('beside two neighbours whose recorded reward was edited to 1.0 it is still 0, on 14bf0ef with its rule, and the disagreement is reported', () => {
    expect(flippable.length).toBeGreaterThanOrEqual(2);
    const text = jsonDumps([all[29]!, ...flippable.slice(0, 2).map((r) => withReward(all[r.index]!, 1.0))]);
    const j = judge(text);
    expect(j.d.dataCommit).toBe(KNOWN_DATA_VERSIONS[0]!.commit);
    expect(j.d.rule).toBe('db-and-outputs');
    expect(j.reports[0]!.reward).toBe(0);
    expect(j.d.notes.join('\n')).toMatch(/recorded rewards fit outputs-only better than db-and-outputs/);
  });

  it('on data it does not know, a few edited rewards do not switch the rule either', () => {
    const unknown = (d: Domain): DataVersion[] => [{ commit: 'unknown:test', known: null, db: sharedDb(KNOWN_DATA_VERSIONS[0]!.commit, d), source: 'copy' }];
    const text = jsonDumps([all[29]!, ...flippable.slice(0, 2).map((r) => withReward(all[r.index]!, 1.0))]);
    const j = judge(text, unknown);
    expect(j.d.rule).toBe('db-and-outputs');
    expect(j.reports[0]!.reward).toBe(0);
    expect(j.d.notes.join('\n')).toMatch(/lean to outputs-only .* not clearly enough/);
  });
});

describe('files with no episodes say so', () => {
  // A million {} is in the soak (test/soak/detection-robust.spec.ts); ten thousand here.
  noEpisodesCases([
    ['[]', '[]', /no episodes: the file is an empty list/],
    ['[{}]', '[{}]', /no episodes: none of the file's 1 entries/],
    ['ten thousand {}', emptyObjects(10_000), /no episodes: none of the file's 10000 entries/],
  ]);
});

describe('other formats are recognised and named', () => {
  itShared('a τ²-bench results file', () => {
    expect(() => readResults(readFileSync(join(SHARED_DIR, 'forks/tau2-airline-grok3mini.json'), 'utf8'))).toThrow(ResultsFileError);
    expect(() => readResults(readFileSync(join(SHARED_DIR, 'forks/tau2-airline-grok3mini.json'), 'utf8'))).toThrow(/a τ²-bench results file .*domain airline/);
  });

  itShared('a single episode and a bare message list', () => {
    const ep = episodes('grok-4-tool-calling-retail.json')[3] as PyDict;
    const single = judge(jsonDumps(ep));
    expect(single.d.fileKind).toBe('single-episode');
    expect(single.reports[0]!.reward).toBe(ep.get('reward'));
    const bare = new InspectSession(jsonDumps(ep.get('traj')!));
    expect(bare.fileKind).toBe('message-list');
    expect(bare.domain).toBe('retail');
    expect(bare.records[0]!.problem).toMatch(/bare message list has no task/);
  });
});

describeShared('fork files are explained, not shown as bare mismatches', () => {
  const fork = (name: string): string => readFileSync(join(SHARED_DIR, 'forks', name), 'utf8');

  it('Madhav-Kanda: the reference hash is the initial database', () => {
    const j = judge(fork('madhav-kanda-tool-calling-l0-4.1.json'));
    expect(j.d.dataCommit).toBe(KNOWN_DATA_VERSIONS[0]!.commit);
    expect(j.d.versionWhy).toMatch(/recorded gt_data_hash values are its initial DB/);
    expect(j.d.notes.join('\n')).toMatch(/reference hash is the initial database: every recorded gt_data_hash .* did not replay the reference actions/);
  });

  it('PR #68 grok-3: fractional rewards and hashes of another construction', () => {
    const j = judge(fork('pr68-grok-3.json'));
    const notes = j.d.notes.join('\n');
    expect(notes).toMatch(/record a reward strictly between 0 and 1 \(e\.g\. episode 0: 0\.9299999999999999\)/);
    expect(notes).toMatch(/none of the 4 recorded gt_data_hash values checked is reproduced/);
  });

  it("yiphei's modified data: named as unknown data, and the remaining disagreements explained", () => {
    const dir = join(SHARED_DIR, 'forks/yiphei-data/tau_bench/envs/airline/data');
    const texts = Object.fromEntries(DOMAIN_TABLES.airline.map((t) => [t, readFileSync(join(dir, `${t}.json`), 'utf8')]));
    const s = new InspectSession(fork('yiphei-neo-test-airline.json'));
    const db = buildDb('airline', texts);
    const h = s.hashOf(db).slice(0, 12);
    s.useData([{ commit: `unknown:${h}`, known: null, db, source: 'yiphei-data' }]);
    s.evaluateAll();
    const notes = s.detection().notes.join('\n');
    expect(notes).toMatch(/is not a τ-bench version tau-inspect knows/);
    expect(notes).toMatch(/episodes \([\d, ]+\) get another reward than recorded although their recorded reference hash is reproduced/);
  });
});
